"""What a web process keeps between requests: a bounded map, the least recently used
dropped first, shared by the threads of the process. What is kept is made outside the
lock (two threads may make the same thing once each; both are the same), so a slow
making never holds up the readers of other keys."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
_MISSING = object()


class Kept(Generic[V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept under ``key``, or ``make()`` kept there now."""
        with self._lock:
            found = self._items.get(key, _MISSING)
            if found is not _MISSING:
                self._items.move_to_end(key)
                return found  # type: ignore[return-value]
        made = make()
        with self._lock:
            self._items[key] = made
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return made

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
