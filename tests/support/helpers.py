"""Building games for service tests through the same operations the web uses."""
from __future__ import annotations

from typing import Any

from pbm import operations
from pbm.db import transaction
from pbm.models import Game, User


def make_master(factory, email: str = "master@example.org", password: str = "master") -> int:
    with transaction(factory) as s:
        user, _ = operations.ensure_user(s, email=email, name="Master Mara")
        user.set_password(password)
        user.is_admin = True
        return user.id


def make_game(factory, config: dict[str, Any], now, roles: dict[str, str], *,
              mayor: str | None = None, ruleset: str = "lupus-live-12",
              langs: dict[str, str] | None = None, master_email: str = "master@example.org") -> int:
    master_id = make_master(factory, master_email)
    with transaction(factory) as s:
        master = s.get(User, master_id)
        game = operations.create_game(s, name="Test game", ruleset=ruleset, master=master, now=now)
        for name in roles:
            operations.add_player(s, config, game, name=name, email=f"{name.lower()}@players.test",
                                  now=now, by=master, password="pw-" + name.lower(),
                                  lang=(langs or {}).get(name, "it"))
        operations.start_game(s, config, game, roles=roles, options={"mayor": mayor} if mayor else None, now=now, by=master)
        return game.id


def game(factory, game_id: int) -> Game:
    with factory() as s:
        g = s.get(Game, game_id)
        _ = [(seat.user.email, seat.token) for seat in g.seats]
        return g


def login(app, email: str, password: str):
    """A test client logged in through the real login form (CSRF included)."""
    from tests.conftest import csrf_from
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    r = client.post("/login", data={"csrf_token": csrf_from(page), "email": email, "password": password})
    assert r.status_code == 302, f"login failed for {email}"
    return client


def first_waits_for_second(real, *, only=lambda *args, **kwargs: True, patience: float = 1.0):
    """Wrap ``real`` so that the first thread calling it (where ``only`` holds)
    waits inside for up to ``patience`` seconds for a second thread to call it
    too. Without a lock both end up inside at once; with one, the second
    cannot come in and the first goes on alone. Returns the wrapper and the
    event set once the first thread is inside."""
    import threading

    first_inside, second_inside = threading.Event(), threading.Event()
    first: list[threading.Thread] = []

    def wrapper(*args, **kwargs):
        if only(*args, **kwargs) and not second_inside.is_set():
            if not first_inside.is_set():
                first.append(threading.current_thread())
                first_inside.set()
                second_inside.wait(patience)
            elif threading.current_thread() is not first[0]:
                second_inside.set()
        return real(*args, **kwargs)

    return wrapper, first_inside


def run_overlapping(first, second, first_inside, tolerate: tuple[type[BaseException], ...] = ()) -> list:
    """Run ``first`` in a thread, and ``second`` in another once the first is
    inside; wait for both. Exceptions of the ``tolerate`` types are returned."""
    import threading

    caught: list[BaseException] = []

    def guarded(work):
        def run():
            try:
                work()
            except tolerate as exc:
                caught.append(exc)
        return run

    one = threading.Thread(target=guarded(first))
    one.start()
    assert first_inside.wait(10), "the first worker never got inside"
    two = threading.Thread(target=guarded(second))
    two.start()
    one.join(30)
    two.join(30)
    assert not one.is_alive() and not two.is_alive()
    return caught
