"""Every figure of the statistics checked two ways (issue 34): on a game played move by
move whose figures were counted by hand from the rulebook (Lupus LIVE!, 12ª edizione:
the wolves' kill at night, the stake by the day's majority, the village wins when no
wolf is left), and on seasons of bot-played games, where the running totals kept as
each game ended must equal a count the test makes itself from the stored games."""
from __future__ import annotations

from collections import Counter

from sqlalchemy import select

from engine.core import GameState
from engine.registry import get_ruleset

from pbm import operations
from pbm.db import transaction
from pbm.models import ActionRow, Game, PhaseRow, PhaseStatus, User
from pbm.season_models import GameRecord, SeatRecord
from pbm.stats import totals

from tests.support.season_games import master_and_season, new_season_game, play_to_end

FIVE = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Contadino", "Dario": "Contadino",
        "Elena": "Contadino"}
WAY = {"Anna": "web", "Bruno": "web", "Carla": "mail", "Dario": "master", "Elena": "web"}

# Counted by hand: no kill on the first night (§ the Lupo Mannaro's power starts on night
# 2); day 1 Anna, Bruno and Dario vote Carla, Carla and Elena vote Anna: Carla burns
# (3 of 5); night 2 Anna kills Bruno; day 2 Anna votes Dario, Dario and Elena vote
# Anna: Anna burns (2 of 3), no wolf is left and the village wins. Due to act: every
# living player each day (the vote), Anna on night 2 (her power), and a dead player at
# night (a ghost's ritual, as the reminders count it): Carla on night 2, who sends none.
HAND = {
    "Anna": {"role": "Lupo Mannaro", "faction": "Lupi", "won": False, "nights_survived": 2, "died": "pyre",
             "votes_cast": 2, "votes_on_chosen": 1, "due": 3, "done": 3, "web": 3, "mail": 0, "master": 0},
    "Bruno": {"role": "Contadino", "faction": "Villaggio", "won": True, "nights_survived": 1, "died": "wolves",
              "votes_cast": 1, "votes_on_chosen": 1, "due": 1, "done": 1, "web": 1, "mail": 0, "master": 0},
    "Carla": {"role": "Contadino", "faction": "Villaggio", "won": True, "nights_survived": 1, "died": "pyre",
              "votes_cast": 1, "votes_on_chosen": 0, "due": 2, "done": 1, "web": 0, "mail": 1, "master": 0},
    "Dario": {"role": "Contadino", "faction": "Villaggio", "won": True, "nights_survived": 2, "died": "",
              "votes_cast": 2, "votes_on_chosen": 2, "due": 2, "done": 2, "web": 0, "mail": 0, "master": 2},
    "Elena": {"role": "Contadino", "faction": "Villaggio", "won": True, "nights_survived": 2, "died": "",
              "votes_cast": 2, "votes_on_chosen": 1, "due": 2, "done": 2, "web": 2, "mail": 0, "master": 0},
}
SCRIPT = [  # (who, submission) per moment
    [],
    [("Anna", {"vote": "Carla"}), ("Bruno", {"vote": "Carla"}), ("Dario", {"vote": "Carla"}),
     ("Carla", {"vote": "Anna"}), ("Elena", {"vote": "Anna"})],
    [("Anna", {"power": "Lupo Mannaro", "target": "Bruno"})],
    [("Anna", {"vote": "Dario"}), ("Dario", {"vote": "Anna"}), ("Elena", {"vote": "Anna"})],
]


def _play_script(factory, config, clock, game_id: int) -> None:
    for moves in SCRIPT:
        with transaction(factory) as s:
            game = s.get(Game, game_id)
            master = s.get(User, game.masters[0].user_id)
            for who, submission in moves:
                operations.submit(s, config, game, game.seat_by_name(who), submission, source=WAY[who],
                                  now=clock.now(), by_user=master if WAY[who] == "master" else None)
        with transaction(factory) as s:
            operations.close_and_resolve(s, config, s.get(Game, game_id), clock.now())


def _seen(record: SeatRecord) -> dict:
    out, counts = record.figures["outcome"], record.figures["counts"]
    ways = counts.get("by_way", {})
    return {"role": out["role"], "faction": out["faction"], "won": out["won"],
            "nights_survived": counts["nights_survived"], "died": out["died"],
            "votes_cast": counts["votes_cast"], "votes_on_chosen": counts["votes_on_chosen"],
            "due": counts["due"], "done": counts["done"],
            "web": ways.get("web", 0), "mail": ways.get("mail", 0), "master": ways.get("master", 0)}


def test_a_scripted_game_counts_what_was_counted_by_hand(app, clock):
    factory = app.extensions["pbm_sessions"]
    master, _group, season = master_and_season(factory, clock.now())
    gid = new_season_game(factory, app.config, clock.now(), master, season, list(FIVE), FIVE, seed="e")
    _play_script(factory, app.config, clock, gid)
    with factory() as s:
        assert s.get(Game, gid).status == "over"
        seen = {r.name: _seen(r) for r in s.scalars(select(SeatRecord).where(SeatRecord.game_id == gid))}
        for name in HAND:
            assert seen[name] == HAND[name], name
        season_totals = totals.read(s, totals.season_scope(season))
        assert season_totals["faction_wins"] == {"Villaggio": 1}
        assert season_totals["role_games"] == {"Lupo Mannaro": 1, "Contadino": 4}
        assert season_totals["role_wins"] == {"Contadino": 4}
        assert s.get(GameRecord, gid).moments == 4


def test_nothing_is_counted_while_a_game_runs(app, clock):
    factory = app.extensions["pbm_sessions"]
    master, _group, season = master_and_season(factory, clock.now())
    gid = new_season_game(factory, app.config, clock.now(), master, season, list(FIVE), FIVE, seed="e")
    with transaction(factory) as s:
        operations.close_and_resolve(s, app.config, s.get(Game, gid), clock.now())
    with factory() as s:
        assert s.get(Game, gid).status == "running"
        assert s.scalars(select(SeatRecord)).all() == []
        assert totals.read(s, totals.season_scope(season)) == {}


def test_a_rolled_back_end_is_taken_back_and_counted_again(app, clock):
    factory = app.extensions["pbm_sessions"]
    master, _group, season = master_and_season(factory, clock.now())
    gid = new_season_game(factory, app.config, clock.now(), master, season, list(FIVE), FIVE, seed="e")
    _play_script(factory, app.config, clock, gid)
    with factory() as s:
        before = {(r.scope, r.user_id): dict(r.counts) for r in s.scalars(select(totals.StatTotal))
                  if not r.scope.startswith("rev:")}
    with transaction(factory) as s:
        game = s.get(Game, gid)
        operations.desk.rollback(s, game, clock.now(), by=s.get(User, master))
    with factory() as s:
        assert s.get(GameRecord, gid) is None
        assert totals.read(s, totals.season_scope(season)) == {}
        # Nothing left but the revisions the pages' caches read.
        assert all(not t.counts for t in s.scalars(select(totals.StatTotal)) if not t.scope.startswith("rev:"))
    with transaction(factory) as s:
        game = s.get(Game, gid)
        phase = s.scalar(select(PhaseRow).where(PhaseRow.game_id == gid, PhaseRow.status == PhaseStatus.DRAFT))
        operations.publish(s, app.config, game, phase, clock.now())
    with factory() as s:
        assert {(r.scope, r.user_id): dict(r.counts) for r in s.scalars(select(totals.StatTotal))
                if r.counts and not r.scope.startswith("rev:")} == before


def _recount(s, game_ids: list[int]) -> dict[int, Counter]:
    """The test's own count, from the stored games: games, wins (the final state's
    winner against each seat's faction), and the moments each account acted in, by way."""
    out: dict[int, Counter] = {}
    for gid in game_ids:
        game = s.get(Game, gid)
        winner = game.state["winner"]
        published = {p.id: p for p in s.scalars(select(PhaseRow).where(PhaseRow.game_id == gid,
                                                                       PhaseRow.status == PhaseStatus.PUBLISHED))}
        ruleset = get_ruleset(game.ruleset)
        last: dict[tuple[int, int], str] = {}
        for a in s.scalars(select(ActionRow).where(ActionRow.game_id == gid).order_by(ActionRow.id)):
            phase = published.get(a.phase_id)
            # Only a moment the seat was due to act in (the ruleset's required kinds).
            if phase is not None and ruleset.required_kinds(GameState.from_dict(phase.state_before), a.seat.name):
                last[(a.phase_id, a.seat_id)] = a.source
        for seat in game.seats:
            player = next(p for p in game.state["players"] if p["name"] == seat.name)
            c = out.setdefault(seat.user_id, Counter())
            c["games"] += 1
            c["wins"] += int(winner == player["faction"])
            c["dead"] += int(not player["alive"])
            for (_phase, seat_id), way in last.items():
                if seat_id == seat.id:
                    c["done"] += 1
                    c[way] += 1
    return out


def test_a_season_of_bot_games_adds_up_to_the_tests_own_count(app, clock):
    factory = app.extensions["pbm_sessions"]
    master, _group, season = master_and_season(factory, clock.now())
    players = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
    roles = ["Lupo Mannaro", "Lupo Mannaro", "Veggente", "Contadino", "Contadino", "Contadino", "Guardia",
             "Contadino"]
    games = []
    for n in range(4):
        seating = dict(zip(players, roles[n:] + roles[:n]))  # each game its own deal
        gid = new_season_game(factory, app.config, clock.now(), master, season, players, seating,
                              name=f"Partita {n}", seed=f"seme{n}")
        play_to_end(factory, app.config, clock, gid, f"bots{n}")
        games.append(gid)
    with factory() as s:
        mine = _recount(s, games)
        kept = totals.players(s, totals.season_scope(season))
        assert set(kept) == set(mine)
        for user_id, c in mine.items():
            k = kept[user_id]
            assert k.get("games", 0) == c["games"]
            assert k.get("wins", 0) == c["wins"]
            assert sum((k.get("deaths") or {}).values()) == c["dead"]
            assert k.get("done", 0) == c["done"]
            for way in ("web", "mail", "master"):
                assert (k.get("by_way") or {}).get(way, 0) == c[way]
        own = totals.read(s, totals.season_scope(season))
        assert own["games"] == 4
        assert sum(own["role_games"].values()) == 4 * len(players)
