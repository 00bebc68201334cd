"""The shapes mail clients give a player's reply, written here (never copied from a
corpus): a Gmail top-post over a quoted bulletin, an Outlook top-post over its header
block, an HTML-only reply, Outlook's Western European (windows-1252 bytes labelled
iso-8859-1) and Thunderbird's format=flowed quoted-printable. Each quotes the service's
mail, whose lines the caller gives (with a decoy command in them, which must never count)."""
from __future__ import annotations

import email.policy
from email.message import EmailMessage

SHAPES = ("gmail", "outlook", "html", "latin1", "flowed")
SUBJECT = "Re: [Villaggio] Bollettino: giorno 1 [lupus:tok3n12345]"


def client_mail(shape: str, written: str, quoted: list[str], subject: str = SUBJECT,
                sender: str = "Anna <anna@example.it>") -> bytes:
    """``written`` as the player's own text in the shape ``shape``, quoting ``quoted``."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = "lupus+tok3n12345@lupus.example"
    msg["Subject"] = subject
    if shape == "gmail":
        body = (written + "\n\nIl giorno mar 24 nov 2026 alle ore 09:30 Lupus <lupus@lupus.example> ha scritto:\n\n"
                + "\n".join("> " + ln for ln in quoted) + "\n")
        msg.set_content(body)
    elif shape == "outlook":
        body = (written + "\n\n________________________________\nDa: Lupus <lupus@lupus.example>\n"
                "Inviato: martedì 24 novembre 2026 09:30\nA: Anna\nOggetto: Bollettino\n\n" + "\n".join(quoted) + "\n")
        msg.set_content(body)
    elif shape == "html":
        html = ("<div dir=\"ltr\">" + "<br>".join(written.replace("&", "&amp;").replace("<", "&lt;").split("\n"))
                + "</div><br><div class=\"gmail_quote\">Il giorno mar 24 nov 2026 Lupus ha scritto:<br>"
                "<blockquote>" + "<br>".join(q.replace("&", "&amp;").replace("<", "&lt;") for q in quoted)
                + "</blockquote></div>")
        msg.set_content(html, subtype="html")
    elif shape == "latin1":
        # Outlook's Western European: windows-1252 bytes (its curly apostrophe) under an
        # iso-8859-1 label.
        body = (written.replace("'", "\u2019") + "\n\n-----Messaggio originale-----\nDa: Lupus\n\n"
                + "\n".join(quoted) + "\n")
        head = bytes(msg).replace(b"\r\n", b"\n")
        return (head + b"Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n"
                + body.encode("cp1252", "replace"))
    elif shape == "flowed":
        body = written + "\n\nIl 24/11/26 09:30, Lupus ha scritto:\n" + "\n".join("> " + ln for ln in quoted) + "\n"
        msg.set_content(body, cte="quoted-printable")
        msg.set_param("format", "flowed")
    else:
        raise ValueError(shape)
    return bytes(msg)


# A player forwarding our mail to the Master with her command on top, as clients forward.
FORWARDS = {
    "gmail": ("{top}\n\n---------- Forwarded message ---------\nFrom: Lupus <lupus@lupus.example>\n"
              "Date: mar 24 nov 2026 alle ore 09:30\nSubject: {subject}\nTo: <anna@example.it>\n\n\n{quoted}"),
    "outlook": ("{top}\n\n________________________________\nDa: Lupus <lupus@lupus.example>\n"
                "Inviato: martedì 24 novembre 2026 09:30\nA: anna@example.it\nOggetto: {subject}\n\n{quoted}"),
    "apple": ("{top}\n\nInizio messaggio inoltrato:\n\nDa: Lupus <lupus@lupus.example>\nOggetto: {subject}\n"
              "Data: 24 novembre 2026 09:30:00 CET\nA: anna@example.it\n\n{quoted}"),
    "thunderbird": ("{top}\n\n-------- Messaggio Inoltrato --------\nOggetto: \t{subject}\n"
                    "Data: \tTue, 24 Nov 2026 09:30:00 +0100\nMittente: \tLupus <lupus@lupus.example>\n"
                    "A: \tanna@example.it\n\n{quoted}"),
}


def forwarded_mail(client: str, top: str, quoted: list[str], subject: str = SUBJECT) -> bytes:
    original = subject.removeprefix("Re: ")
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = "Anna <anna@example.it>"
    msg["To"] = "lupus@lupus.example"
    msg["Subject"] = ("I: " if client == "outlook" else "Fwd: ") + original
    msg.set_content(FORWARDS[client].format(top=top, subject=original, quoted="\n".join(quoted)))
    return bytes(msg)
