"""Domain objects shared by the ledger, the reconciliation job and the API.

Everything in here is deliberately free of I/O so it can be imported by the
CLI tools without pulling in the database driver.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import List, Optional

_SKU_PATTERN = re.compile(r"^[A-Z]{3}-\d{4,6}(-[A-Z0-9]{1,3})?$")
_LOCATION_PATTERN = re.compile(r"^(?P<wh>[A-Z]{2,4})/(?P<aisle>\d{1,2})-(?P<bin>[A-Z]\d{2})$")


class MovementKind(enum.Enum):
    """Why a quantity changed. Stored as the string value in the journal."""

    RECEIPT = "receipt"
    RESERVE = "reserve"
    RELEASE = "release"
    PICK = "pick"
    TRANSFER_OUT = "transfer_out"
    TRANSFER_IN = "transfer_in"
    ADJUSTMENT = "adjustment"

    @property
    def changes_on_hand(self) -> bool:
        # Reservations only move units between "available" and "reserved";
        # the physical count in the bin stays the same.
        return self not in (MovementKind.RESERVE, MovementKind.RELEASE)


@dataclass(frozen=True)
class Sku:
    """A stock keeping unit as the catalogue team defines it.

    Codes look like ``BOL-00412`` or ``BOL-00412-XL`` (the optional suffix is
    the variant). Weight is per single unit, packaging included.
    """

    code: str
    description: str
    unit_weight_kg: float = 0.0
    unit_cost: float = 0.0
    hazardous: bool = False

    def __post_init__(self) -> None:
        if not _SKU_PATTERN.match(self.code):
            raise ValueError(f"malformed SKU code: {self.code!r}")
        if self.unit_weight_kg < 0 or self.unit_cost < 0:
            raise ValueError("weight and cost must be non-negative")

    @property
    def family(self) -> str:
        """The three-letter product family, e.g. ``BOL`` for bolts."""
        return self.code.split("-", 1)[0]

    @property
    def variant(self) -> Optional[str]:
        parts = self.code.split("-")
        return parts[2] if len(parts) == 3 else None

    @staticmethod
    def normalize_code(raw: str) -> str:
        """Turn what people type on a scanner keyboard into a canonical code.

        Operators tend to type ``bol 412`` or ``BOL_412``; we upper-case,
        unify the separator and left-pad the numeric part to five digits.
        """
        cleaned = re.sub(r"[\s_]+", "-", raw.strip().upper())
        parts = cleaned.split("-")
        if len(parts) >= 2 and parts[1].isdigit():
            parts[1] = parts[1].zfill(5)
        return "-".join(p for p in parts if p)


@dataclass(frozen=True, order=True)
class StockLocation:
    """A physical bin: warehouse code, aisle number and shelf position."""

    warehouse: str
    aisle: int
    bin: str

    @property
    def label(self) -> str:
        return f"{self.warehouse}/{self.aisle:02d}-{self.bin}"

    @classmethod
    def parse(cls, text: str) -> "StockLocation":
        """Parse a printed bin label such as ``HAM/07-C12``."""
        match = _LOCATION_PATTERN.match(text.strip().upper())
        if match is None:
            raise ValueError(f"not a bin label: {text!r}")
        return cls(match["wh"], int(match["aisle"]), match["bin"])

    def __str__(self) -> str:
        return self.label


@dataclass
class Reservation:
    """Units promised to an order but not yet picked.

    A reservation that is not committed within ``ttl`` is considered stale;
    the ledger's housekeeping task gives the units back to available stock.
    """

    order_id: str
    sku_code: str
    quantity: int
    created_at: datetime = field(default_factory=datetime.utcnow)
    ttl: timedelta = timedelta(minutes=30)

    @property
    def expires_at(self) -> datetime:
        return self.created_at + self.ttl

    def is_expired(self, now: Optional[datetime] = None) -> bool:
        return (now or datetime.utcnow()) >= self.expires_at


@dataclass
class Movement:
    """One line of the stock journal. Quantities are signed."""

    kind: MovementKind
    sku_code: str
    quantity: int
    location: Optional[StockLocation] = None
    reference: str = ""
    at: datetime = field(default_factory=datetime.utcnow)


class Shipment:
    """An outbound shipment made of one or more parcels.

    Carriers bill by parcel, so the packing station needs to know how the
    picked units were split across boxes.
    """

    MAX_PARCEL_KG = 31.5  # hard limit of our parcel carrier

    class Parcel:
        """A single box. Keeps (sku, quantity, unit weight) triples."""

        def __init__(self, tare_kg: float = 0.4) -> None:
            self.tare_kg = tare_kg
            self.lines: List[tuple] = []

        def add(self, sku: Sku, quantity: int) -> None:
            self.lines.append((sku.code, quantity, sku.unit_weight_kg))

        def gross_weight(self) -> float:
            """Weight of the contents plus the empty box."""
            contents = sum(qty * unit_kg for _code, qty, unit_kg in self.lines)
            return round(contents + self.tare_kg, 3)

    def __init__(self, order_id: str, carrier: str = "DHL") -> None:
        self.order_id = order_id
        self.carrier = carrier
        self.parcels: List[Shipment.Parcel] = []

    def add_parcel(self) -> "Shipment.Parcel":
        parcel = Shipment.Parcel()
        self.parcels.append(parcel)
        return parcel

    def overweight_parcels(self) -> List[int]:
        """Indexes of parcels the carrier would refuse at pickup."""
        return [
            idx
            for idx, parcel in enumerate(self.parcels)
            if parcel.gross_weight() > self.MAX_PARCEL_KG
        ]

    def total_weight(self) -> float:
        return round(sum(p.gross_weight() for p in self.parcels), 3)
