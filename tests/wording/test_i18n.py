"""Italian first: every user-facing string of the service has an Italian translation,
and both languages are really served."""
from __future__ import annotations

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from pbm.i18n import TRANSLATIONS
from pbm.mail.outbound.composer import TEMPLATES, render_body, render_subject

ROOT = TRANSLATIONS.parent.parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None}
METHODS = [("pbm/**.py", "python"), ("templates/**.html", "jinja2")]


def extracted() -> set[str]:
    ids = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT), METHODS, keywords=KEYWORDS,
            callback=None, strip_comment_tags=True, options_map={"templates/**.html": {}}):
        if "/.venv/" in _file or _file.startswith(".venv"):
            continue
        ids.add(message if isinstance(message, str) else message[0])
    return ids


def test_every_message_has_an_italian_translation():
    with (TRANSLATIONS / "it" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    # A plural (ngettext) is one message: its singular, every form translated.
    translated = {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog
                  if m.id and (all(m.string) if isinstance(m.string, tuple) else m.string)}
    ids = extracted()
    assert {"Log in", "Recorded: %(what)s. You can change it until %(deadline)s."} <= ids
    missing = sorted(ids - translated)
    assert missing == [], f"run scripts/update_translations.py and translate: {missing}"


def test_every_mail_template_exists_in_both_languages():
    for folder in TEMPLATES.iterdir():
        for lang in ("it", "en"):
            assert (folder / f"subject.{lang}.txt").exists(), folder
            assert (folder / f"body.{lang}.txt").exists(), folder


def test_pages_follow_the_chosen_language(app):
    client = app.test_client()
    assert "Accedi" in client.get("/login").get_data(as_text=True)
    english = client.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Log in" in english and "Accedi" not in english


def test_mail_templates_render_in_each_language():
    class Game:
        name, slug = "Partita", "partita"
    ctx = {"game": Game, "base_url": "http://x", "phase_label": "notte", "lines": ["riga"]}
    it = (render_subject("master_report", "it", **ctx), render_body("master_report", "it", **ctx))
    en = (render_subject("master_report", "en", **ctx), render_body("master_report", "en", **ctx))
    assert "Resoconto" in it[0] and "report" in en[0]


def test_counts_in_the_services_words_agree_with_their_number(app):
    """Issue 21: "1 coperte", "1 coins". The service's own counts take the singular for
    one, through Babel's plural rules: the mail templates' ``count``, the pages' ngettext."""
    from flask import render_template_string
    from flask_babel import force_locale

    class User:
        name, email = "Anna", "anna@p.test"

    one, many = {}, {}
    for lang in ("it", "en"):
        for n, out in ((1, one), (3, many)):
            ctx = {"user": User, "link": "http://x/l", "base_url": "http://x", "master_of": None}
            out[lang] = (render_body("set_password", lang, days=n, **ctx)
                         + render_body("password_reset", lang, hours=n, **ctx))
    assert "per 1 giorno)" in one["it"] and "per 1 ora)" in one["it"]
    assert "for 1 day)" in one["en"] and "for 1 hour)" in one["en"]
    assert "per 3 giorni)" in many["it"] and "per 3 ore)" in many["it"]
    assert "for 3 days)" in many["en"] and "for 3 hours)" in many["en"]
    page = ("{{ ngettext('its text was deleted on %(when)s (mail is kept %(num)s day)', "
            "'its text was deleted on %(when)s (mail is kept %(num)s days)', n, when='x') }}")
    with app.test_request_context():
        for lang, n, wanted in (("it", 1, "1 giorno)"), ("it", 2, "2 giorni)"), ("en", 1, "1 day)"),
                                ("en", 2, "2 days)")):
            with force_locale(lang):
                assert render_template_string(page, n=n).endswith(wanted)
