"""A seat learns only what the rules show it (issue 26): two games that differ only in what one seat
cannot see — other players' hands, the cards dealt face down (its own included) or set aside, the
order of the deck, the order of a stack's face-down tiles (the Distant Market), the state of the shuffle — give
that seat the same answer to every query it can make: its view, its legal decisions and whole
actions, `explain`, and whether a move is refused and why.

The twin of a game is made here by hand, not with the engine's own `determinize`, so that a place
the engine forgets to hide is still dealt differently in the twin and shows up as a difference.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import Game, IllegalAction, load_ruleset
from interpreter.engine.state import state_to_dict
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))

from position import card_id, merchants, mill_for_oxford, on_top, tile

MARKET = Path(__file__).resolve().parent / "data" / "distant-market"


def face_down_discards(game: Game) -> int:
    """How many cards at the bottom of each discard pile lie face down (the setup's, until the
    first era's end builds the new deck), worked out here from the rules, not from view.py."""
    rebuilt = any(entry.get("event") == "new draw deck" for entry in game.state.log)
    return game.ruleset.setup.face_down_discards if game.state.era_index == 0 and not rebuilt else 0


def twin(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with everything `seat` cannot see dealt and shuffled anew."""
    other = game.copy()
    down = face_down_discards(game)
    with other.table.editing() as table:
        state = table.state
        others = [p for p in state.players if p.seat != seat]
        pool = [c for p in others for c in p.hand] + [c for p in state.players for c in p.discard[:down]]
        pool += state.deck + state.aside
        rng.shuffle(pool)
        deal = iter(pool)
        for player in others:
            player.hand = [next(deal) for _ in player.hand]
        for player in state.players:
            player.discard = [next(deal) for _ in player.discard[:down]] + player.discard[down:]
        state.deck = [next(deal) for _ in state.deck]
        state.aside = [next(deal) for _ in state.aside]  # set aside face down (eras' `set_aside`)
        for pile in state.stacks.values():
            rng.shuffle(pile)
        state.rng_state = rng.getrandbits(64)
    return other


def probes(game: Game, seat: int, whole: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Whole actions to ask about: some legal ones, and the same with a card the seat may or may not
    hold, named by an id every seat knows (the deck's catalogue)."""
    sample = whole[:: max(1, len(whole) // 12)][:12]
    catalogue = sorted(game.table.cards)[:: max(1, len(game.table.cards) // 6)]
    return sample + [{**action, "card": card} for action in sample[:4] for card in catalogue if "card" in action]


def answers(game: Game, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything `seat` can ask of the game between actions, as plain data."""
    view = game.view(seat)
    found: dict[str, Any] = {"view": state_to_dict(view.state), "moves": view.moves}
    if game.deciding_seat == seat:
        found["legal"] = game.legal_actions()
        found["whole"] = game.whole_actions()
        found["view whole"] = view.whole_actions()
        found["explain"] = [[(f.rule, f.message, f.where) for f in game.explain(a)["failures"]] for a in actions]
        found["apply"] = [refusal(game, a) for a in actions]
    return found


def refusal(game: Game, action: dict[str, Any]) -> str | None:
    """The refusal of a whole action (on a copy), or None when it is taken."""
    trial = game.copy()
    try:
        trial.apply(action)
    except IllegalAction as refused:
        return str(refused)
    return None


def positions(ruleset: str, players: int, seed: int, every: int) -> list[Game]:
    """Copies of a game played by greedy bots, every `every` actions, between actions."""
    game = Game.new(load_ruleset(ruleset), players, seed)
    bots = {s: make_bot("greedy", bot_seed(seed, s)) for s in range(1, players + 1)}
    found, actions = [], 0
    while not game.is_over:
        if game.pending is None and game.question is None:
            if actions % every == 0:
                found.append(game.copy())
            actions += 1
        game.apply(decide(bots[game.deciding_seat], game))
    return found


def assert_same_for_the_seat(game: Game, rng: random.Random) -> None:
    """The deciding seat's answers, and another seat's view, are the same in a twin made for it."""
    seat = game.deciding_seat
    actions = probes(game, seat, game.whole_actions())
    for looking in sorted({seat, 1 + seat % len(game.state.players)}):
        assert answers(game, looking, actions) == answers(twin(game, looking, rng), looking, actions)


# -- the Distant Market probe (the leak the issue measured) ------------------------------------------

def dm_seller(top: list[int]) -> Game:
    """A Birmingham game with Lancashire's Distant Market (tests/data/distant-market): player 1 may
    sell a Cotton Mill and a Manufacturer to Oxford, each draws a face-down tile; `top` the top
    tiles of the pile (top last), the marker on 5, where a 4 reaches X."""
    game = Game.new(load_ruleset(MARKET), 2, 1)
    mill_for_oxford(game, 2)
    with game.table.editing():
        game.state.tracks["distant_market"] = 5
    on_top(game, "dm_tiles", top)
    merchants(game, {"oxford/0": "wild", "oxford/1": "wild"})
    tile(game, 1, "birmingham/1", "manufacturer", 1)
    return game


def test_the_hidden_top_tile_changes_no_answer_before_the_draw() -> None:
    """Top tile 4 (the first sale reaches X) or 1 then 2 (both sales go through, the marker 5 -> 6 -> 8):
    the same whole actions,
    the same explanations, the same refusals; only taking the action reveals the tile."""
    reaching_x, not_reaching = dm_seller([2, 4]), dm_seller([2, 1])
    whole = reaching_x.whole_actions()
    assert whole == not_reaching.whole_actions()
    two_sales = [a for a in whole if len(a.get("sales", [])) == 2]
    assert two_sales, "the probe needs a Sell of both tiles"
    actions = probes(reaching_x, 1, whole)
    assert answers(reaching_x, 1, actions) == answers(not_reaching, 1, actions)
    reaching_x.apply(two_sales[0])
    not_reaching.apply(two_sales[0])
    assert [reaching_x.state.tiles[s].flipped for s in ("birmingham/0", "birmingham/1")] == [False, False]
    assert [not_reaching.state.tiles[s].flipped for s in ("birmingham/0", "birmingham/1")] == [True, True]


def test_a_half_made_action_cannot_be_taken_back_once_it_has_drawn() -> None:
    """Before the Sell's first sale it may be taken back; once the sale has drawn a tile (1: the
    marker 5 -> 6, the Sell goes on) every player has seen it, and it may not."""
    game = dm_seller([2, 1])
    game.apply({"action": "sell"})
    game.apply({"card": card_id(game, 1, "dudley")})
    game.apply({"tile": "birmingham/0"})
    assert game.can_take_back
    game.apply({"merchant": "oxford/0"})
    game.apply({"merchant_beer": True})
    assert game.pending is not None and game.state.drawn["dm_tiles"] == [1]
    assert not game.can_take_back


# -- properties over played positions ---------------------------------------------------------------

GAMES = [("birmingham", 2, 3), ("birmingham", 4, 5), ("lancashire", 2, 11), ("lancashire", 3, 12),
         (str(MARKET), 2, 13), ("lancashire-warfrog", 3, 14)]


@pytest.fixture(scope="module")
def played() -> dict[tuple[str, int, int], list[Game]]:
    return {key: positions(*key, every=9) for key in GAMES}


@pytest.mark.parametrize("key", GAMES, ids=lambda key: f"{Path(key[0]).name}-{key[1]}p-seed{key[2]}")
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_seat_gets_the_same_answers_whatever_it_cannot_see(
        played: dict[tuple[str, int, int], list[Game]], key: tuple[str, int, int], data: st.DataObject) -> None:
    games = played[key]
    game = games[data.draw(st.integers(0, len(games) - 1), label="position")]
    assert_same_for_the_seat(game, random.Random(data.draw(st.integers(0, 2**32), label="deal")))


def test_the_check_sees_a_difference_a_seat_could_see() -> None:
    """The property can fail: the seat's own hand changed is a difference it sees."""
    game = positions("birmingham", 2, 3, every=50)[1]
    seat = game.deciding_seat
    other = twin(game, seat, random.Random(1))
    with other.table.editing() as table:
        mine = table.state.players[seat - 1]
        mine.hand, table.state.deck = table.state.deck[:len(mine.hand)], mine.hand + table.state.deck[len(mine.hand):]
    actions = probes(game, seat, game.whole_actions())
    assert answers(game, seat, actions) != answers(other, seat, actions)


def lancashire_seller(top: list[int]) -> Game:
    """Brass: Lancashire, Canal Era, the marker on 6: player 1's Cotton Mills in Stockport and
    Manchester reach player 2's Port in Warrington (scenarios/lancashire/dm_failed_draw_ends_the_sell);
    `top` the top Distant Market tiles (top last)."""
    given = {"era": "canal", "round": 2, "turn_order": [1, 2], "current": 1,
             "players": {1: {"income": 10, "hand": ["bolton", "oldham", "rochdale"]}, 2: {"income": 10}},
             "tiles": [{"slot": "stockport/0", "owner": 1, "industry": "cotton_mill", "level": 1},
                       {"slot": "manchester/0", "owner": 1, "industry": "cotton_mill", "level": 1},
                       {"slot": "warrington/0", "owner": 2, "industry": "port", "level": 1}],
             "links": [{"link": "K28", "owner": 2}, {"link": "K29", "owner": 2}],
             "tracks": {"distant_market": 6}, "stacks": {"dm_tiles": top}}
    return Game.from_setup(load_ruleset("lancashire"), 2, given, seed=1)


def test_the_lancashire_probe_gives_the_same_answers_for_either_hidden_tile() -> None:
    """The issue's leak probe: the pile holds a 2 and a 3, the 3 on top (the first Distant Market
    sale reaches X) or the 2 (it does not): the same whole actions, explanations and refusals for
    player 1."""
    reaching_x, not_reaching = lancashire_seller([2, 3]), lancashire_seller([3, 2])
    whole = reaching_x.whole_actions()
    assert whole == not_reaching.whole_actions()
    assert any(s.get("via") == "distant_market" for a in whole for s in a.get("sales", [])[:1]
               if len(a.get("sales", [])) == 2), "the probe needs a Distant Market sale followed by another"
    actions = probes(reaching_x, 1, whole)
    assert answers(reaching_x, 1, actions) == answers(not_reaching, 1, actions)


def test_brass_explain_stops_at_the_draw(run) -> None:  # type: ignore[no-untyped-def]
    """`brass explain` of a Distant Market sale says what happens up to the draw and no more: the
    tile and whether the sale fails are not shown (the scenario's top tile is a 3, reaching X)."""
    scenario = Path(__file__).resolve().parents[1] / "scenarios" / "lancashire" / "dm_failed_draw_ends_the_sell.yaml"
    status, out, err = run("explain", str(scenario), "{action: sell, card: bolton, sales: [{tile: stockport/0, "
                                                     "via: distant_market}]}", "lancashire")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[1] == "legal; it would do:"
    assert lines[-1] == ("  then draw the top tile of Distant Market tiles, face down until drawn: "
                         "what follows depends on it")
    assert "3" not in "".join(lines[2:-1]) and "X" not in out and "income" not in out
