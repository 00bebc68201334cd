"""The pages' ``_()`` read the compiled catalogue of the page's language directly
(pbm.i18n.install_page_gettext, issue 33): the same words as Flask-Babel's own, in
Italian and in English, plural forms and a template without the page's language
included."""
from __future__ import annotations

import pytest
from flask import render_template_string, session
from flask_babel import force_locale, gettext, ngettext

SENTENCES = ("{{ _('Deadline') }}|{{ ngettext('%(num)s new', '%(num)s new', 1) }}|"
             "{{ ngettext('%(num)s new', '%(num)s new', 3) }}|{{ _('From %(first)s to %(last)s', first='a', last='b') }}")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_page_reads_its_language_as_flask_babel_does(app, lang: str) -> None:
    with app.test_request_context():
        session["lang"] = lang
        page = render_template_string(SENTENCES)
        with force_locale(lang):
            expected = "|".join([gettext("Deadline"), ngettext("%(num)s new", "%(num)s new", 1),
                                 ngettext("%(num)s new", "%(num)s new", 3),
                                 gettext("From %(first)s to %(last)s", first="a", last="b")])
    assert page == expected
    assert (page.startswith("Scadenza|1 ")) == (lang == "it")


def test_a_template_without_the_pages_language_asks_flask_babel(app) -> None:
    with app.test_request_context():
        session["lang"] = "it"
        text = app.jinja_env.from_string("{{ _('Deadline') }}").render()
    assert text == "Scadenza"
