"""The production web server: gunicorn, started by `pbm web` and `pbm run`.

gunicorn's arbiter owns what Flask's development server does not do: several
worker processes (a crashed or stuck one is replaced), threads within each,
graceful shutdown on SIGTERM (requests in flight finish) and fast on SIGINT.

The application is built once in the arbiter (``preload_app``) and forked:
the catalogs are compiled and the code imported once, and the workers share
those pages of memory. No database connection is opened before the fork; each
worker still drops any pool it inherited (SQLAlchemy's rule for forking).

Anyone who wants gunicorn's full command line can run it directly on the
factory instead: ``gunicorn 'pbm.app:create_app()'``.
"""
from __future__ import annotations

from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from .web import request_size


def options(host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    return {
        "bind": f"{host}:{port}",
        "workers": max(1, workers),
        "threads": max(1, threads),
        # gthread keeps connections alive (a reverse proxy reuses them);
        # the sync worker closes each one after its request.
        "worker_class": "gthread",
        # Longer than nginx's upstream keepalive_timeout (60 s), so the proxy
        # closes an idle connection first and never sends on one being closed.
        "keepalive": 75,
        "preload_app": True,
        "graceful_timeout": 20,
        "proc_name": "pbm-web",
        # gunicorn's runtime control socket (one path per user by default, so
        # two servers of one user would take it from each other): systemd and
        # signals manage this server.
        "control_socket_disable": True,
    }


class WebServer(BaseApplication):
    """gunicorn running one Flask app; GUNICORN_CMD_ARGS may add any other setting."""

    def __init__(self, app: Flask, settings: dict[str, Any]) -> None:
        self.application = app
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.settings.items():
            self.cfg.set(key, value)
        # The same environment variable as gunicorn's own command honours.
        parsed = self.cfg.parser().parse_args(self.cfg.get_cmd_args_from_env())
        for key, value in vars(parsed).items():
            if value is not None and key in self.cfg.settings:
                self.cfg.set(key, value)
        self.cfg.set("post_fork", _post_fork)
        self.cfg.set("pre_request", _pre_request)
        self.cfg.set("post_request", _post_request)

    def load(self) -> Flask:
        return self.application


def _post_fork(server: Any, _worker: Any) -> None:
    # A pooled connection inherited across fork would be shared by two
    # processes; close=False leaves the parent's (if any) alone.
    server.app.application.extensions["pbm_engine"].dispose(close=False)


def _pre_request(_worker: Any, req: Any) -> None:
    # The request gunicorn is serving, for the application to ask it to close the
    # connection (request_size.close_connection), in this thread: gthread runs the
    # application in the thread that handles the request.
    request_size.SERVING.request = req


def _post_request(_worker: Any, _req: Any, _environ: Any, _resp: Any) -> None:
    request_size.SERVING.request = None


def serve(host: str, port: int, workers: int, threads: int) -> None:
    from .app import create_app
    WebServer(create_app(), options(host, port, workers, threads)).run()
