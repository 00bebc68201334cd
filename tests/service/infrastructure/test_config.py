"""Configuration is read with the type of each setting, and refused with a
clear message when it has the wrong one; PBM_SECRET_KEY is honoured; the
secret key file is the service user's alone."""
from __future__ import annotations

import stat

import pytest

from pbm import cli
from pbm import config as config_module
from pbm.config import ConfigError


@pytest.fixture
def instance(tmp_path, monkeypatch):
    for name in list(__import__("os").environ):
        if name.startswith("PBM_"):
            monkeypatch.delenv(name)
    path = tmp_path / "instance"
    monkeypatch.setenv("PBM_INSTANCE", str(path))
    return path


@pytest.mark.parametrize("text, value", [("false", False), ("False", False), ("0", False), ("no", False),
                                         ("off", False), ("true", True), ("1", True), ("yes", True)])
def test_booleans_read_as_booleans(instance, monkeypatch, text, value):
    monkeypatch.setenv("PBM_MAIL_USE_TLS", text)
    assert config_module.load(instance)["MAIL_USE_TLS"] is value


def test_integers_and_structures_read_as_such(instance, monkeypatch):
    monkeypatch.setenv("PBM_MAIL_PORT", " 587 ")
    monkeypatch.setenv("PBM_MAIL_SOURCE", '{"kind": "imap", "host": "imap.example.org"}')
    config = config_module.load(instance)
    assert config["MAIL_PORT"] == 587
    assert config["MAIL_SOURCE"] == {"kind": "imap", "host": "imap.example.org"}


@pytest.mark.parametrize("name, text, says", [
    ("PBM_MAIL_USE_TLS", "maybe", "true or false"),
    ("PBM_MAIL_PORT", "smtp", "whole number"),
    ("PBM_MAIL_SOURCE", "{kind: imap", "JSON"),
    ("PBM_LANGUAGES", '{"it": 1}', "list"),
])
def test_a_wrong_value_is_refused_with_its_name(instance, monkeypatch, name, text, says):
    monkeypatch.setenv(name, text)
    with pytest.raises(ConfigError) as refused:
        config_module.load(instance)
    assert name in str(refused.value) and says in str(refused.value)


def test_a_wrong_type_in_the_config_file_is_refused(instance):
    instance.mkdir()
    (instance / "config.py").write_text('MAIL_USE_TLS = "false"\n')
    with pytest.raises(ConfigError, match="MAIL_USE_TLS"):
        config_module.load(instance)


def test_the_command_line_says_what_is_wrong_and_stops(instance, monkeypatch, capsys):
    monkeypatch.setenv("PBM_MAIL_USE_TLS", "maybe")
    assert cli.main(["db", "upgrade"]) == 2
    err = capsys.readouterr().err
    assert "configuration error" in err and "PBM_MAIL_USE_TLS='maybe'" in err


def test_the_secret_key_from_the_environment_is_used(instance, monkeypatch):
    monkeypatch.setenv("PBM_SECRET_KEY", "k" * 64)
    assert config_module.load(instance)["SECRET_KEY"] == "k" * 64
    assert not (instance / "secret_key").exists()


def test_the_secret_key_file_is_created_readable_by_its_owner_only(instance):
    key = config_module.load(instance)["SECRET_KEY"]
    path = instance / "secret_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert config_module.load(instance)["SECRET_KEY"] == key  # kept


def test_a_world_readable_secret_key_of_an_older_install_is_closed(instance):
    instance.mkdir()
    path = instance / "secret_key"
    path.write_text("old-key\n")
    path.chmod(0o644)
    assert config_module.load(instance)["SECRET_KEY"] == "old-key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_on_the_embedded_set_up_the_sender_follows_the_embedded_servers_port(instance, monkeypatch):
    monkeypatch.setenv("PBM_EMBEDDED_SMTP_PORT", "2626")
    assert config_module.load(instance)["MAIL_PORT"] == 2626


@pytest.mark.parametrize("setting", [
    {"PBM_MAIL_PORT": "2525"},                                   # the sender's port chosen: kept
    {"PBM_MAIL_SERVER": "smtp.example.org"},                     # a real relay: not the embedded server
    {"PBM_MAIL_SOURCE": '{"kind": "imap", "host": "imap.example.org"}'},  # real mail in: not embedded
])
def test_a_sender_set_up_elsewhere_does_not_follow_it(instance, monkeypatch, setting):
    monkeypatch.setenv("PBM_EMBEDDED_SMTP_PORT", "2626")
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    assert config_module.load(instance)["MAIL_PORT"] == int(setting.get("PBM_MAIL_PORT", 8025))


def test_a_mail_port_in_the_config_file_is_kept_too(instance, monkeypatch):
    instance.mkdir()
    (instance / "config.py").write_text("MAIL_PORT = 8025\n")
    monkeypatch.setenv("PBM_EMBEDDED_SMTP_PORT", "2626")
    assert config_module.load(instance)["MAIL_PORT"] == 8025
