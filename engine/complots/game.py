"""The Complots state machine: set-up, the moments of a turn, and how each one closes.

A game is a chain of answer windows (``state.phase`` = ``Phase(kind, number)``, the
number growing with every window so each gets its own randomness):

========================  =====================  ===========================================
window (``phase.kind``)   who answers            submission kind and args
========================  =====================  ===========================================
``choose``                both (2 players only)  ``choose`` {card}: the card kept from the bundle
``turn``                  the player in turn     ``turn`` {action, target?}
``answer``                the others             ``answer`` {answer: pass|challenge|block, as?}
``block``                 who may still block    ``answer`` {answer: pass|block, as}
``block_challenge``       all but the blocker    ``answer`` {answer: pass|challenge}
``lose``                  the loser              ``lose`` {card}
``exchange``              the player in turn     ``keep`` {cards: [...]}
``show``                  the examined player    ``show`` {card}
``inspect``               the Inquisitore        ``discard`` {discard: bool}
``end``                   nobody                 (the game is over)
========================  =====================  ===========================================

What is still to do in the turn is a list of small operations in ``state.data["todo"]``
(lose a card, open the block window, apply the power...): ``advance`` runs them until
one opens a window, and the window's answers push what follows. Everything lives in
``GameState`` so a stored moment can be replayed from its row alone.
"""
from __future__ import annotations

import random
from typing import Any

from ..core import Event, GameState, Phase, Player, SetupError, private, public
from .cards import (
    ASSASSIN_COST, ASSASSINATE, BOX_COINS, COUP, COUP_COST, DEFAULT_VARIANT, EXAMINE, EXCHANGE,
    FORCED_COUP_AT, FOREIGN_AID, INCOME, START_COINS, STEAL, TAX, VARIANTS, anyone_blocks,
    blockers, canonical_card, claimed_character, deck, in_play,
)

KEY = "complots"
END = "end"


# -- small accessors ---------------------------------------------------------------
def hand(p: Player) -> list[str]:
    return p.data["hand"]


def coins(p: Player) -> int:
    return p.data["coins"]


def window(state: GameState) -> dict[str, Any]:
    return state.data.get("window") or {}


def turn(state: GameState) -> dict[str, Any]:
    return state.data.get("turn") or {}


def variant(state: GameState) -> str:
    return state.data.get("variant", DEFAULT_VARIANT)


def court(state: GameState) -> list[str]:
    return state.data["court"]


def in_game(state: GameState) -> list[Player]:
    return [p for p in state.players if p.alive]


def others(state: GameState, name: str) -> list[str]:
    return [p.name for p in in_game(state) if p.name != name]


# -- set-up ------------------------------------------------------------------------
def setup_game(seating: list[tuple[str, str]], rng: random.Random,
               options: dict[str, Any] | None = None) -> tuple[GameState, list[Event]]:
    """Deal a game. Options: ``variant`` (ambasciatore | inquisitore); for a fixed deal
    (scenarios, a table dealt by hand) ``hands`` {name: [card, card]}, ``court`` (the top
    cards of the court, top first) and ``coins`` {name: n}."""
    options = dict(options or {})
    names = [str(n) for n, _ in seating]
    if len(set(names)) != len(names):
        raise SetupError("duplicate_player", "two players share a name")
    if not 2 <= len(names) <= 8:
        raise SetupError("player_count", f"Complots is for 2-8 players, not {len(names)}",
                         count=len(names))
    var = _variant(options.get("variant"))
    if var not in VARIANTS:
        raise SetupError("unknown_variant", f"unknown variant {var!r}", variant=var)
    players = [Player(n, "", "", "", True, {"hand": [], "revealed": [], "coins": START_COINS})
               for n in names]
    if len(names) == 2:
        players[0].data["coins"] = 1  # Partita per 2 giocatori: the first player gets 1 coin
    for name, n in (options.get("coins") or {}).items():
        _seat(players, name).data["coins"] = int(n)
    state = GameState(KEY, players, Phase("setup", 0), data={
        "variant": var, "court": [], "treasury": 0, "turn": None, "todo": [], "window": None,
        "turn_of": None, "turns": 0, "out_of_play": [],
    })
    events = [public("game_started", players=names, variant=var)]
    try:
        top = [canonical_card(c) for c in options.get("court") or []]
    except KeyError as exc:
        raise SetupError("unknown_card", f"unknown card {exc}", card=str(exc)) from None
    if options.get("hands"):
        _deal_fixed(state, options["hands"], top, rng)
        _finish_setup(state, events)
        start_next_turn(state, events)
    elif len(names) == 2:
        _deal_bundles(state, rng, events)
    else:
        cards = deck(len(names), var)
        rng.shuffle(cards)
        for p in players:
            p.data["hand"] = [cards.pop(), cards.pop()]
        state.data["court"] = cards
        _finish_setup(state, events)
        start_next_turn(state, events)
    return state, events


def _variant(value: Any) -> str:
    """``inquisitore``, ``Inquisitore`` and ``Inquisitor`` name the same variant."""
    if not value:
        return DEFAULT_VARIANT
    try:
        return canonical_card(value).casefold()
    except KeyError:
        return str(value).casefold()


def _seat(players: list[Player], name: str) -> Player:
    for p in players:
        if p.name == str(name):
            return p
    raise SetupError("unknown_player", f"no player {name!r}", player=str(name))


def _take(pool: list[str], cards: list[str], what: str) -> None:
    for c in cards:
        if c not in pool:
            raise SetupError("card_not_available", f"{what}: no {c} left in the deck", card=c)
        pool.remove(c)


def _deal_fixed(state: GameState, hands: dict[str, Any], top: list[str],
                rng: random.Random) -> None:
    var = variant(state)
    dealt = {}
    for p in state.players:
        cards = hands.get(p.name) or []
        if isinstance(cards, str):  # "Capitano, Duchessa"
            cards = cards.replace(",", " ").split()
        try:
            cards = [canonical_card(c) for c in cards]
        except KeyError as exc:
            raise SetupError("unknown_card", f"unknown card {exc}", card=str(exc)) from None
        if len(cards) != 2:
            raise SetupError("hand_size", f"{p.name} must hold two cards", player=p.name)
        for c in cards:
            if c not in in_play(var):
                raise SetupError("card_not_in_game", f"{c} is not in this game", card=c)
        dealt[p.name] = cards
        p.data["hand"] = list(cards)
    if set(hands) - set(dealt):
        raise SetupError("unknown_player", "a hand for nobody", player=sorted(set(hands) - set(dealt))[0])
    if len(state.players) == 2:
        rest = _two_player_court(dealt, top, var)
    else:
        rest = deck(len(state.players), var)
        for name, cards in dealt.items():
            _take(rest, cards, name)
    _take(rest, top, "court")
    rng.shuffle(rest)
    state.data["court"] = top + rest


def _two_player_court(dealt: dict[str, list[str]], top: list[str], var: str) -> list[str]:
    """The court of two players is the third bundle less the card dealt to each. A fixed
    deal does not say which card of a hand came from that bundle: the first listed
    when it can, else the other, so that the court can hold ``top``."""
    (a, ha), (b, hb) = dealt.items()
    for i in (0, 1):
        for j in (0, 1):
            if ha[i] == hb[j]:
                continue
            rest = [c for c in in_play(var) if c not in (ha[i], hb[j])]
            if all(top.count(c) <= rest.count(c) for c in top):
                return rest
    raise SetupError("card_not_available", "no third bundle fits these hands and court", card="")


def _deal_bundles(state: GameState, rng: random.Random, events: list[Event]) -> None:
    """Partita per 2 giocatori: each takes a bundle of the five characters, gets one card
    of a third shuffled bundle, whose other three are the court, then keeps one card of
    the bundle (the ``choose`` window) and discards the other four."""
    var = variant(state)
    third = list(in_play(var))
    rng.shuffle(third)
    bundles = {}
    for p in state.players:
        p.data["hand"] = [third.pop()]
        bundles[p.name] = list(in_play(var))
        events.append(private(p.name, "bundle", cards=list(bundles[p.name]), dealt=hand(p)[0]))
    state.data["court"] = third
    state.data["treasury"] = max(0, BOX_COINS - sum(coins(p) for p in state.players))
    open_window(state, "choose", [p.name for p in state.players], bundles=bundles)


def _finish_setup(state: GameState, events: list[Event]) -> None:
    state.data["treasury"] = max(0, BOX_COINS - sum(coins(p) for p in state.players))
    for p in state.players:
        events.append(private(p.name, "hand", cards=list(hand(p))))
    events.append(public("table", coins={p.name: coins(p) for p in state.players},
                         court=len(court(state)), treasury=state.data["treasury"]))


def resolve_choose(state: GameState, chosen: dict[str, str], rng: random.Random,
                   events: list[Event]) -> None:
    bundles = window(state)["bundles"]
    for p in state.players:
        card = chosen.get(p.name)
        if card is None:
            card = rng.choice(bundles[p.name])
            events.append(public("chose_at_random", player=p.name))
        else:
            events.append(public("chose", player=p.name))
        p.data["hand"].append(card)
        discarded = list(bundles[p.name])
        discarded.remove(card)
        state.data["out_of_play"] += discarded
    _finish_setup(state, events)
    start_next_turn(state, events)


# -- windows and turns ------------------------------------------------------------------
def open_window(state: GameState, kind: str, answerers: list[str], **data: Any) -> None:
    state.phase = Phase(kind, state.phase.number + 1)
    state.data["window"] = {"answerers": list(answerers), **data}


def start_next_turn(state: GameState, events: list[Event]) -> None:
    names = state.names()
    last = state.data.get("turn_of")
    start = (names.index(last) + 1) if last is not None else 0
    for i in range(len(names)):
        p = state.players[(start + i) % len(names)]
        if p.alive:
            break
    state.data["turn_of"] = p.name
    state.data["turns"] += 1
    state.data["turn"] = None
    state.data["todo"] = []
    events.append(public("turn", player=p.name, number=state.data["turns"]))
    open_window(state, "turn", [p.name])


def advance(state: GameState, rng: random.Random, events: list[Event]) -> None:
    """Run the turn's pending operations until one opens a window or the turn ends."""
    while not state.over:
        todo = state.data["todo"]
        if not todo:
            start_next_turn(state, events)
            return
        op = todo.pop(0)
        if OPS[op["op"]](state, op, rng, events):
            return


def _then(state: GameState, ops: list[dict[str, Any]]) -> None:
    """Do ``ops`` before whatever the turn still had to do."""
    state.data["todo"][:0] = ops


def _gain(state: GameState, p: Player, amount: int, events: list[Event], why: str) -> None:
    # The treasury holds the coins of the box: it gives what it has (rulings R9).
    got = min(amount, state.data["treasury"])
    state.data["treasury"] -= got
    p.data["coins"] += got
    events.append(public("gained", player=p.name, amount=got, coins=coins(p), source=why))


def _pay(state: GameState, p: Player, amount: int, events: list[Event], why: str) -> None:
    p.data["coins"] -= amount
    state.data["treasury"] += amount
    events.append(public("paid", player=p.name, amount=amount, coins=coins(p), source=why))


def take_turn(state: GameState, args: dict[str, Any], events: list[Event],
              defaulted: bool = False) -> None:
    actor = state.player(state.data["turn_of"])
    action, target = args["action"], args.get("target")
    character = claimed_character(action, variant(state))
    state.data["turn"] = {"actor": actor.name, "action": action, "target": target,
                          "character": character, "blocker": None, "block_as": None}
    data = {"player": actor.name, "action": action}
    if target:
        data["target"] = target
    if character:
        data["character"] = character
    events.append(public("turn_not_taken" if defaulted else "action", **data))
    if action == INCOME:
        _gain(state, actor, 1, events, INCOME)
    elif action == COUP:
        _pay(state, actor, COUP_COST, events, COUP)
        state.data["todo"] = [{"op": "lose", "player": target, "reason": COUP}]  # a new turn: nothing pending
    else:
        state.data["todo"] = [{"op": "reactions"}]  # a new turn: nothing pending


def default_turn(state: GameState, rng: random.Random) -> dict[str, Any]:
    """A turn not taken in time: Reddito, or the forced coup on an opponent drawn at
    random when the player holds 10 coins or more (rulings R1). When the treasury is
    empty Reddito would change nothing, so a player who can pay for a coup makes it:
    a table of silent players must still come to an end."""
    actor = state.player(state.data["turn_of"])
    if coins(actor) >= FORCED_COUP_AT or (state.data["treasury"] == 0
                                           and coins(actor) >= COUP_COST):
        return {"action": COUP, "target": rng.choice(others(state, actor.name))}
    return {"action": INCOME}


def can_challenge(state: GameState, player: str) -> bool:
    t = turn(state)
    return bool(t.get("character")) and player != t["actor"]


def can_block(state: GameState, player: str) -> bool:
    t = turn(state)
    if player == t.get("actor") or not blockers(t.get("action", ""), variant(state)):
        return False
    return anyone_blocks(t["action"]) or player == t.get("target")


def _op_reactions(state, op, rng, events) -> bool:
    t = turn(state)
    answerers = [n for n in others(state, t["actor"]) if can_challenge(state, n) or can_block(state, n)]
    if not answerers:
        state.data["todo"].insert(0, {"op": "apply"})
        return False
    open_window(state, "answer", answerers)
    return True


def resolve_answer(state: GameState, answers: list[tuple[str, dict[str, Any]]],
                   rng: random.Random, events: list[Event]) -> None:
    """The claim's window: a challenge (the first one) is settled before any block (§B,
    then §C); a block given in the same window then stands to be challenged itself."""
    t = turn(state)
    challenger = next((n for n, a in answers if a["answer"] == "challenge"), None)
    block = next(((n, a["as"]) for n, a in answers if a["answer"] == "block"), None)
    if block:
        t["blocker"], t["block_as"] = block
    if challenger is None:
        if block:
            events.append(public("block", player=block[0], character=block[1], target=t["actor"]))
            _then(state, [{"op": "block_challenge"}])
        else:
            _then(state, [{"op": "apply"}])
        return
    actor = state.player(t["actor"])
    events.append(public("challenge", player=challenger, target=actor.name, character=t["character"]))
    if t["character"] in hand(actor):
        _prove(state, actor, t["character"], rng, events)
        _then(state, [{"op": "lose", "player": challenger, "reason": "challenge"},
                              {"op": "after_claim"}])
    else:
        events.append(public("bluff", player=actor.name, character=t["character"]))
        _then(state, [{"op": "lose", "player": actor.name, "reason": "bluff"}])


def _prove(state: GameState, p: Player, card: str, rng: random.Random,
           events: list[Event]) -> None:
    """§B b: the card is shown, shuffled into the court, and a new one drawn."""
    hand(p).remove(card)
    events.append(public("proved", player=p.name, character=card))
    court(state).append(card)
    rng.shuffle(court(state))
    new = court(state).pop(0)
    hand(p).append(new)
    events.append(public("drew_from_court", player=p.name, count=1))
    events.append(private(p.name, "replacement", card=new))
    events.append(private(p.name, "hand", cards=list(hand(p))))


def _op_after_claim(state, op, rng, events) -> bool:
    t = turn(state)
    if t["blocker"] and state.player(t["blocker"]).alive:
        events.append(public("block", player=t["blocker"], character=t["block_as"], target=t["actor"]))
        state.data["todo"].insert(0, {"op": "block_challenge"})
        return False
    t["blocker"] = t["block_as"] = None
    answerers = [n for n in others(state, t["actor"]) if can_block(state, n)]
    if answerers:
        open_window(state, "block", answerers)
        return True
    state.data["todo"].insert(0, {"op": "apply"})
    return False


def resolve_block(state: GameState, answers: list[tuple[str, dict[str, Any]]],
                  rng: random.Random, events: list[Event]) -> None:
    t = turn(state)
    block = next(((n, a["as"]) for n, a in answers if a["answer"] == "block"), None)
    if block:
        t["blocker"], t["block_as"] = block
        events.append(public("block", player=block[0], character=block[1], target=t["actor"]))
        _then(state, [{"op": "block_challenge"}])
    else:
        _then(state, [{"op": "apply"}])


def _op_block_challenge(state, op, rng, events) -> bool:
    t = turn(state)
    open_window(state, "block_challenge", others(state, t["blocker"]))
    return True


def resolve_block_challenge(state: GameState, answers: list[tuple[str, dict[str, Any]]],
                            rng: random.Random, events: list[Event]) -> None:
    """§C: the challenge of a block is settled first; a block proven stands, a block
    caught as a bluff fails and the action goes on."""
    t = turn(state)
    challenger = next((n for n, a in answers if a["answer"] == "challenge"), None)
    if challenger is None:
        _then(state, [{"op": "blocked"}])
        return
    blocker = state.player(t["blocker"])
    events.append(public("challenge", player=challenger, target=blocker.name, character=t["block_as"]))
    if t["block_as"] in hand(blocker):
        _prove(state, blocker, t["block_as"], rng, events)
        _then(state, [{"op": "lose", "player": challenger, "reason": "challenge"},
                              {"op": "blocked"}])
    else:
        events.append(public("bluff", player=blocker.name, character=t["block_as"]))
        _then(state, [{"op": "lose", "player": blocker.name, "reason": "bluff"},
                              {"op": "apply"}])


def _op_blocked(state, op, rng, events) -> bool:
    t = turn(state)
    actor = state.player(t["actor"])
    events.append(public("blocked", player=actor.name, action=t["action"], by=t["blocker"],
                         character=t["block_as"]))
    if t["action"] == ASSASSINATE and actor.alive:
        # The Contessa: paid all the same (an actor out already gave every coin back).
        _pay(state, actor, ASSASSIN_COST, events, ASSASSINATE)
    return False


def _op_apply(state, op, rng, events) -> bool:
    t = turn(state)
    actor = state.player(t["actor"])
    target = state.player(t["target"]) if t.get("target") else None
    action = t["action"]
    if action == FOREIGN_AID:
        _gain(state, actor, 2, events, FOREIGN_AID)
    elif action == TAX:
        _gain(state, actor, 3, events, TAX)
    elif action == ASSASSINATE:
        _pay(state, actor, ASSASSIN_COST, events, ASSASSINATE)
        state.data["todo"].insert(0, {"op": "lose", "player": target.name, "reason": ASSASSINATE})
    elif action == STEAL:
        amount = min(2, coins(target))  # "se ne ha solo una, il Capitano ne prende solo una"
        target.data["coins"] -= amount
        actor.data["coins"] += amount
        events.append(public("stole", player=actor.name, target=target.name, amount=amount,
                             coins=coins(actor), target_coins=coins(target)))
    elif action == EXCHANGE:
        n = 2 if variant(state) == "ambasciatore" else 1
        drawn = [court(state).pop(0) for _ in range(min(n, len(court(state))))]
        events.append(public("drew_from_court", player=actor.name, count=len(drawn)))
        events.append(private(actor.name, "drew", drew=list(drawn)))
        open_window(state, "exchange", [actor.name], drawn=drawn, keep=len(hand(actor)))
        return True
    elif action == EXAMINE:
        if not target.alive:
            return False
        if len(hand(target)) == 1:
            _show(state, target, hand(target)[0], events, at_random=False)
            return True
        open_window(state, "show", [target.name])
        return True
    return False


def resolve_exchange(state: GameState, kept: list[str] | None, rng: random.Random,
                     events: list[Event]) -> None:
    actor = state.player(turn(state)["actor"])
    pool = hand(actor) + window(state)["drawn"]
    if kept is None:  # silence keeps the hand the player had (rulings R1)
        kept = list(hand(actor))
        events.append(public("exchange_not_chosen", player=actor.name))
    returned = list(pool)
    for c in kept:
        returned.remove(c)
    actor.data["hand"] = list(kept)
    court(state).extend(returned)
    rng.shuffle(court(state))
    events.append(public("exchanged", player=actor.name, count=len(returned)))
    events.append(private(actor.name, "kept", cards=list(kept), returned=returned))
    events.append(private(actor.name, "hand", cards=list(kept)))


def _show(state: GameState, target: Player, card: str, events: list[Event], at_random: bool) -> None:
    actor = turn(state)["actor"]
    events.append(public("shown_at_random" if at_random else "shown", player=target.name,
                         examiner=actor))
    events.append(private(actor, "saw", saw=card, target=target.name))
    events.append(private(target.name, "showed", card=card, examiner=actor))
    open_window(state, "inspect", [actor], card=card, target=target.name)


def resolve_show(state: GameState, card: str | None, rng: random.Random,
                 events: list[Event]) -> None:
    target = state.player(turn(state)["target"])
    if card is None:
        _show(state, target, rng.choice(hand(target)), events, at_random=True)
    else:
        _show(state, target, card, events, at_random=False)


def resolve_inspect(state: GameState, discard: bool, rng: random.Random,
                    events: list[Event]) -> None:
    w = window(state)
    actor, target = turn(state)["actor"], state.player(w["target"])
    if not discard:
        events.append(public("returned", player=actor, target=target.name))
    else:
        hand(target).remove(w["card"])
        court(state).append(w["card"])
        rng.shuffle(court(state))
        new = court(state).pop(0)
        hand(target).append(new)
        events.append(public("discarded", player=actor, target=target.name))
        events.append(public("drew_from_court", player=target.name, count=1))
        events.append(private(target.name, "replacement", card=new))
        events.append(private(target.name, "hand", cards=list(hand(target))))


# -- losing influence ---------------------------------------------------------------------
def _op_lose(state, op, rng, events) -> bool:
    p = state.player(op["player"])
    if not p.alive or not hand(p):
        return False
    if len(hand(p)) == 1:
        reveal(state, p, hand(p)[0], events, at_random=False, reason=op["reason"])
        return False
    open_window(state, "lose", [p.name], reason=op["reason"])
    return True


def reveal(state: GameState, p: Player, card: str, events: list[Event], at_random: bool,
           reason: str) -> None:
    hand(p).remove(card)
    p.data["revealed"].append(card)
    events.append(public("lost_card_at_random" if at_random else "lost_card",
                         player=p.name, card=card, reason=reason))
    events.append(private(p.name, "hand", cards=list(hand(p))))
    if hand(p):
        return
    p.alive = False
    returned = coins(p)
    state.data["treasury"] += returned
    p.data["coins"] = 0
    events.append(public("eliminated", player=p.name, coins=returned, cards=list(p.data["revealed"])))
    living = in_game(state)
    if len(living) == 1:
        state.winner = living[0].name
        state.data["todo"] = []
        state.data["window"] = {"answerers": []}
        state.phase = Phase(END, state.phase.number + 1)
        events.append(public("game_over", winner=state.winner))


def resolve_lose(state: GameState, card: str | None, rng: random.Random,
                 events: list[Event]) -> None:
    w = window(state)
    p = state.player(w["answerers"][0])
    if card is None:
        reveal(state, p, rng.choice(hand(p)), events, at_random=True, reason=w["reason"])
    else:
        reveal(state, p, card, events, at_random=False, reason=w["reason"])


OPS = {
    "lose": _op_lose,
    "reactions": _op_reactions,
    "after_claim": _op_after_claim,
    "block_challenge": _op_block_challenge,
    "blocked": _op_blocked,
    "apply": _op_apply,
}
