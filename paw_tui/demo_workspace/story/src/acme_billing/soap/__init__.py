"""The legacy SOAP gateway for partners that have not moved to the REST API."""

from acme_billing.soap.client import SoapClient
from acme_billing.soap.gateway import handle_envelope

__all__ = ["SoapClient", "handle_envelope"]
