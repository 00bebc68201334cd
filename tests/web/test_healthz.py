"""GET /healthz: 200 with a JSON report when the database answers with the
expected schema and a worker beat lately; 503 with the reason otherwise."""
from __future__ import annotations

import pytest
from alembic import command

from pbm.app import create_app
from pbm.migrate import alembic_config
from pbm.models import WorkerHeartbeat
from pbm.worker import Worker


def test_healthy_after_a_worker_heartbeat(app, clock):
    Worker(app, clock).heartbeat()
    clock.advance(seconds=20)
    r = app.test_client().get("/healthz")
    assert r.status_code == 200, r.get_json()
    report = r.get_json()
    assert report["status"] == "ok" and report["problems"] == []
    assert report["database"] == "ok"
    assert report["worker"]["alive"] == 1 and report["worker"]["age_seconds"] == 20.0
    assert r.headers["Cache-Control"] == "no-store"


def test_no_worker_ever_is_unhealthy(app):
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    assert r.get_json()["status"] == "unhealthy"
    assert any("no worker is running" in p for p in r.get_json()["problems"])


def test_a_silent_worker_makes_it_unhealthy(app, clock):
    worker = Worker(app, clock)
    worker.heartbeat()
    clock.advance(seconds=61)
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    (problem,) = r.get_json()["problems"]
    assert "no worker heartbeat for 61 s" in problem
    assert r.get_json()["worker"]["alive"] == 0

    worker.heartbeat()  # it is back
    assert app.test_client().get("/healthz").status_code == 200


def test_one_live_worker_of_two_is_enough_and_dead_ones_are_forgotten(app, clock, factory):
    dead = Worker(app, clock)
    dead.name = "other-host:1"
    dead.heartbeat()
    clock.advance(days=1, seconds=1)
    Worker(app, clock).heartbeat()
    r = app.test_client().get("/healthz")
    assert r.status_code == 200 and r.get_json()["worker"]["alive"] == 1
    with factory() as s:
        assert s.get(WorkerHeartbeat, "other-host:1") is None


def test_a_database_that_does_not_answer(tmp_path, clock):
    # A folder that does not exist: SQLite cannot open the file.
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'missing' / 'pbm.sqlite3'}",
                      "TESTING": True}, instance=tmp_path, clock=clock)
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    assert r.get_json()["database"] == "unavailable"
    assert r.get_json()["problems"][0].startswith("database unavailable: unable to open database file")


def test_a_schema_behind_the_code_says_to_upgrade(app, clock, database_url):
    Worker(app, clock).heartbeat()
    # As if this code had been deployed before `pbm db upgrade` ran.
    command.stamp(alembic_config(database_url), "c36f18d6b636", purge=True)
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    report = r.get_json()
    assert report["database"] == "ok" and report["schema"] == "c36f18d6b636"
    (problem,) = report["problems"]
    assert problem.startswith("database schema at c36f18d6b636, this code expects ")
    assert problem.endswith("run `pbm db upgrade`")


# --------------------------------------------------------------------------- who reads the details
# An anonymous visitor learns ok or not ok, nothing more: not the schema revision (which
# dates the code and its known flaws), not the worker's heartbeat (when the service is
# busy, when it is down). Gunicorn's REMOTE_ADDR is the socket's peer, which the test
# client's environ_base sets as gunicorn would.

ANYONE = {"REMOTE_ADDR": "203.0.113.9"}
THROUGH_NGINX = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
TOKEN = "monitoring-" + "k" * 24


def _short(r) -> None:
    assert set(r.get_json()) == {"status"}, r.get_json()
    body = r.get_data(as_text=True)
    assert "schema" not in body and "worker" not in body and "beat" not in body
    assert r.headers["Cache-Control"] == "no-store"


def test_an_anonymous_visitor_reads_ok_and_nothing_more(app, clock):
    Worker(app, clock).heartbeat()
    r = app.test_client().get("/healthz", environ_base=ANYONE)
    assert r.status_code == 200 and r.get_json() == {"status": "ok"}
    _short(r)


def test_an_anonymous_visitor_reads_not_ok_and_not_why(app):
    r = app.test_client().get("/healthz", environ_base=ANYONE)
    assert r.status_code == 503 and r.get_json() == {"status": "unhealthy"}
    _short(r)


def test_a_visitor_through_the_proxy_is_not_local_whatever_the_peer(make_app, clock):
    # nginx on the same machine connects from 127.0.0.1 for everyone: the peer alone
    # proves nothing once a forwarding header says the request came from elsewhere,
    # with TRUSTED_PROXIES declared or forgotten.
    for proxies in (0, 1):
        app = make_app(TRUSTED_PROXIES=proxies)
        Worker(app, clock).heartbeat()
        _short(app.test_client().get("/healthz", environ_base=THROUGH_NGINX))
        _short(app.test_client().get("/healthz", environ_base={
            **THROUGH_NGINX, "HTTP_X_FORWARDED_FOR": "127.0.0.1, 203.0.113.9"}))
        _short(app.test_client().get("/healthz", environ_base={
            "REMOTE_ADDR": "127.0.0.1", "HTTP_FORWARDED": "for=203.0.113.9"}))


def test_a_forged_forwarding_header_does_not_make_a_stranger_local(make_app, clock):
    for proxies in (0, 1):
        app = make_app(TRUSTED_PROXIES=proxies)
        Worker(app, clock).heartbeat()
        for header in ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_X_FORWARDED_HOST"):
            _short(app.test_client().get("/healthz", environ_base={**ANYONE, header: "127.0.0.1"}))


def test_monitoring_on_the_machine_reads_the_details_from_gunicorn_directly(make_app, clock):
    # With no proxy declared (behind declared proxies: the token, or `pbm health`, below).
    for peer in ("127.0.0.1", "::1"):
        app = make_app(TRUSTED_PROXIES=0)
        Worker(app, clock).heartbeat()
        report = app.test_client().get("/healthz", environ_base={"REMOTE_ADDR": peer}).get_json()
        assert report["schema"] and report["worker"]["alive"] == 1


def test_the_token_opens_the_details_to_monitoring_elsewhere(make_app, clock):
    app = make_app(HEALTHZ_TOKEN=TOKEN)
    Worker(app, clock).heartbeat()
    client = app.test_client()
    report = client.get("/healthz", environ_base=ANYONE,
                        headers={"Authorization": f"Bearer {TOKEN}"}).get_json()
    assert report["status"] == "ok" and report["schema"] and report["worker"]["alive"] == 1
    for wrong in (f"Bearer {TOKEN[:-1]}", f"Bearer {TOKEN}x", "Bearer ", TOKEN, f"Basic {TOKEN}"):
        _short(client.get("/healthz", environ_base=ANYONE, headers={"Authorization": wrong}))


def test_no_token_configured_opens_nothing(app, clock):
    Worker(app, clock).heartbeat()
    _short(app.test_client().get("/healthz", environ_base=ANYONE, headers={"Authorization": "Bearer "}))


def test_the_token_comes_from_the_environment_and_a_guessable_one_stops_the_service(tmp_path, monkeypatch):
    from pbm import config
    monkeypatch.setenv("PBM_HEALTHZ_TOKEN", TOKEN)
    assert config.load(tmp_path)["HEALTHZ_TOKEN"] == TOKEN
    for weak in ("secret", f" {TOKEN}"):
        monkeypatch.setenv("PBM_HEALTHZ_TOKEN", weak)
        with pytest.raises(config.ConfigError, match="HEALTHZ_TOKEN"):
            config.load(tmp_path)


# ----------------------------------------------------------------- issue 29, finding 11

def test_a_request_marked_by_any_proxy_gets_no_report(app, clock):
    """A proxy that adds Via (RFC 9110) but not X-Forwarded-For passed on requests
    that looked local."""
    Worker(app, clock).heartbeat()
    for header in ("Via", "X-Forwarded-Port", "X-Forwarded-Server", "CF-Connecting-IP"):
        r = app.test_client().get("/healthz", headers={header: "1.1 proxy"})
        assert r.get_json() == {"status": "ok"}, header


def test_behind_declared_proxies_a_loopback_peer_gets_no_report(make_app, clock):
    """With TRUSTED_PROXIES set every request comes through a proxy: one that reaches
    the service without X-Forwarded-For came through a proxy that did not add it."""
    app = make_app(TRUSTED_PROXIES=1)
    Worker(app, clock).heartbeat()
    assert app.test_client().get("/healthz").get_json() == {"status": "ok"}
    forwarded = app.test_client().get("/healthz", headers={"X-Forwarded-For": "127.0.0.1"})
    assert forwarded.get_json() == {"status": "ok"}


def test_pbm_health_reads_the_report_on_the_machine(tmp_path):
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PBM_INSTANCE": str(tmp_path / "instance")}
    subprocess.run([sys.executable, "-m", "pbm.cli", "db", "upgrade"], cwd=root, env=env, check=True,
                   capture_output=True)
    done = subprocess.run([sys.executable, "-m", "pbm.cli", "health"], cwd=root, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 1  # no worker has beaten
    report = json.loads(done.stdout)
    assert report["database"] == "ok" and any("no worker is running" in p for p in report["problems"])
