"""The reserved page written from nothing, and two pages compared but for their form
tokens: what the tests of the page kept as written (pbm/web/reserved_page.py) and of its
validator check every kept page against."""
from __future__ import annotations

import re

from pbm.web import reserved_page, reserved_parts

from tests.support.forms import area

# A form token as the page writes it (signed anew with each page).
TOKEN = re.compile(r'csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"')


def afresh(client) -> str:
    """The page written from nothing: no part and no page kept from an earlier visit."""
    reserved_parts.forget(client.application)
    reserved_page.forget(client.application)
    return area(client)


def same_page(page: str, other: str) -> bool:
    """The same page but for the forms' tokens."""
    return TOKEN.sub("", page) == TOKEN.sub("", other)
