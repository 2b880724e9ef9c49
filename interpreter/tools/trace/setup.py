"""Real-game traces: deal our game exactly as the trace (the opening deal, merchants, turn order, and the
Rail-era deal), checking that every card is held exactly once."""

from __future__ import annotations

from collections import Counter
from typing import Any

from interpreter.engine.flow import start_turn
from interpreter.engine.game import Game
from interpreter.engine.state import Card, MerchantSpace
from interpreter.engine.table import Table
from interpreter.ruleset.model import Ruleset
from interpreter.tools.trace.mapping import MERCHANT_TILES, TraceError, TraceMapping


def game_from_trace_setup(ruleset: Ruleset, trace: dict[str, Any], mapping: TraceMapping | None = None) -> Game:
    """A new Game dealt exactly as the trace: hands, face-down discards, draw pile, merchants, turn order."""
    mapping = mapping or TraceMapping(ruleset, trace)
    players = int(trace["playerCount"])
    game = Game.new(ruleset, players, int(trace.get("seed", 0)) & 0xFFFFFFFF)
    with game.table.editing() as table:  # the trace's deal replaces ours, outside the rules
        _deal_as_the_trace(table, trace, mapping, players)
    return game


def _deal_as_the_trace(table: Table, trace: dict[str, Any], mapping: TraceMapping, players: int) -> None:
    ruleset, setup = table.ruleset, trace["setup"]
    state = table.state
    cards = table.cards

    def our(card_id: str) -> Card:
        cid = mapping.card(card_id)
        if cid not in cards:
            raise TraceError(f"trace card {card_id} -> {cid} is not in our {players}-player deck")
        return cards[cid]

    for n, player in enumerate(state.players):
        player.hand = [our(c) for c in setup["hands"][n]]
        player.discard = [our(setup["initialDiscard"][n])] if setup.get("initialDiscard") else []
    state.deck = [our(c) for c in reversed(setup["drawPile"])]  # our deck is drawn from its end
    state.merchants = _merchants(ruleset, setup["merchants"], players)
    state.turn_order = [mapping.player(p) for p in setup["turnOrder"]]
    state.turn_index = 0
    markets = {"coal": setup.get("coalMarket"), "iron": setup.get("ironMarket")}
    for market, cubes in markets.items():
        if cubes is not None and market in state.markets:
            state.markets[market] = int(cubes)
    for n, player in enumerate(state.players):  # the starting position is the ruleset's: check it
        start = setup["players"][n]
        if [player.money, player.income_position, player.vp] != [start["money"], start["incomeSpace"], start["vp"]]:
            raise TraceError(f"player {n} starts with {start} in the trace, here with money {player.money}, "
                             f"income space {player.income_position}, VP {player.vp}")
    _check_cards(table, "after the trace setup")
    start_turn(table)
    table.note("trace setup", turn_order=state.turn_order, merchants={m.id: m.tile for m in state.merchants},
               source=trace.get("source", {}).get("path"))


def _merchants(ruleset: Ruleset, merchants: dict[str, Any], players: int) -> list[MerchantSpace]:
    spaces = []
    for merchant in ruleset.merchants.values():
        recorded = merchants.get(merchant.id, {"tiles": [], "barrels": []})
        wanted = merchant.spaces.get(players, 0)
        if len(recorded["tiles"]) != wanted:
            raise TraceError(f"{merchant.id}: the trace has {len(recorded['tiles'])} merchant tile(s), "
                             f"our ruleset {wanted} at {players} players")
        for index, tile in enumerate(recorded["tiles"]):
            if MERCHANT_TILES.get(tile) not in ruleset.merchant_tiles:
                raise TraceError(f"{merchant.id}: unknown merchant tile {tile!r} (known: {', '.join(MERCHANT_TILES)})")
            spec = ruleset.merchant_tiles[MERCHANT_TILES[tile]]
            barrel = bool(recorded["barrels"][index]) if index < len(recorded.get("barrels", [])) else bool(spec.buys)
            spaces.append(MerchantSpace(merchant.id, index, spec.id, spec.buys, barrel))
    return spaces


def _check_cards(table: Table, when: str) -> None:
    """Every card of the game exactly once: in a hand, a discard pile, the deck or a wild pile."""
    state = table.state
    held = [c.id for p in state.players for c in p.hand + p.discard] + [c.id for c in state.deck]
    held += [c.id for pile in state.wild_piles.values() for c in pile]
    counts = Counter(held)
    twice = sorted(c for c, n in counts.items() if n > 1)
    missing = sorted(set(table.cards) - set(counts))
    extra = sorted(set(counts) - set(table.cards))
    if twice or missing or extra:
        raise TraceError(f"cards inconsistent {when}: twice {twice}, missing {missing}, unknown {extra}")


def _card(table: Table, mapping: TraceMapping, trace_id: str) -> Card:
    cid = mapping.card(trace_id)
    if cid not in table.cards:
        raise TraceError(f"trace card {trace_id} -> {cid} is not in our {len(table.state.players)}-player deck")
    return table.cards[cid]


def deal_rail_from_trace(game: Game, round_end: dict[str, Any], mapping: TraceMapping) -> None:
    """At the Canal end our engine deals the Rail era with its own RNG: replace it with the trace's deal."""
    with game.table.editing() as table:  # outside the rules: the trace's deal replaces ours
        _deal_rail(table, round_end, mapping)


def _deal_rail(table: Table, round_end: dict[str, Any], mapping: TraceMapping) -> None:
    state = table.state
    if len(round_end["railHands"]) != len(state.players):
        raise TraceError(f"the Rail deal has {len(round_end['railHands'])} hand(s) for {len(state.players)} players: "
                         "the trace must give one Rail hand per player")
    hands = [[_card(table, mapping, c) for c in hand] for hand in round_end["railHands"]]
    deck = [_card(table, mapping, c) for c in reversed(round_end.get("railDrawPile", []))]
    ours = sorted(c.id for p in state.players for c in p.hand + p.discard) + [c.id for c in state.deck]
    theirs = [c.id for h in hands for c in h] + [c.id for c in deck]
    if sorted(ours) != sorted(theirs):
        raise TraceError(f"the Rail deal holds other cards than ours: only ours {sorted(set(ours) - set(theirs))}, "
                         f"only the trace's {sorted(set(theirs) - set(ours))}")
    for player, hand in zip(state.players, hands, strict=True):
        player.hand = hand
        player.discard = []
    state.deck = deck
    _check_cards(table, "after the Rail deal")
    table.note("trace rail deal", hands={p.seat: len(p.hand) for p in state.players}, deck=len(deck))
