"""The fork server behind the processes the kill tests shoot at random moments
(tests/support/killable_worker.py, faults/killable_poller.py, faults/killable_sender.py):
it imports and warms up the service once, then forks a child for each line read on
stdin, so a child starts in milliseconds and a kill lands inside its work, not in
its imports."""
from __future__ import annotations

import os
import sys
from collections.abc import Callable


def serve_forks(work: Callable[[str], int]) -> int:
    """Run ``work(line)`` in a child for each line of stdin, one at a time, and print
    how each ended: ``exit PID CODE`` (CODE negative: the signal that killed it)."""
    print("serving", flush=True)
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = work(line)
            finally:
                sys.stdout.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        print(f"exit {pid} {code}", flush=True)
    return 0
