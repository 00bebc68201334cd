from __future__ import annotations

from pbm.models import OutboxRow, PhaseRow

from tests.support.helpers import make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente", "Dario": "Contadino"}


def test_game_starts_with_night_one_and_mails_every_role_letter(app, factory, clock):
    gid = make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    with factory() as s:
        phases = s.query(PhaseRow).filter_by(game_id=gid).all()
        assert [(p.kind, p.number, p.status) for p in phases] == [("night", 1, "open")]
        letters = s.query(OutboxRow).filter_by(kind="role_letter").all()
        assert sorted(r.to_addr for r in letters) == sorted(f"{n.lower()}@players.test" for n in ROLES)
        anna = next(r for r in letters if r.to_addr == "anna@players.test")
        assert "Lupo Mannaro" in anna.body and "Veggente" not in anna.body
