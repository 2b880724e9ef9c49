"""Bots see only what their seat sees: changing what the seat cannot see — other players' hands,
the cards dealt face down, the order of the deck, the state of the shuffle — never changes a bot's
choice for the same bot seed, at any decision of an action."""

from __future__ import annotations

import pytest

from interpreter import Game, load_ruleset
from interpreter.tools.bots.ladder import BOTS, bot_seed, decide, make_bot

# Search bots are slow per decision: they are checked at fewer positions, with a small budget. The
# search is checked twice: as it plays by default, and with every economy of its playouts on (the
# rollout actions it chooses once and replays in other worlds, the greedy bot playing the others).
POSITIONS = {"search": 2, "search-economies": 2}
NAMES = {"search": "search:12", "search-economies": "search:12,shared_rollouts=1,greedy_others=1,own_turn_once=1"}


def with_other_hidden_cards(game: Game) -> Game:
    """The same position with the cards the deciding seat cannot see dealt differently."""
    other = game.copy()
    seat = other.deciding_seat
    with other.table.editing() as table:
        state = table.state
        pool = [c for p in state.players if p.seat != seat for c in p.hand] + list(state.deck)
        pool.reverse()
        for player in state.players:
            if player.seat != seat:
                player.hand, pool = pool[:len(player.hand)], pool[len(player.hand):]
        state.deck = pool
        state.rng_state ^= 0x5DEECE66D
    return other


@pytest.mark.parametrize("bot", [*sorted(BOTS), "search-economies"])
def test_a_bot_chooses_the_same_whatever_it_cannot_see(bot: str) -> None:
    rs = load_ruleset("birmingham")
    game = Game.new(rs, 3, seed=7)
    driver = {s: make_bot("greedy", bot_seed(7, s)) for s in (1, 2, 3)}
    checked, wanted = 0, POSITIONS.get(bot, 6)
    while not game.is_over and checked < wanted:
        if game.pending is None and game.question is None and len(game.moves) % 5 == 0:
            twin = with_other_hidden_cards(game)
            assert twin.to_json() != game.to_json()
            while True:  # every decision of one action, on both games
                seat = game.deciding_seat
                mine = make_bot(NAMES.get(bot, bot), 99).choose(game.view(seat))
                theirs = make_bot(NAMES.get(bot, bot), 99).choose(twin.view(seat))
                assert mine == theirs, f"{bot} peeked: {mine} != {theirs}"
                game.apply(mine)
                twin.apply(theirs)
                if game.pending is None:
                    break
            checked += 1
        else:
            game.apply(decide(driver[game.deciding_seat], game))
    assert checked == wanted


def test_the_check_catches_a_bot_that_peeks() -> None:
    """A bot that reads the real deck (through the view's private game) is caught."""

    class Peeker:
        name = "peeker"

        def choose(self, view):  # type: ignore[no-untyped-def]
            legal = view.legal_actions()
            return legal[len(view._game.state.deck[-1].id) % len(legal)]

    game = Game.new(load_ruleset("birmingham"), 3, seed=7)
    differ = 0
    for _ in range(10):
        twin = with_other_hidden_cards(game)
        seat = game.deciding_seat
        differ += Peeker().choose(game.view(seat)) != Peeker().choose(twin.view(seat))
        game.apply(decide(make_bot("random", 1), game))
        while game.pending is not None or game.question is not None:
            game.apply(game.legal_actions()[0])
    assert differ > 0
