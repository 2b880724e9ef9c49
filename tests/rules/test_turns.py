"""Rounds and turns (rules.md §2.2, R-TURN-01 … R-TURN-08)."""

from __future__ import annotations

from position import card_id, deck, faces, hand, new_game, pass_round, refused, set_player, tile, turn


def test_R_TURN_01_canal_era_then_rail_era_in_character_order() -> None:
    """R-TURN-01: two eras, Canal then Rail; players act in turn-order-track order."""
    g = new_game(3, seed=4)
    order = list(g.state.turn_order)
    assert g.table.era == "canal"
    acted = []
    for _ in range(3):  # the first round: one action each
        acted.append(g.table.me.seat)
        g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    assert acted == order
    while not g.is_over:
        g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    eras = [e["era"] for e in g.state.log if e["event"] == "end of era"]
    assert eras == ["canal", "rail"]


def test_R_TURN_02_two_actions_and_the_same_action_twice() -> None:
    """R-TURN-02: a turn (after round 1) is 2 actions; Loan twice gives £17 + £60 and 6 levels down."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    assert g.state.actions_left == 2
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    g.apply({"action": "loan", "card": card_id(g, 1, "birmingham")})
    assert g.table.me.seat == 1 and g.state.actions_left == 1
    g.apply({"action": "loan", "card": card_id(g, 1, "dudley")})
    p1 = g.table.player(1)
    assert (p1.money, p1.income_position, g.table.income_level(p1)) == (77, 4, -6)
    assert g.table.me.seat == 2 and g.state.actions_left == 2


def test_R_TURN_03_one_action_in_the_first_canal_round() -> None:
    """R-TURN-03: in round 1 of the Canal Era each player takes a single action."""
    g = new_game(2, seed=3)
    _first, second = g.state.turn_order
    assert g.state.actions_left == 1
    g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    assert g.table.me.seat == second and g.state.actions_left == 1
    g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    assert (g.table.era, g.table.round, g.state.actions_left) == ("canal", 2, 2)


def test_R_TURN_03_first_rail_round_has_two_actions() -> None:
    """R-TURN-03: the Rail Era's first round is a normal 2-action round."""
    g = new_game(2, seed=3)
    while g.table.era == "canal":
        g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    assert (g.table.era, g.table.round, g.state.actions_left) == ("rail", 1, 2)
    seat = g.table.me.seat
    g.apply({"action": "pass", "card": g.table.me.hand[0].id})
    assert g.table.me.seat == seat and g.state.actions_left == 1


def test_R_TURN_04_the_card_goes_face_up_on_the_own_discard_pile() -> None:
    """R-TURN-04: each action discards 1 card onto the actor's own discard pile."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    discard2 = list(g.table.player(2).discard)
    g.apply({"action": "pass", "card": card_id(g, 1, "dudley")})
    assert faces(g.table.player(1).hand) == ["birmingham", "coventry"]
    assert faces(g.table.player(1).discard)[-1] == "dudley"
    assert len(g.table.player(1).discard) == 2
    assert g.table.player(2).discard == discard2


def test_R_TURN_04_a_wild_card_goes_back_to_its_draw_area() -> None:
    """R-TURN-04: a used wild card returns to its own pile, not to the discard pile."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["wild_location", "dudley"])
    assert len(g.state.wild_piles["wild_location"]) == 3
    g.apply({"action": "pass", "card": card_id(g, 1, "wild_location")})
    assert len(g.state.wild_piles["wild_location"]) == 4
    assert faces(g.table.player(1).hand) == ["dudley"]
    assert len(g.table.player(1).discard) == 1  # only the setup card


def test_R_TURN_05_six_actions_and_pass() -> None:
    """R-TURN-05: the actions are Build, Network, Develop, Sell, Loan, Scout, plus passing;
    taking income is not one of them."""
    g = new_game(2)
    assert set(g.ruleset.actions) == {"build", "network", "develop", "sell", "loan", "scout", "pass"}
    assert {"build", "network", "develop", "loan", "scout", "pass"} <= {d["action"] for d in g.legal_actions()}
    assert not any("income" in a for a in g.ruleset.actions)


def test_R_TURN_05_passing_still_discards_one_card_per_action() -> None:
    """R-TURN-05: passing both actions of a turn discards 2 cards and changes nothing else."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    deck(g, size=0)
    g.apply({"action": "pass", "card": card_id(g, 1, "birmingham")})
    g.apply({"action": "pass", "card": card_id(g, 1, "dudley")})
    p1 = g.table.player(1)
    assert faces(p1.hand) == ["coventry"]
    assert faces(p1.discard)[-2:] == ["birmingham", "dudley"]
    assert (p1.money, p1.income_position, p1.vp, p1.spent) == (17, 10, 0, 0)


def test_R_TURN_06_any_card_for_actions_other_than_build() -> None:
    """R-TURN-06: Loan, Develop and Network accept any card (industry card, location card elsewhere)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["coal_mine", "coventry", "wild_industry"])
    g.apply({"action": "loan", "card": card_id(g, 1, "coal_mine")})
    g.apply({"action": "network", "card": card_id(g, 1, "coventry"), "links": [{"link": "L27"}]})
    p1 = g.table.player(1)
    assert (p1.money, p1.links_left, g.state.links) == (17 + 30 - 3, 13, {"L27": 1})


def test_R_TURN_06_build_needs_a_matching_card() -> None:
    """R-TURN-06: Build refuses a card that names neither the location nor the industry."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["coventry", "brewery"])
    tile(g, 1, "dudley/1", "iron", 1, flipped=True)
    rules = refused(g, {"action": "build", "card": card_id(g, 1, "brewery"), "industry": "coal",
                        "location": "dudley", "slot": "dudley/0"})
    assert "R-BUILD-04" in rules


def test_R_TURN_07_money_spent_goes_on_the_character_tile() -> None:
    """R-TURN-07: a Coal Mine I (£5) and a canal link (£3) make £8 spent; a Loan's £30 is not deducted."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["dudley", "birmingham"])
    g.apply({"action": "build", "card": card_id(g, 1, "dudley"), "industry": "coal",
             "location": "dudley", "slot": "dudley/0"})
    assert (g.table.player(1).money, g.table.player(1).spent) == (12, 5)
    g.apply({"action": "network", "card": card_id(g, 1, "birmingham"), "links": [{"link": "L27"}]})
    assert (g.table.player(1).money, g.table.player(1).spent) == (9, 8)
    turn(g, 1, actions_left=1)
    hand(g, 1, ["coventry"])
    g.apply({"action": "loan", "card": card_id(g, 1, "coventry")})
    assert (g.table.player(1).money, g.table.player(1).spent) == (39, 8)


def test_R_TURN_07_market_sales_are_not_deducted_from_spent() -> None:
    """R-TURN-07: Iron Works I at Coalbrookdale: £5 spent (coal from the own mine), +£2 from selling
    2 iron to the market; spent stays £5."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["coalbrookdale"])
    tile(g, 2, "coalbrookdale/2", "coal", 2, cubes=3)
    g.apply({"action": "build", "card": card_id(g, 1, "coalbrookdale"), "industry": "iron",
             "location": "coalbrookdale", "slot": "coalbrookdale/1"})
    assert (g.table.player(1).money, g.table.player(1).spent) == (17 - 5 + 2, 5)


def test_R_TURN_08_refill_to_eight_after_the_last_action() -> None:
    """R-TURN-08: after the first action of a 2-action turn the hand is 7; after the second, 8."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    deck_size = len(g.state.deck)
    g.apply({"action": "pass", "card": g.table.player(1).hand[0].id})
    assert (len(g.table.player(1).hand), len(g.state.deck)) == (7, deck_size)
    g.apply({"action": "pass", "card": g.table.player(1).hand[0].id})
    assert (len(g.table.player(1).hand), len(g.state.deck)) == (8, deck_size - 2)


def test_R_TURN_08_refill_after_the_one_action_opening_turn() -> None:
    """R-TURN-08: the 1-action opening turn also ends with a refill to 8."""
    g = new_game(2, seed=2)
    first = g.table.me
    g.apply({"action": "pass", "card": first.hand[0].id})
    assert len(first.hand) == 8
    assert len(g.state.deck) == 40 - 18 - 1


def test_R_TURN_08_no_refill_from_an_empty_deck() -> None:
    """R-TURN-08: with 1 card left in the deck a player ending a 2-action turn draws 1 (hand 7);
    the next player draws none (hand 6)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    deck(g, size=1)
    g.apply({"action": "pass", "card": g.table.player(1).hand[0].id})
    g.apply({"action": "pass", "card": g.table.player(1).hand[0].id})
    assert (len(g.table.player(1).hand), len(g.state.deck)) == (7, 0)
    g.apply({"action": "pass", "card": g.table.player(2).hand[0].id})
    g.apply({"action": "pass", "card": g.table.player(2).hand[0].id})
    assert len(g.table.player(2).hand) == 6


# -- End of round: turn order (rules.md §2.3) ---------------------------------------------

def test_R_ORDER_01_least_spent_first() -> None:
    """R-ORDER-01: order 1, 2, 3 spending £10, £0, £5 becomes 2, 3, 1."""
    g = new_game(3)
    turn(g, 1, order=[1, 2, 3], round=2)
    set_player(g, 1, spent=10)
    set_player(g, 2, spent=0)
    set_player(g, 3, spent=5)
    pass_round(g)
    assert g.table.round == 3
    assert g.state.turn_order == [2, 3, 1]
    assert g.table.me.seat == 2


def test_R_ORDER_01_spending_during_the_round_counts() -> None:
    """R-ORDER-01: in order 1, 2 player 1 builds a Coal Mine I (£5), player 2 only passes: 2, 1."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    hand(g, 1, ["dudley", "birmingham"])
    g.apply({"action": "build", "card": card_id(g, 1, "dudley"), "industry": "coal",
             "location": "dudley", "slot": "dudley/0"})
    pass_round(g)
    assert g.state.turn_order == [2, 1]


def test_R_ORDER_02_ties_keep_their_relative_order() -> None:
    """R-ORDER-02: order 3, 1, 2 spending £4, £4, £0 becomes 2, 3, 1 (3 stays before 1)."""
    g = new_game(3)
    turn(g, 3, order=[3, 1, 2], round=2)
    set_player(g, 3, spent=4)
    set_player(g, 1, spent=4)
    set_player(g, 2, spent=0)
    pass_round(g)
    assert g.state.turn_order == [2, 3, 1]


def test_R_ORDER_03_spent_money_goes_to_the_bank() -> None:
    """R-ORDER-03: after the round every player's spent is 0 and nobody gets the money back
    (income level 0: money unchanged at £7 and £12)."""
    g = new_game(2)
    turn(g, 1, order=[1, 2], round=2)
    set_player(g, 1, spent=10, money=7)
    set_player(g, 2, spent=5, money=12)
    pass_round(g)
    assert [(p.spent, p.money) for p in g.state.players] == [(0, 7), (0, 12)]
