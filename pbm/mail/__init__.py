"""All the mail: ``reading`` (what a message says; pure), ``inbound`` (the Master's
mailbox read, each message stored, identified and applied, its receipt queued),
``outbound`` (composed, queued in the outbox, sent within the relay's limits),
``smtpd`` (the embedded SMTP server) and ``cli`` (``pbm mail parse``). Nothing is
imported here: callers import the subpackage they need, and the modules import their
siblings, never their own package."""
