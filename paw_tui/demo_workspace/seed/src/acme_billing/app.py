"""The ASGI application: routes, middleware and start-up."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from acme_billing.auth.middleware import BasicAuthMiddleware
from acme_billing.config import settings
from acme_billing.invoices.service import get_invoice, list_invoices


async def health(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def invoices_index(request: Request) -> JSONResponse:
    invoices = list_invoices(request.user.account_id)
    return JSONResponse([invoice.to_dict() for invoice in invoices])


async def invoice_detail(request: Request) -> JSONResponse:
    invoice = get_invoice(request.user.account_id, request.path_params["invoice_id"])
    return JSONResponse(invoice.to_dict())


routes = [
    Route("/health", health),
    Route("/invoices", invoices_index),
    Route("/invoices/{invoice_id}", invoice_detail),
]

middleware = [
    Middleware(BasicAuthMiddleware, realm=settings.auth_realm),
]

app = Starlette(debug=settings.debug, routes=routes, middleware=middleware)
