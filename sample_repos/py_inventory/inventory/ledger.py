"""In-memory stock ledger.

The ledger is the single writer for stock levels inside one warehouse
process. Persistence happens elsewhere: the service periodically calls
:meth:`InventoryLedger.snapshot` and writes the result to Postgres, and
replays the journal after a crash.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Dict, Iterable, List, Optional, Tuple

from .models import Movement, MovementKind, Reservation, Sku, StockLocation
from .resilience import zone_for_aisle

log = logging.getLogger(__name__)


class InsufficientStock(Exception):
    def __init__(self, sku_code: str, requested: int, available: int) -> None:
        super().__init__(
            f"{sku_code}: requested {requested}, only {available} available"
        )
        self.sku_code = sku_code
        self.requested = requested
        self.available = available


class UnknownSku(KeyError):
    pass


class InventoryLedger:
    """Tracks on-hand quantities per SKU and bin, plus open reservations.

    Quantities live in ``self._stock[sku_code][location]``. Reservations do
    not touch bins; they only reduce what :meth:`available` reports until
    they are committed (picked) or released. Every change is appended to an
    in-memory journal so that reports and audits can explain a number.

    The class is thread-safe for the operations the HTTP handlers use; a
    single re-entrant lock guards all mutable state. It is *not* meant to
    be shared across processes.

    Class-level settings can be overridden per site by subclassing, which
    is what the Hamburg cold-storage deployment does.
    """

    #: how long an unconfirmed reservation blocks stock
    DEFAULT_RESERVATION_TTL = timedelta(minutes=30)
    #: warn when available stock falls under this share of the reorder point
    LOW_STOCK_RATIO = 1.0
    #: adjustments larger than this (absolute units) need a supervisor id
    ADJUSTMENT_APPROVAL_THRESHOLD = 50
    #: journal entries kept in memory before the oldest are dropped
    JOURNAL_LIMIT = 100_000

    def __init__(self, warehouse: str, *, clock=datetime.utcnow) -> None:
        self.warehouse = warehouse
        self._clock = clock
        self._lock = threading.RLock()
        self._skus: Dict[str, Sku] = {}
        self._stock: Dict[str, Dict[StockLocation, int]] = defaultdict(dict)
        self._reservations: Dict[str, List[Reservation]] = defaultdict(list)
        self._reorder_points: Dict[str, int] = {}
        self._journal: List[Movement] = []

    # ------------------------------------------------------------------
    # catalogue
    # ------------------------------------------------------------------

    def register_sku(self, sku: Sku, reorder_point: int = 0) -> None:
        """Make a SKU known to the ledger. Re-registering updates metadata."""
        with self._lock:
            previous = self._skus.get(sku.code)
            if previous and previous.unit_cost != sku.unit_cost:
                log.info(
                    "unit cost of %s changed %.2f -> %.2f",
                    sku.code, previous.unit_cost, sku.unit_cost,
                )
            self._skus[sku.code] = sku
            if reorder_point:
                self._reorder_points[sku.code] = reorder_point

    def sku(self, code: str) -> Sku:
        try:
            return self._skus[code]
        except KeyError:
            raise UnknownSku(code) from None

    def set_reorder_point(self, sku_code: str, units: int) -> None:
        """Set the level at which purchasing wants to hear about a SKU."""
        if units < 0:
            raise ValueError("reorder point cannot be negative")
        self.sku(sku_code)  # validates
        with self._lock:
            self._reorder_points[sku_code] = units

    # ------------------------------------------------------------------
    # queries
    # ------------------------------------------------------------------

    def on_hand(self, sku_code: str, location: Optional[StockLocation] = None) -> int:
        """Physical units in the building, optionally in one bin only."""
        bins = self._stock.get(sku_code, {})
        if location is not None:
            return bins.get(location, 0)
        return sum(bins.values())

    def reserved(self, sku_code: str) -> int:
        return sum(r.quantity for r in self._reservations.get(sku_code, ()))

    def available(self, sku_code: str) -> int:
        """Units that can still be promised to a new order."""
        with self._lock:
            return self.on_hand(sku_code) - self.reserved(sku_code)

    @property
    def reserved_units(self) -> int:
        """Total reserved units over all SKUs (shown on the dashboard)."""
        return sum(
            r.quantity for group in self._reservations.values() for r in group
        )

    def locations_of(self, sku_code: str) -> List[Tuple[StockLocation, int]]:
        """Non-empty bins holding the SKU, sorted by label."""
        bins = self._stock.get(sku_code, {})
        return sorted(((loc, qty) for loc, qty in bins.items() if qty > 0))

    def __contains__(self, sku_code: object) -> bool:
        return sku_code in self._skus

    def __len__(self) -> int:
        return len(self._skus)

    # ------------------------------------------------------------------
    # inbound
    # ------------------------------------------------------------------

    def receive(
        self,
        sku_code: str,
        quantity: int,
        location: StockLocation,
        reference: str = "",
        unit_cost: Optional[float] = None,
    ) -> int:
        """Book goods from a supplier delivery into a bin.

        If ``unit_cost`` is given the SKU's cost is updated with a moving
        weighted average over what is already on hand. Returns the new
        on-hand quantity of the bin.
        """
        if quantity <= 0:
            raise ValueError("received quantity must be positive")
        sku = self.sku(sku_code)
        with self._lock:
            if unit_cost is not None:
                existing = self.on_hand(sku_code)
                total_value = existing * sku.unit_cost + quantity * unit_cost
                new_cost = round(total_value / (existing + quantity), 4)
                self._skus[sku_code] = Sku(
                    sku.code, sku.description, sku.unit_weight_kg, new_cost, sku.hazardous
                )
            bins = self._stock[sku_code]
            bins[location] = bins.get(location, 0) + quantity
            self._record(MovementKind.RECEIPT, sku_code, quantity, location, reference)
            return bins[location]

    # ------------------------------------------------------------------
    # reservations
    # ------------------------------------------------------------------

    def reserve(
        self, order_id: str, sku_code: str, quantity: int, ttl: Optional[timedelta] = None
    ) -> Reservation:
        """Hold ``quantity`` units for an order.

        Raises :class:`InsufficientStock` when fewer units are available.
        A second reservation for the same order and SKU is merged into the
        first one and its expiry is refreshed.
        """
        if quantity <= 0:
            raise ValueError("reservation quantity must be positive")
        self.sku(sku_code)
        with self._lock:
            free = self.available(sku_code)
            if quantity > free:
                raise InsufficientStock(sku_code, quantity, free)
            for existing in self._reservations[sku_code]:
                if existing.order_id == order_id:
                    existing.quantity += quantity
                    existing.created_at = self._clock()
                    self._record(MovementKind.RESERVE, sku_code, quantity, None, order_id)
                    return existing
            reservation = Reservation(
                order_id=order_id,
                sku_code=sku_code,
                quantity=quantity,
                created_at=self._clock(),
                ttl=ttl or self.DEFAULT_RESERVATION_TTL,
            )
            self._reservations[sku_code].append(reservation)
            self._record(MovementKind.RESERVE, sku_code, quantity, None, order_id)
            return reservation

    def release(self, order_id: str, sku_code: Optional[str] = None) -> int:
        """Drop an order's reservations (all SKUs, or just one).

        Returns the number of units that became available again.
        """
        freed = 0
        with self._lock:
            codes = [sku_code] if sku_code else list(self._reservations)
            for code in codes:
                keep = []
                for res in self._reservations.get(code, []):
                    if res.order_id == order_id:
                        freed += res.quantity
                        self._record(MovementKind.RELEASE, code, -res.quantity, None, order_id)
                    else:
                        keep.append(res)
                self._reservations[code] = keep
        return freed

    def release_expired(self) -> Dict[str, int]:
        """Give stock held by stale reservations back to available stock.

        Called by the housekeeping loop every minute. Returns freed units per
        SKU so the caller can log something meaningful.
        """
        now = self._clock()
        freed: Dict[str, int] = {}
        with self._lock:
            for code, group in self._reservations.items():
                alive = [r for r in group if not r.is_expired(now)]
                for stale in (r for r in group if r.is_expired(now)):
                    freed[code] = freed.get(code, 0) + stale.quantity
                    self._record(
                        MovementKind.RELEASE, code, -stale.quantity, None,
                        f"expired:{stale.order_id}",
                    )
                self._reservations[code] = alive
        if freed:
            log.info("released %d expired reservation units", sum(freed.values()))
        return freed

    # ------------------------------------------------------------------
    # outbound / internal moves
    # ------------------------------------------------------------------

    def commit(self, order_id: str, sku_code: str) -> List[Tuple[StockLocation, int]]:
        """Turn a reservation into a pick list and take units out of bins.

        Returns the (bin, quantity) pairs the picker has to visit.
        """
        with self._lock:
            group = self._reservations.get(sku_code, [])
            match = next((r for r in group if r.order_id == order_id), None)
            if match is None:
                raise KeyError(f"no reservation of {sku_code} for order {order_id}")
            picks = self._pick_plan(sku_code, match.quantity)
            for location, qty in picks:
                self._stock[sku_code][location] -= qty
                self._record(MovementKind.PICK, sku_code, -qty, location, order_id)
            group.remove(match)
            return picks

    def _pick_plan(self, sku_code: str, quantity: int) -> List[Tuple[StockLocation, int]]:
        """Choose bins to pick from.

        Prefer the fast-mover zone, then empty the smallest bins first so
        that locations free up for put-away.
        """
        def priority(item: Tuple[StockLocation, int]) -> Tuple[int, int, str]:
            loc, qty = item
            zone_rank = 0 if zone_for_aisle(loc.warehouse, loc.aisle) == "fast" else 1
            return (zone_rank, qty, loc.label)

        remaining = quantity
        plan: List[Tuple[StockLocation, int]] = []
        for location, qty in sorted(self.locations_of(sku_code), key=priority):
            take = min(qty, remaining)
            plan.append((location, take))
            remaining -= take
            if remaining == 0:
                return plan
        # Reservation said the units exist, the bins disagree: data problem.
        raise InsufficientStock(sku_code, quantity, quantity - remaining)

    def transfer(
        self, sku_code: str, quantity: int, source: StockLocation, target: StockLocation
    ) -> None:
        """Move units between two bins (replenishment, consolidation)."""
        if source == target:
            return
        with self._lock:
            in_source = self.on_hand(sku_code, source)
            if quantity > in_source:
                raise InsufficientStock(sku_code, quantity, in_source)
            bins = self._stock[sku_code]
            bins[source] = in_source - quantity
            bins[target] = bins.get(target, 0) + quantity
            ref = f"{source.label}->{target.label}"
            self._record(MovementKind.TRANSFER_OUT, sku_code, -quantity, source, ref)
            self._record(MovementKind.TRANSFER_IN, sku_code, quantity, target, ref)

    def adjust(
        self,
        sku_code: str,
        location: StockLocation,
        counted: int,
        reason: str,
        approved_by: Optional[str] = None,
    ) -> int:
        """Overwrite a bin's quantity with a physical count.

        Large corrections need a supervisor: anything whose absolute delta
        exceeds :attr:`ADJUSTMENT_APPROVAL_THRESHOLD` is rejected without
        ``approved_by``. Returns the signed delta that was booked.
        """
        if counted < 0:
            raise ValueError("a counted quantity cannot be negative")
        with self._lock:
            before = self.on_hand(sku_code, location)
            delta = counted - before
            if abs(delta) > self.ADJUSTMENT_APPROVAL_THRESHOLD and not approved_by:
                raise PermissionError(
                    f"adjustment of {delta:+d} on {location} needs approval"
                )
            if delta:
                self._stock[sku_code][location] = counted
                note = f"{reason} (approved by {approved_by})" if approved_by else reason
                self._record(MovementKind.ADJUSTMENT, sku_code, delta, location, note)
            return delta

    # ------------------------------------------------------------------
    # reporting
    # ------------------------------------------------------------------

    def low_stock(self) -> List[Tuple[str, int, int]]:
        """SKUs whose available quantity fell below their reorder point.

        Returns (sku, available, reorder point) sorted by urgency, i.e. the
        biggest relative shortfall first.
        """
        rows = []
        for code, point in self._reorder_points.items():
            free = self.available(code)
            if free < point * self.LOW_STOCK_RATIO:
                rows.append((code, free, point))
        rows.sort(key=lambda row: row[1] / row[2] if row[2] else 0)
        return rows

    def valuation(self) -> Dict[str, float]:
        """Stock value per product family at current unit cost."""
        totals: Dict[str, float] = defaultdict(float)
        for code, sku in self._skus.items():
            totals[sku.family] += self.on_hand(code) * sku.unit_cost
        return {family: round(value, 2) for family, value in sorted(totals.items())}

    def total_weight_kg(self, sku_codes: Optional[Iterable[str]] = None) -> float:
        """Weight of everything on hand (floor-load checks for the mezzanine)."""
        codes = sku_codes if sku_codes is not None else self._skus.keys()
        return round(
            sum(self.on_hand(c) * self._skus[c].unit_weight_kg for c in codes), 3
        )

    def history(
        self,
        sku_code: Optional[str] = None,
        kinds: Optional[Iterable[MovementKind]] = None,
        since: Optional[datetime] = None,
    ) -> List[Movement]:
        """Journal entries filtered by SKU, movement kind and start time."""
        wanted = set(kinds) if kinds else None
        return [
            m
            for m in self._journal
            if (sku_code is None or m.sku_code == sku_code)
            and (wanted is None or m.kind in wanted)
            and (since is None or m.at >= since)
        ]

    # ------------------------------------------------------------------
    # persistence
    # ------------------------------------------------------------------

    def snapshot(self) -> dict:
        """A JSON-serialisable picture of the stock and open reservations."""
        with self._lock:
            return {
                "warehouse": self.warehouse,
                "taken_at": self._clock().isoformat(),
                "stock": {
                    code: {loc.label: qty for loc, qty in bins.items() if qty}
                    for code, bins in self._stock.items()
                },
                "reservations": [
                    {
                        "order": r.order_id,
                        "sku": r.sku_code,
                        "qty": r.quantity,
                        "created": r.created_at.isoformat(),
                        "ttl_s": int(r.ttl.total_seconds()),
                    }
                    for group in self._reservations.values()
                    for r in group
                ],
            }

    @classmethod
    def restore(cls, data: dict, catalogue: Iterable[Sku]) -> "InventoryLedger":
        """Rebuild a ledger from :meth:`snapshot` output and the SKU catalogue.

        The journal is not part of the snapshot; the restored ledger starts
        with an empty one.
        """
        ledger = cls(data["warehouse"])
        for sku in catalogue:
            ledger.register_sku(sku)
        for code, bins in data.get("stock", {}).items():
            for label, qty in bins.items():
                ledger._stock[code][StockLocation.parse(label)] = int(qty)
        for raw in data.get("reservations", []):
            ledger._reservations[raw["sku"]].append(
                Reservation(
                    order_id=raw["order"],
                    sku_code=raw["sku"],
                    quantity=int(raw["qty"]),
                    created_at=datetime.fromisoformat(raw["created"]),
                    ttl=timedelta(seconds=raw.get("ttl_s", 1800)),
                )
            )
        return ledger

    def _record(
        self,
        kind: MovementKind,
        sku_code: str,
        quantity: int,
        location: Optional[StockLocation],
        reference: str,
    ) -> None:
        """Append to the journal, trimming the oldest tenth when it is full."""
        self._journal.append(
            Movement(kind, sku_code, quantity, location, reference, self._clock())
        )
        if len(self._journal) > self.JOURNAL_LIMIT:
            drop = self.JOURNAL_LIMIT // 10
            log.debug("journal full, dropping %d oldest entries", drop)
            del self._journal[:drop]
