"""An LRU cache of parsed WSDL documents (added in 2019 for a partner that is gone)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


class WsdlCache:
    def __init__(self, max_entries: int = 32) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, Any] = OrderedDict()

    def get(self, key: str) -> Any:
        if key in self._entries:
            self._entries.move_to_end(key)
            return self._entries[key]
        value = self._load(key)
        self._entries[key] = value
        if len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
        return value

    def _load(self, key: str) -> Any:
        raise KeyError(key)
