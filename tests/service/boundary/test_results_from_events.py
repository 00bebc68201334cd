"""A boundary mails the results from the events as the engine gave them; a Masters'
publication of a draft mails them from the rows stored. Two games alike in all but
that (same seed, same players, same submissions) must send the same mails: the
players' results and the Masters' report, word for word, in both languages."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from engine.core import Rejected
from pbm import operations
from pbm.db import transaction
from pbm.models import Game, GameMaster, OutboxRow, PhaseRow, PhaseStatus, Seat, User

COMPOSITIONS = {
    "lupus-live-12": {"Anna": "Lupo Mannaro", "Bruno": "Lupo Mannaro", "Carla": "Veggente",
                      "Dario": "Guardia del corpo", "Elena": "Contadino", "Fabio": "Contadino",
                      "Giulia": "Contadino"},
    "tempo-reale-7": {"Anna": "Lupo", "Bruno": "Lupo", "Carla": "Veggente", "Dario": "Guardia del corpo",
                      "Elena": "Contadino", "Fabio": "Contadino", "Giulia": "Contadino", "Nina": "Negromante"},
}
WOLVES, SEER, GUARD = ("Anna", "Bruno"), "Carla", "Dario"
ENGLISH = ("Bruno", "Fabio")
MAILED = ("phase_results", "master_report")


def submissions(kind: str, number: int) -> dict[str, dict[str, str]]:
    """The same for both games: everyone votes Giulia, then Fabio; by night the
    wolves go for Elena, the Veggente looks at Anna, the guard watches Elena."""
    if kind == "day":
        target = "Giulia" if number == 1 else "Fabio"
        return {name: {"vote": target} for name in COMPOSITIONS["tempo-reale-7"]}
    return {**{w: {"target": "Elena"} for w in WOLVES}, SEER: {"target": "Anna"}, GUARD: {"target": "Elena"}}


def start(factory, config, now, ruleset: str, slug: str, auto_publish: bool) -> int:
    with transaction(factory) as s:
        master, _ = operations.ensure_user(s, email="master@example.org", name="Master")
        game = operations.create_game(s, name="Partita", ruleset=ruleset, master=master, now=now, slug=slug,
                                      seed="same seed", auto_publish=auto_publish)
        for name in COMPOSITIONS[ruleset]:
            operations.add_player(s, config, game, name=name, email=f"{name.lower()}.{slug}@players.test",
                                  now=now, by=master, lang="en" if name in ENGLISH else "it")
        operations.start_game(s, config, game, roles=COMPOSITIONS[ruleset], now=now, by=master)
        return game.id


def play_phase(factory, config, game_id: int, now) -> tuple[int, object]:
    """Submit the phase's choices (a refusal alike in both games is skipped); the
    phase's id and its deadline."""
    with transaction(factory) as s:
        game = s.get(Game, game_id)
        phase = operations.current_phase(s, game)
        for name, submission in submissions(phase.kind, phase.number).items():
            if game.seat_by_name(name) is None:  # a role of the other ruleset's table
                continue
            try:
                with s.begin_nested():
                    operations.submit(s, config, game, game.seat_by_name(name), submission,
                                      source="web", now=now)
            except Rejected:
                pass
        return phase.id, phase.ends_at


def mails(factory, game_id: int) -> list[tuple[str, str, str, str, str | None]]:
    """The game's results and reports, the game's own tokens and address named alike."""
    with factory() as s:
        game = s.get(Game, game_id)
        names = {seat.token: seat.name for seat in s.scalars(select(Seat).where(Seat.game_id == game_id))}
        names |= {m.token: "master" for m in s.scalars(select(GameMaster).where(GameMaster.game_id == game_id))}
        out = []
        for row in s.scalars(select(OutboxRow).where(OutboxRow.game_id == game_id,
                                                     OutboxRow.kind.in_(MAILED)).order_by(OutboxRow.id)):
            fields = [row.kind, row.to_addr, row.subject, row.body, row.html]
            text = "\x00".join(f or "" for f in fields).replace(game.slug, "SLUG")
            for token, name in names.items():
                text = text.replace(token, f"TOKEN-{name}")
            out.append(tuple(text.replace(f".{game.slug}@", "@").split("\x00")))
        return out


@pytest.mark.parametrize("ruleset", sorted(COMPOSITIONS))
def test_a_boundary_and_a_masters_publication_mail_alike(make_app, clock, ruleset: str) -> None:
    app = make_app()
    factory = app.extensions["pbm_sessions"]
    now = clock.now()
    by_boundary = start(factory, app.config, now, ruleset, "by-boundary", auto_publish=True)
    by_masters = start(factory, app.config, now, ruleset, "by-masters", auto_publish=False)
    for _ in range(4):  # night 1, day 1, night 2, day 2
        phase_a, ends = play_phase(factory, app.config, by_boundary, now)
        phase_b, _ = play_phase(factory, app.config, by_masters, now)
        now = ends + timedelta(minutes=1)
        assert operations.resolve_phase(factory, app.config, phase_a, now)
        assert operations.resolve_phase(factory, app.config, phase_b, now)
        with transaction(factory) as s:
            phase = s.get(PhaseRow, phase_b)
            assert phase.status == PhaseStatus.DRAFT
            master = s.scalar(select(User).where(User.email == "master@example.org"))
            operations.publish(s, app.config, s.get(Game, by_masters), phase, now, by=master)

    from_events, from_rows = mails(factory, by_boundary), mails(factory, by_masters)
    assert {m[0] for m in from_events} == set(MAILED)
    assert len(from_events) >= 4 * len(COMPOSITIONS[ruleset])
    assert any("Giulia" in m[3] for m in from_events if m[0] == "phase_results")  # the vote, told
    assert from_events == from_rows
