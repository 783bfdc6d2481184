"""Where ``trace ship`` sends, and how: the endpoint and the standard ``OTEL_*`` variables.

The endpoint is ``--endpoint``, else ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (used as given),
else ``OTEL_EXPORTER_OTLP_ENDPOINT`` (a base URL), else ``governance.yaml: trace: ship:
endpoint:``. As in the OpenTelemetry convention, a base URL (no path, or the base variable)
gets ``/v1/traces`` appended. Headers, timeout, compression and TLS files come from the
signal-specific variable first, then the generic one (``OTEL_EXPORTER_OTLP_TRACES_HEADERS``,
``OTEL_EXPORTER_OTLP_HEADERS``, ...), as the Python SDK reads them (timeout in seconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from paw_tui.core.errors import ValidationError

TRACES_PATH = "/v1/traces"
DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Endpoint:
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    gzip: bool = False
    certificate: str | None = None
    client_key: str | None = None
    client_certificate: str | None = None
    source: str = "--endpoint"


def _variable(environ: Mapping[str, str], name: str) -> str | None:
    for key in (f"OTEL_EXPORTER_OTLP_TRACES_{name}", f"OTEL_EXPORTER_OTLP_{name}"):
        value = (environ.get(key) or "").strip()
        if value:
            return value
    return None


def _with_traces_path(url: str, always: bool) -> str:
    parts = urlsplit(url)
    if always:
        return url.rstrip("/") + TRACES_PATH
    if parts.path in ("", "/"):
        return url.rstrip("/") + TRACES_PATH
    return url


def _checked(url: str, source: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValidationError(f"The OTLP endpoint from {source} is not an http(s) URL: '{url}'.")
    return url


def _headers(environ: Mapping[str, str]) -> dict[str, str]:
    raw = _variable(environ, "HEADERS")
    if not raw:
        return {}
    try:
        from opentelemetry.util.re import parse_env_headers
    except ImportError:  # the extra is missing: the encoder says so before anything is sent
        return {}
    return dict(parse_env_headers(raw, liberal=True))


def resolve_endpoint(
    given: str | None, configured: str | None, environ: Mapping[str, str]
) -> Endpoint:
    """The endpoint and its options; ValidationError when none is named or one is malformed."""
    if given:
        url, source = _with_traces_path(_checked(given.strip(), "--endpoint"), False), "--endpoint"
    elif (environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or "").strip():
        source = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
        url = _checked(environ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].strip(), source)
    elif (environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or "").strip():
        source = "OTEL_EXPORTER_OTLP_ENDPOINT"
        url = _with_traces_path(
            _checked(environ["OTEL_EXPORTER_OTLP_ENDPOINT"].strip(), source), True
        )
    elif configured:
        source = "governance.yaml (trace.ship.endpoint)"
        url = _with_traces_path(_checked(configured.strip(), source), False)
    else:
        raise ValidationError(
            "No OTLP endpoint: pass --endpoint URL, set OTEL_EXPORTER_OTLP_ENDPOINT, or add "
            "'trace: {ship: {endpoint: URL}}' to governance.yaml."
        )
    timeout_text = _variable(environ, "TIMEOUT")
    timeout = DEFAULT_TIMEOUT
    if timeout_text:
        try:
            timeout = max(0.1, float(timeout_text))
        except ValueError as error:
            raise ValidationError(
                f"OTEL_EXPORTER_OTLP_TIMEOUT must be a number of seconds, not '{timeout_text}'."
            ) from error
    compression = (_variable(environ, "COMPRESSION") or "none").lower()
    if compression not in ("gzip", "none"):
        raise ValidationError(
            f"OTEL_EXPORTER_OTLP_COMPRESSION must be 'gzip' or 'none', not '{compression}'."
        )
    return Endpoint(
        url=url,
        headers=_headers(environ),
        timeout=timeout,
        gzip=compression == "gzip",
        certificate=_variable(environ, "CERTIFICATE"),
        client_key=_variable(environ, "CLIENT_KEY"),
        client_certificate=_variable(environ, "CLIENT_CERTIFICATE"),
        source=source,
    )
