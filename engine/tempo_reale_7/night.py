"""The night of Lupus in tempo reale (§3.4, §3.7, §3.9 and §4).

Everything a player learns is read from ``before``, the state at the end of the
previous day (§3.9 "le ottengono riguardo alla condizione in cui questi si
trovavano al termine del giorno precedente"); what changes is written to
``state`` and takes effect at dawn.
"""
from __future__ import annotations

import random
from typing import Any

from ..core import Action, Event, GameState, master, private, public
from ..lupus_common.actions import POWER
from .acts import Act, blocking_edges
from .blocking import resolve_blocks
from .deaths import after_deaths, awaken_fantasmi, kill, leaders_alive, make_spettro
from .roles import BIANCA, EVERY_OTHER, EVERY_NIGHT, LUPI, NEGROMANTI, NERA, POPOLANI, POWERS, ROLES


def acts_from(state: GameState, actions: list[Action]) -> dict[str, Act]:
    acts: dict[str, Act] = {}
    for a in actions:
        if a.kind != POWER:
            continue
        p = state.player(a.player)
        spectre = not p.alive
        kind = p.data["spettro"] if spectre else p.role
        acts[p.name] = Act(p.name, kind, a.args["target"], a.args.get("target2"),
                           a.args.get("power"), spectre)
    return acts


class Night:
    def __init__(self, state: GameState, actions: list[Action], rng: random.Random,
                 events: list[Event]) -> None:
        self.state = state
        self.before = state.copy()
        self.rng = rng
        self.events = events
        self.n = state.phase.number
        self.acts = acts_from(state, actions)
        self.failed: set[str] = set()
        self.deaths: list[tuple[str, str]] = []
        self.results: list[Event] = []

    # -- helpers ---------------------------------------------------------------
    def b(self, name: str):
        return self.before.player(name)

    def by_kind(self, *kinds: str) -> list[Act]:
        return [a for a in self.acts.values() if a.kind in kinds]

    def works(self, a: Act) -> bool:
        return a.actor in self.effective

    def fail(self, a: Act | str) -> None:
        self.failed.add(a if isinstance(a, str) else a.actor)

    def tell(self, to: str, kind: str, **data) -> None:
        self.results.append(private(to, kind, **data))

    # -- the night -------------------------------------------------------------
    def run(self) -> None:
        had = leaders_alive(self.state)
        self.mark_usage()
        outcome = resolve_blocks(list(self.acts), blocking_edges(self.acts), self.rng)
        self.effective = outcome.effective
        self.failed |= outcome.blocked | outcome.forced
        if outcome.forced:
            self.events.append(master("contradiction", failed=sorted(outcome.forced)))
        self.sequestered = {a.target for a in self.by_kind("Sequestratore")
                            if self.works(a) and a.target in self.acts}
        self.illusions = [(a.target, a.target2) for a in self.by_kind("Illusione") if self.works(a)]
        self.seen_acts = [a for a in self.acts.values() if a.actor not in self.sequestered]

        self.wolves()
        self.assassini()
        self.morte()
        self.information()
        self.transformations()
        self.day_effects()
        self.ipnotisti()
        corruption = [a for a in self.by_kind("Corruzione") if self.works(a)]
        messiah = {a.target for a in self.by_kind("Messia") if self.works(a)
                   and self.b(a.target).role != "Spettro"}
        for a in self.by_kind("Messia"):
            if self.works(a) and a.target not in messiah:
                self.fail(a)
        woken = self.negromanti(messiah)

        # Dawn: deaths, then the Negromanti's Spettro, then the Fantasmi (FAQ 27), then revivals.
        died: list[str] = []
        for name, cause in self.deaths:
            if kill(self.state, name, cause, self.events):
                died.append(name)
        if woken:
            self.wake(*woken)
        awaken_fantasmi(self.state, died, self.n + 1, self.rng, self.results)
        for a in corruption:
            self.corrupt(a, died)
        for name in sorted(messiah):
            p = self.state.player(name)
            if not p.alive and not p.data.get("exiled"):
                p.alive = True
                self.events.append(public("revive", player=name))
        self.cancel_on_death(died)
        for name in sorted(self.failed):
            self.results.append(private(name, "failed"))
        self.events.extend(self.results)
        after_deaths(self.state, had, self.rng, self.events)

    def mark_usage(self) -> None:
        for a in self.acts.values():
            p = self.state.player(a.actor)
            freq = POWERS[a.kind].frequency if a.spectre else ROLES[p.role].frequency
            p.data["last_used"] = self.n
            if freq not in (EVERY_NIGHT, EVERY_OTHER):
                p.data["used_once"] = True

    # -- killers ---------------------------------------------------------------
    def wolves(self) -> None:
        self.collective("Lupo", key=lambda a: a.target, on_success=self._wolf_kill)

    def _wolf_kill(self, acting: list[Act], target: str) -> bool:
        guarded = any(self.works(g) and g.target == target for g in self.by_kind("Guardia del corpo"))
        if guarded or self.b(target).faction != POPOLANI:
            return False
        self.deaths.append((target, "wolves"))
        return True

    def collective(self, kind: str, key, on_success) -> None:
        """Lupi and Negromanti: all who act must agree (FAQ 3, FAQ 25)."""
        acting = self.by_kind(kind)
        if not acting:
            return
        # A sequestered member counts as not having acted at all (FAQ 3).
        voting = [a for a in acting if a.actor not in self.sequestered]
        choices = {key(a) for a in voting}
        working = [a for a in voting if self.works(a)]
        if len(choices) != 1 or not working or not on_success(working, choices.pop()):
            for a in acting:
                self.fail(a)

    def assassini(self) -> None:
        for a in self.by_kind("Assassino"):
            if not self.works(a):
                continue
            # FAQ 40, 44, 45, 46: the others who used a special power there, sequestered excluded.
            pool = sorted({o.actor for o in self.seen_acts
                           if o.target == a.target and o.actor != a.actor and o.living})
            if pool:
                self.deaths.append((pool[self.rng.randrange(len(pool))], "assassino"))

    def morte(self) -> None:
        for a in self.by_kind("Morte"):
            if not self.works(a):
                continue
            if self.b(a.target).faction == POPOLANI:
                self.deaths.append((a.target, "morte"))
            else:
                self.fail(a)

    # -- information -----------------------------------------------------------
    def information(self) -> None:
        self.redirect = {a.target: a.target2 for a in self.by_kind("Confusione") if self.works(a)}
        self.witches: dict[str, int] = {}
        for a in self.by_kind("Fattucchiera"):
            if self.works(a):
                self.witches[a.target] = self.witches.get(a.target, 0) + 1
        for a in self.acts.values():
            if a.actor in self.failed or not self.works(a):
                continue
            handler = getattr(self, "info_" + a.kind.replace(" ", "_").lower(), None)
            if handler:
                handler(a)

    def seen_aura(self, x: str) -> str:
        y = self.redirect.get(x, x)
        aura = self.b(y).aura
        flips = self.witches.get(x, 0) + (self.witches.get(y, 0) if y != x else 0)
        if flips % 2:
            aura = BIANCA if aura == NERA else NERA
        return aura

    def seen(self, x: str):
        return self.b(self.redirect.get(x, x))

    def info_veggente(self, a: Act) -> None:
        self.tell(a.actor, "aura", aura=self.seen_aura(a.target), target=a.target)

    info_investigatore = info_veggente

    def info_mago(self, a: Act) -> None:
        self.tell(a.actor, "mystic", mystic="yes" if self.seen(a.target).data.get("mystic") else "no",
                  target=a.target)

    def _role_info(self, a: Act, immune: str | None) -> None:
        # Ruling: the faction shield looks at the player actually chosen.
        if immune and self.b(a.target).faction == immune:
            self.fail(a)
            return
        self.tell(a.actor, "role", role=self.seen(a.target).role, target=a.target)

    def info_diavolo(self, a: Act) -> None:
        self._role_info(a, NEGROMANTI)

    def info_medium(self, a: Act) -> None:
        self._role_info(a, None)

    def info_visione(self, a: Act) -> None:
        self._role_info(a, LUPI)

    def visitors_of(self, x: str) -> set[str]:
        """Who is seen acting on x: the real actors (sequestered excluded, FAQ 43) plus
        illusions (FAQ 14, 16, 18)."""
        out = {o.actor for o in self.seen_acts if o.target == x}
        out |= {c for house, c in self.illusions if house == x and c != x}
        return out

    def info_stalker(self, a: Act) -> None:
        x = a.target
        illusion = [house for house, c in self.illusions if c == x]
        if illusion:  # FAQ 17: as if x had acted only where the illusion appeared
            targets = [h for h in illusion if h != x]
        else:
            own = self.acts.get(x)
            targets = [own.target] if own and x not in self.sequestered else []
        self.tell(a.actor, "acted_on", acted_on=sorted(set(targets)), target=x)

    def info_voyeur(self, a: Act) -> None:
        x = a.target
        real = {o.actor for o in self.seen_acts
                if o.target == x and o.living and o.actor != a.actor}
        fake = {c for house, c in self.illusions if house == x and c != x}
        self.tell(a.actor, "visitors", visitors=sorted(real | fake), target=x)

    def info_guardia_del_corpo(self, a: Act) -> None:
        self.tell(a.actor, "others", others=len(self.visitors_of(a.target) - {a.actor}),
                  target=a.target)

    info_custode_del_cimitero = info_guardia_del_corpo

    def info_espansivo(self, a: Act) -> None:
        self.tell(a.target, "visited_by", visited_by=a.actor)

    # -- roles taken -----------------------------------------------------------
    def transformations(self) -> None:
        for a in self.by_kind("Trasformista", "Necrofilo"):
            if not self.works(a):
                continue
            t = self.b(a.target)
            if a.kind == "Trasformista":
                role = t.data.get("death_role", t.role)
                faction = t.data.get("death_faction", t.faction)
                info = ROLES.get(role)
                ok = (faction == POPOLANI and info is not None and info.target is not None
                      and info.frequency in (EVERY_NIGHT, EVERY_OTHER))
            else:
                role = t.role
                ok = t.faction == LUPI and role in ROLES
            if not ok:
                self.fail(a)
                continue
            p = self.state.player(a.actor)
            p.role = role
            p.aura = t.aura  # FAQ 20: aura and mysticity come along
            p.data["mystic"] = bool(t.data.get("mystic"))
            # The new role starts afresh (FAQ 24 for a Necrofilo taken by a Necrofilo).
            p.data["last_used"] = None
            p.data["used_once"] = False
            self.tell(a.actor, "role", role=role, target=a.target)

    # -- effects on the coming day -----------------------------------------------
    def day_effects(self) -> None:
        fx: dict[str, Any] = {"amnesia": [], "ipnosi": {}, "scrutatori": [], "avvocato": []}
        for a in self.acts.values():
            if not self.works(a) or a.actor in self.failed:
                continue
            if a.kind == "Amnesia":
                fx["amnesia"].append(a.target)
            elif a.kind == "Ipnosi":
                fx["ipnosi"][a.target] = a.target2
            elif a.kind == "Scrutatore":
                fx["scrutatori"].append([a.actor, a.target])
            elif a.kind == "Avvocato":
                fx["avvocato"].append(a.target)
        self.state.data["day_effects"] = fx

    def cancel_on_death(self, died: list[str]) -> None:
        """FAQ 39: effects on a player who died tonight vanish, without a failure."""
        dead = set(died)
        fx = self.state.data["day_effects"]
        fx["amnesia"] = [x for x in fx["amnesia"] if x not in dead]
        fx["ipnosi"] = {x: y for x, y in fx["ipnosi"].items() if x not in dead and y not in dead}
        fx["scrutatori"] = [[s, x] for s, x in fx["scrutatori"] if x not in dead]

    def ipnotisti(self) -> None:
        on: dict[str, list[str]] = {}
        for a in self.by_kind("Ipnotista"):
            if self.works(a):
                on.setdefault(a.target, []).append(a.actor)
        control = self.state.data.setdefault("hypnosis", {})
        for x, hs in sorted(on.items()):
            # FAQ 30: all of them, in a random order; the last one keeps the mind.
            self.rng.shuffle(hs)
            control[x] = hs[-1]

    # -- necromancy --------------------------------------------------------------
    def negromanti(self, messiah: set[str]):
        woken: list = []

        def succeed(working: list[Act], choice: tuple[str, str]) -> bool:
            target, power = choice
            t = self.b(target)
            guarded = any(self.works(c) and c.target == target
                          for c in self.by_kind("Custode del cimitero"))
            taken = {p.data.get("spettro") for p in self.before.players}
            if (guarded or target in messiah or t.faction != POPOLANI or power in taken
                    or (POWERS[power].needs_mystic and not t.data.get("mystic"))):
                return False
            woken.append((target, power, [a.actor for a in self.by_kind("Negromante")]))
            return True

        self.collective("Negromante", key=lambda a: (a.target, a.power), on_success=succeed)
        return woken[0] if woken else None

    def wake(self, target: str, power: str, necromancers: list[str]) -> None:
        p = self.state.player(target)
        make_spettro(p, power, self.n + 1)
        self.tell(target, "spettro", spettro=power)
        self.tell(target, "necromancers", players=sorted(necromancers))
        self.events.append(master("spettro", player=target, spettro=power, how="negromanti"))

    def corrupt(self, a: Act, died: list[str]) -> None:
        t = self.b(a.target)
        if (a.target in died or t.faction != POPOLANI or t.aura != BIANCA
                or not t.data.get("mystic")):
            self.fail(a)  # FAQ 47 for a target dead tonight
            return
        p = self.state.player(a.target)
        p.role = "Negromante"
        p.faction = NEGROMANTI
        p.data["last_used"] = None
        p.data["used_once"] = False
        self.tell(a.target, "corrupted", by=a.actor)
        self.events.append(master("corrupted", player=a.target, by=a.actor))


def resolve_night(state: GameState, actions: list[Action], rng: random.Random,
                  events: list[Event]) -> None:
    Night(state, actions, rng, events).run()
