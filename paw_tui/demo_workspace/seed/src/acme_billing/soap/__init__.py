"""The legacy SOAP gateway for partners that have not moved to the REST API."""

from acme_billing.soap.client import SoapClient
from acme_billing.soap.gateway import handle_envelope
from acme_billing.soap.wsdl_cache import WsdlCache

__all__ = ["SoapClient", "WsdlCache", "handle_envelope"]
