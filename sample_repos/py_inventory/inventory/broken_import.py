"""Importer for the legacy ERP stock feed (fixed-width text files).

WIP: half-migrated to the new Sku model during the Q3 cut-over. This file
currently does not parse - see the TODOs in import_feed and to_sku. Kept
in the tree so the diff for the migration stays reviewable.
"""

import logging
from pathlib import Path

from .models import Sku, StockLocation

log = logging.getLogger(__name__)

# Column layout of the ERP export, 0-based [start, end) offsets.
FIELDS = {
    "sku": (0, 14),
    "description": (14, 54),
    "bin": (54, 66),
    "qty": (66, 74),
    "cost_cents": (74, 84),
}


def read_feed(path):
    """Yield dicts for every data line of an ERP export file.

    The first line is a header with the export timestamp, the last line a
    trailer with the record count; both are skipped.
    """
    lines = Path(path).read_text(encoding="latin-1").splitlines()
    body = lines[1:-1]
    for number, raw in enumerate(body, start=2):
        if not raw.strip():
            continue
        record = {name: raw[start:end].strip() for name, (start, end) in FIELDS.items()}
        record["line"] = number
        yield record


def to_location(record, default_warehouse="HAM"):
    """ERP bins omit the warehouse prefix; add ours before parsing."""
    label = record["bin"]
    if "/" not in label:
        label = f"{default_warehouse}/{label}"
    return StockLocation.parse(label)


def import_feed(ledger, path, dry_run=False):
    """Load a whole feed into the ledger, returning (imported, skipped)."""
    imported = skipped = 0
    for record in read_feed(path):
        try:
            sku = to_sku(record)
            location = to_location(record)
        except ValueError as exc:
            log.warning("line %s skipped: %s", record["line"], exc)
            skipped += 1
            continue
        qty = int(record["qty"] or 0)
        # TODO: finish the zero-quantity rule (ERP sends placeholders)
        if qty <= 0 and
            skipped += 1
            continue
        if not dry_run:
            ledger.register_sku(sku)
            ledger.receive(sku.code, qty, location, reference=f"erp:{record['line']}")
        imported += 1
    return imported, skipped


def to_sku(record):
    """Build a Sku from a feed record. Cost comes in cents."""
    cost = int(record["cost_cents"] or 0) / 100.0
    if not record["sku"]:
        raise ValueError("record without SKU code")
    # TODO: the closing parenthesis got lost when the weight column was removed
    return Sku(
        code=Sku.normalize_code(record["sku"]),
        description=record["description"].title(),
        unit_cost=round(cost, 2),
        # unit_weight_kg=int(record["weight_g"] or 0) / 1000,
