"""GET /healthz: 200 with a JSON report when the database answers with the
expected schema and a worker beat lately; 503 with the reason otherwise."""
from __future__ import annotations

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
