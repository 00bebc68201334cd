"""Mail in, a door like pbm/web: above the operations, which it calls, while the mail
it sends sits below them (pbm/mail/outbound). The Master's mailbox (pbm/mail/sources)
is read and each message stored (store.py), then applied a batch at a time
(apply.py): routed by the address it was sent to (router.py) to its handler
(players.py, masters.py), its sender proven (identify.py), its commands carried out
(pbm/operations/carry_out.py) and its receipt or refusal queued (receipts.py);
docs/mail-channel.md.

The entry points: ``ingest`` (a mailbox's new mail, a batch at a time) and
``process_stored`` (what a crash left stored). The modules import their siblings,
never this package.
"""
from .apply import apply_many, process
from .outcome import Outcome
from .store import FETCH_BATCH, ingest, process_stored, store_many

__all__ = ["FETCH_BATCH", "Outcome", "apply_many", "ingest", "process", "process_stored", "store_many"]
