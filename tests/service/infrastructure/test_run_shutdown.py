"""`pbm run` as a supervisor runs it: the demo is served by gunicorn, the
worker's heartbeat makes /healthz answer 200, and one SIGTERM (or SIGINT) to
`pbm run` stops the SMTP server, the worker and every web process, leaving
nothing of its process group behind (and the worker says it has gone)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.fixtures.smtp import free_port

ROOT = Path(__file__).resolve().parents[3]


def group_members(pgid: int) -> list[str]:
    """Every live process of that process group, as 'pid command' (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        # The command name may hold spaces and parentheses: fields follow the last ')'.
        fields = stat.rsplit(")", 1)[1].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state != "Z":
            found.append(f"{entry.name} {cmdline.strip()}")
    return found


def get(url: str) -> tuple[int, str, dict]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:  # a 503 is an answer too
        return error.code, error.read().decode(), dict(error.headers)


def wait_for_page(url: str, process: subprocess.Popen, status: int = 200,
                  timeout: float = 60.0) -> tuple[int, str, dict]:
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, f"pbm run exited with {process.returncode}"
        try:
            answer = get(url)
            if answer[0] == status or time.monotonic() > deadline:
                return answer
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.2)


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_pbm_run_serves_through_gunicorn_and_stops_every_child(tmp_path, stop_signal):
    web_port, smtp_port = free_port(), free_port()
    env = {**os.environ, "PBM_INSTANCE": str(tmp_path / "instance"),
           "PBM_EMBEDDED_SMTP_PORT": str(smtp_port), "PBM_MAIL_PORT": str(smtp_port),
           "PBM_WEB_WORKERS": "2", "PBM_WEB_THREADS": "2"}
    env.pop("PBM_BASE_URL", None)
    # A session of its own: its process group is then exactly pbm run and what it started.
    run = subprocess.Popen([sys.executable, "-m", "pbm.cli", "run", "--port", str(web_port)],
                           cwd=ROOT, env=env, start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        status, page, headers = wait_for_page(f"http://127.0.0.1:{web_port}/g/demo/", run)
        assert status == 200 and "Demo" in page
        assert headers.get("Server", "").startswith("gunicorn")
        # pbm run, smtpd, worker, and gunicorn: its arbiter and the PBM_WEB_WORKERS it forked
        # (the first worker may answer while the second is still starting: wait for it).
        deadline = time.monotonic() + 15
        members = group_members(run.pid)
        while len(members) < 6 and time.monotonic() < deadline:
            time.sleep(0.1)
            members = group_members(run.pid)
        assert sum(" web --host" in m for m in members) == 1 + 2, members
        assert len(members) == 6, members
        assert any(" smtpd" in m for m in members) and any(" worker" in m for m in members)
        status, report, _ = wait_for_page(f"http://127.0.0.1:{web_port}/healthz", run, timeout=30)
        assert status == 200, report

        run.send_signal(stop_signal)
        assert run.wait(timeout=40) == 0, run.stderr.read().decode()
        deadline = time.monotonic() + 5
        while group_members(run.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert group_members(run.pid) == []
        with pytest.raises(OSError):
            get(f"http://127.0.0.1:{web_port}/g/demo/")
        engine = create_engine(f"sqlite:///{tmp_path / 'instance' / 'pbm.sqlite3'}")
        with engine.connect() as conn:
            assert conn.scalar(text("SELECT count(*) FROM worker_heartbeats")) == 0
        engine.dispose()
    finally:
        if run.poll() is None or group_members(run.pid):
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
