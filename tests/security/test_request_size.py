"""How much a request may send. The attack: an anonymous 1.5 GB `POST /login` was read,
and spooled to disk, before the answer (a 400 for its missing CSRF token). Now a body
larger than MAX_CONTENT_LENGTH is refused with 413 before it is read, with a page in
the reader's language; the narrator's photo upload, and only it, takes more; the
nginx example refuses at the same sizes.
"""
from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from pbm import config as config_module
from pbm import photos
from pbm.models import Seat, SeatPhoto

from tests.conftest import csrf_from
from tests.fixtures.smtp import free_port
from tests.support.helpers import login, make_master
from tests.web.test_narrator import jpeg_with_gps

ROOT = Path(__file__).resolve().parents[2]
FORM_LIMIT = config_module.defaults(Path("/nonexistent"))["MAX_CONTENT_LENGTH"]
BOUNDARY = "lupus-boundary"


class CountingBody(io.RawIOBase):
    """A request body of ``size`` bytes made on demand (a file part of a multipart
    form, as the attack sent), counting how much of it the application read."""

    def __init__(self, size: int) -> None:
        self.size, self.read_so_far = size, 0
        self.head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n"
                     "Content-Type: application/octet-stream\r\n\r\n").encode()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.size - self.read_so_far)
        if n <= 0:
            return 0
        chunk = (self.head + b"x" * n)[self.read_so_far:self.read_so_far + n] if self.read_so_far < len(self.head) \
            else b"x" * n
        buffer[:n] = chunk
        self.read_so_far += n
        return n


def big_post(app, path: str, size: int, *, declared: bool = True, lang: str = "it", client=None):
    body = CountingBody(size)
    environ = {"wsgi.input": body, "CONTENT_TYPE": f"multipart/form-data; boundary={BOUNDARY}",
               "HTTP_ACCEPT_LANGUAGE": lang}
    if declared:
        environ["CONTENT_LENGTH"] = str(size)
    else:  # chunked: the server says the stream ends, and nobody knows its length before
        environ["wsgi.input_terminated"] = True
    r = (client or app.test_client()).post(path, environ_overrides=environ)
    return r, body.read_so_far


@pytest.mark.parametrize("path", ["/login", "/password-reset", "/g/no-such-game/master/players"])
def test_a_body_over_the_limit_is_refused_before_it_is_read(app, path):
    r, read = big_post(app, path, 40 * FORM_LIMIT)
    assert r.status_code == 413
    assert read == 0


def test_a_body_of_unknown_length_is_read_no_further_than_the_limit(app):
    r, read = big_post(app, "/login", 40 * FORM_LIMIT, declared=False)
    assert r.status_code == 413
    assert read <= FORM_LIMIT + 64 * 1024


def test_the_refusal_is_a_page_in_the_readers_language(app):
    r, _ = big_post(app, "/login", 2 * FORM_LIMIT, lang="it")
    page = r.get_data(as_text=True)
    assert r.status_code == 413 and r.mimetype == "text/html"
    assert "troppo grande" in page and "non è stato registrato" in page and '<html lang="it"' in page
    r, _ = big_post(app, "/login", 2 * FORM_LIMIT, lang="en")
    page = r.get_data(as_text=True)
    assert "too large" in page and "nothing was recorded" in page.lower() and '<html lang="en"' in page
    # The limits it names are the ones applied.
    assert f"{FORM_LIMIT // 2**20} MB" in page and f"{photos.MAX_UPLOAD // 2**20} MB" in page


def test_a_form_under_the_limit_is_untouched(app, factory):
    make_master(factory)
    login(app, "master@example.org", "master")  # asserts the redirect of a log-in


@pytest.fixture
def narrator(app, factory):
    make_master(factory)
    client = login(app, "master@example.org", "master")
    page = client.get("/master/new").get_data(as_text=True)
    client.post("/master/new", data={"csrf_token": csrf_from(page), "name": "Serata al bar",
                                     "ruleset": "lupus-noctis", "auto_publish": "y"})
    return client


def seat_with_photo(client, name: str, photo: bytes):
    page = client.get("/g/serata-al-bar/narrator").get_data(as_text=True)
    # The form's action carries its token, read before the body (issue 29).
    action = re.search(r'action="(/g/serata-al-bar/narrator/seat\?csrf_token=[^"]+)"', page).group(1)
    return client.post(action.replace("&amp;", "&"), content_type="multipart/form-data",
                       data={"csrf_token": csrf_from(page), "name": name,
                             "photo": (io.BytesIO(photo), "selfie.jpg")})


def test_the_narrators_photo_takes_more_than_a_form(narrator, factory):
    # A phone photo of several megabytes: larger than any form, within the photo's limit.
    # (Bytes after the picture's end are ignored by decoders, as a camera's extra data is.)
    photo = jpeg_with_gps() + b"\0" * (3 * FORM_LIMIT)
    r = seat_with_photo(narrator, "Anna", photo)
    assert r.status_code == 302, r.status_code
    with factory() as s:
        assert s.scalar(select(SeatPhoto.seat_id).join(Seat, Seat.id == SeatPhoto.seat_id)
                        .where(Seat.name == "Anna")) is not None


def test_a_photo_over_its_own_limit_is_refused_before_it_is_read(narrator, factory):
    r = seat_with_photo(narrator, "Bruno", jpeg_with_gps() + b"\0" * photos.MAX_REQUEST)
    assert r.status_code == 413 and "troppo grande" in r.get_data(as_text=True)
    with factory() as s:
        assert s.scalar(select(Seat).where(Seat.name == "Bruno")) is None


def test_an_anonymous_photo_upload_is_refused_before_its_body_is_read(narrator, app):
    """Issue 29: anyone could make the server read 16 MB into any game's photo route
    before the login and the form's token were checked."""
    size = photos.MAX_REQUEST - FORM_LIMIT  # under the photo's limit, over a form's
    r, read = big_post(app, "/g/serata-al-bar/narrator/seat", size)
    assert r.status_code == 413 and read == 0
    # A forged token, or none, from the Master's own browser: the same.
    for query in ("", "?csrf_token=forged"):
        r, read = big_post(app, "/g/serata-al-bar/narrator/seat" + query, size, client=narrator)
        assert r.status_code == 413 and read == 0, query


def test_another_master_cannot_upload_to_this_game(narrator, app, factory):
    from pbm.db import transaction
    from pbm.models import User
    with transaction(factory) as s:
        other = User(email="other@example.org", name="Other", lang="it", is_admin=True)
        other.set_password("other-password")
        s.add(other)
    client = login(app, "other@example.org", "other-password")
    page = client.get("/master/new").get_data(as_text=True)
    token = csrf_from(page)
    r, read = big_post(app, f"/g/serata-al-bar/narrator/seat?csrf_token={token}",
                       photos.MAX_REQUEST - FORM_LIMIT, client=client)
    assert r.status_code == 413 and read == 0


def test_only_the_photo_upload_takes_more(app):
    """Every other route keeps the form's limit, the narrator's other taps included."""
    for path in ("/g/serata-al-bar/narrator/unseat", "/g/serata-al-bar/narrator/start", "/login"):
        r, read = big_post(app, path, 2 * FORM_LIMIT)
        assert r.status_code == 413 and read == 0, path


# --------------------------------------------------------------------------- nginx agrees

def nginx_limits() -> dict[str, int]:
    """client_max_body_size of the server, and of each location that sets its own."""
    text = (ROOT / "deploy" / "nginx" / "lupus.conf").read_text()
    units = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}
    found: dict[str, int] = {}
    location = "server"
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if m := re.match(r"location\s+(.*?)\s*\{", line):
            location = m.group(1)
        elif line == "}":
            location = "server"
        elif m := re.match(r"client_max_body_size\s+(\d+)([kmgKMG]?);", line):
            found[location] = int(m.group(1)) * units[m.group(2).lower()]
    return found


def test_the_nginx_example_refuses_at_the_same_sizes():
    limits = nginx_limits()
    assert limits.pop("server") == FORM_LIMIT
    # Reached only by nginx's internal redirect after its own 413 (the body unread).
    assert limits.pop("= /request-too-large") == 0
    (pattern, limit), = limits.items()
    assert limit == photos.MAX_REQUEST
    matcher = re.compile(pattern.removeprefix("~").strip())
    assert matcher.search("/g/serata-al-bar/narrator/seat")
    for other in ("/g/serata-al-bar/narrator/start", "/g/serata-al-bar/narrator/seat/x", "/login",
                  "/g/x/master/players"):
        assert not matcher.search(other), other


# --------------------------------------------------------------------------- through gunicorn

def test_gunicorn_answers_a_huge_anonymous_login_at_once(tmp_path):
    """The attack as it was made: headers announcing 1.5 GB, then the body starting to
    flow. The answer comes after the first megabyte, while the rest is still unsent."""
    port = free_port()
    env = {**os.environ, "PBM_INSTANCE": str(tmp_path / "instance")}
    subprocess.run([sys.executable, "-m", "pbm.cli", "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    web = subprocess.Popen([sys.executable, "-m", "pbm.cli", "web", "--port", str(port), "--workers", "1"],
                           cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except OSError:
                assert time.monotonic() < deadline and web.poll() is None, "pbm web did not start"
                time.sleep(0.2)
        with conn:
            conn.sendall((f"POST /login HTTP/1.1\r\nHost: lupus.test\r\nAccept-Language: it\r\n"
                          f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
                          f"Content-Length: {1_500_000_000}\r\n\r\n").encode())
            try:
                conn.sendall(CountingBody(2**20).read())
            except OSError:
                pass  # the server may already have answered and closed
            answer = b""
            while b"</html>" not in answer:
                chunk = conn.recv(65536)  # a server reading the body would leave this waiting
                if not chunk:
                    break
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert "troppo grande" in answer.decode("utf-8", "replace")
        # Issue 29: the connection is closed after it (the body was left unread), and
        # the answer says so; it said keep-alive.
        head = answer.split(b"\r\n\r\n", 1)[0].lower()
        assert b"\r\nconnection: close" in head and b"keep-alive" not in head, head
    finally:
        web.terminate()
        web.wait(timeout=30)


def test_the_page_nginx_shows_for_its_own_refusal(app):
    r = app.test_client().get("/request-too-large", headers={"Accept-Language": "en"})
    assert r.status_code == 413 and "too large" in r.get_data(as_text=True)
