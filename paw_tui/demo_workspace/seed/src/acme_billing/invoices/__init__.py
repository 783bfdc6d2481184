"""Invoices: issuing, listing and rendering."""
