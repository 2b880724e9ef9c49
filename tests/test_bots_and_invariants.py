"""Bots and invariants: random games run to the end without breaking a conservation law,
reproducibly, and the invariant checker does notice a broken state."""

from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.engine.invariants import check_invariants, developed_counts
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.bots.ladder import GreedyBot, RandomBot, bot_seed, decide, deciding_seat, make_bot
from interpreter.tools.simulate.games import InvariantViolation, play_game, simulate


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("birmingham")


def run(game: Game, bots: dict[int, object], check: bool) -> tuple[int, int]:
    """Play to the end; (actions started, decisions). Invariants after every decision when `check`."""
    actions = decisions = 0
    while not game.is_over:
        decision = decide(bots[deciding_seat(game)], game)
        assert decision in game.legal_actions()
        game.apply(decision)
        decisions += 1
        actions += "action" in decision
        if check:
            assert check_invariants(game.table) == [], f"decision {decisions}: {decision}"
    return actions, decisions


@pytest.mark.parametrize("players, actions", [(2, 78), (3, 105), (4, 124)])
@pytest.mark.parametrize("seed", [11, 12])
def test_random_games_keep_every_invariant(rs, players: int, actions: int, seed: int) -> None:
    """R-SETUP-12 / R-TURN-03: 78 / 105 / 124 actions; nothing is created or lost on the way."""
    game = Game.new(rs, players, seed)
    assert check_invariants(game.table) == []
    bots = {s: RandomBot(bot_seed(seed, s)) for s in range(1, players + 1)}
    started, _ = run(game, bots, check=True)
    assert started == actions
    assert game.is_over and game.standings()[0]["place"] == 1


def test_same_seed_gives_identical_games(rs) -> None:
    texts = []
    for _ in range(2):
        game = Game.new(rs, 2, 5)
        run(game, {s: RandomBot(bot_seed(5, s)) for s in (1, 2)}, check=False)
        texts.append(game.to_json())
    assert texts[0] == texts[1]


def test_greedy_and_random_bots_finish_a_game_together(rs) -> None:
    game = Game.new(rs, 3, 8)
    bots = {1: GreedyBot(1), 2: RandomBot(2), 3: GreedyBot(3)}
    started, decisions = run(game, bots, check=True)
    assert started == 105 and decisions >= started


def test_play_game_counts_and_names_the_winners(rs) -> None:
    record = play_game(rs, 2, 3, ["greedy", "random"], check=True)
    assert record.actions == 78 and record.decisions > 78
    assert record.winners == sorted(r["seat"] for r in record.standings if r["place"] == 1)


def test_simulate_reports_a_violation_with_the_seed_and_the_action(rs, monkeypatch) -> None:
    import interpreter.tools.simulate.games as sim

    calls = {"n": 0}

    def broken(game: Game) -> list[str]:
        calls["n"] += 1
        return ["money: player 1 has £-1 (negative)"] if calls["n"] == 30 else []

    monkeypatch.setattr(sim, "check_invariants", broken)
    with pytest.raises(InvariantViolation) as error:
        simulate(rs, 2, 2, seed=40, bot="random", check=True)
    assert error.value.seed == 40 and error.value.decision == 30
    assert "seed 40" in str(error.value) and "money: player 1" in str(error.value)


def test_make_bot_refuses_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", 1)


# -- the checker notices broken states ------------------------------------------------------------

@pytest.fixture
def midgame(rs) -> Game:
    game = Game.new(rs, 3, 21)
    bots = {s: GreedyBot(s) for s in (1, 2, 3)}
    for _ in range(120):
        game.apply(decide(bots[deciding_seat(game)], game))
    assert check_invariants(game.table) == []
    assert game.state.tiles and game.state.links
    return game


def test_a_card_twice_or_missing_is_noticed(midgame: Game) -> None:
    p1, p2 = midgame.state.players[:2]
    p1.hand.append(p2.hand[0])
    assert any("in 2 places" in p for p in check_invariants(midgame.table))
    p1.hand.pop()
    p2.hand.pop(0)
    assert any("nowhere" in p for p in check_invariants(midgame.table))


def test_tiles_links_money_cubes_and_income_are_checked(midgame: Game, rs) -> None:
    player = midgame.state.players[0]
    player.removed += 1
    player.links_left += 1
    player.money = -3
    player.vp = -1
    player.income_position = rs.income.positions
    tile = next(iter(midgame.state.tiles.values()))
    tile.cubes = -2
    midgame.state.markets["coal"] = rs.markets["coal"].capacity + 1
    problems = "\n".join(check_invariants(midgame.table))
    for expected in ("tiles: player 1 took", "links: player 1", "money: player 1 has £-3",
                     "vp: player 1 has -1", "income: player 1 is on track position", "holds -2 cubes",
                     "the coal market holds 15 cubes"):
        assert expected in problems


def test_a_flipped_producer_with_cubes_is_noticed(midgame: Game, rs) -> None:
    producers = [t for t in midgame.state.tiles.values() if rs.industries[t.spec.industry].produces]
    assert producers
    tile = producers[0]
    tile.flipped, tile.cubes = True, 1
    assert any("flipped but still holds 1 cubes" in p for p in check_invariants(midgame.table))


def test_developed_tiles_are_counted_from_the_log(midgame: Game) -> None:
    developed = sum(1 for e in midgame.state.log if e["event"] == "developed")
    assert sum(developed_counts(midgame.table).values()) == developed
