"""Outbound SOAP calls to the two partners that still require them."""

from __future__ import annotations

import zeep


class SoapClient:
    def __init__(self, wsdl_url: str, timeout: float = 10.0) -> None:
        transport = zeep.Transport(timeout=timeout)
        self._client = zeep.Client(wsdl_url, transport=transport)

    def submit_invoice(self, payload: dict[str, object]) -> str:
        return str(self._client.service.SubmitInvoice(**payload))
