"""Writes canal-end-shortfall-by-vp.trace.json: a 2-player Brass: Birmingham Canal Era played on our own
engine and exported in the `brass-birmingham-trace/v1` format of ../shared/real-games/README.md, since
no recorded game has the position it is about (tests/test_trace_fixtures.py).

    PYTHONPATH=. python tests/data/traces/make_canal_end_shortfall_trace.py

Player 0 (our seat 1) places the canal Coalbrookdale–Shrewsbury (£3), builds an Iron Works I in
Coalbrookdale (£5 and a £2 coal cube from the market through Shrewsbury; 2 of its 4 iron sold to the
market for £1 each) and flips it by developing two tiles with its last two cubes (income space 13),
builds a Coal Mine I in Dudley (£5, unconnected: it keeps its 2 cubes), takes a loan (space 9, income
level −1), spends the rest on developing with market iron and passes from round 7. At the end of the
last Canal round (the 10th) they owe £1 with £0. Either level-I tile raises £2 (£5 / 2) and the era's
end removes the other, so both removals leave the same board and £1; player 0 removes the unflipped
Coal Mine, so that the flipped Iron Works scores before it leaves: 3 VP for the tile and 3 for the
canal (1 link icon in Coalbrookdale, 2 at the Shrewsbury merchant), 6 VP. Removing the Iron Works
(the first of the two in board order) would leave 2 VP. Player 1 passes throughout. The trace ends
with that step.

Only what the replay reads is written: the setup as dealt, each step's action (upstream form),
effects, cards drawn, round end (spending, turn order, removed tiles and money, the era's scoring,
the Rail deal) and the players after it; the catalogue of links and slots is the one of the real
2-player game (../shared/real-games/traces/wq9gs6-2p-full.trace.json, the same board).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.state import Card, PlacedTile
from interpreter.ruleset.loader import load_ruleset

HERE = Path(__file__).resolve().parent
OUT = HERE / "canal-end-shortfall-by-vp.trace.json"
REAL = HERE.parents[3] / "shared" / "real-games" / "traces" / "wq9gs6-2p-full.trace.json"
SEED = 1
FACES = {"coal_mine": "coal", "iron_works": "iron", "brewery": "brewery", "pottery": "pottery",
         "cotton_manufacturer": "cotton-manufacturer"}
MERCHANT_TILES = {"wild": "any"}
HAND_0 = ("coalbrookdale#1", "dudley#1")  # player 0's first two cards, swapped in from seed 1's deal


def develop(*industries: str) -> dict[str, Any]:
    return {"action": "develop", "tiles": [{"industry": i} for i in industries]}


# Player 0's actions, round by round (our whole actions, the card added when the turn comes: the last
# card of the hand unless named); every other action of either player is a pass.
PLAN: dict[int, list[dict[str, Any]]] = {
    1: [{"action": "network", "links": [{"link": "L21"}]}],
    2: [{"action": "build", "card": "coalbrookdale#1", "industry": "iron", "location": "coalbrookdale",
         "slot": "coalbrookdale/1"}, develop("cotton", "cotton")],
    3: [{"action": "build", "card": "dudley#1", "industry": "coal", "location": "dudley", "slot": "dudley/0"},
        {"action": "loan"}],
    4: [develop("cotton", "manufacturer"), develop("manufacturer", "manufacturer")],
    5: [develop("brewery", "brewery"), develop("brewery", "brewery")],
    6: [develop("cotton", "cotton")],
}
SHORTFALL_ANSWER = "dudley/0"  # the unflipped Coal Mine: the Iron Works scores before it leaves


def trace_card(card: Card) -> str:
    face, n = card.id.split("#")
    if card.kind == "location":
        return f"loc-{face.replace('_', '-')}-{int(n) - 1}"
    return f"ind-{FACES[face]}-{int(n) - 1}"


def tile_data(tile: PlacedTile) -> dict[str, Any]:
    return {"owner": tile.owner.seat - 1, "industry": tile.spec.industry, "level": tile.spec.level,
            "resources": tile.cubes, "flipped": tile.flipped}


class Seen:
    """What the trace records of a position: tiles, markets, barrels, players, hands, links."""

    def __init__(self, game: Game) -> None:
        state = game.state
        self.tiles = {sid: tile_data(t) for sid, t in state.tiles.items()}
        self.markets = dict(state.markets)
        self.barrels = {m.id: m.has_beer for m in state.merchants}
        self.merchant_tiles = {m.id: MERCHANT_TILES.get(m.tile, m.tile) for m in state.merchants}
        self.players = [{"money": p.money, "incomeSpace": p.income_position, "incomeLevel": game.table.income_level(p),
                         "vp": p.vp, "spentThisRound": p.spent} for p in state.players]
        self.hands = [list(p.hand) for p in state.players]
        self.links = dict(state.links)

    def after(self) -> list[dict[str, int]]:
        return [{key: p[key] for key in ("money", "incomeSpace", "incomeLevel", "vp")} for p in self.players]


def changes(before: Seen, after: Seen, link_index: dict[str, int]) -> dict[str, Any]:
    """The changes from `before` to `after`, as a step's (or a round end's) `effects`."""
    found: dict[str, Any] = {}
    slots = [{"location": sid.split("/")[0].replace("_", "-"), "slotIndex": int(sid.split("/")[1]),
              "before": before.tiles.get(sid), "after": after.tiles.get(sid)}
             for sid in sorted(set(before.tiles) | set(after.tiles)) if before.tiles.get(sid) != after.tiles.get(sid)]
    if slots:
        found["slots"] = slots
    added = [{"linkIndex": link_index[k], "owner": seat - 1}
             for k, seat in after.links.items() if k not in before.links]
    if added:
        found["linksAdded"] = added
    if before.links and not after.links:
        found["linksRemoved"] = len(before.links)
    for market in ("coal", "iron"):
        if before.markets[market] != after.markets[market]:
            found[f"{market}Market"] = [before.markets[market], after.markets[market]]
    barrels = [{"merchant": sid.split("/")[0], "tileIndex": int(sid.split("/")[1]), "tile": after.merchant_tiles[sid],
                "barrel": [before.barrels[sid], after.barrels[sid]]}
               for sid in sorted(after.barrels) if before.barrels[sid] != after.barrels[sid]]
    if barrels:
        found["merchantBarrels"] = barrels
    players = []
    for n, (was, now) in enumerate(zip(before.players, after.players, strict=True)):
        changed = {key: [was[key], now[key]] for key in was if was[key] != now[key]}
        if changed:
            players.append({"player": n, **changed})
    if players:
        found["players"] = players
    return found


def upstream_action(game: Game, action: dict[str, Any], link_index: dict[str, int]) -> dict[str, Any]:
    """One of our whole actions in the upstream record's form."""
    card = trace_card(game.table.cards[action["card"]])
    kind = action["action"]
    if kind == "build":
        location, index = action["slot"].split("/")
        return {"type": "build", "cardId": card, "industry": action["industry"],
                "location": location.replace("_", "-"), "slotIndex": int(index)}
    if kind == "network":
        return {"type": "network", "cardId": card, "links": [link_index[k["link"]] for k in action["links"]]}
    if kind == "develop":
        return {"type": "develop", "cardId": card, "removals": [t["industry"] for t in action["tiles"]]}
    return {"type": kind, "cardId": card}


def new_game() -> Game:
    """Seed 1's deal with player 0's first two cards swapped for the two the plan builds with, turn
    order 0, 1 (a trace gives its own deal; the replay checks every card is held once)."""
    game = Game.new(load_ruleset("birmingham"), 2, SEED)
    with game.table.editing() as table:
        state = table.state
        hand = state.players[0].hand
        for n, card_id in enumerate(HAND_0):
            card = table.cards[card_id]
            for place in (state.deck, *(p.hand for p in state.players), *(p.discard for p in state.players)):
                if card in place:
                    where = place.index(card)
                    place[where], hand[n] = hand[n], card
                    break
        state.turn_order = [1, 2]
    return game


def setup_of(game: Game) -> dict[str, Any]:
    state = game.state
    merchants: dict[str, dict[str, list[Any]]] = {m: {"tiles": [], "barrels": []} for m in game.ruleset.merchants}
    for space in state.merchants:
        merchants[space.location]["tiles"].append(MERCHANT_TILES.get(space.tile, space.tile))
        merchants[space.location]["barrels"].append(space.has_beer)
    return {"turnOrder": [s - 1 for s in state.turn_order],
            "hands": [[trace_card(c) for c in p.hand] for p in state.players],
            "initialDiscard": [trace_card(p.discard[0]) for p in state.players],
            "drawPile": [trace_card(c) for c in reversed(state.deck)],
            "merchants": merchants, "coalMarket": state.markets["coal"], "ironMarket": state.markets["iron"],
            "players": [{"money": p.money, "incomeSpace": p.income_position, "incomeLevel": 0, "vp": p.vp}
                        for p in state.players]}


def next_action(game: Game, done: dict[int, int]) -> dict[str, Any]:
    seat, round_ = game.deciding_seat, game.state.round
    planned = PLAN.get(round_, []) if seat == 1 else []
    if done.get(round_, 0) < len(planned):
        action = dict(planned[done.get(round_, 0)])
        done[round_] = done.get(round_, 0) + 1
    else:
        action = {"action": "pass"}
    action.setdefault("card", game.table.me.hand[-1].id)
    return action


def play(link_index: dict[str, int]) -> dict[str, Any]:
    """The Canal Era played to its end, every step recorded."""
    game = new_game()
    setup = setup_of(game)
    steps: list[dict[str, Any]] = []
    done: dict[int, int] = {}
    while game.state.era_index == 0:
        steps.append(step(game, next_action(game, done), len(steps), link_index))
    return {"setup": setup, "steps": steps}


def step(game: Game, action: dict[str, Any], seq: int, link_index: dict[str, int]) -> dict[str, Any]:
    """Apply one action (and answer the shortfall question at the round's end) and record it."""
    state, seat = game.state, game.deciding_seat
    per_turn = game.ruleset.eras[state.era_index].actions_per_turn if state.round > 1 else 1
    record: dict[str, Any] = {"seq": seq, "player": seat - 1, "era": game.table.era, "round": state.round,
                              "turnOrderThisRound": [s - 1 for s in state.turn_order],
                              "actionInTurn": per_turn - state.actions_left + 1,
                              "action": upstream_action(game, action, link_index)}
    before, round_ = Seen(game), state.round
    mid: list[Seen] = []
    log_start = len(state.log)
    with game.watching_action_ends(lambda: mid.append(Seen(game))):
        game.apply(action)
    action_done = mid[0]
    turn_over = Seen(game)  # the hand refilled, maybe the round ended with an open question
    while game.question is not None:
        game.apply({"answer": SHORTFALL_ANSWER}, seat=game.question["player"])
    after = Seen(game)
    record["effects"] = {**changes(before, action_done, link_index),
                         "cardsSpent": [trace_card(game.table.cards[action["card"]])]}
    drew = [trace_card(c) for c in turn_over.hands[seat - 1] if c not in action_done.hands[seat - 1]]
    if drew:
        record["drew"] = drew
    if state.round != round_ or state.era_index != 0:
        record["roundEnd"] = round_end(game, round_, action_done, after, log_start, link_index)
    record["after"] = after.after()
    return record


def round_end(game: Game, round_: int, action_done: Seen, after: Seen, log_start: int,
              link_index: dict[str, int]) -> dict[str, Any]:
    """The step's `roundEnd`: what the round's end (and, after the last Canal round, the era's) changed."""
    state = game.state
    found: dict[str, Any] = {"era": "canal", "round": round_,
                             "spent": [p["spentThisRound"] for p in action_done.players],
                             "newTurnOrder": [s - 1 for s in state.turn_order],
                             "effects": changes(action_done, after, link_index)}
    for entry in found["effects"].get("players", []):
        entry.pop("spentThisRound", None)
    if state.era_index == 1:
        link_vp, tile_vp = [0, 0], [0, 0]
        for entry in state.log[log_start:]:
            for link in entry.get("links", []) if entry["event"] == "link scoring" else []:
                link_vp[link["owner"] - 1] += link["vp"]
            for tile in entry.get("tiles", []) if entry["event"] == "tile scoring" else []:
                tile_vp[tile["owner"] - 1] += tile["vp"]
        found.update({"eraEnd": "canal", "linkVP": link_vp, "industryVP": tile_vp,
                      "vpAfterEraScoring": [p.vp for p in state.players],
                      "railHands": [[trace_card(c) for c in p.hand] for p in state.players],
                      "railDrawPile": [trace_card(c) for c in reversed(state.deck)]})
    return found


def trace() -> dict[str, Any]:
    real = json.loads(REAL.read_text(encoding="utf-8"))
    catalogue = {"links": real["catalogue"]["links"], "locationSlots": real["catalogue"]["locationSlots"]}
    birmingham = load_ruleset("birmingham")
    by_ends = {frozenset(link.ends): link.id for link in birmingham.links.values()}
    link_index = {by_ends[frozenset(e.replace("-", "_") for e in [k["a"], k["b"], *k.get("extraEndpoints", [])])]:
                  k["index"] for k in catalogue["links"]}
    played = play(link_index)
    cards = {trace_card(c): ({"kind": "location", "location": c.locations[0].replace("_", "-")} if c.kind == "location"
                             else {"kind": "industry", "industries": list(c.industries)})
             for c in new_game().table.cards.values() if not c.wild}
    return {"format": "brass-birmingham-trace/v1 (constructed: played on this project's engine; see "
                      "tests/data/traces/make_canal_end_shortfall_trace.py)",
            "source": {"path": None, "note": "constructed, not a recorded game: a Canal Era end where two sets "
                                             "of removals fit the recorded money and board but not the VP"},
            "engine": "brass-rules (this project), ruleset birmingham", "playerCount": 2, "seed": SEED,
            "seats": [{"seat": n, "nickname": f"Player{n + 1}", "isAI": False} for n in (0, 1)],
            "scores": {"canalEndVP": played["steps"][-1]["roundEnd"]["vpAfterEraScoring"], "finalVP": None,
                       "winner": None},
            "setup": played["setup"], "steps": played["steps"], "catalogue": {**catalogue, "cards": cards}}


if __name__ == "__main__":
    OUT.write_text(json.dumps(trace(), separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
    print(f"wrote {OUT}")
