"""Facts of Brass: Birmingham, asserted through the loaded ruleset (components.md).

These go through the whole loader (YAML, schema, cross-references, compiling), so
they check the data a game will actually use, not the YAML text.
"""

from __future__ import annotations

import pytest

from interpreter.ruleset.loader import load_ruleset


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("birmingham")


def test_locations_by_kind(rs) -> None:
    kinds = [loc.kind for loc in rs.locations.values()]
    assert len(rs.locations) == 27
    assert (kinds.count("town"), kinds.count("farm_brewery"), kinds.count("merchant")) == (20, 2, 5)


def test_colour_groups_of_towns(rs) -> None:
    groups = {}
    for loc in rs.locations.values():
        if loc.kind == "town":
            groups.setdefault(loc.group, set()).add(loc.id)
    assert groups["blue"] == {"leek", "stoke_on_trent", "stone", "uttoxeter"}
    assert groups["teal"] == {"belper", "derby"}
    assert groups["red"] == {"stafford", "burton_on_trent", "cannock", "tamworth", "walsall"}
    assert groups["ochre"] == {"wolverhampton", "coalbrookdale", "dudley", "kidderminster", "worcester"}
    assert groups["purple"] == {"birmingham", "coventry", "nuneaton", "redditch"}


def test_slots(rs) -> None:
    assert len(rs.slots) == 49
    assert sum(len(loc.slots) for loc in rs.locations.values() if loc.kind == "town") == 47
    assert [s.industries for s in rs.locations["birmingham"].slots] == [
        ("cotton", "manufacturer"), ("manufacturer",), ("iron",), ("manufacturer",)]
    assert [s.industries for s in rs.locations["farm_north"].slots] == [("brewery",)]
    assert [s.industries for s in rs.locations["coalbrookdale"].slots] == [("iron", "brewery"), ("iron",), ("coal",)]


def test_links(rs) -> None:
    links = list(rs.links.values())
    assert len(links) == 39
    assert sum(k.takes("canal") for k in links) == 31
    assert sum(k.takes("rail") for k in links) == 38
    assert sum(k.takes("canal") and k.takes("rail") for k in links) == 30
    assert [k.id for k in links if not k.takes("rail")] == ["L15"]
    assert sorted(k.id for k in links if not k.takes("canal")) == \
        ["L02", "L05", "L07", "L11", "L23", "L25", "L37", "L38"]


def test_kidderminster_worcester_touches_three_locations(rs) -> None:
    """R-CONN-03: one tile connects Kidderminster, Worcester and the south Farm Brewery."""
    assert set(rs.links["L30"].ends) == {"kidderminster", "worcester", "farm_south"}
    assert [k.id for k in rs.links.values() if len(k.ends) != 2] == ["L30"]


def test_merchant_locations_give_two_link_icons(rs) -> None:
    merchants = [loc for loc in rs.locations.values() if loc.kind == "merchant"]
    assert {m.id for m in merchants} == {"shrewsbury", "gloucester", "oxford", "warrington", "nottingham"}
    assert all(m.link_icons == 2 for m in merchants)


@pytest.mark.parametrize("players, size, location_cards", [(2, 40, 27), (3, 54, 35), (4, 64, 41)])
def test_deck_per_player_count(rs, players: int, size: int, location_cards: int) -> None:
    """R-SETUP-02: 40/54/64 cards."""
    assert rs.deck_size(players) == size
    assert sum(c.count[players] for c in rs.cards.values() if c.location) == location_cards


def test_removed_location_cards(rs) -> None:
    assert rs.cards["belper"].count == {2: 0, 3: 0, 4: 2}
    assert rs.cards["uttoxeter"].count == {2: 0, 3: 1, 4: 2}
    assert rs.cards["cotton_manufacturer"].industries == ("cotton", "manufacturer")
    assert rs.cards["cotton_manufacturer"].count == {2: 0, 3: 6, 4: 8}


def test_wild_cards(rs) -> None:
    """R-SETUP-03 / R-SCOUT-03: 4 + 4, the wild location never stands for a farm brewery."""
    assert {w.id: (w.kind, w.count) for w in rs.wild_cards.values()} == {
        "wild_location": ("location", 4), "wild_industry": ("industry", 4)}
    assert rs.wild_cards["wild_location"].excludes == ("farm_brewery",)


def test_tiles_per_player(rs) -> None:
    assert rs.tiles_per_player() == {"cotton": 11, "coal": 7, "iron": 4, "manufacturer": 11, "pottery": 5,
                                     "brewery": 7}
    assert sum(rs.tiles_per_player().values()) == 45


def test_manufacturer_iv(rs) -> None:
    """D1: the retail mat: £8, 1 iron, income +6."""
    tile = rs.tiles["manufacturer"][3]
    assert (tile.level, tile.cost, tile.income, tile.vp) == (4, 8, 6, 3)
    assert tile.needs == {"coal": 0, "iron": 1, "beer": 1}


def test_tile_stats(rs) -> None:
    coal = {t.level: t for t in rs.tiles["coal"]}
    assert (coal[2].cost, coal[2].output["canal"], coal[2].income, coal[2].vp) == (7, 3, 7, 2)
    iron4 = rs.tiles["iron"][3]
    assert (iron4.cost, iron4.needs["coal"], iron4.output["rail"], iron4.vp, iron4.income) == (12, 1, 6, 9, 1)
    brewery = {t.level: t for t in rs.tiles["brewery"]}
    assert brewery[2].output == {"canal": 1, "rail": 2}
    assert brewery[4].eras == ("rail",)
    assert [t.develop for t in rs.tiles["pottery"]] == [False, True, False, True, True]
    assert rs.tiles["pottery"][0].eras == ("canal", "rail")  # R-BUILD-15
    canal_only = sorted(f"{t.industry}/{t.level}" for specs in rs.tiles.values() for t in specs if t.eras == ("canal",))
    assert canal_only == ["brewery/1", "coal/1", "cotton/1", "iron/1", "manufacturer/1"]


def test_merchants(rs) -> None:
    spaces = {p: sum(m.spaces[p] for m in rs.merchants.values()) for p in (2, 3, 4)}
    tiles = {p: sum(t.count[p] for t in rs.merchant_tiles.values()) for p in (2, 3, 4)}
    assert spaces == tiles == {2: 5, 3: 7, 4: 9}
    assert rs.merchants["warrington"].spaces == {2: 0, 3: 2, 4: 2}
    bonus = {mid: [(s.name, s.args) for s in m.beer_bonus] for mid, m in rs.merchants.items()}
    assert [name for name, _ in bonus["gloucester"]] == ["develop_without_iron"]
    assert [name for name, _ in bonus["oxford"]] == ["advance_income"]


def test_markets(rs) -> None:
    coal, iron = rs.markets["coal"], rs.markets["iron"]
    assert (coal.capacity, coal.start_cubes, coal.empty_price) == (14, 13, 8)
    assert (iron.capacity, iron.start_cubes, iron.empty_price) == (10, 8, 6)
    assert coal.prices == (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7)


EXPECTED_LEVELS = (
    list(range(-10, 1))
    + [lv for lv in range(1, 11) for _ in range(2)]
    + [lv for lv in range(11, 21) for _ in range(3)]
    + [lv for lv in range(21, 30) for _ in range(4)]
    + [30, 30, 30]
)


@pytest.mark.parametrize("position", range(100))
def test_income_level_of_every_track_position(rs, position: int) -> None:
    """R-INC-01: the grid of components.md §6."""
    assert rs.income.level_at(position) == EXPECTED_LEVELS[position]


def test_income_track_landmarks(rs) -> None:
    track = rs.income
    assert track.positions == 100 and track.start_position == 10
    assert (track.level_at(25), track.level_at(31), track.level_at(61), track.level_at(97)) == (8, 11, 21, 30)
    levels = (-10, -3, 0, 1, 10, 11, 20, 21, 29, 30)
    assert [track.top_position(lv) for lv in levels] == [0, 7, 10, 12, 30, 33, 60, 64, 96, 99]


def test_setup_and_economy(rs) -> None:
    s, e = rs.setup, rs.economy
    assert (s.money, s.vp, s.hand_size, s.face_down_discards, s.links_per_player) == (17, 0, 8, 1, 14)
    assert s.rounds_per_era == {2: 10, 3: 9, 4: 8}
    assert (e.loan_amount, e.loan_income_levels) == (30, 3)
    assert (e.shortfall_tile_value_divisor, e.shortfall_vp_per_money) == (2, 1)


def test_eras_and_network_costs(rs) -> None:
    canal, rail = rs.eras
    assert (canal.id, canal.actions_per_turn, canal.first_round_actions) == ("canal", 2, 1)
    assert (rail.id, rail.first_round_actions) == ("rail", 2)
    assert [(o.links, o.money, o.needs["coal"], o.needs["beer"]) for o in canal.network] == [(1, 3, 0, 0)]
    assert [(o.links, o.money, o.needs["coal"], o.needs["beer"]) for o in rail.network] == [(1, 5, 1, 0), (2, 15, 2, 1)]
    assert [s.name for s in canal.end] == ["score_links", "score_tiles", "remove_tiles", "refill_merchant_beer",
                                           "new_draw_deck", "deal_hands"]
    assert [s.name for s in rs.round_end] == ["set_turn_order", "collect_income"]
    assert [k.name for k in rs.game_end.ranking] == ["VP", "income track space", "money"]


def test_actions_are_defined_with_rule_ids(rs) -> None:
    assert list(rs.actions) == ["build", "network", "develop", "sell", "loan", "scout", "pass"]
    for action in rs.actions.values():
        assert action.part.params[0].name == "card"
        for requirement in action.part.requires + (action.repeat.part.requires if action.repeat else ()):
            assert requirement.rule in rs.rules
            assert requirement.check.type.name == "bool"


def test_rule_index_is_complete(rs) -> None:
    assert len(rs.rules) == 125
    assert rs.rules["R-LOAN-02"].text
    assert next(iter(rs.rules)) == "R-SETUP-01"


def test_intro_ruleset_extends_the_full_game() -> None:
    """R-INTRO-01: the Introductory Game is the full game ending after the Canal Era, written as a variant."""
    intro = load_ruleset("birmingham-intro")
    assert intro.game_end.last_era == "canal"
    assert [s.name for s in intro.era("canal").end] == ["score_links", "score_tiles", "remove_tiles"]
    assert [s.name for s in intro.game_end.scoring] == ["award_vp", "award_vp", "score_tiles"]
    assert intro.deck_size(4) == 64 and len(intro.links) == 39
    assert [f.rsplit("/", 1)[-1] for f in intro.folders] == ["birmingham", "birmingham-intro"]
