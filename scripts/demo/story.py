"""The demo's day, act by act: 2026-11-20, 09:00 to 17:30 UTC, at a fictional billing
service. What the agents write comes from ``paw_tui/demo_workspace/story/``; what the gate and
the humans decide is whatever the product decides (an act fails loudly when it differs).
"""

from __future__ import annotations

from paw_tui.core.handshake import sessions as sessions_store

from .actors import Agent, GenericAgent, Human, Sim, text
from .story_jwt import jwt_part_one, jwt_part_three, jwt_part_two

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
    agent.write(
        "src/acme_billing/observability/json_logging.py",
        text("src/acme_billing/observability/json_logging.py"),
        expect="deny",
    )
    agent.mcp("list_intents", {})
    agent.select("INT-005", outcome="approval_requested")
    agent.write(
        "src/acme_billing/observability/json_logging.py",
        text("src/acme_billing/observability/json_logging.py"),
        expect="deny",
    )
    maria.approve(agent)

    redact_bug = {"key.lower() in SENSITIVE_KEYS": "key in SENSITIVE_KEYS"}
    agent.develop(
        "src/acme_billing/observability/json_logging.py",
        text("src/acme_billing/observability/json_logging.py"),
        drafts=redact_bug,
    )
    # (`mkdir tests/observability` would be denied: "tests/observability/**" covers what is
    # inside the directory, not the directory itself, so the agent writes the file directly.)
    agent.write("tests/observability/__init__.py", "")
    agent.develop(
        "tests/observability/test_json_logging.py", text("tests/observability/test_json_logging.py")
    )
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
    agent.develop(
        "src/acme_billing/middleware/request_log.py",
        text("src/acme_billing/middleware/request_log.py"),
    )
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
    agent.develop(
        "tests/observability/test_request_log.py", text("tests/observability/test_request_log.py")
    )
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
        effect=lambda: sim.write(
            "src/acme_billing/soap/__init__.py", text("src/acme_billing/soap/__init__.py")
        ),
    )
    agent.call(
        "write_file",
        expect="allow",
        paths=["src/acme_billing/soap/gateway.py"],
        effect=lambda: sim.write(
            "src/acme_billing/soap/gateway.py", text("src/acme_billing/soap/gateway.py")
        ),
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
        effect=lambda: sim.write("tests/soap/test_gateway.py", text("tests/soap/test_gateway.py")),
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
    agent.develop("src/acme_billing/invoices/fonts.py", text("src/acme_billing/invoices/fonts.py"))
    agent.write(
        "src/acme_billing/invoices/templates/invoice.html",
        text("src/acme_billing/invoices/templates/invoice.html"),
    )
    float_bug = {'(Decimal(cents) / 100).quantize(Decimal("0.01"))': "cents / 100"}
    agent.develop(
        "src/acme_billing/invoices/pdf_export.py",
        text("src/acme_billing/invoices/pdf_export.py"),
        drafts=float_bug,
    )
    agent.develop("tests/invoices/test_pdf_export.py", text("tests/invoices/test_pdf_export.py"))
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
    agent.develop(
        "src/acme_billing/invoices/routes.py", text("src/acme_billing/invoices/routes.py")
    )
    agent.develop("tests/invoices/test_routes.py", text("tests/invoices/test_routes.py"))
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
