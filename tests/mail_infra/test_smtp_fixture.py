"""The aiosmtpd fixture records what it receives and can be taken down."""
from __future__ import annotations

import smtplib
import threading
from email.message import EmailMessage

import pytest


def send(server, subject, to=("master@lupus.test",)):
    message = EmailMessage()
    message["From"] = "giocatore@example.org"
    message["To"] = ", ".join(to)
    message["Subject"] = subject
    message.set_content("VOTO Mario\nciao è tutto\n")
    with smtplib.SMTP(server.host, server.port, timeout=10) as client:
        client.send_message(message, to_addrs=list(to))
    return message


def test_sent_message_is_recorded(smtp_server):
    sent = send(smtp_server, "Notte 1", to=("master@lupus.test", "copia@lupus.test"))
    [received] = smtp_server.wait_for(1, timeout=10)
    assert received.mail_from == "giocatore@example.org"
    assert received.rcpt_tos == ("master@lupus.test", "copia@lupus.test")
    assert received.subject == "Notte 1"
    assert received.message.get_content() == sent.get_content()
    assert b"Subject: Notte 1" in received.raw


def test_messages_from_several_threads_are_all_recorded(smtp_server):
    threads = [threading.Thread(target=send, args=(smtp_server, f"m{n}")) for n in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    received = smtp_server.wait_for(5, timeout=10)
    assert sorted(m.subject for m in received) == [f"m{n}" for n in range(5)]


def test_wait_for_reports_what_arrived_when_it_times_out(smtp_server):
    send(smtp_server, "solo uno")
    with pytest.raises(AssertionError, match="solo uno"):
        smtp_server.wait_for(2, timeout=0.3)


def test_stop_refuses_connections_and_restart_reuses_the_port(smtp_server):
    port = smtp_server.port
    smtp_server.stop()
    with pytest.raises(OSError):
        send(smtp_server, "perso")
    smtp_server.start()
    assert smtp_server.port == port
    send(smtp_server, "dopo il riavvio")
    assert [m.subject for m in smtp_server.wait_for(1)] == ["dopo il riavvio"]
