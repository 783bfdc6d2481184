"""GET /invoices/{id}.pdf through a small app."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials, SimpleUser
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.testclient import TestClient

from acme_billing.invoices import routes
from acme_billing.invoices.service import InvoiceNotFound


class PartnerUser(SimpleUser):
    account_id = "acct-7"


class FakeBackend:
    async def authenticate(self, conn):  # type: ignore[no-untyped-def]
        return AuthCredentials(["invoices:read"]), PartnerUser("user-42")


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> TestClient:
    def fake_pdf(account_id: str, number: str) -> bytes:
        if number != "INV-2026-0412":
            raise InvoiceNotFound(number)
        return b"%PDF-1.7 fake"

    monkeypatch.setattr(routes, "invoice_pdf", fake_pdf)
    auth = Middleware(AuthenticationMiddleware, backend=FakeBackend())
    return TestClient(Starlette(routes=routes.routes, middleware=[auth]))


def test_pdf_is_served_inline(client: TestClient) -> None:
    response = client.get("/invoices/INV-2026-0412.pdf")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert 'filename="INV-2026-0412.pdf"' in response.headers["content-disposition"]


def test_unknown_invoice_is_404(client: TestClient) -> None:
    assert client.get("/invoices/INV-0000.pdf").status_code == 404
