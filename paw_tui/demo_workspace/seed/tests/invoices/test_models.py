from __future__ import annotations

import datetime as dt

from acme_billing.invoices.models import Invoice, InvoiceLine


def test_total_is_the_sum_of_lines() -> None:
    invoice = Invoice(
        "INV-2026-0001", "acct-7", "Globex GmbH", "EUR",
        dt.date(2026, 11, 1), dt.date(2026, 12, 1),
        lines=(InvoiceLine("Platform fee", 1, 49_900), InvoiceLine("Seats", 12, 1_500)),
    )
    assert invoice.total_cents == 67_900
