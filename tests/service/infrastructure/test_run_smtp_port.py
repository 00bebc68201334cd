"""`pbm run --smtp-port N` moves the embedded SMTP server, and the worker's mail
follows it: the demo's mail arrives in the local mailbox through port N (it went
to 8025 before, to nothing or to whatever else listened there)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from sqlalchemy import create_engine, text

from tests.fixtures.smtp import free_port
from tests.service.infrastructure.test_run_shutdown import ROOT, group_members, wait_for_page


def test_pbm_run_smtp_port_moves_the_server_and_the_mail_follows(tmp_path):
    web_port, smtp_port = free_port(), free_port()
    instance = tmp_path / "instance"
    env = {name: value for name, value in os.environ.items() if not name.startswith("PBM_")}
    env.update({"PBM_INSTANCE": str(instance), "PBM_WEB_WORKERS": "1", "PBM_WEB_THREADS": "2"})
    run = subprocess.Popen([sys.executable, "-m", "pbm.cli", "run", "--port", str(web_port),
                            "--smtp-port", str(smtp_port)],
                           cwd=ROOT, env=env, start_new_session=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        status, page, _ = wait_for_page(f"http://127.0.0.1:{web_port}/g/demo/", run)
        assert status == 200
        # The demo queued its players' mail when it was seeded; the worker sends it within seconds.
        delivered = instance / "sent-mail" / "new"
        deadline = time.monotonic() + 60
        while not (delivered.is_dir() and any(delivered.iterdir())) and time.monotonic() < deadline:
            time.sleep(0.5)
        engine = create_engine(f"sqlite:///{instance / 'pbm.sqlite3'}")
        with engine.connect() as conn:
            queued = conn.scalar(text("SELECT count(*) FROM outbox"))
            unsent = conn.execute(text("SELECT last_error FROM outbox WHERE sent_at IS NULL")).scalars().all()
        engine.dispose()
        assert delivered.is_dir() and len(list(delivered.iterdir())) > 0, \
            f"no mail reached the embedded server on {smtp_port}; unsent: {unsent[:3]}"
        assert queued > 0
        run.send_signal(signal.SIGTERM)
        output = run.communicate(timeout=40)[0]
        assert run.returncode == 0, output
        assert f"SMTP on 127.0.0.1:{smtp_port}" in output
    finally:
        if run.poll() is None or group_members(run.pid):
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
