"""The leak scanner covers the statistics' pages (issue 34): its game is one of a
group's season, so every viewer reads the group's page, the season's table and export
and every player's page at every step (tests/support/botgame.py). Here it is shown to
catch a running game's roles reaching them: a counting that ran at every published
moment instead of at the game's end."""
from __future__ import annotations

import pytest

from pbm import hooks
from pbm.models import GameStatus
from pbm.stats import record

from tests.security.leak_scanner import Leak, scan
from tests.security.test_leak_scan import LIVE_WHO_IS_A_WOLF


def test_the_scan_finds_a_running_game_counted_on_the_statistics_pages(tmp_path, monkeypatch):
    real = hooks.announce

    def counted_at_every_moment(signal, sender, news):
        real(signal, sender, news)
        if signal is hooks.phase_published and news.game.status == GameStatus.RUNNING:
            record.uncount_game(news.session, news.game)
            news.game.status = GameStatus.OVER  # counted as if it were over
            try:
                record.count_game(news.session, news.game, news.now)
            finally:
                news.game.status = GameStatus.RUNNING
    monkeypatch.setattr(hooks, "announce", counted_at_every_moment)
    with pytest.raises(Leak, match="differs between the two games") as found:
        scan(LIVE_WHO_IS_A_WOLF, tmp_path)
    print(str(found.value)[:600])
    assert "/players/" in str(found.value) or "/groups/" in str(found.value)
