"""Mail in: the Master's mailbox read, each message stored, its sender identified,
its commands applied and its receipt queued (docs/mail-channel.md).

The entry points: ``ingest`` (a mailbox's new mail, a batch at a time),
``process_stored`` (what a crash left stored), and ``open_source`` (the mailbox
named by the configuration).
"""
from .apply import FETCH_BATCH, Outcome, apply_many, ingest, process, process_stored, store_many
from .mailbox import IncomingMail, MailSource, MailSourceError, open_source
