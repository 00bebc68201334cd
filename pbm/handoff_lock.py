"""A lock handed to its waiters in the order they came.

``threading.Lock`` promises no order: a thread that releases it and at once asks
again (the mail round, between one game's messages and the next's) may take it
back before a thread that was already waiting (a boundary), again and again. Here
a release hands the lock straight to the longest waiter, so a boundary waits for
one game's mail at most (docs/service.md, "A boundary").
"""
from __future__ import annotations

import threading
from collections import deque


class HandoffLock:
    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._held = False
        self._queue: deque[threading.Event] = deque()

    def acquire(self, timeout: float | None = None) -> bool:
        with self._mutex:
            if not self._held and not self._queue:
                self._held = True
                return True
            turn = threading.Event()
            self._queue.append(turn)
        if turn.wait(timeout):
            return True
        with self._mutex:
            if turn.is_set():  # handed over while the wait timed out: it is ours
                return True
            self._queue.remove(turn)
            return False

    def release(self) -> None:
        with self._mutex:
            if not self._held:
                raise RuntimeError("release of an unheld HandoffLock")
            if self._queue:
                self._queue.popleft().set()  # still held: now by the longest waiter
            else:
                self._held = False

    def locked(self) -> bool:
        """Whether some thread holds it (as ``threading.Lock.locked``)."""
        with self._mutex:
            return self._held

    @property
    def waiting(self) -> int:
        """How many threads wait for it (for tests that must know one is queued)."""
        with self._mutex:
            return len(self._queue)

    def __enter__(self) -> HandoffLock:
        self.acquire()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()
