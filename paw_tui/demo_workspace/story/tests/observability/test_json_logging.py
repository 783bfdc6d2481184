"""The JSON formatter: one parseable object per line, secrets redacted."""

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
