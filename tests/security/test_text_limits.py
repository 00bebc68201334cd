"""What a player writes has a length limit, the same in forms and in mail: a
200 KB shout is refused with a clear message and reaches nobody. The limits are the
ruleset's (``TEXT_LIMITS``), the refusal its words."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from engine.registry import get_ruleset
from pbm.models import ActionRow, OutboxRow
from pbm.worker import Worker

from tests.web.test_forms_lupus_live_12 import ghosts  # noqa: F401  (a fixture: night 1, four ghosts)
from tests.support.forms import area, flash_of, forms_of, logged_in, post_form, recorded
from tests.support.mail import deliver, fast_passwords, run_mail  # noqa: F401

HUGE_SHOUT = "Al lupo! " * 22_000  # about 200 KB
FREE_TEXT = get_ruleset("lupus-live-12").TEXT_LIMITS  # the game of the ghosts fixture


def test_a_shout_over_the_limit_is_refused_in_the_form(app, factory, ghosts):
    client = logged_in(app, "Dario")
    form = forms_of(area(client))["form-shout"]
    assert form.inputs["shout-shout"]["maxlength"] == str(FREE_TEXT["shout"])
    page = post_form(client, "form-shout", {"shout": HUGE_SHOUT})
    said = flash_of(page)
    assert said.startswith("Non registrato") and "troppo lungo" in said and str(FREE_TEXT["shout"]) in said
    assert recorded(factory) == []
    exactly = "a" * FREE_TEXT["shout"]
    assert "Registrato" in flash_of(post_form(client, "form-shout", {"shout": exactly}))
    assert recorded(factory) == [("Dario", "shout", {"shout": exactly})]


def test_notes_and_a_question_over_the_limit_are_refused_in_the_form(app, factory, ghosts):
    client = logged_in(app, "Dario")
    assert "troppo lunghe" in flash_of(post_form(client, "form-shout", {"notes": "n" * (FREE_TEXT["notes"] + 1)}))
    assert "troppo lunga" in flash_of(post_form(client, "form-question",
                                                {"question": "?" * (FREE_TEXT["question"] + 1)}))
    assert recorded(factory) == []


def test_a_shout_over_the_limit_is_refused_by_mail_and_reaches_nobody(app, factory, ghosts, clock):
    with factory() as s:
        letter = (s.query(OutboxRow).filter_by(to_addr="dario@players.test")
                  .order_by(OutboxRow.id.desc()).first())
    msg = EmailMessage()
    msg["From"] = "dario@players.test"
    msg["To"] = letter.reply_to
    msg["Subject"] = "Re: " + letter.subject
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("URLO " + HUGE_SHOUT.strip() + "\n")
    deliver(app, bytes(msg))
    run_mail(app, Worker(app, clock))
    with factory() as s:
        assert s.query(ActionRow).count() == 0
        (receipt,) = s.query(OutboxRow).filter_by(to_addr="dario@players.test", kind="receipt_error").all()
    assert "troppo lungo" in receipt.body and str(FREE_TEXT["shout"]) in receipt.body
    assert len(receipt.body) < 5_000  # the refusal does not carry the flood back
