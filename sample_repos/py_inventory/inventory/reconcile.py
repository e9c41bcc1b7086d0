"""Cycle-count reconciliation.

Counters walk the aisles with hand scanners and produce a count sheet: one
line per (bin, SKU) with the number of units they saw. This module compares
the sheet with the ledger, books small corrections automatically and writes
a plain-text report for the shift supervisor covering everything else.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Dict, Iterable, List, Optional, Tuple

from .ledger import InventoryLedger, UnknownSku
from .models import Sku, StockLocation
from .resilience import zone_for_aisle

log = logging.getLogger(__name__)


@dataclass
class CountLine:
    location_label: str
    sku_raw: str
    counted: int
    counter_id: str = ""


@dataclass
class ReconciliationReport:
    warehouse: str
    generated_at: datetime
    adjusted: List[Tuple[str, str, int]] = field(default_factory=list)
    escalated: List[Tuple[str, str, int, float]] = field(default_factory=list)
    recount: List[Tuple[str, str, List[int]]] = field(default_factory=list)
    rejected_lines: List[Tuple[int, str]] = field(default_factory=list)
    oversold: List[Tuple[str, int]] = field(default_factory=list)
    zone_accuracy: Dict[str, float] = field(default_factory=dict)
    text: str = ""


def parse_count_sheet(raw_lines: Iterable[str]) -> List[CountLine]:
    """Parse the scanner export: ``bin;sku;qty[;counter]`` per line.

    Blank lines and ``#`` comments are ignored. Lines that do not have at
    least three fields are passed through with ``counted=-1`` so that the
    reconciliation can report them with their line number instead of
    silently dropping them.
    """
    result: List[CountLine] = []
    for raw in raw_lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        if len(fields) < 3:
            result.append(CountLine(line, "", -1))
            continue
        try:
            qty = int(fields[2])
        except ValueError:
            qty = -1
        result.append(CountLine(fields[0], fields[1], qty, fields[3] if len(fields) > 3 else ""))
    return result


def reconcile_cycle_count(
    ledger: InventoryLedger,
    lines: List[CountLine],
    *,
    tolerance_pct: float = 2.0,
    auto_adjust_limit: int = 5,
    value_escalation: float = 250.0,
    treat_uncounted_as_zero: bool = True,
    dry_run: bool = False,
    operator: str = "cycle-count-bot",
    now: Optional[datetime] = None,
) -> ReconciliationReport:
    """Compare a count sheet with the ledger and settle the differences.

    Every (bin, SKU) pair ends up in exactly one bucket:

    * **match** - counted equals the ledger;
    * **tolerated** - the difference is within ``tolerance_pct`` of the
      expected quantity (at least one unit), nothing is booked;
    * **adjusted** - small differences (at most ``auto_adjust_limit`` units
      and below ``value_escalation`` in stock value) are booked directly;
    * **escalated** - everything else goes to the supervisor.

    Pairs counted twice with different results are not reconciled at all
    but put on the recount list. When ``treat_uncounted_as_zero`` is set, a
    SKU that the ledger places in a counted bin but that nobody scanned is
    assumed to be gone - counters are told to scan every product in a bin.

    With ``dry_run`` nothing is written to the ledger; the report shows
    what *would* have been booked.
    """
    now = now or datetime.utcnow()
    report = ReconciliationReport(warehouse=ledger.warehouse, generated_at=now)

    # -- 1. normalise the sheet -------------------------------------------
    observations: Dict[Tuple[StockLocation, str], List[int]] = defaultdict(list)
    counters_per_pair: Dict[Tuple[StockLocation, str], set] = defaultdict(set)
    unknown_skus: Counter = Counter()
    for line_no, line in enumerate(lines, start=1):
        if line.counted < 0:
            report.rejected_lines.append((line_no, f"unreadable quantity: {line.location_label}"))
            continue
        try:
            location = StockLocation.parse(line.location_label)
        except ValueError:
            report.rejected_lines.append((line_no, f"bad bin label {line.location_label!r}"))
            continue
        if location.warehouse != ledger.warehouse:
            report.rejected_lines.append(
                (line_no, f"bin {location.label} belongs to {location.warehouse}")
            )
            continue
        code = Sku.normalize_code(line.sku_raw)
        if code not in ledger:
            unknown_skus[code] += line.counted
            report.rejected_lines.append((line_no, f"unknown SKU {code}"))
            continue
        observations[(location, code)].append(line.counted)
        if line.counter_id:
            counters_per_pair[(location, code)].add(line.counter_id)

    # -- 2. double counts ----------------------------------------------------
    settled: Dict[Tuple[StockLocation, str], int] = {}
    for key, values in observations.items():
        distinct = set(values)
        if len(distinct) == 1:
            settled[key] = values[0]
        elif len(counters_per_pair.get(key, ())) <= 1 and len(values) == 2:
            # The same person scanned twice, typically one box on top of the
            # other; the scanner app sums them on newer firmware only.
            settled[key] = sum(values)
        else:
            report.recount.append((key[0].label, key[1], sorted(values)))

    # -- 3. bins in scope, uncounted SKUs ----------------------------------
    counted_bins = {loc for loc, _code in observations}
    if treat_uncounted_as_zero:
        for code in list(ledger._skus):
            for location, qty in ledger.locations_of(code):
                if location in counted_bins and (location, code) not in observations:
                    settled[(location, code)] = 0
                    log.debug("%s in %s expected %d, not scanned", code, location, qty)

    # -- 4. classify -------------------------------------------------------
    zone_lines: Counter = Counter()
    zone_hits: Counter = Counter()
    tolerated = 0
    matched = 0
    value_delta_total = 0.0
    pending_adjustments: List[Tuple[StockLocation, str, int, int]] = []
    for (location, code), counted in sorted(settled.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        expected = ledger.on_hand(code, location)
        delta = counted - expected
        zone = zone_for_aisle(location.warehouse, location.aisle)
        zone_lines[zone] += 1
        if delta == 0:
            matched += 1
            zone_hits[zone] += 1
            continue
        allowed = max(1, int(expected * tolerance_pct / 100))
        if abs(delta) <= allowed and expected > 0:
            tolerated += 1
            zone_hits[zone] += 1
            continue
        value = delta * ledger.sku(code).unit_cost
        value_delta_total += value
        if abs(delta) <= auto_adjust_limit and abs(value) < value_escalation:
            pending_adjustments.append((location, code, counted, delta))
        else:
            report.escalated.append((location.label, code, delta, round(value, 2)))

    # -- 5. book small corrections -----------------------------------------
    for location, code, counted, delta in pending_adjustments:
        if dry_run:
            report.adjusted.append((location.label, code, delta))
            continue
        try:
            booked = ledger.adjust(code, location, counted, reason=f"cycle count by {operator}")
        except PermissionError:
            # Threshold in the ledger is stricter than ours; let a human decide.
            value = delta * ledger.sku(code).unit_cost
            report.escalated.append((location.label, code, delta, round(value, 2)))
            continue
        except UnknownSku:
            report.rejected_lines.append((0, f"SKU {code} vanished during reconciliation"))
            continue
        report.adjusted.append((location.label, code, booked))

    # -- 6. reservations that no longer fit -------------------------------
    touched = {code for _loc, code, _delta in report.adjusted}
    for code in sorted(touched):
        free = ledger.available(code)
        if free < 0:
            report.oversold.append((code, -free))

    # -- 7. accuracy per zone ---------------------------------------------
    for zone, total in sorted(zone_lines.items()):
        report.zone_accuracy[zone] = round(100.0 * zone_hits[zone] / total, 1)
    total_lines = sum(zone_lines.values())
    overall = round(100.0 * (matched + tolerated) / total_lines, 1) if total_lines else 100.0

    # -- 8. render the text report ----------------------------------------
    out: List[str] = []
    title = f"Cycle count {ledger.warehouse} - {now:%Y-%m-%d %H:%M} UTC"
    out.append(title)
    out.append("=" * len(title))
    if dry_run:
        out.append("DRY RUN: no adjustments were booked.")
    out.append("")
    out.append(f"Pairs reconciled : {total_lines}")
    out.append(f"  exact matches  : {matched}")
    out.append(f"  within tol.    : {tolerated} (+/-{tolerance_pct:g} %)")
    out.append(f"  auto-adjusted  : {len(report.adjusted)}")
    out.append(f"  escalated      : {len(report.escalated)}")
    out.append(f"  recount needed : {len(report.recount)}")
    out.append(f"Location accuracy: {overall:.1f} %")
    out.append(f"Net value delta  : {value_delta_total:+.2f} EUR")
    out.append("")

    if report.zone_accuracy:
        out.append("Accuracy by zone")
        for zone, pct in report.zone_accuracy.items():
            bar = "#" * int(pct // 5)
            out.append(f"  {zone:<10} {pct:5.1f} % {bar}")
        out.append("")

    if report.escalated:
        out.append("Escalated (largest value first)")
        for label, code, delta, value in sorted(report.escalated, key=lambda e: -abs(e[3]))[:15]:
            out.append(f"  {label:<12} {code:<14} {delta:+6d}  {value:+10.2f} EUR")
        if len(report.escalated) > 15:
            out.append(f"  ... and {len(report.escalated) - 15} more")
        out.append("")

    if report.recount:
        out.append("Recount (counters disagree)")
        for label, code, values in report.recount:
            out.append(f"  {label:<12} {code:<14} seen: {', '.join(map(str, values))}")
        out.append("")

    if report.oversold:
        out.append("WARNING: reservations exceed stock after adjustment")
        for code, short in report.oversold:
            out.append(f"  {code}: short by {short} units - check open orders")
        out.append("")

    if unknown_skus:
        out.append("Scanned codes not in the catalogue")
        for code, units in unknown_skus.most_common():
            out.append(f"  {code:<14} {units} units")
        out.append("")

    if report.rejected_lines:
        out.append(f"Rejected sheet lines: {len(report.rejected_lines)}")
        for line_no, why in report.rejected_lines[:20]:
            prefix = f"line {line_no}" if line_no else "runtime"
            out.append(f"  {prefix}: {why}")

    report.text = "\n".join(out).rstrip() + "\n"
    log.info(
        "reconciled %d pairs in %s: %d adjusted, %d escalated",
        total_lines, ledger.warehouse, len(report.adjusted), len(report.escalated),
    )
    return report


def main(argv: Optional[List[str]] = None) -> int:
    """CLI entry point: reconcile a count sheet against a ledger snapshot.

    Exit code 0 when nothing needed escalation, 2 otherwise, so the nightly
    cron job can page the supervisor only when it matters.
    """
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshot", help="ledger snapshot JSON")
    parser.add_argument("catalogue", help="SKU catalogue JSON (list of objects)")
    parser.add_argument("sheet", help="scanner count sheet")
    parser.add_argument("--apply", action="store_true", help="book adjustments")
    parser.add_argument("--tolerance", type=float, default=2.0)
    args = parser.parse_args(argv)

    with open(args.catalogue, encoding="utf-8") as fh:
        catalogue = [Sku(**item) for item in json.load(fh)]
    with open(args.snapshot, encoding="utf-8") as fh:
        ledger = InventoryLedger.restore(json.load(fh), catalogue)
    with open(args.sheet, encoding="utf-8") as fh:
        lines = parse_count_sheet(fh)

    report = reconcile_cycle_count(
        ledger, lines, tolerance_pct=args.tolerance, dry_run=not args.apply
    )
    print(report.text, end="")
    return 2 if report.escalated else 0
