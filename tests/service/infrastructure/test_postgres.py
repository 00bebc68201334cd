"""The service on PostgreSQL, the second database engine it supports.

The tests below are the SQLite suite's own, collected again here with
``database_url`` pointing at a new database on a real PostgreSQL cluster
(tests/fixtures/postgres.py): the migrations, a whole day by web and mail,
two workers racing on one boundary or splitting a boundary of many games, mailbox, outbox or reminder, two presses
of Publish at once, two confirms of one narrator's vote at once, a worker killed mid-boundary, a vote arriving during a
resolution, inputs longer than their columns (and, in test_postgres_mail.py,
mail from Dovecot delivered twice, renamed, or cut off by a crash).  These
are where the two engines differ: locking, isolation, column lengths, time
zones.  To run every test on PostgreSQL:
``PBM_TEST_DATABASE=postgresql .venv/bin/pytest``.
"""
from __future__ import annotations

import pytest

from tests.service.boundary.test_boundary_batches import (  # noqa: F401
    nights,
    test_a_resolution_that_fails_is_undone_alone_and_its_error_raised,
    test_two_workers_resolving_at_once_resolve_each_phase_once,
)
from tests.service.boundary.test_boundary_race import test_a_vote_arriving_during_the_resolution_is_counted_or_refused_never_lost  # noqa: F401
from tests.service.desk.test_desk import (  # noqa: F401
    gid,
    test_a_worker_down_past_three_boundaries_resolves_them_in_order_and_tells_the_masters,
    test_phases_of_a_game_across_daylight_saving_changes,
    test_roll_back_correct_and_publish_again_with_a_correction_to_everyone,
    test_two_workers_racing_on_one_boundary_resolve_it_once,
)
from tests.service.desk.test_desk_race import test_two_masters_publishing_one_draft_at_once_publish_it_once  # noqa: F401
from tests.service.boundary.test_full_day import test_a_day_by_web_and_mail  # noqa: F401
from tests.web.test_healthz import (  # noqa: F401
    test_a_schema_behind_the_code_says_to_upgrade,
    test_a_silent_worker_makes_it_unhealthy,
    test_one_live_worker_of_two_is_enough_and_dead_ones_are_forgotten,
)
from tests.service.boundary.test_kill_worker import (  # noqa: F401
    test_killing_the_worker_mid_boundary_never_doubles_or_loses_anything,
)
from tests.support.mail import fast_passwords, game  # noqa: F401
from tests.mail.test_mail_race import (  # noqa: F401
    test_two_pollers_reading_one_mailbox_apply_each_message_once,
    test_two_workers_applying_one_stored_message_apply_it_once,
    test_two_workers_storing_the_same_new_message_store_it_once,
)
from tests.service.infrastructure.test_migrations import test_the_migrations_build_the_models_schema_and_unwind  # noqa: F401
from tests.web.test_narrator import (  # noqa: F401
    narrator,
    test_reload_resumes_at_the_same_call_and_a_stale_confirm_records_nothing,
    test_two_confirms_of_one_vote_at_once_record_one_vote,
)
from tests.security.test_oversized_input import (  # noqa: F401
    test_a_game_named_in_accented_letters_mails_every_player,
    test_a_reply_with_a_huge_subject_and_message_id_is_played_answered_and_deduplicated,
    test_an_address_longer_than_any_mail_address_is_refused_in_words,
)
from tests.service.calendar.test_reminder_race import test_two_workers_reminding_at_once_remind_each_player_once  # noqa: F401
from tests.mail.test_sender_race import test_two_workers_draining_at_once_send_each_message_once  # noqa: F401
from tests.mail.test_sender_marks import test_what_the_server_accepted_stays_sent_when_it_then_fails  # noqa: F401
from tests.service.infrastructure.test_raw_mail_retention import (  # noqa: F401
    played, test_raw_mail_is_kept_its_days_then_emptied_and_what_it_did_stays,
)
from tests.security import test_visibility_sql


@pytest.fixture
def database_url(postgres_url: str) -> str:
    return postgres_url


def test_these_tests_really_run_on_postgresql(app):
    assert app.config["DATABASE_URL"].startswith("postgresql+psycopg://")
    engine = app.extensions["pbm_sessions"].kw["bind"]
    with engine.connect() as conn:
        assert conn.dialect.name == "postgresql"
        assert conn.exec_driver_sql("select current_setting('server_version_num')::int").scalar() >= 130000


@pytest.mark.parametrize("ruleset", sorted(test_visibility_sql.GAMES))
def test_the_visibility_rule_in_sql_agrees_with_python(factory, ruleset):
    # pytest does not collect a test imported from another folder: called from here.
    test_visibility_sql.test_sql_and_python_admit_the_same_events_for_every_viewer(factory, ruleset)


def test_the_reserved_page_reads_as_much_with_few_or_many_votes_on_postgresql(app, factory, clock):
    from tests.web import test_reserved_page_cost as cost
    cost.test_the_reserved_page_reads_as_much_with_ten_or_three_hundred_votes_in_the_phase(app, factory, clock)


def test_the_reserved_page_loads_only_its_readers_events_on_postgresql(app, factory, clock):
    from tests.web import test_reserved_page_cost as cost
    cost.test_the_reserved_page_loads_only_the_events_its_reader_may_see_as_the_game_goes_on(app, factory, clock)
