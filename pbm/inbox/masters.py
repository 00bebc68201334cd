"""A Master's mail through their own reply address for a game (lupus+TOKEN@, the token
of the Master's place in the game): a player's mail forwarded, or an SMS under
'PER: Nome', carried out for that seat in the Master's name, with a copy to the player
(pbm/telling/copies.py) and the receipt to the Master."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..i18n import gettext_in
from ..models import GameMaster, GameStatus, InboundRow
from .game_names import parse_for
from .outcome import Outcome
from .players import carry_out_for
from .receipts import master_receipt


def carry_out_for_master(session: Session, config: dict[str, Any], row: InboundRow, gm: GameMaster,
                 now: datetime) -> Outcome:
    """A Master's mail through their own reply address: a forwarded player's
    mail or an SMS under 'PER: Nome', recorded in the Master's name."""
    master, game = gm.user, gm.game
    lang = master.lang
    row.game_id = game.id
    parsed = parse_for(row, game)
    if game.status != GameStatus.RUNNING:
        errors = [gettext_in(lang, "The game is not running: no command was recorded.")]
        master_receipt(session, config, row, parsed, master, game, errors, now)
        return Outcome("refused", errors=errors)
    target = game.seat_by_name(parsed.on_behalf_of) if parsed.on_behalf_of else None
    if target is None:
        errors = [gettext_in(lang, "I cannot find which player this is for: forward the player's mail "
                                 "or write FOR: Name above the SMS.")]
        master_receipt(session, config, row, parsed, master, game, errors, now)
        return Outcome("refused", errors=errors)
    return carry_out_for(session, config, row, parsed, game, target, now, by=master,
                         reply_to_addr=master.email, reply_lang=lang)
