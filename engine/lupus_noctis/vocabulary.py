"""What players of Lupus Noctis write: the command words of mail and the paste box
(Italian and English). Votes and the night powers take one player; the roles come
from their own table (roles.ROLES) and are never written in a command here, so
nothing needs a name in two languages yet.
"""
from __future__ import annotations

from ..interface import Keyword, Vocabulary

# The verbs players write for a night power (issue 14): each is POTERE, judged by the
# engine against the writer's own role like any POTERE line.
VERBS_IT = ("SBRANO", "AZZANNO", "UCCIDO", "GUARDO", "OSSERVO", "INDAGO", "RISVEGLIO", "RESUSCITO")
VERBS_EN = ("MAUL", "KILL", "WATCH", "INVESTIGATE", "WAKE", "REVIVE")
# The pack named before a command ("Noi lupi sbraniamo Dario", "We wolves: MAUL Dario"):
# the service reads the line after them (pbm/mail/reading/commands.py).
OPENERS = ("noi lupi", "lupi", "i lupi", "we wolves", "the wolves")


def vocabulary() -> Vocabulary:
    return Vocabulary(
        keywords=[
            Keyword("vote", ("VOTO",), ("VOTE",), "name", "VOTO Carla", "VOTE Carla"),
            Keyword("target", ("POTERE", "BERSAGLIO"), ("POWER", "TARGET"), "names",
                    "POTERE Bruno", "POWER Bruno", slots=("target",)),
            Keyword("target", VERBS_IT, VERBS_EN, "names", "SBRANO Bruno", "MAUL Bruno",
                    slots=("target",), verb=True),
        ],
        arguments={"target": {"it": "il bersaglio", "en": "the target"}},
        openers=OPENERS,
    )
