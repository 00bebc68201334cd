"""What the narrator's phone shows without a network, worked out from its ``Book``.

The server's page (``pbm/web/narrator_view.py``) shows the same steps from the stored
game; here they come from the book the phone plays on, as plain data the page's script
lays out (no rule in the script: the calls, their faces, what a power tells its actor,
who votes and for whom, the dawn's announcements all come from the rules here). The
events are read through the one filter (``engine/reading.py``): what is announced
aloud is what the public may read, the narrator's own notes are the Masters'.
"""
from __future__ import annotations

from typing import Any

from .core import MASTER, Event, GameState
from .interface import Call, IdentifyTap, Tally, Viewer
from .reading import lines, seen
from .registry import get_ruleset
from .table_book import OPEN, Book, calls_done, correctable, fingerprint, identified, night_frame

PUBLIC_READER = Viewer()
AS_NARRATOR = Viewer(master=True)


def vote_shown(seats: list[str], tally: Tally) -> dict[str, Any]:
    """A vote the rules published (the morning's run-off, the stake), as the public may
    read it: each candidate's count, who voted whom (in ``seats``' order), whom it
    chose, and, when the rules had to break a tie, between whom."""
    seat_order = {name: n for n, name in enumerate(seats)}
    chosen = set(tally.all_chosen)
    tie = None
    if tally.tied:
        count = next((c for n, c in tally.counts if n == tally.tied[0]), 0.0)
        tie = {"count": _number(count), "tied": list(tally.tied),
               "chosen": [n for n in tally.tied if n in chosen]}
    return {
        "counts": [{"name": n, "count": _number(c), "chosen": n in chosen, "tied": n in tally.tied}
                   for n, c in tally.counts],
        "votes": [{"voter": v, "choice": c} for v, c in
                  sorted(tally.votes, key=lambda v: seat_order.get(v[0], len(seat_order)))],
        "needed": tally.needed, "tie": tie,
    }


def _number(count: float) -> int | float:
    return int(count) if float(count).is_integer() else count


def _last_vote(book: Book, published: list[Event], lang: str) -> dict[str, Any] | None:
    ruleset = get_ruleset(book.ruleset)
    for x in seen(published, PUBLIC_READER, book.ruleset, lang):
        tally = ruleset.tally(x.event, lang)
        if tally is not None:
            return vote_shown(book.seats, tally)
    return None


def _call_view(call: Call, lang: str, choices: list[str]) -> dict[str, Any]:
    tap = call.tap
    identifying = isinstance(tap, IdentifyTap)
    return {"name": call.name.read(lang), "open": call.open.read(lang), "do": call.do.read(lang),
            "identify": identifying,
            "count": tap.count if isinstance(tap, IdentifyTap) else (1 if tap.choices else 0),
            "optional": False if isinstance(tap, IdentifyTap) else tap.optional,
            "choices": choices, "holders": list(call.holders), "living": list(call.living)}


def _choices(book: Book, call: Call) -> list[str]:
    """The faces the call may tap: an identifying call not those tapped for another role."""
    taken = {n for role, names in identified(book.gm_input).items() if role != call.role for n in names}
    return [c for c in call.tap.choices if c not in taken]


def _alive(book: Book) -> dict[str, bool]:
    raw = book.state if book.state is not None else book.state_before
    if not raw:
        return dict.fromkeys(book.seats, True)
    state = GameState.from_dict(raw)
    return {name: (state.player(name).alive if state.has_player(name) else True) for name in book.seats}


def screen(book: Book, lang: str, fix: int | None = None) -> dict[str, Any]:
    """The step the narrator is at (setup, night, answer, fix, dawn, vote, held, over)
    and what it shows."""
    published = [Event.from_dict(e) for e in book.published]
    out: dict[str, Any] = {
        "step": "held", "index": book.index, "number": book.number, "alive": _alive(book),
        "announce": lines(published, PUBLIC_READER, book.ruleset, lang),
        "notes": [s.text for s in seen(published, AS_NARRATOR, book.ruleset, lang)
                  if s.visibility == MASTER and s.text],
        "tally": _last_vote(book, published, lang),
    }
    if book.status in ("setup", "over"):
        out["step"] = book.status
        return out
    if not book.taking_taps():
        return out  # a resolution waits for the Masters' desk
    script = book.script()
    if script:
        _night(book, script, out, lang, fix)
    else:
        _vote(book, out)
    return out


def _night(book: Book, script: tuple[Call, ...], out: dict[str, Any], lang: str, fix: int | None) -> None:
    done = calls_done(book.gm_input)
    confirmed = book.tapped()
    last = next((c for c in script if c.role == done[-1]), None) if done else None
    out.update(total=len(script), previous={"close": last.close.read(lang)} if last else None,
               sleep=night_frame(book.ruleset).sleep.read(lang) if not done else None,
               confirmed=[{"index": i, "name": c.name.read(lang), "taps": confirmed[c.role],
                           "correctable": correctable(c)}
                          for i, c in enumerate(script) if c.role in confirmed])
    if fix is not None and 0 <= fix < len(script) and script[fix].role in confirmed and correctable(script[fix]):
        out.update(step="fix", call_index=fix, taps=confirmed[script[fix].role],
                   call=_call_view(script[fix], lang, _choices(book, script[fix])))
        return
    waiting = book.answer_waiting()
    if waiting is not None:
        index, call, actor, told, again = waiting
        out.update(step="answer", call_index=index, answer={
            "name": call.name.read(lang), "asked": confirmed.get(call.role, []),
            "lines": lines(told, Viewer(player=actor), book.ruleset, lang) if told else [],
            "again": again, "mark": fingerprint(told),
            "wake": call.open.read(lang) if again else None,
            "sleep": call.close.read(lang) if again else None})
        return
    at = book.next_call()
    if at is None:
        out.update(step="dawn", wake=night_frame(book.ruleset).wake.read(lang))
        return
    out.update(step="night", call_index=at, call=_call_view(script[at], lang, _choices(book, script[at])))


def _vote(book: Book, out: dict[str, Any]) -> None:
    recorded = {a["player"]: a for a in book.actions}
    rows, current = [], None
    for name, key, choices in book.voters():
        row = recorded.get(name)
        rows.append({"name": name, "choice": row["args"].get(key) if row else None})
        if row is None and current is None:
            current = {"name": name, "choices": choices}
    out.update(step="vote" if book.status == OPEN else "held", voters=rows, current=current,
               done=sum(1 for r in rows if r["choice"] is not None))
