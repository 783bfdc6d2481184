"""Invoices as PDF/A-3b documents, rendered server-side from an HTML template."""

from __future__ import annotations

from decimal import Decimal
from html import escape
from importlib import resources
from string import Template

from acme_billing.invoices.fonts import font_face_css
from acme_billing.invoices.models import Invoice

PDF_MEDIA_TYPE = "application/pdf"
PDF_VARIANT = "pdf/a-3b"


def format_cents(cents: int, currency: str) -> str:
    """1234 EUR -> "12.34 EUR": amounts are integer cents everywhere else."""
    amount = (Decimal(cents) / 100).quantize(Decimal("0.01"))
    return f"{amount:,} {currency}"


def line_rows(invoice: Invoice) -> str:
    rows = []
    for line in invoice.lines:
        rows.append(
            "<tr>"
            f"<td>{escape(line.description)}</td>"
            f"<td class=num>{line.quantity}</td>"
            f"<td class=num>{format_cents(line.unit_price_cents, invoice.currency)}</td>"
            f"<td class=num>{format_cents(line.total_cents, invoice.currency)}</td>"
            "</tr>"
        )
    return "\n".join(rows)


def render_html(invoice: Invoice) -> str:
    source = resources.files("acme_billing.invoices").joinpath("templates/invoice.html")
    return Template(source.read_text("utf-8")).substitute(
        fonts=font_face_css(),
        number=escape(invoice.number),
        customer=escape(invoice.customer_name),
        issued=invoice.issued_on.isoformat(),
        due=invoice.due_on.isoformat(),
        rows=line_rows(invoice),
        total=format_cents(invoice.total_cents, invoice.currency),
    )


def render_pdf(invoice: Invoice) -> bytes:
    """The invoice as PDF bytes (WeasyPrint is imported here: it takes a second to import)."""
    from weasyprint import HTML

    return HTML(string=render_html(invoice)).write_pdf(pdf_variant=PDF_VARIANT)
