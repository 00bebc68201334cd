"""Bar charts drawn on the server as SVG (issue 34): readable without scripts, each
with a title and a text alternative (its ``desc``, and the table beside it on the
page). ``bars`` lays one out; templates/stats/_chart.html draws it."""
from __future__ import annotations

from dataclasses import dataclass

WIDTH, LABEL, ROW, TOP = 360, 130, 26, 30


@dataclass(frozen=True)
class Bar:
    label: str
    value: float  # what the bar's length shows (a count or a share from 0 to 1)
    text: str  # the value as read ("3 of 5", "60%")
    y: int
    length: float


@dataclass(frozen=True)
class Chart:
    title: str
    desc: str
    bars: tuple[Bar, ...]
    width: int
    height: int
    left: int


def bars(title: str, items: list[tuple[str, float, str]], *, scale: float | None = None) -> Chart:
    """A chart of ``items`` ([(label, value, value as read)]), lengths over the
    largest value (or ``scale``: 1 for shares)."""
    top = scale if scale is not None else max((v for _l, v, _t in items), default=0) or 1
    room = WIDTH - LABEL - 70
    laid = tuple(Bar(label=label, value=value, text=text, y=TOP + ROW * i,
                     length=round(room * (value / top if top else 0), 1))
                 for i, (label, value, text) in enumerate(items))
    desc = "; ".join(f"{label}: {text}" for label, _v, text in items)
    return Chart(title=title, desc=desc, bars=laid, width=WIDTH, height=TOP + ROW * len(items) + 8, left=LABEL)
