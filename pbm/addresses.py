"""Mail addresses: as a person may type them, and as SMTP carries them.

One check for every place an address comes in (the forms, the sign-ups, the command
line: ``problem``), and one way to write it for the relay (``for_relay``):

- one plain address, nothing else: no name, list, comment, quote or line break;
- no invisible character (a zero-width space, a right-to-left override, any other
  format or control character): it makes one address look like another;
- no label that mixes scripts as the browsers flag them (a Cyrillic "а" among
  Latin letters): Chrome's "highly restrictive" rule of Unicode TR 39, which
  allows one script, or Latin with the Japanese, Chinese or Korean ones;
- a domain in Unicode letters is written in its IDNA 2008 form (``xn--``) for
  the relay, and must have one (the ``idna`` package, UTS 46 mapping);
- letters outside ASCII before the @ travel only with the relay's SMTPUTF8
  extension: where the relay does not offer it (MAIL_SMTPUTF8 = False, the
  default) such an address is refused when it is typed, never queued.

This module imports nothing of the service's but typed_text: the accounts
(entry) and the sender (mail out) both ask it.
"""
from __future__ import annotations

import idna
from confusable_homoglyphs import categories

from . import typed_text

# What separates, quotes or comments addresses (``a@x.it, b@y.it``, ``Anna <a@x.it>``):
# one of these in a field means more than one plain address.
_NOT_IN_AN_ADDRESS = frozenset('<>,;:"()[]\\')
MAX_LENGTH = 254

# Why an address is refused (pbm/errors.py words each for the reader).
NOT_PLAIN = "address_not_plain"
INVISIBLE = "address_invisible"
MIXED_SCRIPTS = "address_mixed_scripts"
BAD_DOMAIN = "address_bad_domain"
NEEDS_SMTPUTF8 = "address_needs_smtputf8"
PROBLEMS = (NOT_PLAIN, INVISIBLE, MIXED_SCRIPTS, BAD_DOMAIN, NEEDS_SMTPUTF8)

# Scripts that are not a script of their own: digits, punctuation, combining marks.
_NEUTRAL = frozenset({"COMMON", "INHERITED"})
# The mixes Chrome shows in Unicode (TR 39 "highly restrictive"): any other mix of
# two scripts in one label is shown as xn--, as a possible impostor.
_ALLOWED_MIXES = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
                  frozenset({"LATIN", "HAN", "BOPOMOFO"}),
                  frozenset({"LATIN", "HAN", "HANGUL"}))


class AddressError(ValueError):
    """An address the relay cannot be given; ``code`` is one of PROBLEMS."""

    def __init__(self, code: str, address: str) -> None:
        super().__init__(f"{code}: {address!r}")
        self.code = code


def is_plain(value: str) -> bool:
    """One plain address, nothing else: no whitespace (a CR or LF would write headers
    of its own into every mail to it), no control character, no name, list or
    comment; one @, dotted parts that are not empty on either side.
    Not email_validator: it refuses the special-use domains (.localhost, .test)
    that the embedded set-up and the tests use."""
    local, _, domain = value.rpartition("@")
    if not local or not domain or value.count("@") != 1 or len(value) > MAX_LENGTH:
        return False
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 or c in _NOT_IN_AN_ADDRESS for c in value):
        return False
    labels = domain.split(".")
    return len(labels) >= 2 and all(labels) and all(local.split("."))


def invisible(text: str) -> bool:
    """Holds a character that shows nothing or moves what follows: controls, format
    characters (zero-width spaces and joiners, bidirectional marks and overrides,
    the soft hyphen), line and paragraph separators (``typed_text.hidden``)."""
    return typed_text.hidden(text)


def mixes_scripts(label: str) -> bool:
    """Letters of more than one script in one label, other than the mixes a
    browser allows (Latin with Han and Japanese kana, Bopomofo or Hangul)."""
    if label.isascii():
        return False
    scripts = set(categories.unique_aliases(label)) - _NEUTRAL
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in _ALLOWED_MIXES)


def ascii_domain(domain: str) -> str:
    """The domain as the relay is given it: IDNA 2008 A-labels (``évil.test`` ->
    ``xn--vil-bma.test``), lower-cased. AddressError(BAD_DOMAIN) if it has none."""
    if domain.isascii():
        return domain.lower()
    try:
        return idna.encode(domain, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise AddressError(BAD_DOMAIN, domain) from exc


def needs_smtputf8(address: str) -> bool:
    """Letters outside ASCII before the @: only a relay offering SMTPUTF8 carries it."""
    return not address.rpartition("@")[0].isascii()


def for_relay(address: str, smtputf8: bool) -> str:
    """The address as SMTP carries it (the domain in IDNA form); AddressError when
    this relay cannot (``smtputf8``: whether it offers SMTPUTF8) or nobody can."""
    local, _, domain = address.rpartition("@")
    if not local or not domain or invisible(address):
        raise AddressError(NOT_PLAIN if not local or not domain else INVISIBLE, address)
    if not local.isascii() and not smtputf8:
        raise AddressError(NEEDS_SMTPUTF8, address)
    return f"{local}@{ascii_domain(domain)}"


def problem(value: str, smtputf8: bool = False) -> str | None:
    """Why the service refuses this typed address (one of PROBLEMS), or None.
    ``smtputf8``: the relay offers SMTPUTF8 (MAIL_SMTPUTF8)."""
    if not is_plain(value):
        return NOT_PLAIN
    if invisible(value):
        return INVISIBLE
    local, _, domain = value.rpartition("@")
    if any(mixes_scripts(label) for label in [local, *domain.split(".")]):
        return MIXED_SCRIPTS
    try:
        for_relay(value, smtputf8)
    except AddressError as exc:
        return exc.code
    return None
