"""Which mail goes first when the relay makes mail wait: every kind of outbox
row has a class, stored on the row (``OutboxRow.priority``) when it is queued,
so the sender's query orders by a column and an index instead of by a list.

1. URGENT: answers a person is waiting for right now (receipts, a Complots
   window, links to sign up, reset or choose a password);
2. PRIVATE: what only one reader learns (their results, role letter, the
   Masters' reports);
3. BULK: what everyone gets or what can wait (bulletins, reminders, notices);
4. TALK: the players' own talk (a room's posts, their digests): the lowest, since it
   is all on the web as well, and a digest catches up what the relay's day could not
   carry.

Within a class the oldest goes first (the sender orders by class, then id).

Apart from the order, the last part of the relay's daily quota (relay_limits.py,
MAIL_QUOTA_RESERVE_PERCENT) is kept for RESERVED_KINDS, the mail a game cannot go
on without: receipts and links go first while there is room, but can never spend
what a boundary needs.
"""
from __future__ import annotations

URGENT, PRIVATE, BULK, TALK = 1, 2, 3, 4
CLASSES = (URGENT, PRIVATE, BULK, TALK)

# A new kind of mail must be placed here: tests/mail/test_mail_classes.py reads
# every ``kind``/``template`` the service queues and fails on one missing.
CLASS_OF_KIND: dict[str, int] = {
    "receipt": URGENT,
    "receipt_error": URGENT,
    "receipt_capped": URGENT,  # the last receipt of the day's budget, saying so
    "window": URGENT,  # a Complots window lasts minutes
    "signup": URGENT,
    "password_reset": URGENT,
    "set_password": URGENT,
    "welcome": URGENT,  # carries the link to choose a password
    "substitute_welcome": URGENT,  # the newcomer's link into the seat
    "on_behalf_copy": URGENT,  # a receipt of what a Master entered for the player
    "quota_warning": URGENT,
    "deadline_earlier": URGENT,  # may now come before a player meant to act  # pointless behind the backlog it warns of
    "role_letter": PRIVATE,
    "phase_results": PRIVATE,  # a bulletin when it carries no private lines: see class_of
    "master_report": PRIVATE,
    "master_game_report": PRIVATE,
    "draft_ready": PRIVATE,  # the Masters' resolution waits for them
    "master_added": BULK,
    "announcement": BULK,
    "substitute_announced": BULK,
    "seat_left": PRIVATE,  # the player who left learns it before the game mails them nothing more
    "absence_declared": BULK,
    "late_boundary": BULK,
    "reminder": BULK,
    "deadline_changed": BULK,  # later, paused or resumed: nobody misses a deadline for it
    "digest": BULK,
    "room_post": TALK,
    "room_digest": TALK,
}


# What the reserve of the daily quota is kept for: a phase's results (bulletins too),
# the Masters' reports and the question a resolution waits on, a Complots window
# (a moment of the game, as a phase is), the role letters a game starts with.
RESERVED_KINDS = frozenset({"phase_results", "master_report", "master_game_report", "draft_ready", "window",
                            "role_letter"})


def class_of(kind: str, private: bool | None = None) -> int:
    """The class of a mail of ``kind``. ``private``: for the results of a phase,
    whether this reader's copy carries lines only they learn (without them it is
    the bulletin everyone gets). An unknown kind waits with the bulk, never
    ahead of a receipt."""
    if kind == "phase_results" and private is False:
        return BULK
    return CLASS_OF_KIND.get(kind, BULK)
