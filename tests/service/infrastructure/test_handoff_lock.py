"""The worker's mail lock goes to the thread that waited longest: a thread that
releases it and asks again at once (the mail round between two games) queues behind
a boundary already waiting, which a plain threading.Lock does not promise."""
from __future__ import annotations

import threading
import time

from pbm.handoff_lock import HandoffLock


def test_a_release_hands_the_lock_to_the_waiter_before_the_releaser_asks_again():
    lock, order = HandoffLock(), []
    lock.acquire()

    def waiter():
        with lock:
            order.append("waiter")

    thread = threading.Thread(target=waiter)
    thread.start()
    while not lock.waiting:
        time.sleep(0.001)
    for _ in range(3):  # release and take again at once, as the mail round does
        lock.release()
        lock.acquire()
        order.append("releaser")
    lock.release()
    thread.join(5)
    assert order[0] == "waiter" and order.count("releaser") == 3


def test_a_waiter_that_times_out_leaves_the_queue_and_the_lock_still_works():
    lock = HandoffLock()
    lock.acquire()
    assert lock.acquire(timeout=0.05) is False and lock.waiting == 0
    lock.release()
    assert lock.acquire(timeout=0.05) is True
    lock.release()


def test_it_says_whether_it_is_held_as_a_plain_lock_does():
    lock = HandoffLock()
    assert not lock.locked()
    with lock:
        assert lock.locked()
    assert not lock.locked()
