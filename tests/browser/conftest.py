"""A live server on a free port and Debian's Chromium driven by Playwright."""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from tests.fixtures.smtp import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def live_server(app):
    port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    thread.join(5)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def axe_js() -> str:
    from .axe import axe_source
    return axe_source()


# A phone and a desktop: every page is checked at both.
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture(params=list(SIZES))
def sized_page(request, browser):
    context = browser.new_context(viewport=SIZES[request.param], locale="it-IT")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()
