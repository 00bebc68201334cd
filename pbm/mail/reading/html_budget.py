"""HTML to text within a time budget, remembered for the message's next parse.

html2text takes about a second per megabyte, more on tangled markup: a 4 MB
HTML mail held the mailbox for 7 s, and a boundary waiting on it. So a large
HTML part is converted in a separate process given ``BUDGET`` seconds; when
it runs out, a plain tag stripper (linear, and enough to find 'VOTO Carla')
gives the text instead. ``inbox.ingest`` converts each message before taking
the lock the boundary waits on; the parse under the lock then finds the text
here, converted already.
"""
from __future__ import annotations

import hashlib
import html
import multiprocessing
import re
import threading
from collections import OrderedDict
from typing import Callable

# Seconds a large HTML part may take; below INLINE characters html2text is
# quick enough (a few tens of milliseconds) to run in the caller.
BUDGET = 3.0
INLINE = 100_000
_KEEP = 16

_cache: OrderedDict[str, str] = OrderedDict()
_cache_lock = threading.Lock()

_INVISIBLE = re.compile(r"<(script|style|head)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_BREAK = re.compile(r"<\s*(br|/p|/div|/li|/tr|/h\d|/blockquote)\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")


def strip_tags(markup: str) -> str:
    """Text of HTML without an HTML parser: what a budget that ran out falls back to."""
    text = _INVISIBLE.sub(" ", markup)
    text = _BREAK.sub("\n", text)
    return html.unescape(_TAG.sub("", text))


def convert(markup: str, converter: Callable[[str], str], budget: float | None = None) -> str:
    """``converter(markup)``, at most ``budget`` seconds for a large part."""
    if len(markup) <= INLINE:
        return converter(markup)
    key = hashlib.sha256(markup.encode("utf-8", "surrogatepass")).hexdigest()
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    text = _within(markup, converter, BUDGET if budget is None else budget)
    with _cache_lock:
        _cache[key] = text
        while len(_cache) > _KEEP:
            _cache.popitem(last=False)
    return text


def _within(markup: str, converter: Callable[[str], str], budget: float) -> str:
    # spawn, not fork: the worker holds database connections and threads that
    # a forked child must not share.
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(1)
    try:
        return pool.apply_async(converter, (markup,)).get(timeout=budget)
    except multiprocessing.TimeoutError:
        return strip_tags(markup)
    except Exception:  # the converter failed in its process: still some text
        return strip_tags(markup)
    finally:
        pool.terminate()
        pool.join()
