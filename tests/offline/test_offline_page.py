"""What the narrator's page carries for going offline (issue 35), and what it does not
when the server has no Pyodide: the page as before, under the site's own policy."""
from __future__ import annotations

import io
import json
import zipfile

from pbm.web import narrator_offline

from tests.web.test_narrator import narrator, seat_everyone  # noqa: F401  (narrator: the fixture)


def test_the_page_is_installable_and_may_run_webassembly_where_pyodide_is_installed(narrator, app):
    with app.app_context():
        assert narrator_offline.offline_ready(), "Pyodide is not in build/pyodide: run `make offline-assets`"
    r = narrator.client.get(f"/g/{narrator.slug}/narrator")
    page = r.get_data(as_text=True)
    assert 'rel="manifest"' in page and 'id="offline-config"' in page
    assert "'wasm-unsafe-eval'" in r.headers["Content-Security-Policy"]
    assert "'unsafe-eval'" not in r.headers["Content-Security-Policy"].replace("'wasm-unsafe-eval'", "")
    manifest = json.loads(narrator.client.get(f"/g/{narrator.slug}/narrator/manifest.webmanifest").data)
    assert manifest["start_url"] == f"/g/{narrator.slug}/narrator" and manifest["display"] == "standalone"
    worker = narrator.client.get("/narrator-sw.js")
    assert worker.status_code == 200 and "javascript" in worker.mimetype


def test_without_pyodide_the_page_is_as_before(narrator, app, tmp_path):
    app.config["PYODIDE_DIR"] = str(tmp_path)  # nothing fetched there
    r = narrator.client.get(f"/g/{narrator.slug}/narrator")
    page = r.get_data(as_text=True)
    assert 'rel="manifest"' not in page and "offline-config" not in page and "narrator-offline.js" not in page
    assert "wasm-unsafe-eval" not in r.headers["Content-Security-Policy"]
    assert narrator.client.get("/narrator/pyodide/pyodide.mjs").status_code == 404


def test_the_engine_package_is_the_server_s_own_engine_and_nothing_else(app):
    client = app.test_client()
    r = client.get("/narrator/engine.zip")
    names = zipfile.ZipFile(io.BytesIO(r.data)).namelist()
    assert "engine/table_book.py" in names and "engine/lupus_noctis/ruleset.py" in names
    assert all(n.startswith("engine/") and n.endswith(".py") for n in names)
    version = r.headers["ETag"].strip('"')
    assert client.get(f"/narrator/engine.zip?v={version}").headers["Cache-Control"].endswith("immutable")


def test_the_book_is_the_masters_only(narrator, app):
    seat_everyone(narrator)
    assert narrator.client.get(f"/g/{narrator.slug}/narrator/book.json").status_code == 200
    anonymous = app.test_client().get(f"/g/{narrator.slug}/narrator/book.json")
    assert anonymous.status_code in (302, 401, 403, 404)
    assert b"Bruno" not in anonymous.data
