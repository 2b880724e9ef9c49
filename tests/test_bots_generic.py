"""The bots play any ruleset: they know actions by the effects they apply and choices by their type
(interpreter/tools/bots/knowledge/roles.py), and no game word is written in their code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.engine.invariants import check_invariants
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.bots.knowledge.roles import PREFERENCE, Role, roles
from interpreter.tools.bots.ladder import GreedyBot, bot_seed, decide, make_bot

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
VARIANTS = ["distant-market", "two-buyers", "shipyards", "double-pass"]
BOT_MODULES = sorted((ROOT / "interpreter" / "tools" / "bots").rglob("*.py"))
# Brass: Lancashire's ids (fixed for every helper, issue 16), for the words no bot may write.
LANCASHIRE_WORDS = {
    "barrow_in_furness", "birkenhead", "blackburn", "bolton", "burnley", "bury", "colne", "ellesmere_port",
    "fleetwood", "lancaster", "liverpool", "macclesfield", "manchester", "oldham", "preston", "rochdale",
    "stockport", "warrington", "wigan", "blackpool", "northwich", "scotland", "southport", "the_midlands",
    "yorkshire", "cotton_mill", "coal_mine", "iron_works", "port", "shipyard", "coal", "iron", "canal", "rail",
    "build", "double_build", "network", "develop", "sell", "loan", "pass"}


@pytest.fixture(scope="module")
def birmingham() -> Ruleset:
    return load_ruleset("birmingham")


def game_words(rs: Ruleset) -> set[str]:
    """A ruleset's resources, industries, locations, link kinds and actions."""
    kinds = {era.link_kind for era in rs.eras}
    return set(rs.resources) | set(rs.industries) | set(rs.locations) | kinds | set(rs.actions)


def literals(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module but its docstrings, with its line."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_the_bots_write_no_word_of_either_game(birmingham: Ruleset) -> None:
    words = game_words(birmingham) | game_words(load_ruleset("lancashire")) | LANCASHIRE_WORDS
    assert len(BOT_MODULES) >= 10
    found = [f"{path.name}:{line}: {text!r}" for path in BOT_MODULES for line, text in literals(path) if text in words]
    assert found == []


def test_the_scan_does_see_a_game_word(tmp_path: Path, birmingham: Ruleset) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Docstrings may say build."""\nKIND = "loan"\n')
    assert literals(module) == [(2, "loan")] and "loan" in game_words(birmingham)


def test_birminghams_actions_get_their_roles_from_their_effects(birmingham: Ruleset) -> None:
    known = roles(birmingham)
    assert {a: s.role for a, s in known.shapes.items()} == {
        "build": Role.BUILD, "network": Role.LINK, "develop": Role.DEVELOP, "sell": Role.SELL,
        "loan": Role.LOAN, "scout": Role.HAND, "pass": Role.PASS}
    # the greedy bot's order of actions, as it was written before it was derived
    assert known.ids(*PREFERENCE) == ("sell", "build", "network", "develop", "loan", "pass", "scout")
    assert known.consumed(Role.BUILD) == ("coal", "iron")
    assert known.consumed(Role.LINK) == ("coal", "beer")
    assert known.consumed(Role.DEVELOP) == ("iron",)
    sell = known.shape("sell")
    assert (sell.repeat, sell.named("tile"), sell.named("merchant_tile"), sell.named("bool")) == (
        "sales", "tile", "merchant", "merchant_beer")
    assert known.shape("scout").cards == ("card", "second_card", "third_card")
    assert known.shape("scout").wild_cards == 2


def test_a_pass_of_two_actions_is_still_a_pass() -> None:
    """double-pass: discarding two cards and using up the turn does nothing on the board."""
    known = roles(load_ruleset(DATA / "double-pass"))
    assert known.role("double_pass") is Role.PASS
    assert known.ids(Role.PASS) == ("pass", "double_pass")
    assert known.role("no_such_action") is Role.OTHER


def play(rs: Ruleset, seats: list[str], seed: int) -> Game:
    """A whole game between bots; every decision legal, every invariant kept after it."""
    game = Game.new(rs, len(seats), seed)
    bots = {seat: make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(seats, 1)}
    while not game.is_over:
        decision = decide(bots[game.deciding_seat], game)
        assert decision in game.legal_actions(), decision
        game.apply(decision)
        assert check_invariants(game.table) == [], decision
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_heuristic_and_greedy_bots_finish_every_variant(variant: str) -> None:
    rs = load_ruleset(DATA / variant)
    game = play(rs, ["heuristic", "greedy", "random"], 3)
    assert game.is_over
    vp = {row["seat"]: row["vp"] for row in game.standings()}
    assert vp[1] > vp[3]  # the heuristic beats a random player on every variant (one game)


def test_the_greedy_bot_takes_a_double_pass_only_after_a_pass() -> None:
    """Both passes are pass-like: the greedy bot ranks them in the ruleset's order."""
    rs = load_ruleset(DATA / "double-pass")
    assert roles(rs).ids(*PREFERENCE)[-3:] == ("pass", "double_pass", "scout")
    game = play(rs, ["greedy", "greedy"], 5)
    assert game.is_over and isinstance(make_bot("greedy", 1), GreedyBot)


@pytest.mark.parametrize("variant", ["shipyards", "double-pass"])
def test_the_search_bot_chooses_legal_decisions_on_a_variant(variant: str) -> None:
    """A search of 20 iterations at the start of a game, and again some actions in."""
    rs = load_ruleset(DATA / variant)
    game = Game.new(rs, 2, 4)
    search, greedy = make_bot("search:20", 1), make_bot("greedy", 2)
    for step in range(60):
        bot = search if step % 20 == 0 else greedy
        decision = decide(bot, game)
        assert decision in game.legal_actions()
        game.apply(decision)
    assert check_invariants(game.table) == []


def test_lancashires_actions_get_their_roles_from_their_effects() -> None:
    """Brass: Lancashire: two build-like actions, no scout, no beer; a sale's tile is its first `tile` choice."""
    known = roles(load_ruleset("lancashire"))
    assert {a: s.role for a, s in known.shapes.items()} == {
        "build": Role.BUILD, "double_build": Role.BUILD, "network": Role.LINK, "develop": Role.DEVELOP,
        "sell": Role.SELL, "loan": Role.LOAN, "pass": Role.PASS}
    assert known.ids(*PREFERENCE) == ("sell", "build", "double_build", "network", "develop", "loan", "pass")
    assert known.shape("double_build").cards == ("card", "second_card")
    assert known.shape("sell").named("tile") == "tile" and known.shape("sell").named("merchant_tile") is None
    assert known.consumed(Role.LINK) == ("coal",)


def test_bots_finish_a_game_of_lancashire() -> None:
    """No merchants, no beer, no scout: every bot's decision is legal and every invariant holds;
    the heuristic beats the random player."""
    game = play(load_ruleset("lancashire"), ["heuristic", "greedy", "greedy", "random"], 2)
    vp = {row["seat"]: row["vp"] for row in game.standings()}
    assert game.is_over and vp[1] > vp[4]


def test_the_heuristic_bot_looks_for_buyers_without_merchants() -> None:
    """In Lancashire a Cotton Mill sells to a Port or, through the board's edge, the Distant Market:
    a mill's chance to flip is not the chance of a tile no one buys."""
    from interpreter.tools.bots.knowledge.facts import NO_BUYER
    from interpreter.tools.bots.knowledge.flips import Prospects

    rs = load_ruleset("lancashire")
    game = Game.new(rs, 2, 1)
    prospects = Prospects(game.table)
    mill = rs.tiles["cotton_mill"][0]
    edges = [loc for loc, spec in rs.locations.items() if not spec.slots]
    distances = prospects.buyer_distance("cotton_mill")
    # the board's edge that buys is where the markets are reached (L-TRADE-02): not Blackpool,
    # Southport or Northwich, which show no trade icon
    assert len(edges) == 6 and {edge for edge in edges if distances.get(edge) == 0} == {
        "scotland", "the_midlands", "yorkshire"}
    towns = [loc for loc in distances if loc not in edges]
    chances = [prospects.prospects_at(mill, town, 0, game.table.me)[0] for town in towns]
    assert len(towns) >= 10 and max(chances) > 5 * NO_BUYER


def test_the_search_bot_chooses_legal_decisions_in_lancashire() -> None:
    game = Game.new(load_ruleset("lancashire"), 2, 6)
    search, greedy = make_bot("search:20", 1), make_bot("greedy", 2)
    for step in range(60):
        decision = decide(search if step % 20 == 0 else greedy, game)
        assert decision in game.legal_actions()
        game.apply(decision)
    assert check_invariants(game.table) == []
