"""What each ruleset adds to the pages: the Masters' panels (Divinatore, Spettri,
exiles; rituals and corruption) and the player's knowledge from the start. The
words of the forms are the rulesets' own (BaseRuleset.describe_choice, field_label...).

Pure presentation over the engine's state and events: nothing here decides a rule.
Panels are for the Masters only; ``player_lines`` words what one player was told
and never reads the state of anyone else.
"""
from __future__ import annotations

from typing import Any, Iterable

from flask_babel import gettext as _

from engine.core import GameState

LUPUS_LIVE_12 = "lupus-live-12"
TEMPO_REALE_7 = "tempo-reale-7"


# --------------------------------------------------------------------------- events

def _get(row: Any, key: str, default: Any = None) -> Any:
    if isinstance(row, dict):
        return row.get(key, default)
    return getattr(row, key, default)


def _ordered(events: Iterable[Any]) -> list[Any]:
    # Setup events (no phase) first, then phase by phase in the order they happened.
    return sorted(events, key=lambda r: (_get(r, "phase_id") or 0, _get(r, "seq") or 0))


def _names(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} ({v})" for k, v in value.items()) or "—"
    if isinstance(value, (list, tuple, set)):
        return ", ".join(map(str, value)) or "—"
    return "—" if value in (None, "") else str(value)


def _truth(value: bool) -> str:
    return _("true") if value else _("false")


def _yes(value: Any) -> str:
    return _("yes") if value else _("no")


# --------------------------------------------------------------------------- the Masters

def panels(game: Any, state: GameState | None, events: Iterable[Any]) -> list[dict[str, Any]]:
    """[{title, lines}] for the Masters' desk; ``events`` are the game's EventRows (all of them)."""
    if state is None:
        return []
    rows = _ordered(events)
    ruleset = _get(game, "ruleset") or state.ruleset
    if ruleset == TEMPO_REALE_7:
        return _tempo_reale_panels(state, rows)
    if ruleset == LUPUS_LIVE_12:
        return _lupus_live_panels(state, rows)
    return []


def _propositions(props: list[dict[str, Any]], with_truth: bool) -> list[str]:
    out = []
    for p in props:
        line = _("%(player)s has the role %(role)s", player=p.get("player"), role=p.get("role"))
        if with_truth and "true" in p:
            line += f" ({_truth(bool(p['true']))})"
        out.append(line)
    return out


def _tempo_reale_panels(state: GameState, rows: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    diviners = state.data.get("divinatore") or {}
    lines = []
    for name, props in diviners.items():
        lines.append(f"{name}: " + "; ".join(_propositions(props, with_truth=True)))
    if diviners:
        out.append({"title": _("Divinatore propositions"), "lines": lines})

    how = {}
    for r in rows:
        if _get(r, "kind") == "spettro" and _get(r, "visibility") == "master":
            data = _get(r, "data") or {}
            how[data.get("player")] = data.get("how")
    spectres = []
    for p in state.players:
        power = p.data.get("spettro")
        if not power:
            continue
        parts = [_("%(player)s: %(power)s, from night %(night)s",
                   player=p.name, power=power, night=p.data.get("spettro_from", "?"))]
        if how.get(p.name) == "fantasma":
            parts.append(_("woken as a Fantasma"))
        elif how.get(p.name) == "negromanti":
            parts.append(_("woken by the Negromanti"))
        if p.data.get("used_once"):
            parts.append(_("once-per-game power used"))
        if p.data.get("last_used"):
            parts.append(_("last used on night %(night)s", night=p.data["last_used"]))
        if p.data.get("exiled"):
            parts.append(_("exiled"))
        spectres.append(", ".join(parts))
    out.append({"title": _("Spettri"), "lines": spectres or [_("None yet.")]})

    lost = state.data.get("lost") or []
    exiled = [p.name for p in state.players if p.data.get("exiled")]
    lines = []
    if lost:
        lines.append(_("Factions that lost: %(factions)s", factions=", ".join(lost)))
    if exiled:
        lines.append(_("Exiled: %(players)s", players=", ".join(exiled)))
    out.append({"title": _("Exiled"), "lines": lines or [_("Nobody.")]})

    control = state.data.get("hypnosis") or {}
    if control:
        out.append({"title": _("Hypnosis"), "lines": [
            _("%(player)s votes as %(hypnotist)s", player=k, hypnotist=v)
            for k, v in sorted(control.items())]})
    return out


def _spionaggio(counts: dict[str, Any]) -> str:
    # personaggi §4.10: the balance is between groups with a villager and all-Lupi groups.
    return _("by groups with a villager %(village)s, by groups of Lupi only %(wolves)s",
             village=counts.get("village", 0), wolves=counts.get("wolves", 0))


def _end_story(status: str) -> str:
    return {"open": _("still possible"), "won": _("the Villaggio won with it"),
            "spent": _("spent")}.get(status, status)


def _lupus_live_panels(state: GameState, rows: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    limits = state.data.get("rituals") or {}
    lines = []
    if limits:
        lines.append(_("Successful so far: Maledizione %(m)s; Omicidio %(o)s; Replay %(r)s; "
                       "Resurrezione %(z)s; Spionaggio %(s)s; \\end{story}: %(e)s",
                       m=limits.get("maledizione", 0), o=_names(limits.get("omicidio")),
                       r=_names(limits.get("replay")), z=_names(limits.get("resurrezione")),
                       s=_spionaggio(limits.get("spionaggio") or {}),
                       e=_end_story(limits.get("end_story", "open"))))
    seen: set[tuple[Any, ...]] = set()
    for r in rows:
        kind, data = _get(r, "kind"), _get(r, "data") or {}
        night = _get(r, "phase_id")
        if kind == "ritual" and _get(r, "visibility") == "private":
            key = (night, data.get("ritual"), data.get("target"), tuple(data.get("members") or []))
            if key in seen:
                continue  # one success event per participant: show the group once
            seen.add(key)
            lines.append(_("Performed: %(ritual)s on %(target)s by %(members)s",
                           ritual=_ritual_name(data), target=_names(data.get("target")),
                           members=_names(data.get("members"))))
        elif kind == "ritual_failed":
            lines.append(_("Failed: %(ritual)s on %(target)s by %(members)s",
                           ritual=_ritual_name(data), target=_names(data.get("target")),
                           members=_names(data.get("members"))))
        elif kind == "end_story":
            lines.append(_("\\end{story} with n=%(n)s against %(wolves)s living Lupi: %(result)s",
                           n=data.get("n"), wolves=data.get("wolves"),
                           result=_("the Villaggio wins") if data.get("won") else _("spent")))
    out.append({"title": _("Rituals"), "lines": lines or [_("None yet.")]})

    counters = state.data.get("corruption") or {}
    lines = []
    if counters:
        lines.append(_("Expected corruptions %(expected)s, actual %(actual)s",
                       expected=_fraction(counters.get("expected", "0")),
                       actual=counters.get("actual", 0)))
    for r in rows:
        kind, data = _get(r, "kind"), _get(r, "data") or {}
        if kind == "corruption_draw":
            lines.append(_("Death of %(player)s (probability %(p)s): corrupted %(corrupt)s",
                           player=data.get("player"), p=_fraction(data.get("probability", "0")),
                           corrupt=_yes(data.get("corrupt"))))
        elif kind == "corrupted" and _get(r, "visibility") == "master" and data.get("how") != "death":
            lines.append(_("%(player)s corrupted (%(how)s)", player=data.get("player"),
                           how=data.get("how")))
    corrupt = [p.name for p in state.players if p.data.get("corrupt")]
    if corrupt:
        lines.append(_("Corrupted now: %(players)s", players=", ".join(corrupt)))
    out.append({"title": _("Corruption"), "lines": lines or [_("None yet.")]})
    return out


def _ritual_name(data: dict[str, Any]) -> str:
    name = str(data.get("ritual"))
    return f"{name} (n={data['n']})" if data.get("n") else name


def _fraction(text: Any) -> str:
    try:
        from fractions import Fraction
        value = Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        return str(text)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


# --------------------------------------------------------------------------- the player

def player_line(kind: str, data: dict[str, Any], ruleset: str) -> str | None:
    """Our wording of the private setup facts whose data the catalog cannot format
    (dicts and lists of dicts); None for anything else (the caller words it)."""
    if kind == "role_letter":
        line = _("Your role: %(role)s (faction %(faction)s, aura %(aura)s).",
                 role=data.get("role"), faction=data.get("faction"), aura=data.get("aura"))
        if "mystic" in data:
            line += " " + (_("You are a mystic.") if data["mystic"] else _("You are not a mystic."))
        return line
    if kind == "pack":
        return _("Your pack (the Lupi, who know each other): %(members)s.",
                 members=_names(data.get("members")))
    if kind == "knows":
        return _("You know from the start: %(players)s.", players=_names(data.get("players")))
    if kind == "propositions":
        return _("Your four propositions (exactly two true, two false): %(list)s.",
                 list="; ".join(_propositions(data.get("propositions") or [], with_truth=False)))
    if kind == "necromancers":
        return _("The Negromanti who woke you: %(players)s.", players=_names(data.get("players")))
    return None
