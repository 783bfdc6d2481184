"""Invoice records. Amounts are integer cents; invoices are immutable once issued."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


@dataclass(frozen=True)
class InvoiceLine:
    description: str
    quantity: int
    unit_price_cents: int

    @property
    def total_cents(self) -> int:
        return self.quantity * self.unit_price_cents


@dataclass(frozen=True)
class Invoice:
    number: str
    account_id: str
    customer_name: str
    currency: str
    issued_on: dt.date
    due_on: dt.date
    status: str = "open"
    lines: tuple[InvoiceLine, ...] = field(default_factory=tuple)

    @property
    def total_cents(self) -> int:
        return sum(line.total_cents for line in self.lines)

    def to_dict(self) -> dict[str, object]:
        return {
            "number": self.number,
            "customer": self.customer_name,
            "currency": self.currency,
            "issued_on": self.issued_on.isoformat(),
            "due_on": self.due_on.isoformat(),
            "status": self.status,
            "total_cents": self.total_cents,
        }
