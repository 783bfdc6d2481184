"""acme-billing: invoices, payments and the partner API."""

__version__ = "3.14.0"
