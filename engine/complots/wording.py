"""How Complots reads to people: events, submissions, the table and the page's heading.

Every sentence is a template of ``texts.py`` in Italian and English; this module only
picks the template and turns the engine's codes (card and action names, a claim) into
the reader's words. Pure, like the rest of the engine: the ruleset's wording methods
call these.
"""
from __future__ import annotations

import re
from typing import Any

from ..core import Event, GameState
from ..interface import Panel, Viewer, word
from . import game
from .cards import CHARACTERS, COUP_COST, cards_named, in_play
from .cards import card_name as _card_name
from .texts import (
    ACTION_NAMES, CHOICE_NAMES, COUNTED, EVENTS, HEADINGS, MOMENT_NAMES, REJECTIONS, SUBMISSIONS,
    TABLE, THE_CARD,
)


def _lang(lang: str) -> str:
    return "en" if lang == "en" else "it"


def card_name(card: Any, lang: str) -> str:
    return _card_name(str(card), _lang(lang))


def the_card(card: Any, lang: str) -> str:
    """A card with its article: "la Contessa", "l'Assassino", "the Countess"."""
    return (THE_CARD.get(str(card)) or {}).get(_lang(lang)) or card_name(card, lang)


def cards_phrase(cards: list[Any], lang: str) -> str:
    """"Duchessa e Capitano", "Duchess and Captain": as TENGO / KEEP takes them."""
    named = [card_name(c, lang) for c in cards]
    if len(named) < 2:
        return "".join(named) or "—"
    # A plain "e" (never "ed"): the line reads back as the mail command TENGO takes.
    joint = " and " if _lang(lang) == "en" else " e "
    return ", ".join(named[:-1]) + joint + named[-1]


def choice(key: str, value: Any, lang: str) -> str:
    """A form's choice as people read it (``describe_choice``)."""
    lang, value = _lang(lang), str(value)
    if key == "action" and value in ACTION_NAMES:
        return ACTION_NAMES[value][lang]
    if key in ("card", "as", "cards", "character"):
        return card_name(value, lang)
    if key == "moment" and value in MOMENT_NAMES:
        return MOMENT_NAMES[value][lang]
    if key in ("answer", "discard", "variant", "option") and value in CHOICE_NAMES:
        return CHOICE_NAMES[value][lang]
    return value


def _claim(state: GameState | None) -> tuple[str, str] | None:
    """(character, player) of the claim a challenge in the moment ``state`` is at is about."""
    if state is None:
        return None
    t = game.turn(state)
    if state.phase.kind == "answer" and t.get("character"):
        return t["character"], t["actor"]
    if state.phase.kind == "block_challenge" and t.get("block_as"):
        return t["block_as"], t["blocker"]
    return None


def submission(sub: dict[str, Any], lang: str, state: GameState | None = None) -> list[str]:
    """One line for a submission ({kind, ...args}, or the stored args of an action):
    "Furto a Carla (Capitano)", "Blocco con la Contessa", "Sfido l'Assassino di Anna"."""
    kind = sub.get("kind") or _kind_of(sub)
    text = None
    if kind == "turn":
        action = str(sub.get("action", ""))
        params = {"target": sub.get("target") or "?"}
        code = f"turn:{action}"
        if action == "exchange" and state is not None:
            code, params["character"] = "turn:exchange_as", card_name(
                in_play(game.variant(state))[-1], lang)
        text = word(SUBMISSIONS, code, lang, params)
    elif kind == "answer":
        answer = str(sub.get("answer", ""))
        claim = _claim(state)
        if answer == "block" and sub.get("as"):
            text = word(SUBMISSIONS, "answer:block_as", lang, {"card": the_card(sub["as"], lang)})
        elif answer == "challenge" and claim:
            text = word(SUBMISSIONS, "answer:challenge_claim", lang, {
                "card": the_card(claim[0], lang), "character": card_name(claim[0], lang),
                "player": claim[1]})
        else:
            text = word(SUBMISSIONS, f"answer:{answer}", lang)
    elif kind in ("choose", "lose", "show") and sub.get("card"):
        text = word(SUBMISSIONS, kind, lang, {"card": the_card(sub["card"], lang)})
    elif kind == "keep" and sub.get("cards") is not None:
        cards = sub["cards"]
        cards = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
        text = word(SUBMISSIONS, "keep", lang, {"cards": cards_phrase(cards, lang)})
    elif kind == "discard" and "discard" in sub:
        discard = sub["discard"]
        if not isinstance(discard, bool):
            discard = str(discard).casefold() in ("true", "discard", "scarto", "1", "yes", "si", "sì")
        text = word(SUBMISSIONS, f"discard:{str(discard).lower()}", lang)
    if text:
        return [text]
    # Something no form makes (a scenario's odd key): each value still in words.
    rest = [choice(k, v, lang) for k, v in sub.items() if k not in ("kind", "moment")]
    return [", ".join(rest)] if rest else []


# The submission key that tells each kind apart in stored args (which keep no ``kind``).
_KIND_OF_KEY = {"action": "turn", "answer": "answer", "cards": "keep", "discard": "discard"}


def _kind_of(sub: dict[str, Any]) -> str | None:
    return next((_KIND_OF_KEY[k] for k in sub if k in _KIND_OF_KEY), None)


def event(ev: Event, lang: str) -> str | None:
    """One line for an event (``describe``); public events read alike for every player."""
    params = dict(ev.data)
    for key in ("card", "character", "saw", "dealt"):
        if key in params:
            # Italian names a card in a sentence with its article ("scopre la Duchessa");
            # the English templates say "the" themselves. The dealt card follows "la carta".
            named = the_card if _lang(lang) == "it" and key != "dealt" else card_name
            params[key] = named(params[key], lang)
    for key in ("cards", "drew", "returned"):
        if isinstance(params.get(key), list):
            params[key] = cards_named([str(c) for c in params[key]], lang) or ["—"]
    kind = ev.kind
    if kind == "rejected_at_resolution":  # the refusal in words, never its code
        why = rejection(str(params.get("code")), dict(params.get("params") or {}), lang) or ""
        # The event keeps the code alone: an aside that needs the refusal's details goes.
        params["why"] = re.sub(r"\{\w+\}", "…", re.sub(r"\s*\([^()]*\{\w+\}[^()]*\)", "", why))
    if kind == "action" and f"action_{params.get('action')}" in EVENTS:
        kind = f"action_{params['action']}"
    if "action" in params:
        params["action"] = choice("action", params["action"], lang)
    if ev.kind in ("action", "turn_not_taken"):
        target = ev.data.get("target")
        params["on"] = (f" on {target}" if _lang(lang) == "en" else f" su {target}") if target else ""
    if isinstance(params.get("coins"), dict):
        params["coins"] = ", ".join(f"{name} {n}" for name, n in params["coins"].items())
    if "variant" in params:
        params["variant"] = choice("variant", params["variant"], lang)
    if kind in COUNTED and not ev.data.get(COUNTED[kind]) and kind + "_none" in EVENTS:
        kind += "_none"
    return word(EVENTS, kind, lang, params)


def rejection(code: str, params: dict[str, Any], lang: str) -> str | None:
    """A refusal; short of coins for an Assassinio, the cost and how to use the Assassino."""
    if code == "not_enough_coins":
        need = params.get("need")
        code = ("not_enough_coins_coup" if need == COUP_COST
                else "not_enough_coins_assassinate" if need == 3 else code)
        if code == "not_enough_coins_coup" and int(params.get("have") or 0) < 3:
            code = "not_enough_coins_coup_poor"  # the Assassino is out of reach too: never offered
    params = dict(params)
    for key in ("card", "character"):  # the reader's name ("the Countess"), "la Contessa" in a sentence
        if key in params and code != "unknown_card":
            named = the_card if (code, _lang(lang)) == ("not_in_hand", "it") else card_name
            params[key] = named(params[key], lang)
    if isinstance(params.get("blockers"), (list, tuple)):
        blockers = [card_name(c, lang) for c in params["blockers"]]
        # "bloccano: Ambasciatore e Capitano", but "con quale blocchi (Ambasciatore o Capitano)"
        joint = " or " if _lang(lang) == "en" else " e " if code == "cannot_block_as" else " o "
        params["blockers"] = (", ".join(blockers[:-1]) + joint + blockers[-1]
                              if len(blockers) > 1 else "".join(blockers))
    return word(REJECTIONS, code, lang, params)


def _count(key: str, n: int, lang: str, **params: Any) -> str:
    return word(TABLE, key, lang, {"n": n, **params}) or ""


def table(state: GameState, viewer: Viewer, lang: str) -> list[Panel]:
    """Coins, face-up cards and face-down counts of everyone, the court and the treasury;
    the viewer's own hand only to the viewer. Who is awaited is the service's to say
    (who has answered is not in the state), in one place on the page and in the mail."""
    lines = []
    for p in state.players:
        revealed = ", ".join(card_name(c, lang) for c in p.data["revealed"]) or "—"
        status = "" if p.alive else word(TABLE, "out", lang)
        lines.append(f"{p.name}{status}: {_count('coins', game.coins(p), lang)}, "
                     f"{_count('face_down', len(game.hand(p)), lang)}, "
                     f"{word(TABLE, 'face_up', lang, {'cards': revealed})}")
    lines.append(f"{_count('court', len(game.court(state)), lang)}; "
                 f"{word(TABLE, 'treasury', lang, {'n': state.data['treasury']})}")
    if state.over:
        lines.append(word(TABLE, "winner", lang, {"winner": state.winner}) or "")
    panels = [Panel(word(TABLE, "title", lang) or "", lines)]
    if viewer.player and state.has_player(viewer.player):
        me = state.player(viewer.player)
        cards = ", ".join(cards_named(list(game.hand(me)), lang)) or word(TABLE, "hand_empty", lang) or ""
        panels.append(Panel(word(TABLE, "hand_title", lang) or "", [cards]))
    return panels


def heading(state: GameState, lang: str) -> str | None:
    """The moment the game is at, as its page's title says it."""
    if state.over:
        return word(HEADINGS, "over", lang, {"winner": state.winner})
    if state.phase.kind == "choose":
        return word(HEADINGS, "choose", lang)
    if not state.data.get("turn_of"):
        return None
    return word(HEADINGS, "turn", lang, {"number": state.data.get("turns"),
                                         "player": state.data["turn_of"]})


def standing_characters(state: GameState | None) -> tuple[str, ...]:
    """The characters a standing challenge may name: those of this game's variant."""
    return CHARACTERS if state is None or not state.data else in_play(game.variant(state))
