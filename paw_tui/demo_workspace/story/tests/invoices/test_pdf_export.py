"""PDF export: amounts, escaping and a real PDF/A document."""

from __future__ import annotations

import datetime as dt

import pytest

from acme_billing.invoices.models import Invoice, InvoiceLine
from acme_billing.invoices.pdf_export import format_cents, render_html, render_pdf


@pytest.fixture
def invoice() -> Invoice:
    lines = tuple(InvoiceLine(f"Seat #{n} <annual>", 1, 1_500) for n in range(1, 41))
    return Invoice(
        "INV-2026-0412", "acct-7", "Globex & Sons GmbH", "EUR",
        dt.date(2026, 11, 20), dt.date(2026, 12, 20), lines=lines,
    )


@pytest.mark.parametrize(
    ("cents", "text"),
    [(0, "0.00 EUR"), (5, "0.05 EUR"), (123_456, "1,234.56 EUR"), (10, "0.10 EUR")],
)
def test_format_cents(cents: int, text: str) -> None:
    assert format_cents(cents, "EUR") == text


def test_html_escapes_customer_data(invoice: Invoice) -> None:
    html = render_html(invoice)
    assert "Globex &amp; Sons GmbH" in html
    assert "&lt;annual&gt;" in html


def test_two_page_invoice_renders(invoice: Invoice) -> None:
    pytest.importorskip("weasyprint")
    pdf = render_pdf(invoice)
    assert pdf.startswith(b"%PDF-")
    assert pdf.count(b"/Type /Page\n") >= 2 or b"/Count 2" in pdf
