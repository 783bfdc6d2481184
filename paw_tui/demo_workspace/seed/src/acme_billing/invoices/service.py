"""Reading invoices for an account."""

from __future__ import annotations

from acme_billing.invoices.models import Invoice
from acme_billing.invoices.repository import load_invoice, load_invoices


class InvoiceNotFound(LookupError):
    pass


def list_invoices(account_id: str) -> list[Invoice]:
    return load_invoices(account_id)


def get_invoice(account_id: str, number: str) -> Invoice:
    invoice = load_invoice(account_id, number)
    if invoice is None:
        raise InvoiceNotFound(number)
    return invoice
