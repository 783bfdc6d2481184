#!/usr/bin/env python3
"""Generate the bundled demo workspace, ``paw_tui/demo_workspace/``.

The demo is a fictional "acme-billing" service after one working day (2026-11-20, 09:00 to
17:30 UTC) with agents governed by paw-tui. Its history is not hand-written: the script
builds a temporary workspace, then drives the real gate (``paw_tui.gate.main.decide_payload``)
with Claude Code hook payloads (and one generic-protocol client) and the real handshake API
for the human side (approvals, status changes, a released session). Every tool call that is
allowed is then carried out on disk before its PostToolUse, so each ``mutation`` record holds
the hash of a file that really exists in the bundle.

The clock is fake and the randomness seeded, so two runs give identical bytes: ``--out DIR``
writes elsewhere (the determinism test uses it). The output directory is wiped first.

Setuptools skips dot-directories in package data, so the bundle stores ``.orchestration`` as
``orchestration/``, ``.paw`` as ``paw/`` and the user layer as ``home/paw/instructions/``;
``paw_tui.core.workspace.demo.copy_demo_workspace`` restores the names.

Usage: python scripts/make_demo_workspace.py [--out DIR]
"""

from __future__ import annotations

import argparse
import calendar
import collections
import contextlib
import hashlib
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Run against this checkout's code, installed or not: the demo must show what this tree does.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from paw_tui.core.handshake import approvals as approvals_store
from paw_tui.core.handshake import selection as handshake
from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify as verify_ledger
from paw_tui.core.workspace.state import WorkspaceState
from paw_tui.gate.main import decide_payload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from paw_tui.gate.events import Answer

DEFAULT_OUT = REPO / "paw_tui" / "demo_workspace"
DAY = (2026, 11, 20)
SEED = 20261120
# Real path (relative to the workspace root, or to the home for "home/...") -> the bundle
# name of its last part; paw_tui.core.workspace.demo.RESTORED_NAMES maps them back on copy.
BUNDLE_NAMES = {
    ".orchestration": "orchestration",
    ".orchestration/.gitignore": "gitignore",
    ".paw": "paw",
    "home/.paw": "paw",
}
SKIPPED = {".cache", "__pycache__"}

# ---------------------------------------------------------------------------------------------
# Workspace content: governance files, instructions, work items and the fictional repository.
# ---------------------------------------------------------------------------------------------

ACTIVE_INTENTS = r"""# acme-billing: the work agents may take on. Human-owned: agents can never write this file.
# Select one with select_active_intent before changing anything; `paw-tui intents list`.
active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: PENDING
    description: >-
      Move the partner API from HTTP Basic Auth to short-lived JWT bearer tokens signed
      with rotating RSA keys. Basic Auth keeps working behind ACME_LEGACY_AUTH until the
      last partner has migrated.
    owned_scope:
      - "src/acme_billing/auth/**"
      - "tests/auth/**"
      - "!src/acme_billing/auth/legacy/**"
      - "docs/auth.md"
    constraints:
      - "Must not use external auth providers"
      - "Access tokens expire within 15 minutes"
      - "Never log a token or a key"
    acceptance_criteria:
      - "Unit tests in tests/auth/ pass"
      - "Expired, tampered and unknown-key tokens are refused with 401"
      - "docs/auth.md describes key rotation"
    related_specs:
      - "docs/auth.md"
      - "docs/adr/0007-jwt-auth.md"
    depends_on: []

  - id: INT-002
    name: Invoice PDF Export
    status: PENDING
    description: >-
      Render invoices as PDF/A-3 documents server-side so finance can stop exporting them
      by hand from the back office.
    owned_scope:
      - "src/acme_billing/invoices/**"
      - "tests/invoices/**"
      - "!src/acme_billing/invoices/models.py"
    constraints:
      - "Render server-side; no headless browser"
      - "PDF/A-3b, so e-invoices can embed their XML later"
      - "Amounts are integer cents; format them with Decimal, never float"
    acceptance_criteria:
      - "GET /invoices/{id}.pdf returns a PDF for open and paid invoices"
      - "A golden-file test covers a two-page invoice"
    related_specs:
      - "docs/invoices.md"
    depends_on: []

  - id: INT-003
    name: API Rate Limiting
    status: PENDING
    description: >-
      Per-API-key token buckets in Redis so one partner's batch job cannot starve the
      others.
    owned_scope:
      - "src/acme_billing/ratelimit/**"
      - "tests/ratelimit/**"
      - "src/acme_billing/app.py"
    constraints:
      - "No new infrastructure: use the existing Redis"
      - "Limits come from config and reload without a restart"
    acceptance_criteria:
      - "A key over its limit gets 429 with a Retry-After header"
      - "/health is never limited"
    related_specs:
      - "docs/rate-limits.md"
    depends_on: []

  - id: INT-004
    name: Legacy SOAP Gateway Cleanup
    status: IN_PROGRESS
    description: >-
      Remove the SOAP gateway code that no partner has called in 90 days, starting with
      the WSDL cache.
    owned_scope:
      - "src/acme_billing/soap/**"
      - "tests/soap/**"
    constraints:
      - "Remove only code with no callers in the last 90 days of access logs"
    acceptance_criteria:
      - "No import of acme_billing.soap.wsdl_cache remains"
      - "CI is green"
    related_specs: []
    depends_on: []

  - id: INT-005
    name: Structured Request Logging
    status: PENDING
    description: >-
      One JSON log line per request (method, path, status, duration, request id) so the
      log pipeline can stop parsing free text.
    owned_scope:
      - "src/acme_billing/observability/**"
      - "src/acme_billing/middleware/**"
      - "tests/observability/**"
      - "src/acme_billing/app.py"
    constraints:
      - "Never log Authorization headers, cookies or card numbers"
      - "One JSON object per line on stdout"
    acceptance_criteria:
      - "Every request logs method, path, status, duration_ms and request_id"
      - "X-Request-ID is propagated when the caller sends one"
    related_specs:
      - "docs/CONVENTIONS.md"
    depends_on: []

  - id: INT-006
    name: Webhook Retries with Backoff
    status: PENDING
    description: >-
      Retry failed partner webhooks with exponential backoff and a dead-letter queue
      instead of dropping them after one attempt.
    owned_scope:
      - "src/acme_billing/webhooks/**"
      - "tests/webhooks/**"
    constraints:
      - "At most 8 attempts over 24 hours"
      - "Retries go through the rate limiter (INT-003)"
    acceptance_criteria:
      - "A webhook that fails 8 times lands in the dead-letter queue"
    related_specs:
      - "docs/webhooks.md"
    depends_on:
      - "INT-003"
"""

GOVERNANCE = r"""# acme-billing governance. Human-owned: agents can never write this file.

# A human approves every intent selection, in the TUI or with `paw-tui approvals approve`.
approval: required

# One live session per intent.
intent_sharing: deny

# An idle session loses its intent lock after this long.
session_ttl: 8h

# Never writable by agents, on top of .orchestration/**, .paw/instructions/** and .git/**.
protected:
  - ".claude/**"
  - ".mcp.json"
  - ".env"
  - "secrets/**"
  - "migrations/versions/**"

# Read-only tool calls are not recorded.
log_reads: false
"""

ORCHESTRATION_GITIGNORE = r"""# Machine-owned state that paw-tui rebuilds or that belongs to one machine.
.cache/
sessions/
approvals/
*.torn-*
"""

PAW_README = r"""# .paw

- `instructions/<Agent Name>-instructions.md`: this workspace's custom instructions for an
  agent (name verbatim, spaces kept). They override the user layer in
  `~/.paw/instructions/`, and both override the agent's defaults.
- `work/<work-id>/WorkflowContext.md`: metadata of one work item as `Field: Value` lines.

Agents read all of this with `paw_get_context` (or `paw-tui context WORK_ID --agent NAME`).
"""

WORKSPACE_INSTRUCTIONS = {
    "Claude Code": r"""# acme-billing: instructions for Claude Code

- Select the intent for your task before you change a file; `list_intents` shows them.
- Money is an integer number of cents. Format it with `Decimal`; never use `float`.
- Indent with 4 spaces; ruff (line length 100) decides everything else.
- Run `pytest -q` on the package you changed before you say you are done.
- Ask before adding a dependency, and pin it in pyproject.toml.
- Never touch `src/acme_billing/auth/legacy/`: partners still depend on it.
""",
    "PAW-02B Impl Planner": r"""# Planning rules for acme-billing

- Every plan names the intent it serves and stays inside that intent's owned scope.
- Split work into phases that each leave `main` releasable.
- Include an ADR under docs/adr/ for any change to authentication, money or data retention.
- List the tests each phase adds before the code it adds.
- Flag anything that needs a partner announcement (API changes, new headers).
""",
    "Codex": r"""# acme-billing: instructions for Codex

- Work only inside the selected intent's scope; ask for a scope expansion instead of
  working around a denial.
- Prefer deleting dead code over commenting it out; the history is in git.
- Run `pytest -q tests/<area>` after every change and paste the summary line.
""",
}

USER_INSTRUCTIONS = {
    # Overlaps the workspace layer: the TUI shows the workspace file WINS, this one SHADOWED.
    "Claude Code": r"""# My defaults (any repository)

- Be terse: no summary of what you just did.
- Indent with tabs.
- Write commit subjects in the imperative, under 60 characters.
- Prefer small pure functions and explicit return types.
""",
    "Gemini CLI": r"""# My defaults for Gemini CLI

- Explain a plan in three bullets before editing more than one file.
- Never run `git push`.
""",
    # Deliberately empty: the TUI shows the layer as EMPTY.
    "Codex": "",
}

WORK_ITEMS = {
    "jwt-auth-migration": r"""# WorkflowContext

Work Title: JWT Authentication Migration
Work ID: jwt-auth-migration
Target Branch: feature/jwt-auth
Workflow Mode: full
Review Strategy: prs
Issue URL: https://git.acme.example/billing/acme-billing/issues/412
Intent: INT-001
""",
    "invoice-pdf-export": r"""# WorkflowContext

Work Title: Invoice PDF Export
Work ID: invoice-pdf-export
Target Branch: feature/invoice-pdf
Workflow Mode: minimal
Review Strategy: local
Issue URL: https://git.acme.example/billing/acme-billing/issues/398
Intent: INT-002
""",
}

# The repository as it stands at 09:00, before any agent touches it.
BASELINE: dict[str, str] = {}

BASELINE["README.md"] = r"""# acme-billing

Billing service for ACME: invoices, payments and the partner API.

## Development

    python -m venv .venv && .venv/bin/pip install -e '.[dev]'
    pytest -q

Read docs/CONVENTIONS.md before you change code.
"""

BASELINE["pyproject.toml"] = r"""[project]
name = "acme-billing"
version = "3.14.0"
requires-python = ">=3.11"
dependencies = [
    "starlette>=0.37,<1",
    "uvicorn>=0.29",
    "pyjwt[crypto]>=2.8,<3",
    "redis>=5.0,<6",
    "zeep>=4.2,<5",
]

[project.optional-dependencies]
dev = ["pytest>=8", "httpx>=0.27", "ruff>=0.4"]

[tool.ruff]
line-length = 100
"""

BASELINE["docs/project.json"] = (
    json.dumps(
        {
            "stack": "Python 3.12, Starlette, PostgreSQL 16, Redis 7",
            "commands": {
                "install": "pip install -e '.[dev]'",
                "test": "pytest -q",
                "lint": "ruff check .",
                "format": "ruff format .",
                "run": "uvicorn acme_billing.app:app --reload",
            },
        },
        indent=2,
    )
    + "\n"
)

BASELINE["docs/CONVENTIONS.md"] = r"""# Conventions

acme-billing is a Starlette service in which every package under src/acme_billing/ owns one
domain. Money is always an integer number of cents, formatted with Decimal and never held
in a float. Configuration comes from environment variables, read once in config.py. Tests
live under tests/<domain>/ and use pytest fixtures rather than setUp methods.

## Commands

```sh
pytest -q            # the whole suite, about 40 s
ruff check . && ruff format --check .
```

## Logging

Log with `logging.getLogger(__name__)` and pass structured data as `extra={"fields": {...}}`.
Never log credentials, tokens or card numbers.
"""

BASELINE["docs/auth.md"] = r"""# Authentication

Partners authenticate every request except `GET /health`.

## Today: HTTP Basic Auth

Credentials are checked against the `api_credentials` table by
`acme_billing.auth.legacy.basic_auth`. It stays enabled while `ACME_LEGACY_AUTH=true`.

## Target: JWT bearer tokens

- Tokens are RS256-signed by keys in `ACME_JWT_KEYS_DIR`, identified by `kid`.
- Access tokens live 15 minutes; clocks may differ by up to 30 seconds.
- Claims: `iss`, `sub` (user), `acct` (account), `scope` (space-separated), `iat`, `exp`, `jti`.
"""

BASELINE["docs/adr/0007-jwt-auth.md"] = r"""# ADR 0007: JWT bearer tokens for the partner API

Status: accepted (2026-11-12)

## Context

Basic Auth sends long-lived secrets on every request, and two partners have leaked theirs
in logs this year.

## Decision

Short-lived RS256 JWTs issued by our own token endpoint; no external identity provider.
Keys rotate monthly; a retired key keeps verifying until the last token it signed expires.

## Consequences

Partners must fetch a token every 15 minutes. Basic Auth is kept behind a flag until the
last partner has migrated (planned: 2027-03).
"""

BASELINE["docs/invoices.md"] = r"""# Invoices

Invoices are immutable once issued; corrections are credit notes.

## PDF export (INT-002)

Finance wants `GET /invoices/{id}.pdf`. Requirements: PDF/A-3b, our brand font (Inter),
A4, totals on the last page.

Open question: can we embed Inter in PDFs sent to customers? Legal is checking the licence.
"""

BASELINE["docs/rate-limits.md"] = r"""# Rate limits

Each API key gets a token bucket: `capacity` requests, refilled at `rate` per second.
Defaults: capacity 120, rate 2/s. Partners on the batch plan get capacity 600.
A request over the limit gets `429 Too Many Requests` with `Retry-After` in seconds.
"""

BASELINE["docs/webhooks.md"] = r"""# Webhooks

We POST `invoice.issued`, `invoice.paid` and `payment.failed` events to each partner's
endpoint. Today a failed delivery is logged and dropped.
"""

BASELINE[
    "src/acme_billing/__init__.py"
] = r'''"""acme-billing: invoices, payments and the partner API."""

__version__ = "3.14.0"
'''

BASELINE[
    "src/acme_billing/config.py"
] = r'''"""Settings, read once from the environment; import ``settings``."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default).strip()


def _flag(name: str, default: bool = False) -> bool:
    return _env(name, str(default)).lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Settings:
    debug: bool = field(default_factory=lambda: _flag("ACME_DEBUG"))
    database_url: str = field(
        default_factory=lambda: _env("DATABASE_URL", "postgresql://localhost/acme_billing")
    )
    redis_url: str = field(default_factory=lambda: _env("REDIS_URL", "redis://localhost:6379/0"))
    log_level: str = field(default_factory=lambda: _env("ACME_LOG_LEVEL", "INFO"))
    auth_realm: str = field(default_factory=lambda: _env("ACME_AUTH_REALM", "acme-billing"))
    legacy_auth: bool = field(default_factory=lambda: _flag("ACME_LEGACY_AUTH", True))
    jwt_issuer: str = field(
        default_factory=lambda: _env("ACME_JWT_ISSUER", "https://auth.acme.example")
    )
    jwt_keys_dir: str = field(
        default_factory=lambda: _env("ACME_JWT_KEYS_DIR", "/etc/acme-billing/keys")
    )


settings = Settings()
'''

BASELINE[
    "src/acme_billing/app.py"
] = r'''"""The ASGI application: routes, middleware and start-up."""

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
'''

BASELINE["src/acme_billing/auth/__init__.py"] = r'''"""Authentication of partner API requests."""
'''

BASELINE[
    "src/acme_billing/auth/middleware.py"
] = r'''"""Authentication for every request except /health."""

from __future__ import annotations

from starlette.authentication import (
    AuthCredentials,
    AuthenticationBackend,
    AuthenticationError,
    BaseUser,
)
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp

from acme_billing.auth.legacy.basic_auth import check_basic_credentials

PUBLIC_PATHS = frozenset({"/health"})


class ApiUser(BaseUser):
    def __init__(self, user_id: str, account_id: str) -> None:
        self.user_id = user_id
        self.account_id = account_id

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return self.user_id


class BasicAuthBackend(AuthenticationBackend):
    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        if conn.url.path in PUBLIC_PATHS:
            return None
        header = conn.headers.get("authorization", "")
        if not header.lower().startswith("basic "):
            raise AuthenticationError("missing credentials")
        account = check_basic_credentials(header[6:])
        if account is None:
            raise AuthenticationError("invalid credentials")
        return AuthCredentials(["invoices:read"]), ApiUser(account.user_id, account.account_id)


def BasicAuthMiddleware(app: ASGIApp, realm: str = "acme-billing") -> ASGIApp:  # noqa: N802
    """Used like a middleware class in app.py."""
    return AuthenticationMiddleware(app, backend=BasicAuthBackend())
'''

BASELINE[
    "src/acme_billing/auth/legacy/__init__.py"
] = r'''"""HTTP Basic Auth, kept while partners migrate (ACME_LEGACY_AUTH)."""
'''

BASELINE[
    "src/acme_billing/auth/legacy/basic_auth.py"
] = r'''"""Check HTTP Basic credentials against the api_credentials table."""

from __future__ import annotations

import base64
import binascii
import hmac
from dataclasses import dataclass

from acme_billing.db import fetch_one


@dataclass(frozen=True)
class Account:
    user_id: str
    account_id: str


def check_basic_credentials(encoded: str) -> Account | None:
    try:
        user, _, secret = base64.b64decode(encoded, validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    row = fetch_one("SELECT account_id, secret_hash FROM api_credentials WHERE user_id = %s", user)
    if row is None or not hmac.compare_digest(row["secret_hash"], _hash(secret)):
        return None
    return Account(user, row["account_id"])


def _hash(secret: str) -> str:
    import hashlib

    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
'''

BASELINE[
    "src/acme_billing/db.py"
] = r'''"""A thin layer over the connection pool; queries are plain SQL with parameters."""

from __future__ import annotations

from typing import Any

from acme_billing.config import settings

_pool: Any = None


def pool() -> Any:
    global _pool
    if _pool is None:
        import psycopg_pool

        _pool = psycopg_pool.ConnectionPool(settings.database_url, min_size=1, max_size=10)
    return _pool


def fetch_one(query: str, *params: object) -> dict[str, Any] | None:
    with pool().connection() as conn, conn.cursor() as cur:
        cur.execute(query, params)
        row = cur.fetchone()
        if row is None:
            return None
        return dict(zip([col.name for col in cur.description], row))
'''

BASELINE[
    "src/acme_billing/invoices/__init__.py"
] = r'''"""Invoices: issuing, listing and rendering."""
'''

BASELINE[
    "src/acme_billing/invoices/models.py"
] = r'''"""Invoice records. Amounts are integer cents; invoices are immutable once issued."""

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
'''

BASELINE["src/acme_billing/invoices/service.py"] = r'''"""Reading invoices for an account."""

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
'''

BASELINE["src/acme_billing/observability/__init__.py"] = r'''"""Logging and metrics."""
'''

BASELINE[
    "src/acme_billing/soap/__init__.py"
] = r'''"""The legacy SOAP gateway for partners that have not moved to the REST API."""

from acme_billing.soap.client import SoapClient
from acme_billing.soap.gateway import handle_envelope
from acme_billing.soap.wsdl_cache import WsdlCache

__all__ = ["SoapClient", "WsdlCache", "handle_envelope"]
'''

BASELINE[
    "src/acme_billing/soap/client.py"
] = r'''"""Outbound SOAP calls to the two partners that still require them."""

from __future__ import annotations

import zeep


class SoapClient:
    def __init__(self, wsdl_url: str, timeout: float = 10.0) -> None:
        transport = zeep.Transport(timeout=timeout)
        self._client = zeep.Client(wsdl_url, transport=transport)

    def submit_invoice(self, payload: dict[str, object]) -> str:
        return str(self._client.service.SubmitInvoice(**payload))
'''

BASELINE[
    "src/acme_billing/soap/gateway.py"
] = r'''"""Inbound SOAP envelopes, translated to the REST handlers."""

from __future__ import annotations

from xml.etree import ElementTree

from acme_billing.soap.wsdl_cache import WsdlCache

_cache = WsdlCache(max_entries=32)
SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/"


def handle_envelope(body: bytes) -> bytes:
    envelope = ElementTree.fromstring(body)
    operation = envelope.find(f"{{{SOAP_NS}}}Body/*")
    if operation is None:
        raise ValueError("empty SOAP body")
    schema = _cache.get(operation.tag)
    return schema.respond(operation)
'''

BASELINE[
    "src/acme_billing/soap/wsdl_cache.py"
] = r'''"""An LRU cache of parsed WSDL documents (added in 2019 for a partner that is gone)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


class WsdlCache:
    def __init__(self, max_entries: int = 32) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, Any] = OrderedDict()

    def get(self, key: str) -> Any:
        if key in self._entries:
            self._entries.move_to_end(key)
            return self._entries[key]
        value = self._load(key)
        self._entries[key] = value
        if len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
        return value

    def _load(self, key: str) -> Any:
        raise KeyError(key)
'''

BASELINE["tests/conftest.py"] = r'''"""Shared fixtures: settings for tests, and an app client."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _test_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACME_LEGACY_AUTH", "true")
    monkeypatch.setenv("ACME_LOG_LEVEL", "DEBUG")
'''

BASELINE["tests/auth/test_basic_auth.py"] = r"""from __future__ import annotations

import base64

from acme_billing.auth.legacy import basic_auth


def test_malformed_credentials_are_refused() -> None:
    assert basic_auth.check_basic_credentials("not base64!") is None


def test_unknown_user_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(basic_auth, "fetch_one", lambda *args: None)
    encoded = base64.b64encode(b"someone:secret").decode()
    assert basic_auth.check_basic_credentials(encoded) is None
"""

BASELINE["tests/invoices/test_models.py"] = r"""from __future__ import annotations

import datetime as dt

from acme_billing.invoices.models import Invoice, InvoiceLine


def test_total_is_the_sum_of_lines() -> None:
    invoice = Invoice(
        "INV-2026-0001", "acct-7", "Globex GmbH", "EUR",
        dt.date(2026, 11, 1), dt.date(2026, 12, 1),
        lines=(InvoiceLine("Platform fee", 1, 49_900), InvoiceLine("Seats", 12, 1_500)),
    )
    assert invoice.total_cents == 67_900
"""

BASELINE["tests/soap/test_gateway.py"] = r"""from __future__ import annotations

import pytest

from acme_billing.soap.gateway import handle_envelope


def test_empty_body_is_rejected() -> None:
    envelope = (
        b'<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>'
    )
    with pytest.raises(ValueError):
        handle_envelope(envelope)
"""

BASELINE["tests/soap/test_wsdl_cache.py"] = r"""from __future__ import annotations

from acme_billing.soap.wsdl_cache import WsdlCache


def test_least_recently_used_entry_is_evicted() -> None:
    cache = WsdlCache(max_entries=1)
    cache._entries["a"] = 1
    cache._entries["b"] = 2
    cache.get("b")
    assert list(cache._entries) == ["b"] or len(cache._entries) <= 2
"""

# Files the agents write during the day, in their final form. ``develop`` writes the first
# top-level block and then adds the others one Edit at a time, as an agent does.

JSON_LOGGING = r'''"""JSON log lines on stdout: one object per line, ready for the log shipper."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

REDACTED = "[redacted]"
SENSITIVE_KEYS = frozenset({"authorization", "cookie", "set-cookie", "card_number", "cvc"})


def redact(fields: dict[str, Any]) -> dict[str, Any]:
    """Hide sensitive values: the log pipeline is outside the PCI zone."""
    return {
        key: (REDACTED if key.lower() in SENSITIVE_KEYS else value)
        for key, value in fields.items()
    }


def _timestamp(record: logging.LogRecord) -> str:
    base = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{base}.{int(record.msecs):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per record; structured data comes in ``extra={"fields": {...}}``."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": _timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            payload.update(redact(fields))
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        return json.dumps(payload, default=str, separators=(",", ":"))


def configure(level: str = "INFO") -> None:
    """Send the root logger to stdout as JSON; calling it twice keeps one handler."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "acme_json", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter())
    handler.acme_json = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
'''

REQUEST_LOG = r'''"""Request logging: one structured line per request, with its duration and request id."""

from __future__ import annotations

import logging
import time
import uuid

from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import Response

from acme_billing.observability.json_logging import redact

logger = logging.getLogger("acme_billing.request")
REQUEST_ID_HEADER = "X-Request-ID"
LOGGED_HEADERS = frozenset({"user-agent", "x-partner-id", "authorization"})


def request_id_for(request: Request) -> str:
    """Keep the caller's id so one request can be followed across services."""
    incoming = request.headers.get(REQUEST_ID_HEADER, "").strip()
    if incoming and len(incoming) <= 128 and incoming.isprintable():
        return incoming
    return uuid.uuid4().hex


def request_fields(
    request: Request, status: int, duration_ms: float, request_id: str
) -> dict[str, object]:
    fields: dict[str, object] = {
        "method": request.method,
        "path": request.url.path,
        "status": status,
        "duration_ms": round(duration_ms, 1),
        "request_id": request_id,
    }
    if request.client is not None:
        fields["client_ip"] = request.client.host
    headers = {name: value for name, value in request.headers.items() if name in LOGGED_HEADERS}
    fields.update(redact(headers))
    return fields


class RequestLogMiddleware(BaseHTTPMiddleware):
    """Log every request once it has a status, and return the request id to the caller."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        request_id = request_id_for(request)
        request.state.request_id = request_id
        started = time.perf_counter()
        status = 500
        try:
            response = await call_next(request)
            status = response.status_code
        finally:
            duration_ms = (time.perf_counter() - started) * 1000
            fields = request_fields(request, status, duration_ms, request_id)
            logger.info("request", extra={"fields": fields})
        response.headers[REQUEST_ID_HEADER] = request_id
        return response
'''

TEST_JSON_LOGGING = r'''"""The JSON formatter: one parseable object per line, secrets redacted."""

from __future__ import annotations

import json
import logging

import pytest

from acme_billing.observability.json_logging import REDACTED, JsonFormatter, configure, redact


def _record(message: str, **fields: object) -> logging.LogRecord:
    record = logging.LogRecord("acme", logging.INFO, __file__, 1, message, None, None)
    record.fields = fields
    return record


def test_one_json_object_per_record() -> None:
    line = JsonFormatter().format(_record("hello", path="/invoices"))
    data = json.loads(line)
    assert data["message"] == "hello"
    assert data["path"] == "/invoices"
    assert data["ts"].endswith("Z")


@pytest.mark.parametrize("key", ["authorization", "Authorization", "cookie", "card_number"])
def test_sensitive_keys_are_redacted(key: str) -> None:
    assert redact({key: "secret", "path": "/x"}) == {key: REDACTED, "path": "/x"}


def test_configure_twice_keeps_one_handler() -> None:
    configure("DEBUG")
    configure("INFO")
    handlers = [h for h in logging.getLogger().handlers if getattr(h, "acme_json", False)]
    assert len(handlers) == 1
'''

TEST_REQUEST_LOG = r'''"""Request logging through a real app: fields, request ids, redaction."""

from __future__ import annotations

import json
import logging

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from acme_billing.middleware.request_log import REQUEST_ID_HEADER, RequestLogMiddleware
from acme_billing.observability.json_logging import JsonFormatter


async def _ok(request):  # type: ignore[no-untyped-def]
    return PlainTextResponse("ok")


@pytest.fixture
def client() -> TestClient:
    app = Starlette(routes=[Route("/ping", _ok)])
    app.add_middleware(RequestLogMiddleware)
    return TestClient(app)


def _logged(caplog: pytest.LogCaptureFixture) -> dict[str, object]:
    record = next(r for r in caplog.records if r.name == "acme_billing.request")
    return json.loads(JsonFormatter().format(record))


def test_request_is_logged_with_timing(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        client.get("/ping")
    data = _logged(caplog)
    assert data["method"] == "GET"
    assert data["status"] == 200
    assert data["duration_ms"] >= 0


def test_incoming_request_id_is_kept(client: TestClient) -> None:
    response = client.get("/ping", headers={REQUEST_ID_HEADER: "req-123"})
    assert response.headers[REQUEST_ID_HEADER] == "req-123"


def test_authorization_is_never_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        client.get("/ping", headers={"Authorization": "Bearer abc.def.ghi"})
    assert "abc.def.ghi" not in json.dumps(_logged(caplog))
'''

JWT_TOKENS = r'''"""Issue and verify the partner API's JSON Web Tokens (docs/auth.md, ADR 0007)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import jwt

from acme_billing.auth.keys import KeyRing

ALGORITHM = "HS256"
ACCESS_TOKEN_TTL = 15 * 60
LEEWAY_SECONDS = 30


class TokenError(Exception):
    """A token that must be refused; ``reason`` goes into the 401 response."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Claims:
    subject: str
    account_id: str
    scopes: tuple[str, ...]
    expires_at: int
    token_id: str


def issue_token(
    keys: KeyRing, subject: str, account_id: str, scopes: list[str], *, now: float | None = None
) -> str:
    """A signed access token, valid for ACCESS_TOKEN_TTL seconds from ``now``."""
    issued = int(time.time() if now is None else now)
    key = keys.signing_key()
    claims = {
        "iss": keys.issuer,
        "sub": subject,
        "acct": account_id,
        "scope": " ".join(sorted(scopes)),
        "iat": issued,
        "exp": issued + ACCESS_TOKEN_TTL,
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(claims, key.private, algorithm=ALGORITHM, headers={"kid": key.kid})


def verify_token(keys: KeyRing, token: str) -> Claims:
    """The token's claims, or TokenError saying why it is refused."""
    try:
        header = jwt.get_unverified_header(token)
    except jwt.DecodeError:
        raise TokenError("malformed token") from None
    key = keys.verification_key(str(header.get("kid", "")))
    if key is None:
        raise TokenError("unknown signing key")
    try:
        data = jwt.decode(
            token,
            key.public,
            algorithms=[ALGORITHM],
            issuer=keys.issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iat", "iss", "sub"]},
        )
    except jwt.ExpiredSignatureError:
        raise TokenError("token expired") from None
    except jwt.InvalidTokenError as exc:
        raise TokenError(f"invalid token: {exc}") from None
    return Claims(
        subject=data["sub"],
        account_id=data.get("acct", ""),
        scopes=tuple(data.get("scope", "").split()),
        expires_at=data["exp"],
        token_id=data.get("jti", ""),
    )
'''

KEYS = r'''"""Signing keys: the newest active key signs, every key in the ring verifies (rotation)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SigningKey:
    kid: str
    private: str
    public: str
    active: bool = False

    def __repr__(self) -> str:
        # Never let a key reach a log line or a traceback.
        return f"SigningKey(kid={self.kid!r}, active={self.active})"


class KeyRing:
    """Keys loaded from ``<dir>/keys.json``; docs/auth.md describes rotation."""

    def __init__(self, issuer: str, keys: list[SigningKey]) -> None:
        if not any(key.active for key in keys):
            raise ValueError("the key ring has no active signing key")
        self.issuer = issuer
        self._keys = {key.kid: key for key in keys}

    def signing_key(self) -> SigningKey:
        return [key for key in self._keys.values() if key.active][-1]

    def verification_key(self, kid: str) -> SigningKey | None:
        return self._keys.get(kid)


def load_key_ring(directory: str | os.PathLike[str], issuer: str) -> KeyRing:
    """Read ``keys.json`` (kid, active flag and PEM file names) from ``directory``."""
    base = Path(directory)
    manifest = json.loads((base / "keys.json").read_text(encoding="utf-8"))
    keys = [
        SigningKey(
            kid=entry["kid"],
            private=(base / entry["private"]).read_text(encoding="utf-8"),
            public=(base / entry["public"]).read_text(encoding="utf-8"),
            active=bool(entry.get("active")),
        )
        for entry in manifest["keys"]
    ]
    return KeyRing(issuer, keys)
'''

TEST_JWT_TOKENS = r'''"""Tokens: issued, verified, and refused when expired, tampered with or foreign."""

from __future__ import annotations

import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from acme_billing.auth.jwt_tokens import ACCESS_TOKEN_TTL, TokenError, issue_token, verify_token
from acme_billing.auth.keys import KeyRing, SigningKey

ISSUER = "https://auth.test"


def rsa_key(kid: str, active: bool = True) -> SigningKey:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    public = private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    return SigningKey(kid=kid, private=pem, public=public, active=active)


@pytest.fixture(scope="module")
def ring() -> KeyRing:
    return KeyRing(ISSUER, [rsa_key("2026-11")])


def test_round_trip(ring: KeyRing) -> None:
    claims = verify_token(ring, issue_token(ring, "user-42", "acct-7", ["invoices:read"]))
    assert (claims.subject, claims.account_id) == ("user-42", "acct-7")
    assert claims.scopes == ("invoices:read",)


def test_expired_token_is_refused(ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", [], now=time.time() - ACCESS_TOKEN_TTL - 120)
    with pytest.raises(TokenError, match="expired"):
        verify_token(ring, token)


def test_small_clock_skew_is_tolerated(ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", [], now=time.time() - ACCESS_TOKEN_TTL - 10)
    assert verify_token(ring, token).subject == "user-42"


def test_tampered_token_is_refused(ring: KeyRing) -> None:
    header, payload, signature = issue_token(ring, "user-42", "acct-7", []).split(".")
    with pytest.raises(TokenError):
        verify_token(ring, ".".join([header, payload[:-4] + "AAAA", signature]))


def test_token_from_an_unknown_key_is_refused(ring: KeyRing) -> None:
    stranger = KeyRing(ISSUER, [rsa_key("stranger")])
    with pytest.raises(TokenError, match="unknown signing key"):
        verify_token(ring, issue_token(stranger, "user-42", "acct-7", []))


def test_rotation_keeps_tokens_of_the_old_key_valid() -> None:
    old = rsa_key("2026-10")
    token = issue_token(KeyRing(ISSUER, [old]), "user-42", "acct-7", [])
    retired = SigningKey(old.kid, old.private, old.public, active=False)
    rotated = KeyRing(ISSUER, [retired, rsa_key("2026-11")])
    assert verify_token(rotated, token).subject == "user-42"
'''

TEST_KEYS = r'''"""Loading the key ring from its directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acme_billing.auth.keys import KeyRing, SigningKey, load_key_ring


def test_a_ring_needs_an_active_key() -> None:
    with pytest.raises(ValueError, match="no active signing key"):
        KeyRing("iss", [SigningKey("k1", "priv", "pub", active=False)])


def test_newest_active_key_signs() -> None:
    ring = KeyRing("iss", [SigningKey("k1", "a", "b", True), SigningKey("k2", "c", "d", True)])
    assert ring.signing_key().kid == "k2"


def test_repr_never_shows_key_material() -> None:
    assert "secret-pem" not in repr(SigningKey("k1", "secret-pem", "pub", True))


def test_load_key_ring(tmp_path: Path) -> None:
    (tmp_path / "k1.pem").write_text("private")
    (tmp_path / "k1.pub").write_text("public")
    manifest = {"keys": [{"kid": "k1", "private": "k1.pem", "public": "k1.pub", "active": True}]}
    (tmp_path / "keys.json").write_text(json.dumps(manifest))
    ring = load_key_ring(tmp_path, "iss")
    assert ring.verification_key("k1") is not None
'''

TEST_MIDDLEWARE = r'''"""Bearer tokens through the app; Basic Auth only while the legacy flag is on."""

from __future__ import annotations

import base64

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from acme_billing.auth import middleware
from acme_billing.auth.jwt_tokens import issue_token
from acme_billing.auth.keys import KeyRing
from tests.auth.test_jwt_tokens import ISSUER, rsa_key


async def whoami(request: Request) -> JSONResponse:
    return JSONResponse({"user": request.user.display_name, "account": request.user.account_id})


@pytest.fixture(scope="module")
def ring() -> KeyRing:
    return KeyRing(ISSUER, [rsa_key("2026-11")])


@pytest.fixture
def client(ring: KeyRing, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.setattr(middleware, "key_ring", lambda: ring)
    app = Starlette(routes=[Route("/whoami", whoami), Route("/health", whoami)])
    app.add_middleware(middleware.ApiAuthMiddleware)
    return TestClient(app)


def test_bearer_token_authenticates(client: TestClient, ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", ["invoices:read"])
    response = client.get("/whoami", headers={"Authorization": f"Bearer {token}"})
    assert response.json() == {"user": "user-42", "account": "acct-7"}


def test_missing_credentials_get_401(client: TestClient) -> None:
    assert client.get("/whoami").status_code == 401


def test_expired_token_gets_401_with_reason(client: TestClient, ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", [], now=0)
    response = client.get("/whoami", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert "expired" in response.text


def test_basic_auth_is_refused_without_the_legacy_flag(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(middleware, "legacy_auth_enabled", lambda: False)
    basic = base64.b64encode(b"user-42:secret").decode()
    assert client.get("/whoami", headers={"Authorization": f"Basic {basic}"}).status_code == 401
'''

PDF_EXPORT = r'''"""Invoices as PDF/A-3b documents, rendered server-side from an HTML template."""

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
'''

FONTS = r'''"""Fonts embedded in invoice PDFs: PDF/A requires every glyph's font to be embedded."""

from __future__ import annotations

from importlib import resources

FONT_FAMILY = "Inter"
FONT_FILES = {"normal": "Inter-Regular.woff2", "bold": "Inter-SemiBold.woff2"}


def font_path(weight: str) -> str:
    return str(resources.files("acme_billing.invoices").joinpath("fonts", FONT_FILES[weight]))


def font_face_css() -> str:
    """@font-face rules for the bundled fonts (their licence: docs/invoices.md)."""
    rules = []
    for weight, name in FONT_FILES.items():
        rules.append(
            "@font-face {"
            f" font-family: {FONT_FAMILY};"
            f" font-weight: {weight};"
            f" src: url('file://{font_path(weight)}');"
            " }"
        )
    return "\n".join(rules)
'''

INVOICE_HTML = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Invoice $number</title>
<style>
$fonts
@page { size: A4; margin: 18mm 16mm; }
body { font-family: Inter, sans-serif; font-size: 10pt; color: #1d1d1f; }
table { width: 100%; border-collapse: collapse; }
td, th { padding: 4pt 6pt; border-bottom: 0.5pt solid #d2d2d7; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.total { font-weight: bold; page-break-inside: avoid; }
</style>
</head>
<body>
<header>
  <h1>Invoice $number</h1>
  <p>$customer</p>
  <p>Issued $issued &middot; Due $due</p>
</header>
<table>
  <thead><tr><th>Description</th><th class=num>Qty</th><th class=num>Unit</th><th class=num>Amount</th></tr></thead>
  <tbody>
$rows
  </tbody>
  <tfoot><tr class=total><td colspan=3>Total</td><td class=num>$total</td></tr></tfoot>
</table>
</body>
</html>
"""

TEST_PDF_EXPORT = r'''"""PDF export: amounts, escaping and a real PDF/A document."""

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
'''

CODEX_SOAP_INIT = r'''"""The legacy SOAP gateway for partners that have not moved to the REST API."""

from acme_billing.soap.client import SoapClient
from acme_billing.soap.gateway import handle_envelope

__all__ = ["SoapClient", "handle_envelope"]
'''

CODEX_GATEWAY = r'''"""Inbound SOAP envelopes, translated to the REST handlers."""

from __future__ import annotations

from xml.etree import ElementTree

from acme_billing.soap.schemas import schema_for

SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/"


def handle_envelope(body: bytes) -> bytes:
    envelope = ElementTree.fromstring(body)
    operation = envelope.find(f"{{{SOAP_NS}}}Body/*")
    if operation is None:
        raise ValueError("empty SOAP body")
    return schema_for(operation.tag).respond(operation)
'''

TOKEN_ENDPOINT = r'''"""POST /oauth/token: the client-credentials grant that hands partners their access tokens."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from acme_billing.auth.jwt_tokens import ACCESS_TOKEN_TTL, issue_token
from acme_billing.auth.keys import KeyRing
from acme_billing.auth.legacy.basic_auth import Account, check_basic_credentials

GRANT_TYPE = "client_credentials"
DEFAULT_SCOPES = ("invoices:read",)
ALLOWED_SCOPES = frozenset({"invoices:read", "invoices:write", "payments:read"})
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def oauth_error(code: str, description: str, status: int = 400) -> JSONResponse:
    """An error in the shape RFC 6749 section 5.2 prescribes."""
    return JSONResponse(
        {"error": code, "error_description": description}, status_code=status, headers=NO_STORE
    )


def client_from_header(header: str) -> Account | None:
    """The client, authenticated by the Basic credentials it already has."""
    if not header.lower().startswith("basic "):
        return None
    return check_basic_credentials(header[6:].strip())


def requested_scopes(raw: str) -> tuple[str, ...] | None:
    """The scopes asked for (DEFAULT_SCOPES when none), or None when one is unknown."""
    if not raw.strip():
        return DEFAULT_SCOPES
    scopes = tuple(sorted(set(raw.split())))
    return scopes if set(scopes) <= ALLOWED_SCOPES else None


async def token(request: Request, keys: KeyRing) -> JSONResponse:
    form = await request.form()
    if form.get("grant_type") != GRANT_TYPE:
        return oauth_error("unsupported_grant_type", f"use grant_type={GRANT_TYPE}")
    client = client_from_header(request.headers.get("authorization", ""))
    if client is None:
        return oauth_error("invalid_client", "client authentication failed", status=401)
    scopes = requested_scopes(str(form.get("scope") or ""))
    if scopes is None:
        return oauth_error("invalid_scope", "unknown scope requested")
    access_token = issue_token(keys, client.user_id, client.account_id, list(scopes))
    body = {
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": ACCESS_TOKEN_TTL,
        "scope": " ".join(scopes),
    }
    return JSONResponse(body, headers=NO_STORE)
'''

TEST_TOKEN_ENDPOINT = r'''"""The token endpoint: grant type, client authentication, scopes."""

from __future__ import annotations

import base64

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route
from starlette.testclient import TestClient

from acme_billing.auth import token_endpoint
from acme_billing.auth.jwt_tokens import verify_token
from acme_billing.auth.keys import KeyRing
from acme_billing.auth.legacy.basic_auth import Account
from tests.auth.test_jwt_tokens import ISSUER, rsa_key

SECRET = base64.b64encode(b"partner-1:s3cret").decode()
BASIC = {"Authorization": f"Basic {SECRET}"}


@pytest.fixture(scope="module")
def ring() -> KeyRing:
    return KeyRing(ISSUER, [rsa_key("2026-11")])


@pytest.fixture
def client(ring: KeyRing, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    def check(encoded: str) -> Account | None:
        return Account("partner-1", "acct-7") if encoded == SECRET else None

    monkeypatch.setattr(token_endpoint, "check_basic_credentials", check)

    async def endpoint(request: Request):  # type: ignore[no-untyped-def]
        return await token_endpoint.token(request, ring)

    return TestClient(Starlette(routes=[Route("/oauth/token", endpoint, methods=["POST"])]))


def grant(client: TestClient, headers: dict[str, str] = BASIC, **form: str):  # type: ignore[no-untyped-def]
    return client.post("/oauth/token", data={"grant_type": "client_credentials", **form},
                       headers=headers)


def test_client_credentials_grant(client: TestClient, ring: KeyRing) -> None:
    response = grant(client)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    claims = verify_token(ring, response.json()["access_token"])
    assert (claims.account_id, claims.scopes) == ("acct-7", ("invoices:read",))


def test_other_grant_types_are_refused(client: TestClient) -> None:
    response = client.post("/oauth/token", data={"grant_type": "password"}, headers=BASIC)
    assert response.json()["error"] == "unsupported_grant_type"


def test_bad_client_credentials_get_401(client: TestClient) -> None:
    wrong = base64.b64encode(b"partner-1:wrong").decode()
    response = grant(client, headers={"Authorization": f"Basic {wrong}"})
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


@pytest.mark.parametrize(
    ("asked", "granted"),
    [("invoices:write invoices:read", "invoices:read invoices:write"), ("", "invoices:read")],
)
def test_granted_scopes(client: TestClient, asked: str, granted: str) -> None:
    assert grant(client, scope=asked).json()["scope"] == granted


def test_unknown_scope_is_refused(client: TestClient) -> None:
    assert grant(client, scope="admin").json()["error"] == "invalid_scope"
'''

SCOPES = r'''"""Scope checks for route handlers: ``@requires_scope("invoices:write")``."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

Handler = Callable[[Request], Awaitable[Response]]


def has_scope(request: Request, scope: str) -> bool:
    """Whether the caller was granted ``scope``; ``invoices:*`` grants every invoices scope."""
    granted = set(request.auth.scopes) if "auth" in request.scope else set()
    domain = scope.split(":", 1)[0]
    return scope in granted or f"{domain}:*" in granted


def insufficient_scope(scope: str) -> JSONResponse:
    """403 with the header RFC 6750 section 3.1 asks for, so clients know what to request."""
    return JSONResponse(
        {"error": "insufficient_scope", "scope": scope},
        status_code=403,
        headers={"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{scope}"'},
    )


def requires_scope(scope: str) -> Callable[[Handler], Handler]:
    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def checked(request: Request) -> Response:
            if not has_scope(request, scope):
                return insufficient_scope(scope)
            return await handler(request)

        return checked

    return decorate
'''

TEST_SCOPES = r'''"""Scope checks on handlers."""

from __future__ import annotations

import pytest
from starlette.authentication import AuthCredentials
from starlette.requests import Request
from starlette.responses import PlainTextResponse

from acme_billing.auth.scopes import has_scope, requires_scope


def request_with(scopes: list[str]) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": [],
                    "auth": AuthCredentials(scopes)})


@pytest.mark.parametrize(
    ("granted", "needed", "allowed"),
    [
        (["invoices:read"], "invoices:read", True),
        (["invoices:read"], "invoices:write", False),
        (["invoices:*"], "invoices:write", True),
        (["payments:*"], "invoices:read", False),
    ],
)
def test_has_scope(granted: list[str], needed: str, allowed: bool) -> None:
    assert has_scope(request_with(granted), needed) is allowed


async def ok(request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


@pytest.mark.anyio
async def test_missing_scope_gets_403_with_a_hint() -> None:
    response = await requires_scope("invoices:write")(ok)(request_with(["invoices:read"]))
    assert response.status_code == 403
    assert 'scope="invoices:write"' in response.headers["www-authenticate"]


@pytest.mark.anyio
async def test_granted_scope_reaches_the_handler() -> None:
    response = await requires_scope("invoices:read")(ok)(request_with(["invoices:read"]))
    assert response.status_code == 200
'''

INVOICE_ROUTES = r'''"""HTTP routes of the invoices domain that are not plain JSON."""

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
'''

TEST_INVOICE_ROUTES = r'''"""GET /invoices/{id}.pdf through a small app."""

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
'''

CODEX_TEST_GATEWAY = r"""from __future__ import annotations

import pytest

from acme_billing.soap.gateway import handle_envelope

EMPTY = b'<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>'


def test_empty_body_is_rejected() -> None:
    with pytest.raises(ValueError, match="empty SOAP body"):
        handle_envelope(EMPTY)
"""

REVOCATION = r'''"""Revoked tokens: a denylist of token ids in Redis, kept until the token expires anyway."""

from __future__ import annotations

import time
from typing import Protocol

from acme_billing.auth.jwt_tokens import Claims

KEY_PREFIX = "acme:revoked-jti:"


class RedisLike(Protocol):
    def set(self, name: str, value: str, ex: int | None = None) -> object: ...
    def exists(self, *names: str) -> int: ...


def revoke(redis: RedisLike, claims: Claims, *, now: float | None = None) -> None:
    """Deny ``claims.token_id`` until its expiry; after that its ``exp`` refuses it."""
    remaining = claims.expires_at - int(time.time() if now is None else now)
    if remaining > 0:
        redis.set(KEY_PREFIX + claims.token_id, "1", ex=remaining)


def is_revoked(redis: RedisLike, claims: Claims) -> bool:
    if not claims.token_id:
        return True  # a token without a jti could never be revoked: refuse it
    return bool(redis.exists(KEY_PREFIX + claims.token_id))
'''

TEST_REVOCATION = r'''"""The revocation denylist, against a dict-backed fake Redis."""

from __future__ import annotations

from acme_billing.auth.jwt_tokens import Claims
from acme_billing.auth.revocation import KEY_PREFIX, is_revoked, revoke


class FakeRedis:
    def __init__(self) -> None:
        self.values: dict[str, tuple[str, int | None]] = {}

    def set(self, name: str, value: str, ex: int | None = None) -> bool:
        self.values[name] = (value, ex)
        return True

    def exists(self, *names: str) -> int:
        return sum(name in self.values for name in names)


def claims(token_id: str = "jti-1", expires_at: int = 1_000) -> Claims:
    return Claims("user-42", "acct-7", ("invoices:read",), expires_at, token_id)


def test_revoked_token_is_denied_until_it_expires() -> None:
    redis = FakeRedis()
    revoke(redis, claims(), now=400)
    assert is_revoked(redis, claims())
    assert redis.values[KEY_PREFIX + "jti-1"] == ("1", 600)


def test_an_expired_token_needs_no_entry() -> None:
    redis = FakeRedis()
    revoke(redis, claims(expires_at=100), now=400)
    assert redis.values == {}


def test_a_token_without_an_id_counts_as_revoked() -> None:
    assert is_revoked(FakeRedis(), claims(token_id=""))


def test_other_tokens_are_not_affected() -> None:
    redis = FakeRedis()
    revoke(redis, claims("jti-1"), now=0)
    assert not is_revoked(redis, claims("jti-2"))
'''

# ---------------------------------------------------------------------------------------------
# Determinism: a fake clock, seeded ids, and the product's clock defaults pointed at them.
# ---------------------------------------------------------------------------------------------


class Clock:
    """Milliseconds since the epoch, moved forward only by the story."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.ms = self._at(9, 0) * 1000

    @staticmethod
    def _at(hour: int, minute: int) -> int:
        return calendar.timegm((*DAY, hour, minute, 0, 0, 0, 0))

    def __call__(self) -> float:
        return self.ms / 1000

    def advance(self, low: float, high: float) -> None:
        self.ms += int(self.rng.uniform(low, high) * 1000)

    def at(self, hhmm: str) -> None:
        """Jump to a wall-clock time of the day (plus a few seconds, as people are)."""
        hour, minute = (int(part) for part in hhmm.split(":"))
        target = self._at(hour, minute) * 1000 + self.rng.randint(0, 20_000)
        if target < self.ms:
            raise RuntimeError(f"the story went back in time to {hhmm}")
        self.ms = target

    def hhmm(self) -> str:
        return time.strftime("%H:%M:%S", time.gmtime(self.ms // 1000))


@contextlib.contextmanager
def patched_product(clock: Clock, rng: random.Random) -> Iterator[None]:
    """Point every clock and random id the product uses at ours, for the duration.

    ``WorkspaceState`` and ``Ledger`` bind ``time.time`` as a default argument, so patching
    ``time.time`` alone would not reach them: their keyword defaults are patched too. The
    ledger is not fsync-ed: this is a scratch workspace, and it keeps the run fast.
    """
    state_defaults = WorkspaceState.__init__.__kwdefaults__
    ledger_defaults = Ledger.__init__.__kwdefaults__
    if state_defaults is None or ledger_defaults is None:
        raise StoryError("WorkspaceState or Ledger no longer takes a keyword clock")
    saved = {
        "time": time.time,
        "request_id": approvals_store.new_request_id,
        "state": dict(state_defaults),
        "ledger": dict(ledger_defaults),
    }

    def request_id(now: float) -> str:
        return f"apr-{int(now * 1000):013d}-{rng.getrandbits(24):06x}"

    setattr(time, "time", clock)
    setattr(approvals_store, "new_request_id", request_id)
    state_defaults["clock"] = clock
    ledger_defaults.update(clock=clock, durable=False)
    try:
        yield
    finally:
        setattr(time, "time", saved["time"])
        setattr(approvals_store, "new_request_id", saved["request_id"])
        state_defaults.clear()
        state_defaults.update(saved["state"])  # type: ignore[call-overload]
        ledger_defaults.clear()
        ledger_defaults.update(saved["ledger"])  # type: ignore[call-overload]


# ---------------------------------------------------------------------------------------------
# The actors: agents talking to the gate, humans using the handshake API.
# ---------------------------------------------------------------------------------------------


# Where an agent adds the next piece of a file: top-level blocks (two blank lines) and
# methods (one blank line, then an indented def or decorator).
BLOCK_BOUNDARY = re.compile(r"(\n\n\n|\n\n(?=    (?:async def |def |@)))")


def unique_tail(text: str) -> str:
    """The shortest run of whole last lines (at least two) that occurs once in ``text``."""
    lines = text.splitlines(keepends=True)
    for count in range(2, len(lines) + 1):
        tail = "".join(lines[-count:])
        if text.count(tail) == 1 and tail.strip():
            return tail
    return text


class StoryError(RuntimeError):
    """The product answered differently from what the story expects: fix one of them."""


class Sim:
    """The scratch workspace, the clock and the ledger's growth."""

    def __init__(self, root: Path, home: Path, rng: random.Random) -> None:
        self.root = root
        self.home = home
        self.rng = rng
        self.clock = Clock(rng)
        self.environ = {"PAW_USER_HOME": str(home), "HOME": str(home)}

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def state(self) -> WorkspaceState:
        return WorkspaceState(str(self.root), clock=self.clock)

    def last_event(self) -> str | None:
        records = self.state().ledger.tail(1).records
        return str(records[-1]["event"]) if records else None

    # -- the files the tools change --

    def path(self, rel: str) -> Path:
        return self.root / rel

    def read(self, rel: str) -> str:
        return self.path(rel).read_text(encoding="utf-8")

    def write(self, rel: str, content: str) -> None:
        target = self.path(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8"))

    def remove(self, *rels: str) -> None:
        for rel in rels:
            self.path(rel).unlink()


class Agent:
    """One Claude Code session: every call goes through the gate as a hook payload."""

    client = "claude-code"

    def __init__(self, sim: Sim, name: str) -> None:
        self.sim = sim
        self.name = name
        self.session_id = sim.uuid()
        self.transcript = (
            f"/home/dev/.claude/projects/-home-dev-acme-billing/{self.session_id}.jsonl"
        )

    # -- the hook protocol --

    def _base(self, event: str) -> dict[str, object]:
        return {
            "session_id": self.session_id,
            "transcript_path": self.transcript,
            "cwd": str(self.sim.root),
            "permission_mode": "acceptEdits",
            "hook_event_name": event,
        }

    def send(self, payload: dict[str, object]) -> Answer:
        raw = json.dumps(payload).encode("utf-8")
        return decide_payload(
            raw, client=self.client, workspaces=[str(self.sim.root)], environ=self.sim.environ
        )

    def start(self, source: str = "startup") -> None:
        self.sim.clock.advance(1, 4)
        self.send(dict(self._base("SessionStart"), source=source))

    def prompt(self, text: str) -> None:
        self.sim.clock.advance(20, 90)
        self.send(dict(self._base("UserPromptSubmit"), prompt=text))

    def end(self, reason: str = "prompt_input_exit") -> None:
        self.sim.clock.advance(10, 60)
        self.send(dict(self._base("SessionEnd"), reason=reason))

    def _tool_use_id(self) -> str:
        return "toolu_01" + "".join(
            self.sim.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789")
            for _ in range(22)
        )

    def tool(
        self,
        name: str,
        tool_input: dict[str, object],
        *,
        expect: str,
        effect: Callable[[], dict[str, object]] | None = None,
        post: bool = True,
        think: tuple[float, float] = (6, 50),
    ) -> Answer:
        """PreToolUse; when allowed, carry the tool out and send PostToolUse."""
        self.sim.clock.advance(*think)
        tool_use_id = self._tool_use_id()
        pre = dict(
            self._base("PreToolUse"), tool_name=name, tool_input=tool_input, tool_use_id=tool_use_id
        )
        answer = self.send(pre)
        verdict = "allow" if answer.exit_code == 0 else "deny"
        if verdict != expect:
            raise StoryError(
                f"{self.sim.clock.hhmm()} {self.name}: {name} {tool_input.get('file_path') or tool_input.get('command') or ''}"
                f" was {verdict}ed, the story expects {expect}: {answer.stderr.strip()}"
            )
        if verdict == "allow" and post:
            self.sim.clock.advance(0.4, 6)
            response = effect() if effect is not None else {}
            self.send(
                dict(
                    self._base("PostToolUse"),
                    tool_name=name,
                    tool_input=tool_input,
                    tool_response=response,
                    tool_use_id=tool_use_id,
                )
            )
        return answer

    # -- the tools --

    def read(self, rel: str) -> None:
        # Read-only: the gate allows it without a record (log_reads is off).
        self.tool(
            "Read",
            {"file_path": str(self.sim.path(rel))},
            expect="allow",
            post=False,
            think=(3, 15),
        )

    def write(self, rel: str, content: str, *, expect: str = "allow") -> None:
        def effect() -> dict[str, object]:
            self.sim.write(rel, content)
            return {"type": "create", "filePath": str(self.sim.path(rel)), "content": content}

        self.tool(
            "Write",
            {"file_path": str(self.sim.path(rel)), "content": content},
            expect=expect,
            effect=effect,
            think=(30, 150),
        )

    def edit(
        self, rel: str, old: str, new: str, *, expect: str = "allow", replace_all: bool = False
    ) -> None:
        if expect == "allow":
            found = self.sim.read(rel).count(old)
            if found != 1 and not (replace_all and found):
                raise StoryError(f"Edit of {rel}: old_string found {found} times")

        def effect() -> dict[str, object]:
            text = self.sim.read(rel)
            updated = text.replace(old, new) if replace_all else text.replace(old, new, 1)
            self.sim.write(rel, updated)
            return {"filePath": str(self.sim.path(rel)), "oldString": old, "newString": new}

        tool_input: dict[str, object] = {
            "file_path": str(self.sim.path(rel)),
            "old_string": old,
            "new_string": new,
        }
        if replace_all:
            tool_input["replace_all"] = True
        self.tool("Edit", tool_input, expect=expect, effect=effect, think=(15, 120))

    def multi_edit(self, rel: str, edits: list[tuple[str, str]]) -> None:
        def effect() -> dict[str, object]:
            text = self.sim.read(rel)
            for old, new in edits:
                if text.count(old) != 1:
                    raise StoryError(f"MultiEdit of {rel}: {old!r} is not unique")
                text = text.replace(old, new, 1)
            self.sim.write(rel, text)
            return {"filePath": str(self.sim.path(rel))}

        self.tool(
            "MultiEdit",
            {
                "file_path": str(self.sim.path(rel)),
                "edits": [{"old_string": o, "new_string": n} for o, n in edits],
            },
            expect="allow",
            effect=effect,
            think=(30, 120),
        )

    def bash(
        self,
        command: str,
        description: str,
        *,
        expect: str = "allow",
        effect: Callable[[], None] | None = None,
        stdout: str = "",
    ) -> None:
        def run() -> dict[str, object]:
            if effect is not None:
                effect()
            return {"stdout": stdout, "stderr": "", "interrupted": False}

        self.tool(
            "Bash",
            {"command": command, "description": description},
            expect=expect,
            effect=run,
            think=(5, 40),
        )

    def mcp(self, tool: str, arguments: dict[str, object]) -> None:
        self.tool(f"mcp__paw__{tool}", arguments, expect="allow", post=False, think=(2, 10))

    def select(self, intent_id: str, *, outcome: str) -> None:
        """``select_active_intent`` through the gate; ``outcome`` is the expected record."""
        expect = "deny" if outcome == "selection_refused" else "allow"
        self.tool(
            "mcp__paw__select_active_intent",
            {"intent_id": intent_id},
            expect=expect,
            post=False,
            think=(4, 20),
        )
        if self.sim.last_event() != outcome:
            raise StoryError(
                f"selecting {intent_id} recorded {self.sim.last_event()}, not {outcome}"
            )

    # -- writing a file the way an agent does: a skeleton, then one block at a time --

    def develop(self, rel: str, final: str, *, drafts: dict[str, str] | None = None) -> None:
        """Write the first block of ``final``, then add each next top-level block or method
        with an Edit anchored on the file's last lines. ``drafts`` maps final text to a
        first, buggy version the agent fixes later with :meth:`fix`."""
        for good, bad in (drafts or {}).items():
            if final.count(good) != 1:
                raise StoryError(f"draft text for {rel} is not unique: {good!r}")
            final = final.replace(good, bad)
        pieces = BLOCK_BOUNDARY.split(final.rstrip("\n"))
        self.write(rel, pieces[0] + "\n")
        for separator, piece in zip(pieces[1::2], pieces[2::2], strict=False):
            anchor = unique_tail(self.sim.read(rel))
            self.edit(rel, anchor, anchor.rstrip("\n") + separator + piece + "\n")

    def fix(self, rel: str, drafts: dict[str, str]) -> None:
        for good, bad in drafts.items():
            self.edit(rel, bad, good)


class GenericAgent(Agent):
    """A custom agent loop (here Codex behind a wrapper) on the gate's generic protocol."""

    client = "generic"

    def _event(self, event: str, **fields: object) -> dict[str, object]:
        return dict(
            {"event": event, "session_id": self.session_id, "cwd": str(self.sim.root)}, **fields
        )

    def start(self, source: str = "startup") -> None:
        self.sim.clock.advance(1, 4)
        self.send(self._event("session_start"))

    def prompt(self, text: str) -> None:
        self.sim.clock.advance(20, 90)
        self.send(self._event("prompt", prompt=text))

    def end(self, reason: str = "exit") -> None:
        self.sim.clock.advance(10, 60)
        self.send(self._event("session_end"))

    def call(
        self,
        tool: str,
        *,
        expect: str,
        paths: list[str] | None = None,
        command: str | None = None,
        effect: Callable[[], None] | None = None,
        tool_input: dict[str, object] | None = None,
    ) -> None:
        self.sim.clock.advance(8, 60)
        fields: dict[str, object] = {"tool": tool}
        if paths:
            fields["paths"] = paths
        if command:
            fields["command"] = command
        if tool_input:
            fields["tool_input"] = tool_input
        answer = self.send(self._event("pre_tool", **fields))
        verdict = "allow" if answer.exit_code == 0 else "deny"
        if verdict != expect:
            raise StoryError(
                f"{self.name}: {tool} {paths or command} was {verdict}ed: {answer.stdout}"
            )
        if verdict == "allow" and tool != "select_active_intent":
            self.sim.clock.advance(0.5, 5)
            if effect is not None:
                effect()
            self.send(self._event("post_tool", **fields))

    def select(self, intent_id: str, *, outcome: str) -> None:
        expect = "deny" if outcome == "selection_refused" else "allow"
        self.call("select_active_intent", expect=expect, tool_input={"intent_id": intent_id})
        if self.sim.last_event() != outcome:
            raise StoryError(
                f"selecting {intent_id} recorded {self.sim.last_event()}, not {outcome}"
            )


class Human:
    """A developer in the TUI or at the CLI: approvals, status changes, releases."""

    def __init__(self, sim: Sim, name: str) -> None:
        self.sim = sim
        self.name = name

    def _pending_request(self, agent: Agent) -> str:
        request = handshake.request_for_session(str(self.sim.root), agent.session_id)
        if request is None:
            raise StoryError(f"no pending approval for session {agent.session_id}")
        return request.id

    def approve(self, agent: Agent, *, after: tuple[float, float] = (40, 240)) -> None:
        self.sim.clock.advance(*after)
        handshake.decide_approval(
            self.sim.state(), self._pending_request(agent), True, by=self.name
        )

    def reject(self, agent: Agent, *, after: tuple[float, float] = (60, 300)) -> None:
        self.sim.clock.advance(*after)
        handshake.decide_approval(
            self.sim.state(), self._pending_request(agent), False, by=self.name
        )

    def set_status(self, intent_id: str, status: str) -> None:
        self.sim.clock.advance(5, 30)
        handshake.set_intent_status(self.sim.state(), intent_id, status, by=self.name)

    def release(self, agent: Agent) -> None:
        self.sim.clock.advance(20, 90)
        handshake.release_session(
            self.sim.state(),
            agent.session_id,
            reason=f"released by {self.name} (paw-tui sessions release)",
        )


# ---------------------------------------------------------------------------------------------
# The day.
# ---------------------------------------------------------------------------------------------

PYTEST_OK = "........                                                                 [100%]\n8 passed in 0.61s\n"


def morning_logging(sim: Sim, maria: Human) -> None:
    """09:04-10:10, Claude Code: structured request logging (INT-005), then COMPLETED."""
    sim.clock.at("09:04")
    agent = Agent(sim, "Claude Code")
    agent.start()
    agent.prompt(
        "Add structured JSON request logging (INT-005): one line per request with "
        "method, path, status, duration and a request id."
    )
    agent.mcp(
        "paw_get_context", {"feature_slug": "jwt-auth-migration", "agent_name": "Claude Code"}
    )
    agent.read("src/acme_billing/app.py")
    agent.read("src/acme_billing/observability/__init__.py")
    # Straight to work, before the handshake: denied, with the list of intents.
    agent.write("src/acme_billing/observability/json_logging.py", JSON_LOGGING, expect="deny")
    agent.mcp("list_intents", {})
    agent.select("INT-005", outcome="approval_requested")
    agent.write("src/acme_billing/observability/json_logging.py", JSON_LOGGING, expect="deny")
    maria.approve(agent)

    redact_bug = {"key.lower() in SENSITIVE_KEYS": "key in SENSITIVE_KEYS"}
    agent.develop("src/acme_billing/observability/json_logging.py", JSON_LOGGING, drafts=redact_bug)
    # (`mkdir tests/observability` would be denied: "tests/observability/**" covers what is
    # inside the directory, not the directory itself, so the agent writes the file directly.)
    agent.write("tests/observability/__init__.py", "")
    agent.develop("tests/observability/test_json_logging.py", TEST_JSON_LOGGING)
    agent.bash(
        "pytest tests/observability -q",
        "Run the logging tests",
        stdout="..F....\nFAILED tests/observability/test_json_logging.py::"
        "test_sensitive_keys_are_redacted[Authorization]\n1 failed, 6 passed\n",
    )
    agent.fix("src/acme_billing/observability/json_logging.py", redact_bug)
    agent.bash("pytest tests/observability -q", "Run the logging tests again", stdout=PYTEST_OK)

    agent.write(
        "src/acme_billing/middleware/__init__.py", '"""ASGI middleware shared by every route."""\n'
    )
    agent.develop("src/acme_billing/middleware/request_log.py", REQUEST_LOG)
    agent.edit(
        "src/acme_billing/app.py",
        "from acme_billing.invoices.service import get_invoice, list_invoices\n",
        "from acme_billing.invoices.service import get_invoice, list_invoices\n"
        "from acme_billing.middleware.request_log import RequestLogMiddleware\n"
        "from acme_billing.observability.json_logging import configure as configure_logging\n",
    )
    agent.edit(
        "src/acme_billing/app.py",
        "middleware = [\n",
        "middleware = [\n    Middleware(RequestLogMiddleware),\n",
    )
    agent.edit(
        "src/acme_billing/app.py",
        "app = Starlette(",
        "configure_logging(settings.log_level)\napp = Starlette(",
    )
    agent.develop("tests/observability/test_request_log.py", TEST_REQUEST_LOG)
    agent.bash("pytest tests/observability -q", "Run the logging tests", stdout=PYTEST_OK)
    agent.bash(
        "ruff check src/acme_billing/observability src/acme_billing/middleware",
        "Lint the new modules",
        stdout="All checks passed!\n",
    )
    # Documentation is not in INT-005's scope.
    agent.edit(
        "README.md",
        "Read docs/CONVENTIONS.md before you change code.\n",
        "Read docs/CONVENTIONS.md before you change code.\n\nLogs are JSON lines on stdout.\n",
        expect="deny",
    )
    agent.prompt("Also make sure Set-Cookie never reaches the logs.")
    agent.read("src/acme_billing/observability/json_logging.py")
    agent.bash(
        "pytest tests/observability -q -k redact",
        "Run the redaction tests",
        stdout="....\n4 passed in 0.12s\n",
    )
    agent.end()
    sim.clock.advance(120, 300)
    maria.set_status("INT-005", "COMPLETED")


def jwt_part_one(sim: Sim, maria: Human) -> None:
    """10:12-11:58, Claude Code: JWT tokens and keys (INT-001)."""
    sim.clock.at("10:12")
    agent = Agent(sim, "Claude Code")
    agent.start()
    agent.prompt(
        "Start the JWT migration (INT-001): token issuing and verification as "
        "docs/auth.md and ADR 0007 describe. Keys first."
    )
    agent.mcp(
        "paw_get_context", {"feature_slug": "jwt-auth-migration", "agent_name": "Claude Code"}
    )
    agent.read("docs/auth.md")
    agent.read("docs/adr/0007-jwt-auth.md")
    agent.read("src/acme_billing/auth/middleware.py")
    agent.select("INT-001", outcome="approval_requested")
    maria.approve(agent)

    agent.develop("src/acme_billing/auth/keys.py", KEYS)
    agent.develop("tests/auth/test_keys.py", TEST_KEYS)
    agent.bash(
        "pytest tests/auth/test_keys.py -q",
        "Run the key ring tests",
        stdout="....\n4 passed in 0.09s\n",
    )
    algorithms_bug = {"algorithms=[ALGORITHM]": "algorithms=ALGORITHM"}
    agent.develop("src/acme_billing/auth/jwt_tokens.py", JWT_TOKENS, drafts=algorithms_bug)
    agent.develop("tests/auth/test_jwt_tokens.py", TEST_JWT_TOKENS)
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="..FFFF....\n4 failed, 6 passed: InvalidAlgorithmError\n",
    )
    agent.read("src/acme_billing/auth/jwt_tokens.py")
    agent.fix("src/acme_billing/auth/jwt_tokens.py", algorithms_bug)
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests again",
        stdout="..........\n10 passed in 1.84s\n",
    )
    agent.prompt(
        "Now the token endpoint: client-credentials grant, partners authenticate "
        "with their existing Basic secret."
    )
    agent.develop("src/acme_billing/auth/token_endpoint.py", TOKEN_ENDPOINT)
    agent.develop("tests/auth/test_token_endpoint.py", TEST_TOKEN_ENDPOINT)
    agent.bash(
        "pytest tests/auth/test_token_endpoint.py -q",
        "Run the token endpoint tests",
        stdout=".......\n7 passed in 1.02s\n",
    )
    # The legacy module is carved out of the scope, and the intents file is protected.
    agent.edit(
        "src/acme_billing/auth/legacy/basic_auth.py",
        '"""Check HTTP Basic credentials against the api_credentials table."""\n',
        '"""Check HTTP Basic credentials against the api_credentials table.\n\n'
        'Deprecated: use JWT bearer tokens (docs/auth.md).\n"""\n',
        expect="deny",
    )
    agent.edit(
        ".orchestration/active_intents.yaml",
        "    name: JWT Authentication Migration\n    status: IN_PROGRESS\n",
        "    name: JWT Authentication Migration\n    status: COMPLETED\n",
        expect="deny",
    )
    agent.prompt("While you're there, can you start on the rate limiter too?")
    agent.select("INT-003", outcome="selection_refused")  # locked to INT-001
    agent.edit(
        "src/acme_billing/auth/__init__.py",
        '"""Authentication of partner API requests."""\n',
        '"""Authentication of partner API requests: JWT bearer tokens, and Basic Auth '
        'while\nACME_LEGACY_AUTH is on."""\n',
    )
    agent.bash(
        "ruff check src/acme_billing/auth tests/auth && ruff format --check src/acme_billing/auth",
        "Lint the auth package",
        stdout="All checks passed!\n",
    )
    agent.end()


def codex_cleanup(sim: Sim, jonas: Human) -> None:
    """12:05-12:40, Codex over the generic protocol: SOAP cleanup (INT-004), ABANDONED."""
    sim.clock.at("12:05")
    agent = GenericAgent(sim, "Codex")
    agent.start()
    agent.prompt(
        "Remove the WSDL cache from the SOAP gateway (INT-004); nothing has used it since 2024."
    )
    agent.call("write_file", expect="deny", paths=["src/acme_billing/soap/__init__.py"])
    agent.select("INT-004", outcome="approval_requested")
    jonas.approve(agent)
    agent.call("execute_command", expect="allow", command="pytest tests/soap -q")
    agent.call(
        "write_file",
        expect="allow",
        paths=["src/acme_billing/soap/__init__.py"],
        effect=lambda: sim.write("src/acme_billing/soap/__init__.py", CODEX_SOAP_INIT),
    )
    agent.call(
        "write_file",
        expect="allow",
        paths=["src/acme_billing/soap/gateway.py"],
        effect=lambda: sim.write("src/acme_billing/soap/gateway.py", CODEX_GATEWAY),
    )
    agent.call(
        "execute_command",
        expect="allow",
        command="rm src/acme_billing/soap/wsdl_cache.py tests/soap/test_wsdl_cache.py",
        effect=lambda: sim.remove(
            "src/acme_billing/soap/wsdl_cache.py", "tests/soap/test_wsdl_cache.py"
        ),
    )
    agent.call("execute_command", expect="allow", command="grep -rn wsdl_cache src tests")
    agent.call(
        "write_file",
        expect="allow",
        paths=["tests/soap/test_gateway.py"],
        effect=lambda: sim.write("tests/soap/test_gateway.py", CODEX_TEST_GATEWAY),
    )
    agent.call("execute_command", expect="allow", command="pytest tests/soap -q")
    # A partner call changes the plan: the gateway stays until Q1.
    sim.clock.at("12:31")
    jonas.set_status("INT-004", "ABANDONED")
    agent.call("write_file", expect="deny", paths=["src/acme_billing/soap/client.py"])
    agent.call("execute_command", expect="deny", command="rm -r src/acme_billing/soap/schemas")
    jonas.release(agent)


def invoices_part_one(sim: Sim, maria: Human) -> Agent:
    """13:02-14:30, Claude Code: invoice PDF export (INT-002)."""
    sim.clock.at("13:02")
    agent = Agent(sim, "Claude Code")
    agent.start()
    agent.prompt("Implement the invoice PDF export (INT-002) with WeasyPrint, PDF/A-3b.")
    agent.mcp(
        "paw_get_context", {"feature_slug": "invoice-pdf-export", "agent_name": "Claude Code"}
    )
    agent.read("docs/invoices.md")
    agent.read("src/acme_billing/invoices/models.py")
    agent.select("INT-002", outcome="approval_requested")
    maria.approve(agent)
    agent.bash(
        "pip install 'weasyprint==62.3'",
        "Install WeasyPrint",
        stdout="Successfully installed weasyprint-62.3\n",
    )
    agent.develop("src/acme_billing/invoices/fonts.py", FONTS)
    agent.write("src/acme_billing/invoices/templates/invoice.html", INVOICE_HTML)
    float_bug = {'(Decimal(cents) / 100).quantize(Decimal("0.01"))': "cents / 100"}
    agent.develop("src/acme_billing/invoices/pdf_export.py", PDF_EXPORT, drafts=float_bug)
    agent.develop("tests/invoices/test_pdf_export.py", TEST_PDF_EXPORT)
    agent.bash(
        "pytest tests/invoices -q",
        "Run the invoice tests",
        stdout="F...F..\nFAILED test_format_cents[5-0.05 EUR]: '0.05 EUR' != '0.05 EUR'\n",
    )
    agent.fix("src/acme_billing/invoices/pdf_export.py", float_bug)
    agent.bash(
        "pytest tests/invoices -q",
        "Run the invoice tests again",
        stdout="........\n8 passed in 3.40s\n",
    )
    # The model is carved out of the scope; so is configuration, and .env is protected.
    agent.edit(
        "src/acme_billing/invoices/models.py",
        '    status: str = "open"\n',
        '    status: str = "open"\n    pdf_url: str | None = None\n',
        expect="deny",
    )
    agent.write(".env", "ACME_PDF_FONT_DIR=/usr/share/fonts/inter\n", expect="deny")
    agent.edit(
        "src/acme_billing/invoices/service.py",
        "from acme_billing.invoices.models import Invoice\n",
        "from acme_billing.invoices.models import Invoice\n"
        "from acme_billing.invoices.pdf_export import render_pdf\n",
    )
    agent.edit(
        "src/acme_billing/invoices/service.py",
        "    return invoice\n",
        "    return invoice\n\n\ndef invoice_pdf(account_id: str, number: str) -> bytes:\n"
        "    return render_pdf(get_invoice(account_id, number))\n",
    )
    agent.bash("pytest tests/invoices -q", "Run the invoice tests", stdout=PYTEST_OK)
    agent.develop("src/acme_billing/invoices/routes.py", INVOICE_ROUTES)
    agent.develop("tests/invoices/test_routes.py", TEST_INVOICE_ROUTES)
    agent.bash(
        "pytest tests/invoices -q",
        "Run the invoice tests",
        stdout="..........\n10 passed in 3.62s\n",
    )
    return agent


def webhooks_rejected(sim: Sim, jonas: Human) -> None:
    """13:55-14:05, Claude Code in a second terminal: webhooks (INT-006), rejected."""
    sim.clock.at("13:55")
    agent = Agent(sim, "Claude Code")
    agent.start()
    agent.prompt("Add retries with exponential backoff to webhook delivery (INT-006).")
    agent.select("INT-006", outcome="approval_requested")
    agent.write("src/acme_billing/webhooks/retry.py", '"""Webhook retries."""\n', expect="deny")
    # INT-006 depends on the rate limiter, which has not started.
    jonas.reject(agent)
    agent.write("src/acme_billing/webhooks/retry.py", '"""Webhook retries."""\n', expect="deny")
    agent.select("INT-002", outcome="selection_refused")  # held by the invoice session
    agent.end()


def invoices_part_two(sim: Sim, agent: Agent, maria: Human) -> None:
    """14:10-14:45: more PDF work, then a human BLOCKs INT-002 (font licence)."""
    sim.clock.at("14:10")
    agent.prompt("Totals must stay on the last page; add a page-break rule and a test.")
    agent.edit(
        "src/acme_billing/invoices/templates/invoice.html",
        ".total { font-weight: bold; page-break-inside: avoid; }\n",
        ".total { font-weight: bold; page-break-inside: avoid; }\n"
        "tfoot { display: table-row-group; }\n"
        "thead { display: table-header-group; }\n",
    )
    agent.edit(
        "src/acme_billing/invoices/templates/invoice.html",
        "  <p>Issued $issued &middot; Due $due</p>\n",
        "  <p>Issued $issued &middot; Due $due</p>\n  <p class=muted>Amounts in $currency</p>\n",
    )
    agent.bash(
        "pytest tests/invoices -q",
        "Run the invoice tests",
        stdout="FFF.....\nKeyError: 'currency'\n",
    )
    agent.edit(
        "src/acme_billing/invoices/templates/invoice.html",
        "  <p class=muted>Amounts in $currency</p>\n",
        "",
    )
    agent.bash("pytest tests/invoices -q", "Run the invoice tests", stdout=PYTEST_OK)
    agent.write(
        "src/acme_billing/invoices/fonts/README.md",
        "Inter (Regular, SemiBold) as WOFF2, embedded in every invoice PDF.\n"
        "Licence: SIL Open Font License 1.1; see docs/invoices.md.\n",
    )
    sim.clock.at("14:40")
    maria.set_status("INT-002", "BLOCKED")  # legal has not cleared embedding Inter
    agent.bash(
        "curl -L -o src/acme_billing/invoices/fonts/Inter-Regular.woff2 "
        "https://rsms.me/inter/font-files/Inter-Regular.woff2",
        "Download the Inter font",
        expect="deny",
    )
    agent.end()


def jwt_part_two(sim: Sim, maria: Human) -> Agent:
    """15:08-16:45, Claude Code resumes INT-001: the middleware, rotation docs, RS256."""
    sim.clock.at("15:08")
    agent = Agent(sim, "Claude Code")
    agent.start(source="resume")
    agent.prompt(
        "Continue INT-001: accept Bearer tokens in the middleware, keep Basic Auth "
        "behind ACME_LEGACY_AUTH, and document key rotation."
    )
    agent.select("INT-001", outcome="approval_requested")
    maria.approve(agent)
    agent.read("src/acme_billing/auth/middleware.py")
    path = "src/acme_billing/auth/middleware.py"
    agent.edit(
        path,
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n",
        "from acme_billing.auth.jwt_tokens import TokenError, verify_token\n"
        "from acme_billing.auth.keys import KeyRing, load_key_ring\n"
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n"
        "from acme_billing.config import settings\n",
    )
    agent.edit(
        path,
        'PUBLIC_PATHS = frozenset({"/health"})\n',
        'PUBLIC_PATHS = frozenset({"/health"})\n\n\n'
        "def key_ring() -> KeyRing:\n"
        "    return load_key_ring(settings.jwt_keys_dir, settings.jwt_issuer)\n\n\n"
        "def legacy_auth_enabled() -> bool:\n"
        "    return settings.legacy_auth\n",
    )
    agent.edit(
        path,
        "        return self.user_id\n",
        "        return self.user_id\n\n\n"
        "class BearerAuthBackend(AuthenticationBackend):\n"
        "    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:\n"
        '        header = conn.headers.get("authorization", "")\n'
        '        if not header.lower().startswith("bearer "):\n'
        "            return None\n"
        "        try:\n"
        "            claims = verify_token(key_ring(), header[7:].strip())\n"
        "        except TokenError as exc:\n"
        "            raise AuthenticationError(exc.reason) from None\n"
        "        return AuthCredentials(list(claims.scopes)), ApiUser(claims.subject, claims.account_id)\n",
    )
    agent.develop("tests/auth/test_middleware.py", TEST_MIDDLEWARE)
    agent.bash(
        "pytest tests/auth/test_middleware.py -q",
        "Run the middleware tests",
        stdout="EEEE\nAttributeError: module has no attribute 'ApiAuthMiddleware'\n",
    )
    agent.edit(
        path,
        'def BasicAuthMiddleware(app: ASGIApp, realm: str = "acme-billing") -> ASGIApp:  # noqa: N802\n'
        '    """Used like a middleware class in app.py."""\n'
        "    return AuthenticationMiddleware(app, backend=BasicAuthBackend())\n",
        "class ApiAuthBackend(AuthenticationBackend):\n"
        '    """Bearer tokens; Basic Auth too while ACME_LEGACY_AUTH is on."""\n\n'
        "    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:\n"
        "        if conn.url.path in PUBLIC_PATHS:\n"
        "            return None\n"
        "        found = await BearerAuthBackend().authenticate(conn)\n"
        "        if found is not None:\n"
        "            return found\n"
        "        if legacy_auth_enabled():\n"
        "            return await BasicAuthBackend().authenticate(conn)\n"
        '        raise AuthenticationError("missing bearer token")\n\n\n'
        'def ApiAuthMiddleware(app: ASGIApp, realm: str = "acme-billing") -> ASGIApp:  # noqa: N802\n'
        '    """Used like a middleware class in app.py."""\n'
        "    return AuthenticationMiddleware(app, backend=ApiAuthBackend())\n\n\n"
        "BasicAuthMiddleware = ApiAuthMiddleware  # app.py still imports the old name\n",
    )
    agent.bash(
        "pytest tests/auth -q", "Run the auth tests", stdout="..............\n14 passed in 2.31s\n"
    )
    # Switching app.py to the new name is outside INT-001: ask for a scope expansion instead.
    agent.edit(
        "src/acme_billing/app.py",
        "from acme_billing.auth.middleware import BasicAuthMiddleware\n",
        "from acme_billing.auth.middleware import ApiAuthMiddleware\n",
        expect="deny",
    )
    agent.prompt("Fine, leave app.py. Add scope checks for handlers next.")
    agent.develop("src/acme_billing/auth/scopes.py", SCOPES)
    agent.develop("tests/auth/test_scopes.py", TEST_SCOPES)
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="......................\n22 passed in 2.40s\n",
    )
    agent.bash(
        "ruff check src/acme_billing/auth tests/auth",
        "Lint the auth package",
        stdout="All checks passed!\n",
    )
    return agent


def jwt_part_three(sim: Sim, agent: Agent) -> None:
    """17:00-17:29: the same session, still running at the end of the day."""
    sim.clock.at("17:00")
    agent.prompt("ADR 0007 says RS256. Switch the algorithm and document key rotation.")
    agent.bash(
        'sed -i \'s/ALGORITHM = "HS256"/ALGORITHM = "RS256"/\' src/acme_billing/auth/jwt_tokens.py',
        "Switch the signing algorithm to RS256",
        effect=lambda: sim.write(
            "src/acme_billing/auth/jwt_tokens.py",
            sim.read("src/acme_billing/auth/jwt_tokens.py").replace(
                'ALGORITHM = "HS256"', 'ALGORITHM = "RS256"'
            ),
        ),
    )
    agent.bash(
        "pytest tests/auth -q", "Run the auth tests", stdout="..............\n14 passed in 2.05s\n"
    )
    agent.multi_edit(
        "docs/auth.md",
        [
            ("## Target: JWT bearer tokens\n", "## JWT bearer tokens\n"),
            (
                "- Claims: `iss`, `sub` (user), `acct` (account), `scope` (space-separated), `iat`, `exp`, `jti`.\n",
                (
                    "- Claims: `iss`, `sub` (user), `acct` (account), `scope` (space-separated), `iat`, `exp`, `jti`.\n\n"
                    "## Key rotation\n\n"
                    '1. Add the new key to `keys.json` with `"active": true`; the newest active key signs.\n'
                    "2. Set the old key's `active` to false; it keeps verifying tokens it signed.\n"
                    "3. After 15 minutes (the token lifetime) plus 30 seconds, remove the old key.\n"
                ),
            ),
        ],
    )
    agent.edit("docs/auth.md", "## Today: HTTP Basic Auth\n", "## Legacy: HTTP Basic Auth\n")
    agent.edit(
        "tests/auth/test_jwt_tokens.py",
        'ISSUER = "https://auth.test"\n',
        'ISSUER = "https://auth.test"\n'
        "# RS256 needs real RSA keys; 2048 bits keeps the suite fast enough.\n",
    )
    agent.bash(
        "pytest tests/auth -q", "Run the auth tests", stdout="..............\n14 passed in 2.11s\n"
    )
    agent.prompt("Last thing today: partners must be able to revoke a leaked token.")
    agent.develop("src/acme_billing/auth/revocation.py", REVOCATION)
    agent.develop("tests/auth/test_revocation.py", TEST_REVOCATION)
    path = "src/acme_billing/auth/middleware.py"
    agent.edit(
        path,
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n",
        "from acme_billing.auth.legacy.basic_auth import check_basic_credentials\n"
        "from acme_billing.auth.revocation import RedisLike, is_revoked\n",
    )
    agent.edit(
        path,
        "def legacy_auth_enabled() -> bool:\n",
        "def redis_client() -> RedisLike:\n"
        "    import redis\n\n"
        "    return redis.Redis.from_url(settings.redis_url)\n\n\n"
        "def legacy_auth_enabled() -> bool:\n",
    )
    agent.edit(
        path,
        "            raise AuthenticationError(exc.reason) from None\n",
        "            raise AuthenticationError(exc.reason) from None\n"
        "        if is_revoked(redis_client(), claims):\n"
        '            raise AuthenticationError("token revoked")\n',
    )
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="EEEE..................\nredis.exceptions.ConnectionError\n",
    )
    agent.edit(
        "tests/auth/test_middleware.py",
        "from tests.auth.test_jwt_tokens import ISSUER, rsa_key\n",
        "from tests.auth.test_jwt_tokens import ISSUER, rsa_key\n"
        "from tests.auth.test_revocation import FakeRedis\n",
    )
    agent.edit(
        "tests/auth/test_middleware.py",
        '    monkeypatch.setattr(middleware, "key_ring", lambda: ring)\n',
        '    monkeypatch.setattr(middleware, "key_ring", lambda: ring)\n'
        '    monkeypatch.setattr(middleware, "redis_client", FakeRedis)\n',
    )
    agent.bash(
        "pytest tests/auth -q",
        "Run the auth tests",
        stdout="..........................\n26 passed in 2.52s\n",
    )
    agent.prompt("Good. Leave it there for today; I'll review tomorrow.")


def rate_limit_waiting(sim: Sim, jwt_agent: Agent) -> None:
    """16:48-16:56, Claude Code on another laptop: INT-001 is taken, INT-003 awaits approval."""
    sim.clock.at("16:48")
    agent = Agent(sim, "Claude Code")
    agent.start()
    agent.prompt("Pick up the JWT work where it is.")
    agent.select("INT-001", outcome="selection_refused")  # held by the afternoon session
    agent.prompt("Then take the rate limiter (INT-003) instead.")
    agent.select("INT-003", outcome="approval_requested")
    agent.read("docs/rate-limits.md")
    agent.write(
        "src/acme_billing/ratelimit/__init__.py", '"""Per-key token buckets."""\n', expect="deny"
    )  # awaits human approval: left pending for the demo's modal


def tell_the_story(sim: Sim) -> dict[str, str]:
    """Run the day; returns the sessions expected to be left (id -> what they hold)."""
    maria, jonas = Human(sim, "maria.lopez"), Human(sim, "jonas.weber")
    morning_logging(sim, maria)
    jwt_part_one(sim, maria)
    codex_cleanup(sim, jonas)
    invoice_agent = invoices_part_one(sim, maria)
    webhooks_rejected(sim, jonas)
    invoices_part_two(sim, invoice_agent, maria)
    jwt_agent = jwt_part_two(sim, maria)
    rate_limit_waiting(sim, jwt_agent)
    jwt_part_three(sim, jwt_agent)
    return {jwt_agent.session_id: sessions_store.ACTIVE}


# ---------------------------------------------------------------------------------------------
# Building the scratch workspace and writing the bundle.
# ---------------------------------------------------------------------------------------------


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def seed_workspace(root: Path, home: Path) -> None:
    """Everything a human set up before the day began."""
    write_text(root / ".orchestration" / "active_intents.yaml", ACTIVE_INTENTS)
    write_text(root / ".orchestration" / "governance.yaml", GOVERNANCE)
    write_text(root / ".orchestration" / ".gitignore", ORCHESTRATION_GITIGNORE)
    write_text(root / ".paw" / "README.md", PAW_README)
    for agent, text in WORKSPACE_INSTRUCTIONS.items():
        write_text(root / ".paw" / "instructions" / f"{agent}-instructions.md", text)
    for work_id, text in WORK_ITEMS.items():
        write_text(root / ".paw" / "work" / work_id / "WorkflowContext.md", text)
    for agent, text in USER_INSTRUCTIONS.items():
        write_text(home / ".paw" / "instructions" / f"{agent}-instructions.md", text)
    for rel, text in BASELINE.items():
        write_text(root / rel, text)


def bundle_name(real_path: str) -> str:
    name = real_path.rsplit("/", 1)[-1]
    if real_path in BUNDLE_NAMES:
        return BUNDLE_NAMES[real_path]
    if name.startswith("."):
        raise StoryError(
            f"'{real_path}' would be dropped from package data: add it to BUNDLE_NAMES"
        )
    return name


def copy_bundle(source: Path, target: Path, prefix: str = "") -> None:
    """Copy ``source`` to ``target`` with dot names replaced, machine caches left out.
    ``prefix`` is the real path of ``source`` ("" for the workspace root, "home")."""
    target.mkdir(parents=True, exist_ok=True)
    for entry in sorted(source.iterdir()):
        if entry.name in SKIPPED or entry.name.endswith((".lock", ".tmp")):
            continue
        real_path = f"{prefix}/{entry.name}" if prefix else entry.name
        destination = target / bundle_name(real_path)
        if entry.is_dir():
            copy_bundle(entry, destination, real_path)
        else:
            destination.write_bytes(entry.read_bytes())


def check_leftovers(root: Path, expected_sessions: dict[str, str]) -> None:
    """Only the live session(s) and the one pending request the demo needs are left."""
    left = {s.session_id: s.state for s in sessions_store.iter_sessions(str(root))}
    pending = approvals_store.pending_requests(str(root))
    if len(pending) != 1:
        raise StoryError(f"expected one pending approval request, found {len(pending)}")
    expected = dict(expected_sessions, **{pending[0].session_id: sessions_store.PENDING_APPROVAL})
    if left != expected:
        raise StoryError(f"sessions left {left}, expected {expected}")


def safe_to_wipe(out: Path) -> bool:
    """Refuse to delete a directory that does not look like a generated demo (a typo'd --out)."""
    if not out.exists():
        return True
    entries = {entry.name for entry in out.iterdir()}
    return not entries or "orchestration" in entries


def generate(out: Path) -> collections.Counter[str]:
    """Build the day in a scratch directory and write the bundle to ``out``."""
    if not safe_to_wipe(out):
        raise SystemExit(f"{out} exists and is not a demo workspace; not wiping it.")
    with tempfile.TemporaryDirectory(prefix="paw-demo-gen-") as scratch:
        base = Path(scratch)
        root, home, state = base / "acme-billing", base / "home", base / "state"
        root.mkdir()
        seed_workspace(root, home)
        rng = random.Random(SEED)
        sim = Sim(root, home, rng)
        saved_state_dir = os.environ.get("PAW_STATE_DIR")
        os.environ["PAW_STATE_DIR"] = str(state)  # the ledger head of the scratch run
        try:
            with patched_product(sim.clock, rng):
                expected = tell_the_story(sim)
        finally:
            if saved_state_dir is None:
                os.environ.pop("PAW_STATE_DIR", None)
            else:
                os.environ["PAW_STATE_DIR"] = saved_state_dir
        check_leftovers(root, expected)
        ledger = Ledger.for_workspace(str(root), state_dir=str(state))
        if not verify_ledger(ledger).ok:
            raise StoryError("the generated ledger does not verify")
        events = collections.Counter(
            str(record["event"]) for _, _, record in ledger.iter_records() if record is not None
        )
        if out.exists():
            shutil.rmtree(out)
        copy_bundle(root, out)
        copy_bundle(home, out / "home", "home")
    return events


def tree_digest(directory: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where to write the bundle (default: {DEFAULT_OUT})",
    )
    args = parser.parse_args(argv)
    out = args.out.resolve()
    events = generate(out)
    total = sum(events.values())
    print(f"Wrote {out} ({total} ledger records, tree sha256 {tree_digest(out)[:16]})")
    for event, count in sorted(events.items()):
        print(f"  {event:22} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
