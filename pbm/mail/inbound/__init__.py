"""Mail in: the Master's mailbox read, each message stored (store.py), its sender
identified (identify.py), its commands applied (apply.py, carry_out.py) and its
receipt or refusal queued (receipts.py); docs/mail-channel.md.

The entry points: ``ingest`` (a mailbox's new mail, a batch at a time),
``process_stored`` (what a crash left stored), and ``open_source`` (the mailbox
named by the configuration).
"""
from .apply import Outcome, apply_many, process
from .mailbox import IncomingMail, MailSource, MailSourceError
from .sources import open_source
from .store import FETCH_BATCH, ingest, process_stored, store_many
