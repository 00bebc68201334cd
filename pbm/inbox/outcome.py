"""What became of a message, as its row records it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    status: str  # processed | ignored | refused | duplicate | error
    applied: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
