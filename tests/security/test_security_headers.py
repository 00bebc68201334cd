"""Security headers on every answer of the web app: pages, errors, static
files, redirects; HSTS only over HTTPS; and no inline script anywhere that
the policy would then block."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.helpers import login, make_game

ROLES = {"Anna": "Lupo Mannaro", "Bruno": "Contadino", "Carla": "Veggente"}
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def assert_secured(response, path):
    headers = response.headers
    csp = headers.get("Content-Security-Policy", "")
    assert "frame-ancestors 'none'" in csp, path
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
    assert headers.get("X-Frame-Options") == "DENY", path
    assert headers.get("X-Content-Type-Options") == "nosniff", path
    assert headers.get("Referrer-Policy"), path


@pytest.fixture
def game(app, factory, clock):
    make_game(factory, app.config, clock.now(), ROLES, mayor="Bruno")
    return "test-game"


def test_every_kind_of_answer_carries_them(app, game):
    anonymous = app.test_client()
    for path in ["/", "/login", f"/g/{game}", f"/g/{game}/calendar.ics", "/static/style.css",
                 "/static/confirm.js", "/no-such-page", f"/g/{game}/me"]:
        assert_secured(anonymous.get(path), path)
    player = login(app, "anna@players.test", "pw-anna")
    assert_secured(player.get(f"/g/{game}/me"), "reserved area")
    assert_secured(player.get(f"/g/{game}/master"), "forbidden desk")
    master = login(app, "master@example.org", "master")
    assert_secured(master.get(f"/g/{game}/master"), "desk")
    refused = master.post(f"/g/{game}/master/pause")  # no CSRF token
    assert refused.status_code == 400
    assert_secured(refused, "a refused post")


def test_hsts_only_over_https(app, game):
    client = app.test_client()
    assert "Strict-Transport-Security" not in client.get("/").headers
    secure = client.get("/", base_url="https://lupus.test")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")


def test_the_500_page_carries_them_too(app):
    @app.route("/boom")
    def boom():
        raise RuntimeError("boom")
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert_secured(response, "/boom")


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_ATTRIBUTE = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)
JS_URL = re.compile(r"(href|src|action)\s*=\s*[\"']\s*javascript:", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle\s*=", re.IGNORECASE)


@pytest.mark.parametrize("template", sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")))
def test_no_template_has_inline_script_the_policy_would_block(template):
    text = (TEMPLATES / template).read_text()
    for pattern in (INLINE_SCRIPT, EVENT_ATTRIBUTE, JS_URL, STYLE_ATTRIBUTE):
        assert not pattern.search(text), f"{template}: {pattern.search(text).group(0)}"
