"""Mail out: composed from mail_templates/ (composer.py), queued in the outbox inside
the caller's transaction (outbox.py), and sent by the worker within the relay's limits
(send.py, relay_limits.py, classes.py); docs/mail-channel.md.

The entry points: ``queue`` (one message), ``compose`` and ``queue_all`` (a
boundary's many at once), and the addresses mail goes out from.
"""
from .composer import (
    compose, master_address, new_message_id, player_address, render_body, render_part, render_subject,
    render_text_part,
)
from .outbox import queue, queue_all, store_part
