"""What the service says to a player does not guess their gender (issue 31, Polish): no
"sei iscritto", "sei entrato", "Benvenuto", "da morto", "te stesso" in the Italian mail
templates, the Italian catalogue of the pages, or the games' own wording; and "i Master",
never "le Master" (a service for everyone)."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

from babel.messages.pofile import read_po

from tests.support.wording import gendered

ROOT = Path(__file__).resolve().parents[2]
ENGINE_TEXTS = ["engine.texts", "engine.lupus_live_12.texts", "engine.tempo_reale_7.texts",
                "engine.lupus_noctis.texts", "engine.complots.texts", "engine.lupus_live_12.panels",
                "engine.tempo_reale_7.panels", "engine.lupus_live_12.vocabulary",
                "engine.tempo_reale_7.vocabulary"]
FEMININE_MASTERS = re.compile(r"\b(?:le|delle|dalle|alle|sulle|nelle)\s+Master\b", re.I)


def _italian_texts():
    for path in sorted((ROOT / "mail_templates").glob("*/*.it.*")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    with open(ROOT / "pbm/translations/it/LC_MESSAGES/messages.po", "rb") as f:
        for message in read_po(f):
            if message.id:
                strings = [message.string] if isinstance(message.string, str) else list(message.string)
                yield f"catalogue: {message.id!r}", " ".join(strings)
    for name in ENGINE_TEXTS:
        for table, entries in vars(importlib.import_module(name)).items():
            if not isinstance(entries, dict) or table.startswith("_") and table != "_GROUPS":
                continue
            for code, value in entries.items():
                if isinstance(value, dict) and isinstance(value.get("it"), str):
                    yield f"{name}.{table}[{code!r}]", value["it"]


def test_nothing_addresses_a_player_as_a_man_or_a_woman():
    found = [f"{where}: {g!r}" for where, text in _italian_texts() for g in gendered(text)]
    assert not found, "\n".join(found)


def test_the_masters_are_i_master():
    found = [f"{where}: {m.group(0)!r}" for where, text in _italian_texts()
             if not where.startswith("engine.lupus_live_12.vocabulary")  # players may write it
             for m in FEMININE_MASTERS.finditer(text)]
    assert not found, "\n".join(found)
