"""What a web process keeps between requests: a bounded map, the least recently used
dropped first, shared by the threads of the process. What is kept is made outside the
lock (two threads may make the same thing once each; both are the same), so a slow
making never holds up the readers of other keys.

What is made of a database's rows and keyed by their ids is kept per app (``of_app``):
a web process serves one app, but a process that makes several (the tests: one
database each) must never answer one database's request with what another's made."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from flask import Flask

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

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def of_app(app: Flask, name: str, size: int) -> Kept[Any]:
    """The kept map ``name`` of ``app``'s own, made on first use."""
    maps: dict[str, Kept[Any]] = app.extensions.setdefault("pbm_kept", {})
    found = maps.get(name)
    return found if found is not None else maps.setdefault(name, Kept(size))
