"""Work run by several threads at once, as several workers would: what each raised is
returned, where an exception in a thread of its own is only printed and the test goes on."""
from __future__ import annotations

import threading
from collections.abc import Callable


def at_once(work: Callable[[], object], count: int = 2, timeout: float = 60) -> list[BaseException]:
    """Run ``work`` in ``count`` threads together, wait for them; what they raised."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # returned to the test, which says what it expects
            raised.append(exc)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return raised
