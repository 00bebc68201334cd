"""The reserved page written from nothing, and two pages compared but for their form
tokens: what the tests of the page kept as written (pbm/web/reserved_page.py) and of its
validator check every kept page against."""
from __future__ import annotations

import re

from pbm.web import player, reserved_page, reserved_parts

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


def forms_written(monkeypatch) -> list[str]:
    """The forms built to be written on a page or in an answer from now on, each as
    its specs' repr (not those built to read a vote sent): the list grows as they are."""
    built: list[str] = []
    real = player.build_form

    def counted(specs, *args, **kwargs):
        if kwargs.get("shown", True):
            built.append(repr(specs))
        return real(specs, *args, **kwargs)

    monkeypatch.setattr(player, "build_form", counted)
    return built
