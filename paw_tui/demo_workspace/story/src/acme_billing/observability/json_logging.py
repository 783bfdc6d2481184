"""JSON log lines on stdout: one object per line, ready for the log shipper."""

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
