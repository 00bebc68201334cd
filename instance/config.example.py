# Copy to instance/config.py for a real deployment. Every key is optional.

# Any SQLAlchemy URL; the default is SQLite in instance/pbm.sqlite3.
# DATABASE_URL = "postgresql+psycopg://lupus:secret@localhost/lupus"

# The public address of the web site, used in mails.
# BASE_URL = "https://lupus.example.org"

# The Master's mailbox: players reply here (plus-addressed with their token).
# MASTER_ADDRESS = "lupus@example.org"
# NOREPLY_ADDRESS = "noreply@example.org"
# MAIL_SOURCE = {"kind": "imap", "host": "imap.example.org", "port": 993, "ssl": True,
#                "username": "lupus@example.org", "password": "...", "folder": "INBOX"}

# The SMTP relay for outgoing mail (Flask-Mail settings).
# MAIL_SERVER = "smtp.example.org"
# MAIL_PORT = 587
# MAIL_USE_TLS = True
# MAIL_USERNAME = "lupus@example.org"
# MAIL_PASSWORD = "..."
# MAIL_DEFAULT_SENDER = "lupus@example.org"
# The authority that signed the relay's or the IMAP server's certificate, when
# the system does not trust it already (TLS is always verified).
# MAIL_CA_FILE = "/etc/ssl/private-ca.pem"
# Only if the relay offers SMTPUTF8: addresses with letters outside ASCII before
# the @ are then accepted (refused when typed otherwise; docs/security.md).
# MAIL_SMTPUTF8 = False
# The relay's limits (docs/deploy.md), the part of the day's quota kept for phase
# results and the Masters' reports, and the day's budgets of receipts and of mail
# anyone may ask for (docs/security.md, "Mail budgets"); defaults shown.
# MAIL_DAILY_QUOTA = 0
# MAIL_QUOTA_RESERVE_PERCENT = 20
# RECEIPTS_PER_ADDRESS_PER_DAY = 40
# RECEIPTS_PER_GAME_PER_DAY = 400
# MAIL_ANONYMOUS_PER_DAY = 100

# Signs sessions and forms (or PBM_SECRET_KEY); without it a random key is
# kept in instance/secret_key, readable by the service's user only.
# SECRET_KEY = "..."

# A larger incoming message is kept, answered once, and never read.
# INBOUND_MAX_BYTES = 5_000_000
# Days the raw text of incoming mail and the bodies of mail sent are kept; then
# the worker empties them (what was read from them stays). At least 1.
# RAW_MAIL_DAYS = 60

# Behind reverse proxies (nginx, a load balancer): how many, so that logins are
# throttled per real client and not per proxy (docs/accounts.md).
# TRUSTED_PROXIES = 1
# Login throttling (defaults shown): wrong passwords per account and per client
# in the window, after which even the right one waits.
# LOGIN_WINDOW_MINUTES = 15
# LOGIN_FAILURES_PER_ACCOUNT = 10
# LOGIN_FAILURES_PER_CLIENT = 30

# Behind HTTPS (docs/deploy.md): the login cookie only ever travels encrypted.
# SESSION_COOKIE_SECURE = True

# The web server (gunicorn): processes, and threads in each (or PBM_WEB_WORKERS,
# PBM_WEB_THREADS, or `pbm web --workers N --threads N`).
# WEB_WORKERS = 2
# WEB_THREADS = 4

# Bytes a request may send (refused with 413 before it is read); the narrator's
# photo upload takes 16 MiB. Change nginx's client_max_body_size with it.
# MAX_CONTENT_LENGTH = 1024 * 1024

# GET /healthz fails when no worker has sent a heartbeat for this many seconds.
# HEALTH_WORKER_MAX_AGE = 60
# Anyone reads only ok / not ok at /healthz; its report (schema, worker heartbeat,
# problems) goes to requests on this machine straight to gunicorn (127.0.0.1:8000,
# no forwarding header) when TRUSTED_PROXIES is not set, to `pbm health`, and to
# `Authorization: Bearer <this>` (at least 20 characters).
# HEALTHZ_TOKEN = "..."
