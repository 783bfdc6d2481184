"""Inbound SOAP envelopes, translated to the REST handlers."""

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
