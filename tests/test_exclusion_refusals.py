"""Every exclusion path, walked (issue 27, item 2): for each reason the engine can give for
excluding a named source or an answer (`Exclusion`, interpreter/engine/exclusions.py), a position
in Birmingham and one in Lancashire where a move names an excluded value, with the exact refusal:
its one clause and the rule that excludes the value, at its place in the ruleset. A path neither
base game can reach is shown in a small variant of it written here; one a game rules out by its
data says which data, and the test checks that data. A reason added to `Exclusion` without a case
here fails `test_every_exclusion_is_walked_in_both_games`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from interpreter import Game, IllegalAction
from interpreter.engine.exclusions import Exclusion
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.tools.scenarios.cards import with_card_ids

GAMES = ("birmingham", "lancashire")


@dataclass(frozen=True)
class Case:
    """A position (`given`, as in a scenario), the moves before the refused one, and the refusal."""

    game: str
    given: dict[str, Any]
    refused: dict[str, Any]
    rule: str
    message: str
    where: str  # the file and line of the rule's citation
    seat: int = 1
    before: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    variant: str = ""  # the body of a variant of `game` the position is played in, if any


@dataclass(frozen=True)
class NotInGame:
    """The game's data rules the path out: `why`, checked by `holds`."""

    why: str
    holds: Callable[[Ruleset], bool]


# == positions ====================================================================================

def _bham(tiles: list[dict[str, Any]], links: list[str], mat: dict[str, Any] | None = None,
          **extra: Any) -> dict[str, Any]:
    """Round 2 of a 2-player Birmingham game, player 1 to act with Birmingham, Dudley, Coventry."""
    player = {"hand": ["birmingham", "dudley", "coventry"], **({"mat": mat} if mat else {})}
    return {"round": 2, "current": 1, "turn_order": [1, 2], "players": {1: player},
            "tiles": tiles, "links": [{"link": k, "owner": 2} for k in links], **extra}


def _lanc(tiles: list[dict[str, Any]], links: list[str], mat: dict[str, Any] | None = None,
          era: str = "canal") -> dict[str, Any]:
    """Round 2 of a 2-player Lancashire game, player 1 to act with £30, Manchester and Warrington."""
    player = {"money": 30, "hand": ["manchester", "warrington"], **({"mat": mat} if mat else {})}
    return {"era": era, "round": 2, "current": 1, "turn_order": [1, 2], "players": {1: player},
            "tiles": tiles, "links": [{"link": k, "owner": 2} for k in links]}


def _t(slot: str, owner: int, industry: str, level: int, **extra: Any) -> dict[str, Any]:
    return {"slot": slot, "owner": owner, "industry": industry, "level": level, **extra}


# Birmingham: coal for a Manufacturer at Birmingham; Dudley's mine 1 link away, Wolverhampton's 2.
BHAM_MINES = [_t("dudley/0", 2, "coal", 1), _t("wolverhampton/1", 2, "coal", 2)]
BHAM_LINKS = ["L04", "L27"]
BHAM_RES = "rulesets/birmingham/resources.yaml"


def bham_build(*sources: str) -> dict[str, Any]:
    return {"action": "build", "card": "birmingham", "industry": "manufacturer", "location": "birmingham",
            "slot": "birmingham/1", **({"coal_from": list(sources)} if sources else {})}


# Birmingham: beer for selling the Manufacturer I at Birmingham to Oxford (player 1's Brewery at Stafford).
BHAM_SALE_TILES = [_t("birmingham/1", 1, "manufacturer", 1), _t("stafford/0", 1, "brewery", 2, cubes=2)]
BHAM_SALE = {"merchants": {"oxford/0": {"tile": "manufacturer", "beer": False}, "oxford/1": "blank"}}


def bham_sale(*sources: str) -> dict[str, Any]:
    return {"action": "sell", "card": "dudley", "sales": [{"tile": "birmingham/1", "merchant": "oxford/0",
                                                           "merchant_beer": False, "beer_from": list(sources)}]}


# Birmingham: the Gloucester bonus (player 1 sells the Cotton Mill at Worcester, takes the barrel).
GLOUCESTER = {
    "round": 2, "current": 1, "turn_order": [1, 2],
    "players": {1: {"money": 17, "income": 10, "hand": ["birmingham", "dudley", "coventry"]}},
    "tiles": [{"slot": "worcester/0", "owner": 1, "industry": "cotton", "level": 1}],
    "links": [{"link": "L29", "owner": 2}],
    "merchants": {"gloucester/0": {"tile": "cotton", "beer": True}, "gloucester/1": "blank"},
}
GLOUCESTER_SALE = [(1, {"action": "sell"}), (1, {"card": "dudley"}), (1, {"tile": "worcester/0"}),
                   (1, {"merchant": "gloucester/0"}), (1, {"merchant_beer": True})]


def bham_shortfall(*extra_tiles: dict[str, Any]) -> dict[str, Any]:
    """End of round 3 (player 2 passes): player 1 at income level −10 owes £10 and has £3. Tiles:
    Cotton Mill I (£6), Coal Mine I (£2), Brewery II (£3) (shortfall_insufficient_first_choice_asks_again)."""
    return {"round": 3, "turn_order": [1, 2], "current": 2, "actions_left": 1,
            "players": {1: {"money": 3, "income": 0, "vp": 5}, 2: {"hand": ["stafford", "dudley"]}},
            "tiles": [_t("worcester/0", 1, "cotton", 1), _t("dudley/0", 1, "coal", 1, cubes=2),
                      _t("stafford/0", 1, "brewery", 2, flipped=True), *extra_tiles]}


BHAM_END_ROUND = [(2, {"action": "pass", "card": "stafford"})]

# Lancashire: coal for a Cotton Mill II at Warrington; Wigan's mine connected (K18, K36), a Port of
# player 2 at Ellesmere Port (coal_market_while_a_mine_has_coal_refused).
LANC_MINE = [_t("ellesmere_port/0", 2, "port", 1), _t("wigan/0", 2, "coal_mine", 1, cubes=2)]
LANC_LINKS = ["K18", "K36"]
LANC_RES = "rulesets/lancashire/resources.yaml"


def lanc_build(*sources: str) -> dict[str, Any]:
    return {"action": "build", "card": "warrington", "industry": "cotton_mill", "location": "warrington",
            "slot": "warrington/1", "coal_from": list(sources)}


# Lancashire, Rail Era: a rail Manchester–Bolton (K09); mines at Manchester (0 links) and Oldham (1).
LANC_RAIL = _lanc([_t("manchester/0", 1, "cotton_mill", 2, flipped=True),
                   _t("manchester/1", 2, "coal_mine", 2, cubes=1), _t("oldham/0", 2, "coal_mine", 2, cubes=3)],
                  ["K27"], mat={"cotton_mill": 3}, era="rail")


def lanc_rail(*sources: str) -> dict[str, Any]:
    return {"action": "network", "card": "manchester", "links": [{"link": "K09", "coal_from": list(sources)}]}


# Lancashire: a Develop's iron; player 2's Iron Works at Barrow-in-Furness holds 2 iron.
LANC_WORKS = [_t("barrow_in_furness/1", 2, "iron_works", 1, cubes=2)]


def lanc_develop(*sources: str) -> dict[str, Any]:
    return {"action": "develop", "card": "manchester", "tiles": [{"industry": "coal_mine", "iron_from": list(sources)}]}


def lanc_shortfall(*extra_tiles: dict[str, Any]) -> dict[str, Any]:
    """End of round 3 (player 2 passes): player 1 at income level −6 has £2, £4 short; tiles Iron
    Works I (£2), Coal Mine II (£3), Port IV (£4) (lancashire/shortfall_choice_of_tiles)."""
    return {"round": 3, "turn_order": [1, 2], "current": 2, "actions_left": 1,
            "players": {1: {"money": 2, "income": 4, "vp": 0, "mat": {"port": 4}},
                        2: {"hand": ["manchester", "liverpool"]}},
            "tiles": [_t("bolton/2", 1, "iron_works", 1, flipped=True), _t("wigan/0", 1, "coal_mine", 2, cubes=1),
                      _t("liverpool/0", 1, "port", 4), *extra_tiles]}


LANC_END_ROUND = [(2, {"action": "pass", "card": "manchester"})]

# Variants: the kinds of source in an order neither base game has.
OWN_COAL_FIRST = """resources:
  coal:
    sources: [own_producer, nearest_connected_producer, market]
"""
OWN_IRON_FOR_DEVELOP = """resources:
  iron:
    sources_in:
      develop: [own_producer]
"""


def _no_step(name: str) -> Callable[[Ruleset], bool]:
    return lambda rs: name not in repr(rs.data)


def _no_unit_beyond_one(rs: Ruleset) -> bool:
    """No tile and no link takes more than one unit of a resource at once: a tile's needs, and each
    further link's share of a Network's needs (the rows are totals for 1, 2 … links)."""
    needs = [n for specs in rs.tiles.values() for spec in specs for n in spec.needs.values()]
    for era in rs.eras:
        rows = sorted(era.network, key=lambda row: row.links)
        needs += [n - (rows[i - 1].needs.get(r, 0) if i else 0) for i, row in enumerate(rows)
                  for r, n in row.needs.items()]
    return max(needs) == 1


def _every_tile_raises_money(rs: Ruleset) -> bool:
    divisor = rs.economy.shortfall_tile_value_divisor
    return all(spec.cost // divisor > 0 for specs in rs.tiles.values() for spec in specs if spec.eras)


B, L = "birmingham", "lancashire"
CASES: dict[Exclusion, dict[str, Case | NotInGame]] = {
    Exclusion.NO_TILE: {
        B: Case(B, _bham(BHAM_MINES, BHAM_LINKS), bham_build("dudley/1"), "R-COAL-02",
                "Coal 1 of 1 cannot come from dudley/1: there is no tile in dudley/1.", BHAM_RES),
        L: Case(L, _lanc(LANC_MINE, LANC_LINKS, {"cotton_mill": 2}), lanc_build("wigan/1"), "L-COAL-02",
                "Coal 1 of 1 cannot come from wigan/1: there is no tile in wigan/1.", LANC_RES),
    },
    Exclusion.NOT_PRODUCER: {
        B: Case(B, _bham([*BHAM_MINES, _t("stafford/0", 1, "brewery", 1)], BHAM_LINKS), bham_build("stafford/0"),
                "R-COAL-02",
                "Coal 1 of 1 cannot come from stafford/0: Brewery 1 at stafford/0 does not produce coal.", BHAM_RES),
        L: Case(L, _lanc(LANC_MINE, LANC_LINKS, {"cotton_mill": 2}), lanc_build("ellesmere_port/0"), "L-COAL-02",
                "Coal 1 of 1 cannot come from ellesmere_port/0: Port 1 at ellesmere_port/0 does not produce coal.",
                LANC_RES),
    },
    Exclusion.EMPTY: {
        B: Case(B, _bham([*BHAM_SALE_TILES, _t("walsall/1", 1, "brewery", 2, flipped=True)], ["L06"], **BHAM_SALE),
                bham_sale("walsall/1"), "R-BEER-04",
                "Beer 1 of 1 cannot come from walsall/1: Brewery 2 at walsall/1 has no beer left.", BHAM_RES),
        L: Case(L, _lanc([*LANC_MINE, _t("wigan/1", 1, "coal_mine", 1, flipped=True)], LANC_LINKS,
                         {"cotton_mill": 2}), lanc_build("wigan/1"), "L-COAL-02",
                "Coal 1 of 1 cannot come from wigan/1: Coal Mine 1 at wigan/1 has no coal left.", LANC_RES),
    },
    Exclusion.USED_UP: {
        B: Case(B, _bham([_t("dudley/0", 2, "coal", 1, cubes=1), BHAM_MINES[1]], BHAM_LINKS, {"manufacturer": 3}),
                bham_build("dudley/0", "dudley/0"), "R-COAL-02",
                "Coal 2 of 2 cannot come from dudley/0: the earlier units take the last coal of Coal Mine 1 at "
                "dudley/0.",
                BHAM_RES),
        L: NotInGame("no tile and no link of Lancashire takes more than one cube of a resource at once, so no "
                     "unit follows another in one take", _no_unit_beyond_one),
    },
    Exclusion.UNCONNECTED: {
        B: Case(B, _bham([_t("wolverhampton/1", 2, "coal", 2)], ["L06"]), bham_build("wolverhampton/1"),
                "R-COAL-01",
                "Coal 1 of 1 cannot come from wolverhampton/1: Coal Mine 2 at wolverhampton/1 is not connected "
                "to Birmingham.",
                BHAM_RES),
        L: Case(L, _lanc([*LANC_MINE, _t("bolton/0", 2, "coal_mine", 2)], LANC_LINKS, {"cotton_mill": 2}),
                lanc_build("bolton/0"), "L-COAL-01",
                "Coal 1 of 1 cannot come from bolton/0: Coal Mine 2 at bolton/0 is not connected to Warrington & "
                "Runcorn.",
                LANC_RES),
    },
    Exclusion.FARTHER: {
        B: Case(B, _bham(BHAM_MINES, BHAM_LINKS), bham_build("wolverhampton/1"), "R-COAL-06",
                "Coal 1 of 1 cannot come from wolverhampton/1: Coal Mine 2 at wolverhampton/1 is 2 links from "
                "Birmingham, farther than dudley/0 (1 link).",
                BHAM_RES),
        L: Case(L, LANC_RAIL, lanc_rail("oldham/0"), "L-COAL-02",
                "Coal 1 of 1 cannot come from oldham/0: Coal Mine 2 at oldham/0 is 1 link from Bolton or "
                "Manchester, farther than manchester/1 (0 links).",
                LANC_RES),
    },
    Exclusion.LATER_KIND: {
        B: Case(B, _bham([*BHAM_MINES, _t("coventry/1", 1, "coal", 1)], BHAM_LINKS), bham_build("dudley/0"),
                "R-COAL-02",
                "Coal 1 of 1 cannot come from dudley/0: coventry/1 must be used first: coal comes from your own "
                "tiles before the nearest connected tiles.",
                BHAM_RES, variant=OWN_COAL_FIRST),
        L: Case(L, _lanc([*LANC_MINE, _t("bolton/0", 1, "coal_mine", 1)], LANC_LINKS, {"cotton_mill": 2}),
                lanc_build("wigan/0"), "L-COAL-02",
                "Coal 1 of 1 cannot come from wigan/0: bolton/0 must be used first: coal comes from your own "
                "tiles before the nearest connected tiles.",
                LANC_RES, variant=OWN_COAL_FIRST),
    },
    Exclusion.OTHER_KIND: {
        B: Case(B, _bham([_t("dudley/1", 2, "iron", 1), _t("coalbrookdale/0", 1, "iron", 1)], []),
                {"action": "develop", "card": "birmingham", "tiles": [{"industry": "coal", "iron_from": ["dudley/1"]}]},
                "R-IRON-02",
                "Iron 1 of 1 cannot come from dudley/1: Iron Works 1 at dudley/1 is player 2's, and iron in "
                "Develop comes only from your own tiles.",
                BHAM_RES, variant=OWN_IRON_FOR_DEVELOP),
        L: Case(L, _lanc([*LANC_WORKS, _t("bolton/2", 1, "iron_works", 1)], []), lanc_develop("barrow_in_furness/1"),
                "L-IRON-02",
                "Iron 1 of 1 cannot come from barrow_in_furness/1: Iron Works 1 at barrow_in_furness/1 is player "
                "2's, and iron in Develop comes only from your own tiles.",
                LANC_RES, variant=OWN_IRON_FOR_DEVELOP),
    },
    Exclusion.PRODUCER_FIRST: {
        B: Case(B, _bham(BHAM_MINES, BHAM_LINKS), bham_build("market"), "R-COAL-03",
                "Coal 1 of 1 cannot come from market: dudley/0 still has coal.", BHAM_RES),
        L: Case(L, _lanc(LANC_MINE, LANC_LINKS, {"cotton_mill": 2}), lanc_build("market"), "L-COAL-03",
                "Coal 1 of 1 cannot come from market: wigan/0 still has coal.", LANC_RES),
    },
    Exclusion.NO_MARKET: {
        B: Case(B, _bham(BHAM_SALE_TILES, ["L06"], **BHAM_SALE), bham_sale("market"), "R-BEER-02",
                "Beer 1 of 1 cannot come from market: the market is no source of beer in Sell.", BHAM_RES),
        L: Case(L, _lanc([*LANC_WORKS, _t("bolton/2", 1, "iron_works", 1)], []), lanc_develop("market"),
                "L-IRON-02",
                "Iron 1 of 1 cannot come from market: the market is no source of iron in Develop.",
                LANC_RES, variant=OWN_IRON_FOR_DEVELOP),
    },
    Exclusion.MAT_EMPTY: {
        B: Case(B, {**GLOUCESTER, "players": {1: {**GLOUCESTER["players"][1], "mat": {"iron": "none"}}}},
                {"answer": "iron"}, "R-MERCH-01",
                "'iron' does not answer: no Iron Works tile is left on your mat (answers: ['cotton', 'coal', "
                "'manufacturer', 'brewery']).",
                "rulesets/birmingham/merchants.yaml", before=GLOUCESTER_SALE),
        L: NotInGame("Lancashire has no develop bonus (no develop_without_iron step)",
                     _no_step("develop_without_iron")),
    },
    Exclusion.NOT_DEVELOPABLE: {
        B: Case(B, GLOUCESTER, {"answer": "pottery"}, "R-DEV-03",
                "'pottery' does not answer: your lowest Pottery tile (level 1) cannot be developed (answers: "
                "['cotton', 'coal', 'iron', 'manufacturer', 'brewery']).",
                "rulesets/birmingham/industries.yaml",
                before=GLOUCESTER_SALE),
        L: NotInGame("Lancashire has no develop bonus (no develop_without_iron step)",
                     _no_step("develop_without_iron")),
    },
    Exclusion.NOT_YOURS: {
        B: Case(B, bham_shortfall(_t("wolverhampton/1", 2, "coal", 1)), {"answer": "wolverhampton/1"}, "R-SHORT-01",
                "'wolverhampton/1' does not answer: Coal Mine 1 at wolverhampton/1 is player 2's (answers: "
                "['stafford/0', 'dudley/0', 'worcester/0']).",
                "rulesets/birmingham/setup.yaml", before=BHAM_END_ROUND),
        L: Case(L, lanc_shortfall(_t("oldham/0", 2, "coal_mine", 1)), {"answer": "oldham/0"}, "L-SHORT-01",
                "'oldham/0' does not answer: Coal Mine 1 at oldham/0 is player 2's (answers: ['bolton/2', "
                "'liverpool/0', 'wigan/0']).",
                "rulesets/lancashire/setup.yaml", before=LANC_END_ROUND),
    },
    Exclusion.WORTH_NOTHING: {
        B: Case(B, {**bham_shortfall(_t("stafford/1", 1, "pottery", 2)),
                    "players": {1: {"money": 3, "income": 0, "vp": 5, "mat": {"pottery": 3}},
                                2: {"hand": ["stafford", "dudley"]}}},
                {"answer": "stafford/1"}, "R-SHORT-01",
                "'stafford/1' does not answer: Pottery 2 at stafford/1 would raise £0 (answers: ['stafford/0', "
                "'dudley/0', 'worcester/0']).",
                "rulesets/birmingham/setup.yaml", before=BHAM_END_ROUND),
        L: NotInGame("every tile Lancashire builds raises at least £1 for unpaid income (its cost, halved)",
                     _every_tile_raises_money),
    },
    Exclusion.ALREADY_REMOVED: {
        B: Case(B, bham_shortfall(), {"answer": "worcester/0"}, "R-SHORT-02",
                "'worcester/0' does not answer: Cotton Mill 1 at worcester/0 is already removed (answers: "
                "['stafford/0', 'dudley/0']).",
                "rulesets/birmingham/flow.yaml",
                before=[*BHAM_END_ROUND, (1, {"answer": "worcester/0"})]),
        L: Case(L, lanc_shortfall(), {"answer": "wigan/0"}, "L-SHORT-02",
                "'wigan/0' does not answer: Coal Mine 2 at wigan/0 is already removed (answers: ['bolton/2', "
                "'liverpool/0']).",
                "rulesets/lancashire/flow.yaml",
                before=[*LANC_END_ROUND, (1, {"answer": "wigan/0"})]),
    },
}


# == the walk =====================================================================================

def _game(case: Case, tmp_path: Path) -> Game:
    ruleset = load_ruleset(case.game)
    if case.variant:
        folder = tmp_path / "variant"
        folder.mkdir()
        (folder / "ruleset.yaml").write_text(f"name: variant\ntitle: Variant\nversion: '1'\nextends: {case.game}\n"
                                             + case.variant)
        ruleset = load_ruleset(str(folder))
    game = Game.from_setup(ruleset, 2, case.given)
    for seat, move in case.before:
        game.apply(with_card_ids(game, game.table.player(seat), move), seat=seat)
    return game


def _refusal(case: Case, tmp_path: Path) -> IllegalAction:
    game = _game(case, tmp_path)
    before = game.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply(with_card_ids(game, game.table.player(case.seat), case.refused), seat=case.seat)
    assert game.to_json() == before, "a refused move changed the game"
    return refused.value


def test_every_exclusion_is_walked_in_both_games() -> None:
    assert set(CASES) == set(Exclusion)
    assert all(set(games) == set(GAMES) for games in CASES.values())


WALK = [(why, game, case) for why, games in CASES.items() for game, case in games.items()]


@pytest.mark.parametrize(("why", "game", "case"), [w for w in WALK if isinstance(w[2], Case)],
                         ids=lambda v: v.value if isinstance(v, Exclusion) else (v if isinstance(v, str) else ""))
def test_an_excluded_value_cites_the_rule_that_excludes_it(why: Exclusion, game: str, case: Case,
                                                           tmp_path: Path) -> None:
    [failure] = _refusal(case, tmp_path).failures
    assert (failure.rule, failure.message) == (case.rule, case.message)
    assert failure.where.startswith(case.where + ":")


@pytest.mark.parametrize(("why", "game", "case"), [w for w in WALK if isinstance(w[2], NotInGame)],
                         ids=lambda v: v.value if isinstance(v, Exclusion) else (v if isinstance(v, str) else ""))
def test_a_path_a_game_rules_out_is_ruled_out_by_its_data(why: Exclusion, game: str, case: NotInGame) -> None:
    assert case.holds(load_ruleset(game)), case.why


# == the question of which producer ===============================================================

TIES = {
    # Dudley's and Coventry's mines, each 1 link from Birmingham; Wolverhampton's 2 links away.
    B: (_bham([BHAM_MINES[0], _t("coventry/1", 2, "coal", 2, cubes=2), _t("wolverhampton/1", 1, "coal", 1)],
              ["L04", "L03", "L27"]), bham_build()),
    # Bolton's and Bury's mines, each 1 link from Manchester; Wigan's not connected.
    L: (_lanc([_t("bolton/0", 2, "coal_mine", 1, cubes=2), _t("bury/0", 2, "coal_mine", 2, cubes=3),
               _t("wigan/0", 1, "coal_mine", 1)], ["K09", "K13"], {"cotton_mill": 2}),
        {"action": "build", "card": "manchester", "industry": "cotton_mill", "location": "manchester",
         "slot": "manchester/0"}),
}


@pytest.mark.parametrize(("game", "answer", "rule", "clause", "options"), [
    (B, "wolverhampton/1", "R-COAL-06", "Coal Mine 1 at wolverhampton/1 is 2 links from Birmingham, farther than "
                                        "dudley/0, coventry/1 (1 link)", "['dudley/0', 'coventry/1']"),
    (B, "market", "R-COAL-03", "dudley/0, coventry/1 still have coal", "['dudley/0', 'coventry/1']"),
    (L, "wigan/0", "L-COAL-01", "Coal Mine 1 at wigan/0 is not connected to Manchester", "['bolton/0', 'bury/0']"),
    (L, "market", "L-COAL-03", "bolton/0, bury/0 still have coal", "['bolton/0', 'bury/0']"),
])
def test_an_answer_to_which_producer_is_refused_with_the_same_clause(game: str, answer: str, rule: str,
                                                                      clause: str, options: str) -> None:
    """The player asked between equally near mines answers with one the rules exclude: the
    refusal is the named source's, as an answer."""
    given, build = TIES[game]
    one_at_a_time = [(1, {key: value}) for key, value in build.items()]  # a whole action takes the default
    case = Case(game, given, {"answer": answer}, rule, f"'{answer}' does not answer: {clause} (answers: {options}).",
                f"rulesets/{game}/resources.yaml", before=one_at_a_time)
    [failure] = _refusal(case, Path()).failures
    assert (failure.rule, failure.message) == (case.rule, case.message)
    assert failure.where.startswith(case.where + ":")
