"""HTTP routes of the invoices domain that are not plain JSON."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from acme_billing.invoices.pdf_export import PDF_MEDIA_TYPE
from acme_billing.invoices.service import InvoiceNotFound, invoice_pdf


def pdf_headers(number: str) -> dict[str, str]:
    # Inline, so browsers preview it; private, because it names a customer.
    return {
        "Content-Disposition": f'inline; filename="{number}.pdf"',
        "Cache-Control": "private, max-age=300",
    }


async def invoice_pdf_route(request: Request) -> Response:
    """GET /invoices/{invoice_id}.pdf"""
    number = request.path_params["invoice_id"]
    try:
        pdf = invoice_pdf(request.user.account_id, number)
    except InvoiceNotFound:
        return JSONResponse({"error": "not_found", "invoice": number}, status_code=404)
    return Response(pdf, media_type=PDF_MEDIA_TYPE, headers=pdf_headers(number))


routes = [
    Route("/invoices/{invoice_id}.pdf", invoice_pdf_route),
]
