"""Loads the shared mail fixtures for these tests.

The top-level tests/conftest.py is meant to carry
``pytest_plugins = ["tests.fixtures.dovecot", "tests.fixtures.smtp"]``;
pytest refuses ``pytest_plugins`` in a nested conftest when run from the
repository root, so here the plugins are registered only if nobody did yet.
"""

PLUGINS = ("tests.fixtures.dovecot", "tests.fixtures.smtp")


def pytest_configure(config):
    for name in PLUGINS:
        if not config.pluginmanager.has_plugin(name):
            config.pluginmanager.import_plugin(name)
