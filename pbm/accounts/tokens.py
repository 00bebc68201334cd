"""Signed, expiring tokens for links in mail (itsdangerous, Flask's own signer).

The service's clock, not the machine's, dates and ages a token: the tests
and the worker share one notion of "now". Each purpose signs with its own
salt, so a token made for one use is refused for any other.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

# Seconds a link keeps working.
MAX_AGE = {
    "reset": 2 * 3600,           # asked for just now, from the reset page
    "set": 14 * 24 * 3600,       # in a welcome mail, possibly read days later
    "join": 2 * 24 * 3600,       # confirmation of a sign-up
}


# A link made on another machine (the command line, the worker) whose clock is a
# little ahead would otherwise read as "from the future", which itsdangerous
# refuses as expired; reading allows this much skew (and lets a link live as much longer).
CLOCK_SKEW = 300


class TokenError(Exception):
    """A link that does not work: ``expired`` or ``invalid``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _serializer(secret: str, purpose: str, now: datetime, skew: int = 0) -> URLSafeTimedSerializer:
    class ClockSigner(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(now.timestamp()) + skew

    return URLSafeTimedSerializer(secret, salt=f"pbm-{purpose}", signer=ClockSigner)


def make(config: dict[str, Any], purpose: str, payload: dict[str, Any], now: datetime) -> str:
    return _serializer(config["SECRET_KEY"], purpose, now).dumps(payload)


def read(config: dict[str, Any], purpose: str, token: str, now: datetime,
         max_age: int | None = None) -> dict[str, Any]:
    try:
        payload = _serializer(config["SECRET_KEY"], purpose, now, CLOCK_SKEW).loads(
            token, max_age=CLOCK_SKEW + (max_age if max_age is not None else MAX_AGE[purpose]))
    except SignatureExpired as exc:
        raise TokenError("expired") from exc
    except BadSignature as exc:
        raise TokenError("invalid") from exc
    if not isinstance(payload, dict):
        raise TokenError("invalid")
    return payload
