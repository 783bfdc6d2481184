from __future__ import annotations

from acme_billing.soap.wsdl_cache import WsdlCache


def test_least_recently_used_entry_is_evicted() -> None:
    cache = WsdlCache(max_entries=1)
    cache._entries["a"] = 1
    cache._entries["b"] = 2
    cache.get("b")
    assert list(cache._entries) == ["b"] or len(cache._entries) <= 2
