"""The heuristic bot (interpreter/tools/bots/heuristic.py, its knowledge in brass_knowledge*.py):
reproducible for a bot seed, only ever the engine's legal decisions, and the choices an experienced
player makes in concrete positions (docs/bots.md)."""

from __future__ import annotations

from typing import Any

import pytest

from interpreter import Game, load_ruleset
from interpreter.tools.bots.heuristic import HeuristicBot
from interpreter.tools.bots.knowledge.worth import Appraiser, Outlook, estimate
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot

RULESET = load_ruleset("birmingham")
# Seat 1 to act in the Canal Era's third round, two actions left, a hand that builds a brewery at
# Walsall or a coal mine at Coventry.
CANAL = {"era": "canal", "round": 3, "turn_order": [1, 2], "current": 1, "actions_left": 2}
HAND = ["coventry", "dudley", "walsall"]


def position(**given: Any) -> Game:
    return Game.from_setup(RULESET, 2, {**CANAL, **given}, seed=1)


def plan(game: Game, seed: int = 5) -> dict[str, Any] | None:
    return HeuristicBot(seed).plan(game.view(game.deciding_seat))


def play_action(game: Game, bot: HeuristicBot) -> list[dict[str, Any]]:
    """The bot's decisions for one whole action, each checked against the legal list."""
    taken = []
    while True:
        view = game.view(game.deciding_seat)
        decision = bot.choose(view)
        assert decision in view.legal_actions()
        game.apply(decision)
        taken.append(decision)
        if game.pending is None and game.question is None:
            return taken


# == reproducible, legal, blind to what it cannot see ==============================================

def test_the_same_bot_seed_plays_the_same_game() -> None:
    def moves(seed: int) -> list[dict[str, Any]]:
        game = Game.new(RULESET, 3, seed=11)
        bots = {s: make_bot("heuristic", bot_seed(seed, s)) for s in (1, 2, 3)}
        while len(game.moves) < 60:
            game.apply(decide(bots[game.deciding_seat], game))
        return game.moves

    assert moves(4) == moves(4)


def test_a_whole_two_player_game_uses_only_legal_decisions_and_scores_well() -> None:
    game = Game.new(RULESET, 2, seed=3)
    bots = {s: HeuristicBot(bot_seed(3, s)) for s in (1, 2)}
    actions = 0
    while not game.is_over:
        view = game.view(game.deciding_seat)
        decision = bots[game.deciding_seat].choose(view)
        assert decision in view.legal_actions()
        game.apply(decision)
        actions += "action" in decision
    # 2 players, 10 rounds an era: 1 + 9 x 2 actions a seat in the Canal Era, 10 x 2 in the Rail Era
    assert actions == 78
    # greedy seats average 8–30 VP; an experienced pair scores far more (issue 13)
    assert all(row["vp"] >= 80 for row in game.standings())


def test_a_bot_made_in_the_middle_of_an_action_finishes_it_legally() -> None:
    game = position(players={"1": {"money": 30, "income": 10, "hand": HAND}})
    game.apply({"action": "build"})
    taken = play_action(game, HeuristicBot(1))
    assert game.pending is None and len(game.state.tiles) == 1  # the build was carried out
    assert taken[-1] != {"action": "build"}


# == selling =========================================================================================

SELLER = {"players": {"1": {"money": 12, "income": 12, "hand": HAND}},
          "tiles": [{"slot": "birmingham/0", "owner": 1, "industry": "cotton", "level": 1, "flipped": False}],
          "links": [{"link": "L06", "owner": 2}],
          "merchants": {"oxford/0": {"tile": "cotton", "beer": True}, "oxford/1": "blank"}}


def test_it_sells_its_mill_with_the_merchants_beer() -> None:
    """A Cotton Mill I linked to Oxford, whose cotton merchant has a barrel: selling flips it (5 VP
    at the era's end, 5 income spaces, R-SELL-04) and the barrel's bonus moves the marker 2 spaces
    more (R-MERCH-02, R-INC-04): no other action comes close."""
    game = position(**SELLER)
    assert plan(game) == {"action": "sell", "card": "coventry#1",
                          "sales": [{"tile": "birmingham/0", "merchant": "oxford/0", "merchant_beer": True}]}
    me = game.table.player(1)
    before = me.income_position
    play_action(game, HeuristicBot(5))
    assert game.state.tiles["birmingham/0"].flipped
    assert me.income_position == before + 5 + 2
    oxford = next(m for m in game.state.merchants if (m.location, m.index) == ("oxford", 0))
    assert not oxford.has_beer


def test_without_a_buyer_in_reach_it_does_something_else() -> None:
    """The same mill, but Oxford's merchant buys nothing (blank): selling is not legal, and the bot
    builds the brewery the mill will need rather than pass."""
    game = position(**{**SELLER, "merchants": {"oxford/0": "blank", "oxford/1": "blank"}})
    whole = plan(game)
    assert whole is not None and whole["action"] == "build"
    assert (whole["industry"], whole["location"]) == ("brewery", "walsall")


# == loans ===========================================================================================

def test_a_seat_with_no_money_and_the_game_ahead_takes_a_loan() -> None:
    game = position(players={"1": {"money": 0, "income": 10, "hand": HAND}})
    assert plan(game) == {"action": "loan", "card": "coventry#1"}


def test_a_seat_with_money_does_not_take_a_loan() -> None:
    """£40 pays for any build of the hand: a loan would only cost 3 income levels (R-LOAN-01)."""
    game = position(players={"1": {"money": 40, "income": 10, "hand": HAND}})
    whole = plan(game)
    assert whole == {"action": "build", "industry": "brewery", "card": "walsall#1", "location": "walsall",
                     "slot": "walsall/1"}


def test_no_loan_in_the_last_round_of_the_game() -> None:
    """The last Rail round with no deck: £30 could not be turned into VP any more, so a broke seat
    passes rather than lose 3 income levels for nothing."""
    game = Game.from_setup(RULESET, 2, {"era": "rail", "round": 10, "turn_order": [1, 2], "current": 1,
                                        "actions_left": 2, "deck": 0,
                                        "players": {"1": {"money": 0, "income": 10, "hand": ["coventry", "dudley"]},
                                                    "2": {"hand": ["coventry", "dudley"]}}}, seed=1)
    whole = plan(game)
    assert whole is not None and whole["action"] == "pass"


# == what it values ==================================================================================

def test_income_is_worth_most_early_and_nothing_at_the_end() -> None:
    """Why it builds for income in the Canal Era and for VP late: a level pays every round left
    (R-INC-02), and nothing after the game's last round (R-INC-03)."""
    def level_worth(era: str, round_: int, deck: int | None) -> float:
        given: dict[str, Any] = {"era": era, "round": round_, "turn_order": [1, 2], "current": 1,
                                 "actions_left": 2, "players": {"1": {"money": 10, "income": 20}}}
        if deck is not None:
            given["deck"] = deck
        game = Game.from_setup(RULESET, 2, given, seed=1)
        outlook = Outlook(game.table)
        return outlook.level_worth(game.table.player(1))

    early, late, last = level_worth("canal", 2, None), level_worth("rail", 7, 6), level_worth("rail", 10, 0)
    assert early > late > last == 0.0


def test_developing_away_a_tile_that_can_no_longer_be_built_pays() -> None:
    """In the Rail Era a level I tile on top of the mat can never be built: developing it away is
    worth VP (R-DEV-04); developing a buildable coal mine only costs the iron (R-DEV-02)."""
    game = Game.from_setup(RULESET, 2, {"era": "rail", "round": 3, "turn_order": [1, 2], "current": 1,
                                        "actions_left": 2,
                                        "players": {"1": {"money": 30, "income": 10,
                                                          "mat": {"cotton": 1, "coal": 2}}}}, seed=1)
    appraiser = Appraiser(game.table, 1)
    assert appraiser.develop(["cotton"]) > 0 > appraiser.develop(["coal"])


def test_a_canal_link_is_worth_the_icons_it_will_score() -> None:
    """Canal links score the link icons at their ends (R-ERA-02): a link to Oxford (2 icons) is
    worth more than a link between two towns with nothing built, and a flipped tile's icons at an
    end add to it."""
    game = position(players={"1": {"money": 30, "income": 10, "hand": HAND}})
    appraiser = Appraiser(game.table, 1)
    to_oxford, to_walsall = appraiser.links(["L06"]), appraiser.links(["L09"])
    assert to_oxford > to_walsall
    built = position(players={"1": {"money": 30, "income": 10, "hand": HAND}},
                     tiles=[{"slot": "walsall/1", "owner": 2, "industry": "brewery", "level": 1, "flipped": True}])
    assert Appraiser(built.table, 1).links(["L09"]) > to_walsall


def test_the_estimate_counts_scored_vp_at_the_end() -> None:
    game = Game.new(RULESET, 2, seed=2)
    assert estimate(game, 1) == pytest.approx(estimate(game.view(1), 1))
