"""TLS to the mail servers, verified: the relay and the IMAP server must show
a certificate for their name, signed by an authority we trust (the system's,
or the one MAIL_CA_FILE names, for a server with a certificate of its own).

Without verification, anyone on the path could pose as the relay and read
every role letter, or as the IMAP server and take the Masters' password.
"""
from __future__ import annotations

import ssl


class CertificateNotVerified(OSError):
    """The server's certificate could not be verified: nothing was exchanged.

    An ``OSError``, like every other failure to reach a server, so mail waits
    and is tried again (the operator fixes the certificate or the setting)."""


def client_context(ca_file: str | None = None) -> ssl.SSLContext:
    """The system's trusted authorities, or only ``ca_file`` when it is given;
    host names checked, TLS 1.2 at least."""
    context = ssl.create_default_context(cafile=ca_file or None)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


def not_verified(what: str, host: str, port: int, exc: ssl.SSLCertVerificationError,
                 setting: str) -> CertificateNotVerified:
    reason = getattr(exc, "verify_message", None) or str(exc)
    return CertificateNotVerified(
        f"the certificate of the {what} {host}:{port} could not be verified ({reason}): "
        f"nothing was exchanged with it. Give the server a certificate for its name from a "
        f"trusted authority, or set {setting} to the file of the authority that signed it.")
