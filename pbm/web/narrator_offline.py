"""The narrator's phone without a network (issue 35): what it takes with it, and its
taps when it is back.

- ``book.json``: the game as the phone's engine holds it (``engine.table_book.Book``,
  built by ``operations.table_sync.book_of``), its hash, the faces' pictures and the
  page's words, kept by the page in IndexedDB each time it is opened online;
- ``engine.zip``: the ``engine`` package of this very server, zipped in memory (never
  a copy kept in git), which the phone runs in Pyodide;
- ``pyodide/<file>``: the Pyodide distribution ``make offline-assets`` fetched from
  the npm registry into the ignored build folder (404 when it is absent: the page
  then works online only, as before);
- the service worker and the web app manifest that make the page installable and
  open it again without a network;
- ``sync``: the taps made offline, replayed in order through the same operations
  (``operations.table_sync``).
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, send_from_directory, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf.csrf import generate_csrf, validate_csrf
from sqlalchemy import select
from wtforms.validators import ValidationError

import engine
from engine.table_book import book_hash

from .. import errors
from ..i18n import request_lang
from ..models import Game, SeatPhoto
from ..operations import table, table_sync, timing
from . import config, db, game_or_404, now, require_master

bp = Blueprint("narrator_offline", __name__)

# The Pyodide release the page runs (make offline-assets fetches it, with its integrity).
PYODIDE_VERSION = "0.29.3"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# The page's Content-Security-Policy: the site's own, and WebAssembly compiled (Pyodide).
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def _game(slug: str) -> Game:
    """A game at the table this user is a Master of (as the narrator's page asks)."""
    game = game_or_404(slug)
    require_master(game)
    if timing.moments(game).page != timing.TABLE_PAGE:
        abort(404)
    return game


def pyodide_dir() -> Path:
    """Where ``make offline-assets`` unpacks Pyodide (the ignored build folder)."""
    root = current_app.config.get("PYODIDE_DIR") or Path(__file__).resolve().parents[2] / "build" / "pyodide"
    return Path(root) / f"pyodide-{PYODIDE_VERSION}"


def offline_ready() -> bool:
    return all((pyodide_dir() / name).is_file() for name in PYODIDE_FILES)


@lru_cache(maxsize=1)
def engine_zip() -> tuple[bytes, str]:
    """The engine package as the phone unpacks it, and its version (a hash of it)."""
    root = Path(engine.__file__).resolve().parent
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(root.rglob("*.py")):
            info = zipfile.ZipInfo(str(Path("engine") / path.relative_to(root)), date_time=(2020, 1, 1, 0, 0, 0))
            z.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    data = out.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


def offline_urls(slug: str) -> dict[str, Any]:
    """What the page's script needs to go offline (None when Pyodide is not installed)."""
    if not offline_ready():
        return {}
    return {"book": url_for("narrator_offline.book", slug=slug),
            "sync": url_for("narrator_offline.sync", slug=slug),
            "engine": url_for("narrator_offline.engine_package", v=engine_zip()[1]),
            "pyodide": url_for("narrator_offline.pyodide", name="pyodide.mjs").rsplit("/", 1)[0] + "/",
            "pyodide_files": [url_for("narrator_offline.pyodide", name=n) for n in PYODIDE_FILES],
            "worker": url_for("narrator_offline.service_worker"),
            "manifest": url_for("narrator_offline.manifest", slug=slug)}


PLACE = re.compile(r"%\((\w+)\)s")


def pieces(text: str) -> list[Any]:
    """A sentence the script completes, as pieces: its text, and where each value goes
    (``{"fill": name}``), so no unfilled placeholder ever travels as text."""
    out: list[Any] = []
    for n, piece in enumerate(PLACE.split(text)):
        if n % 2:
            out.append({"fill": piece})
        elif piece:
            out.append(piece)
    return out


# The words the offline page shows, worded here in the reader's language.
def _words() -> dict[str, list[Any]]:
    return {key: pieces(text) for key, text in _sentences().items()}


def _sentences() -> dict[str, str]:
    return {
        "offline": _("Offline: the game goes on on this phone."),
        "waiting": _("Taps waiting to be sent: %(n)s."),
        "loading": _("Loading the game on this phone…"),
        "cannot": _("This phone cannot run the game without a network. Reconnect to go on."),
        "confirm": _("Confirm"), "done": _("Done: go on"), "dawn": _("Dawn: see who died"),
        "close_vote": _("Close the vote"), "announce": _("Announce"), "read_aloud": _("Read aloud"),
        "night": _("Night %(number)s"), "call": _("call %(n)s of %(total)s"),
        "day": _("Day %(number)s"), "voter": _("%(name)s votes"), "signal": _("Signal the answer, in silence, for their eyes only"),
        "nothing": _("Nothing to signal to them any more."), "held": _(
            "This moment waits for the Masters' desk: reconnect to go on."),
        "over": _("The game is over: reconnect to see the summary."),
        "setup": _("Seating the players needs the network."),
        "refused": _("Not recorded: this tap does not fit the game now."),
        "tonight": _("Tonight so far"), "correct": _("Correct"),
        "drop": _("Discard these taps"),
        "the_vote": _("The vote"), "player": _("Player"), "votes": _("Votes"),
        "votes_caption": _("Votes for each player"), "who_voted": _("Who voted whom"),
        "tie": _("Tie at %(count)s votes between %(names)s: the tie rule chose %(chosen)s."),
        "tie_none": _("Tie at no votes: the tie rule chose %(chosen)s among those nobody voted for."),
        "drop_confirm": _("Discard the taps of this phone? The game stays as the server has it."),
    }


@bp.route("/g/<slug>/narrator/book.json")
@login_required
def book(slug: str) -> Response:
    game = _game(slug)
    current = table_sync.book_of(db(), game)
    with_photo = set(db().scalars(select(SeatPhoto.seat_id).where(SeatPhoto.seat_id.in_([s.id for s in game.seats]))))
    photos = {s.name: url_for("narrator.photo", slug=slug, seat_id=s.id) for s in game.seats if s.id in with_photo}
    response = jsonify({"book": current.to_dict(), "hash": book_hash(current), "lang": request_lang(),
                        "photos": photos, "words": _words(), "game": game.name, "csrf": generate_csrf()})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/g/<slug>/narrator/sync", methods=["POST"])
@login_required
def sync(slug: str) -> Response:
    """The phone's taps, in order: ``{"taps": [{op, ..., before, after}]}``."""
    try:
        validate_csrf(request.headers.get("X-CSRFToken"))
    except ValidationError:
        abort(400)
    game = _game(slug)
    payload = request.get_json(silent=True)
    taps = payload.get("taps") if isinstance(payload, dict) else None
    if not isinstance(taps, list) or not all(isinstance(t, dict) for t in taps):
        abort(400)
    factory = current_app.extensions["pbm_sessions"]
    user_id, game_id = current_user.id, game.id

    def close(phase_id: int) -> None:
        db().commit()  # a close is its own unit of work (``table.close_moment``)
        table.close_moment(factory, config(), game_id, phase_id=phase_id, now=now(), by_user_id=user_id)
        db().expire_all()

    def replay(g: Any, tap: dict[str, Any]) -> None:
        table_sync.replay_tap(db(), config(), g, tap, now=now(), by=current_user, close=close)

    done = table_sync.sync(db(), game_id, taps, replay=replay)
    return jsonify({"applied": done.applied, "hash": done.hash, "stopped_at": done.stopped_at,
                    "why": done.why, "message": _said(done, game.ruleset)})


def _said(done: table_sync.Synced, ruleset: str) -> str:
    """What the narrator reads when a sync stopped early: which tap, and why."""
    if done.stopped_at is None:
        return ""
    n = done.stopped_at + 1
    if done.why == "conflict":
        return _("Tap %(n)s was not sent: the game changed elsewhere meanwhile (the Masters' desk or "
                 "another phone). Your taps are kept on this phone; open the page again to see the game "
                 "as it stands.", n=n)
    if done.why == "mismatch":
        return _("Tap %(n)s was recorded, but the server's game does not match this phone's. Your "
                 "taps are kept on this phone; tell the Masters.", n=n)
    reason = errors.refusal(done.refusal or Exception(done.why), request_lang(), ruleset=ruleset, page="table")
    return _("Tap %(n)s was refused: %(reason)s Your taps are kept on this phone.", n=n, reason=reason)


@bp.route("/narrator/engine.zip")
def engine_package() -> Response:
    data, version = engine_zip()
    response = Response(data, mimetype="application/zip")
    response.headers["ETag"] = version
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if request.args.get("v") == version \
        else "no-cache"
    return response


@bp.route("/narrator/pyodide/<name>")
def pyodide(name: str) -> Response:
    if name not in PYODIDE_FILES or not offline_ready():
        abort(404)
    response = send_from_directory(pyodide_dir(), name, max_age=31536000)
    if name.endswith(".mjs"):
        response.mimetype = "text/javascript"
    return response


@bp.route("/narrator-sw.js")
def service_worker() -> Response:
    """At the site's root, so it may look after the narrator's pages under /g/."""
    response = send_from_directory(Path(current_app.static_folder or "static"), "narrator-sw.js", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route("/g/<slug>/narrator/manifest.webmanifest")
@login_required
def manifest(slug: str) -> Response:
    game = _game(slug)
    body = {"name": f"{game.name} · {_('Narrator')}", "short_name": game.name[:12],
            "start_url": url_for("narrator.page", slug=slug), "scope": url_for("narrator.page", slug=slug),
            "display": "standalone", "background_color": "#000000", "theme_color": "#000000",
            "lang": request_lang(),
            "icons": [{"src": url_for("static", filename="narrator-icon.svg"), "sizes": "any",
                       "type": "image/svg+xml"}]}
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
