"""`pbm run` when its web or SMTP port is taken (a second `make run`, another
program on 5000): it said "Lupus PBM is running", for the other program's port
answered its wait, then printed a traceback and stopped its children. Now it
starts nothing, says which port and which option moves it, and exits 1; the
other program is left alone."""
from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from tests.fixtures.smtp import free_port
from tests.service.infrastructure.test_run_shutdown import ROOT


def run_beside(tmp_path, *, web_port: int, smtp_port: int) -> subprocess.CompletedProcess:
    env = {name: value for name, value in os.environ.items() if not name.startswith("PBM_")}
    env["PBM_INSTANCE"] = str(tmp_path / "instance")
    return subprocess.run([sys.executable, "-m", "pbm.cli", "run", "--port", str(web_port),
                           "--smtp-port", str(smtp_port)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("taken", ["web", "smtp"])
def test_a_taken_port_is_said_and_nothing_starts(tmp_path, taken):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    busy = listener.getsockname()[1]
    try:
        ports = {"web_port": free_port(), "smtp_port": free_port(), f"{taken}_port": busy}
        done = run_beside(tmp_path, **ports)
        listener.settimeout(0)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody knocked: nothing waited on the other program's port
    finally:
        listener.close()
    said = done.stdout + done.stderr
    option = "--port" if taken == "web" else "--smtp-port"
    assert done.returncode == 1, said
    assert f"127.0.0.1:{busy} is in use" in said and option in said, said
    assert "is running" not in said and "Traceback" not in said, said
    assert not (tmp_path / "instance" / "pbm.sqlite3").exists()  # not migrated, not seeded
