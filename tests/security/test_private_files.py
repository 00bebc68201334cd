"""The service's files are readable by its own user only. The attack: instance/pbm.sqlite3
and its -wal were 0644 in a 0755 folder, so any local user read every reply token
and the set-password links kept in stored mail bodies.

The service is run here as it is deployed and as `make run` runs it, by the `pbm`
command, from a parent whose umask is the usual 022 (a systemd unit's default too):
the instance folder must be 0700 and nothing the service wrote (the database and its
-wal and -shm, the secret key, the Master's maildir, the local mailbox, a backup)
readable or writable by anyone else. An older install's open files are closed.
"""
from __future__ import annotations

import os
import signal
import smtplib
import stat
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.fixtures.smtp import free_port
from tests.service.infrastructure.test_run_shutdown import group_members, wait_for_page

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"


def usual_umask() -> None:
    os.umask(0o022)


def open_to_others(*roots: Path) -> list[str]:
    """Every file or folder under ``roots`` that its group or others may use."""
    found = []
    for root in roots:
        for entry in [root, *root.rglob("*")]:
            mode = entry.lstat().st_mode
            if not stat.S_ISLNK(mode) and mode & 0o077:
                found.append(f"{oct(stat.S_IMODE(mode))} {entry}")
    return found


def wait_for_files(folder: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not any(p.is_file() for p in folder.rglob("*")):
        assert time.monotonic() < deadline, f"nothing written in {folder}"
        time.sleep(0.2)


def test_pbm_run_writes_nothing_anyone_else_can_read(tmp_path):
    instance = tmp_path / "instance"
    web_port, smtp_port = free_port(), free_port()
    env = {**os.environ, "PBM_INSTANCE": str(instance), "PBM_EMBEDDED_SMTP_PORT": str(smtp_port),
           "PBM_MAIL_PORT": str(smtp_port), "PBM_WEB_WORKERS": "1", "PBM_WEB_THREADS": "2"}
    env.pop("PBM_BASE_URL", None)
    run = subprocess.Popen([sys.executable, "-m", "pbm.cli", "run", "--port", str(web_port)], cwd=ROOT,
                           env=env, start_new_session=True, preexec_fn=usual_umask,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        status, _page, _ = wait_for_page(f"http://127.0.0.1:{web_port}/g/demo/", run)
        assert status == 200
        # A player's reply into the Master's maildir; the demo's welcome mails, sent by
        # the worker through the embedded server, into the local mailbox.
        reply = EmailMessage()
        reply["From"], reply["To"], reply["Subject"] = "anna@example.com", "lupus@lupus.localhost", "Re: x"
        reply.set_content("VOTO Carla")
        with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
            smtp.send_message(reply)
        wait_for_files(instance / "maildir")
        wait_for_files(instance / "sent-mail")
        backups = tmp_path / "backups"
        subprocess.run([sys.executable, "-m", "pbm.cli", "db", "backup", str(backups / "pbm.backup")],
                       cwd=ROOT, env=env, check=True, preexec_fn=usual_umask, capture_output=True)

        written = {p.name for p in instance.iterdir()}
        assert {"pbm.sqlite3", "pbm.sqlite3-wal", "pbm.sqlite3-shm", "secret_key", "maildir",
                "sent-mail"} <= written, written
        assert stat.S_IMODE(instance.stat().st_mode) == 0o700
        assert open_to_others(instance, backups) == []
    finally:
        run.send_signal(signal.SIGTERM)
        try:
            run.wait(timeout=40)
        finally:
            if group_members(run.pid):
                os.killpg(run.pid, signal.SIGKILL)
    assert open_to_others(instance) == []


def test_an_older_install_left_open_is_closed_at_the_next_start(tmp_path):
    """Files an earlier version wrote 0644 in a 0755 folder: the first `pbm` command closes them."""
    instance = tmp_path / "instance"
    env = {**os.environ, "PBM_INSTANCE": str(instance)}
    subprocess.run([sys.executable, "-m", "pbm.cli", "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    (instance / "maildir" / "new").mkdir(parents=True)
    (instance / "maildir" / "new" / "1.eml").write_text("From: anna@example.com\n\nVOTO Carla\n")
    for entry in [instance, *instance.rglob("*")]:
        entry.chmod(0o755 if entry.is_dir() else 0o644)

    subprocess.run([sys.executable, "-m", "pbm.cli", "db", "upgrade"], cwd=ROOT, env=env, check=True,
                   capture_output=True, preexec_fn=usual_umask)
    assert open_to_others(instance) == []
    # Closed, not emptied: the owner still reads and writes them.
    assert (instance / "maildir" / "new" / "1.eml").read_text().endswith("VOTO Carla\n")
    assert stat.S_IMODE((instance / "pbm.sqlite3").stat().st_mode) == 0o600


@pytest.mark.parametrize("unit", sorted(p.name for p in UNITS.glob("*.service")))
def test_every_unit_runs_the_service_with_a_private_umask(unit):
    lines = [line.strip() for line in (UNITS / unit).read_text().splitlines()]
    assert "UMask=0077" in lines[lines.index("[Service]"):]


def test_the_unit_check_fails_a_unit_without_it(tmp_path):
    """deploy/verify-units.sh refuses a unit that lost its UMask (systemd's default is 0022)."""
    copy = tmp_path / "deploy"
    (copy / "systemd").mkdir(parents=True)
    (copy / "verify-units.sh").write_bytes((ROOT / "deploy" / "verify-units.sh").read_bytes())
    for unit in UNITS.iterdir():
        text = unit.read_text()
        if unit.name == "pbm-worker.service":
            text = "\n".join(line for line in text.splitlines() if not line.startswith("UMask="))
        (copy / "systemd" / unit.name).write_text(text)
    ok = subprocess.run(["sh", str(ROOT / "deploy" / "verify-units.sh")], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run(["sh", str(copy / "verify-units.sh")], capture_output=True, text=True)
    assert bad.returncode != 0 and "pbm-worker.service" in bad.stdout + bad.stderr
