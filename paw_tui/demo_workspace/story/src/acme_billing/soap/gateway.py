"""Inbound SOAP envelopes, translated to the REST handlers."""

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
