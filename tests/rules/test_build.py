"""Build action (rules.md §2.12, R-BUILD-01 … R-BUILD-16)."""

from __future__ import annotations

import pytest

from position import card_id, cubes, era, faces, hand, link, market, new_game, refused, set_mat, set_player, tile, turn


def acting(players: int = 2, cards: tuple[str, ...] = ("birmingham", "dudley"), era_id: str = "canal"):
    g = new_game(players)
    era(g, era_id, round=2)
    turn(g, 1, order=list(range(1, players + 1)))
    hand(g, 1, list(cards))
    return g


def build(g, face: str, industry: str, slot: str, **extra) -> dict:
    return {"action": "build", "card": card_id(g, 1, face), "industry": industry,
            "location": slot.split("/")[0], "slot": slot, **extra}


def test_R_BUILD_01_the_card_is_discarded() -> None:
    """R-BUILD-01: the Dudley card goes onto the discard pile; a used Wild Industry card back to its pile."""
    g = acting(cards=("dudley", "wild_industry", "coventry"))
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    assert faces(g.table.player(1).discard)[-1] == "dudley"
    assert faces(g.table.player(1).hand) == ["wild_industry", "coventry"]
    link(g, 1, "L04", "L06")
    g.apply(build(g, "wild_industry", "manufacturer", "birmingham/1"))
    assert len(g.table.player(1).discard) == 2  # the setup card and Dudley
    assert len(g.state.wild_piles["wild_industry"]) == 4


def test_R_BUILD_02_location_card_builds_outside_the_network() -> None:
    """R-BUILD-02: player 1 owns a tile at Cannock only; the Dudley card builds a Coal Mine I at
    Dudley (£5, 2 cubes kept: no merchant connection)."""
    g = acting()
    tile(g, 1, "cannock/0", "manufacturer", 1, flipped=True)
    assert not g.table.in_network(g.table.player(1), "dudley")
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    assert (g.table.player(1).money, cubes(g, "dudley/0")) == (12, 2)


def test_R_BUILD_02_location_card_only_for_its_location() -> None:
    """R-BUILD-02: the Birmingham card cannot build at Dudley."""
    g = acting()
    refused(g, {"action": "build", "card": card_id(g, 1, "birmingham"), "industry": "coal",
                "location": "dudley", "slot": "dudley/0"})


def test_R_BUILD_03_wild_location_not_at_a_farm_brewery() -> None:
    """R-BUILD-03: Wild Location cannot build the farm Brewery (even with the farm in the network),
    but builds a Brewery at Stafford (outside the network): £5 + 1 iron (£2)."""
    g = acting(cards=("wild_location", "dudley"))
    link(g, 1, "L16")
    assert "R-BUILD-03" in refused(g, build(g, "wild_location", "brewery", "farm_north/0"))
    g.apply(build(g, "wild_location", "brewery", "stafford/0"))
    assert (g.table.player(1).money, cubes(g, "stafford/0")) == (10, 1)


def test_R_BUILD_04_industry_card_shows_the_industry() -> None:
    """R-BUILD-04: a Coal Mine card cannot build a Manufacturer, even in the network."""
    g = acting(cards=("coal_mine", "dudley"))
    link(g, 1, "L04")
    assert "R-BUILD-04" in refused(g, build(g, "coal_mine", "manufacturer", "birmingham/1"))


def test_R_BUILD_04_dual_cotton_manufacturer_card_in_the_network() -> None:
    """R-BUILD-04: the Cotton Mill/Manufacturer card (3P) builds either in the network (Cotton I at
    Leek, £12; Manufacturer I at Stoke-on-Trent, £8 + coal £1), not outside it (Stone)."""
    g = acting(players=3, cards=("cotton_manufacturer", "dudley", "cotton_manufacturer"))
    link(g, 1, "L31")  # Leek–Stoke-on-Trent
    link(g, 2, "L36")  # Stoke-on-Trent–Warrington: market coal
    set_player(g, 1, money=40)
    assert "R-BUILD-04" in refused(g, build(g, "cotton_manufacturer", "cotton", "stone/0"))
    g.apply(build(g, "cotton_manufacturer", "cotton", "leek/0"))
    assert g.state.tiles["leek/0"].spec.id == "cotton/1"
    g.apply(build(g, "cotton_manufacturer", "manufacturer", "stoke_on_trent/2"))
    assert g.state.tiles["stoke_on_trent/2"].spec.id == "manufacturer/1"
    assert g.table.player(1).money == 40 - 12 - 8 - 1


def test_R_BUILD_05_wild_industry_is_any_industry_card() -> None:
    """R-BUILD-05: Wild Industry builds a Brewery I at Walsall (in the network): £5 + iron £2."""
    g = acting(cards=("wild_industry", "dudley"))
    link(g, 1, "L09")
    g.apply(build(g, "wild_industry", "brewery", "walsall/1"))
    assert (g.table.player(1).money, cubes(g, "walsall/1")) == (10, 1)


def test_R_BUILD_06_farm_brewery_with_a_brewery_card() -> None:
    """R-BUILD-06: with the link Cannock–farm, a Brewery card builds Brewery I at the north farm."""
    g = acting(cards=("brewery", "dudley"))
    link(g, 1, "L16")
    g.apply(build(g, "brewery", "brewery", "farm_north/0"))
    assert (g.table.player(1).money, cubes(g, "farm_north/0")) == (10, 1)


def test_R_BUILD_06_farm_brewery_must_be_in_the_network() -> None:
    """R-BUILD-06: a player with a tile elsewhere cannot use a Brewery card at a farm outside the network."""
    g = acting(cards=("brewery", "dudley"))
    tile(g, 1, "cannock/1", "coal", 2, flipped=True)
    assert "R-BUILD-04" in refused(g, build(g, "brewery", "brewery", "farm_south/0"))


def test_R_BUILD_07_no_tiles_industry_card_anywhere() -> None:
    """R-BUILD-07: with no industry or link tile, the Coal Mine card builds at Dudley (not in a
    network): £5, 2 cubes. Afterwards it may not build at Tamworth (now outside the network)."""
    g = acting(cards=("coal_mine", "coal_mine", "dudley"))
    g.apply(build(g, "coal_mine", "coal", "dudley/0"))
    assert (g.table.player(1).money, cubes(g, "dudley/0")) == (12, 2)
    assert "R-BUILD-04" in refused(g, build(g, "coal_mine", "coal", "tamworth/0"))


def test_R_BUILD_07_again_in_the_rail_era_after_the_level_1_tiles_left() -> None:
    """R-BUILD-07: in the Rail Era a player with no tiles on the board (player 2 has some) builds an
    Iron Works II anywhere with an Iron Works card: £7, coal from player 2's mine at Dudley."""
    g = acting(cards=("iron_works", "dudley"), era_id="rail")
    set_mat(g, 1, "iron", 2)
    tile(g, 2, "dudley/0", "coal", 2, cubes=3)
    market(g, iron=10)  # full: the new works keeps its 4 iron
    g.apply(build(g, "iron_works", "iron", "dudley/1"))
    assert (g.table.player(1).money, cubes(g, "dudley/1"), cubes(g, "dudley/0")) == (10, 4, 2)


def test_R_BUILD_08_the_lowest_level_tile() -> None:
    """R-BUILD-08: Coal Mine I already used: the build takes Coal Mine II (£7, 3 cubes)."""
    g = acting()
    set_mat(g, 1, "coal", 2)
    g.apply(build(g, "dudley", "coal", "dudley/0"))
    t = g.state.tiles["dudley/0"]
    assert (t.spec.level, t.cubes, g.table.player(1).money) == (2, 3, 10)
    assert g.table.player(1).mat_used["coal"] == 2


def test_R_BUILD_09_single_icon_slot_first() -> None:
    """R-BUILD-09: a Manufacturer may not take Birmingham's Cotton/Manufacturer slot while a
    Manufacturer-only slot is free."""
    g = acting()
    link(g, 2, "L06")
    assert "R-BUILD-09" in refused(g, build(g, "birmingham", "manufacturer", "birmingham/0"))


def test_R_BUILD_09_dual_slot_when_no_single_icon_slot_is_free() -> None:
    """R-BUILD-09: with both Manufacturer-only slots taken by player 2, the dual slot may be used
    (£8 + coal £1)."""
    g = acting()
    link(g, 2, "L06")
    tile(g, 2, "birmingham/1", "manufacturer", 1)
    tile(g, 2, "birmingham/3", "manufacturer", 2)
    g.apply(build(g, "birmingham", "manufacturer", "birmingham/0"))
    assert (g.table.player(1).money, g.state.tiles["birmingham/0"].owner.seat) == (8, 1)


def test_R_BUILD_09_no_slot_showing_the_icon() -> None:
    """R-BUILD-09: Dudley shows no Cotton icon; Worcester's two Cotton slots taken: refused."""
    g = acting(cards=("dudley", "wild_location"))
    assert "R-BUILD-09" in refused(g, build(g, "dudley", "cotton", "dudley/0"))
    tile(g, 2, "worcester/0", "cotton", 1)
    tile(g, 2, "worcester/1", "cotton", 2)
    refused(g, build(g, "wild_location", "cotton", "worcester/0"))
    refused(g, build(g, "wild_location", "cotton", "worcester/1"))


def test_R_BUILD_10_pay_the_cost_and_consume_coal() -> None:
    """R-BUILD-10: Iron Works I at Coalbrookdale: £5 on the character tile, 1 coal from the mine there
    (3 → 2); the works sells 2 iron to the market (+£2)."""
    g = acting(cards=("coalbrookdale", "dudley"))
    tile(g, 2, "coalbrookdale/2", "coal", 2)
    g.apply(build(g, "coalbrookdale", "iron", "coalbrookdale/1"))
    p1 = g.table.player(1)
    assert (p1.money, p1.spent, cubes(g, "coalbrookdale/2"), cubes(g, "coalbrookdale/1")) == (14, 5, 2, 2)


def test_R_BUILD_10_not_enough_money() -> None:
    """R-BUILD-10: £6 cannot pay Manufacturer I (£8 + coal £1)."""
    g = acting()
    link(g, 2, "L06")
    set_player(g, 1, money=8)
    assert "R-BUILD-10" in refused(g, build(g, "birmingham", "manufacturer", "birmingham/1"))
    set_player(g, 1, money=9)
    g.apply(build(g, "birmingham", "manufacturer", "birmingham/1"))
    assert g.table.player(1).money == 0


@pytest.mark.parametrize("industry, level, slot, era_id, expected", [
    ("coal", 2, "dudley/0", "canal", 3),
    ("coal", 4, "dudley/0", "rail", 5),
    ("iron", 1, "dudley/1", "canal", 4),
    ("iron", 4, "dudley/1", "rail", 6),
    ("brewery", 1, "stafford/0", "canal", 1),
    ("brewery", 2, "stafford/0", "canal", 1),
    ("brewery", 2, "stafford/0", "rail", 2),
    ("brewery", 4, "stafford/0", "rail", 2),
])
def test_R_BUILD_11_new_producers_get_their_cubes(industry, level, slot, era_id, expected) -> None:
    """R-BUILD-11: Coal Mine II 3 / IV 5; Iron Works I 4 / IV 6; Brewery 1 barrel in the Canal Era,
    2 in the Rail Era (no market sale: no merchant connection, iron market full)."""
    g = acting(cards=(slot.split("/")[0], "birmingham"), era_id=era_id)
    set_mat(g, 1, industry, level)
    set_player(g, 1, money=40)
    tile(g, 2, "coalbrookdale/2", "coal", 2, cubes=3)
    market(g, iron=10)
    link(g, 2, "L27", "L22")  # Dudley–Wolverhampton–Coalbrookdale: coal for the iron works
    g.apply(build(g, slot.split("/")[0], industry, slot))
    assert cubes(g, slot) == expected


def test_R_BUILD_12_canal_one_own_tile_per_location() -> None:
    """R-BUILD-12: in the Canal Era a second own tile at Coalbrookdale is refused; player 2's tile
    there does not matter (player 2 may build beside it)."""
    g = acting(cards=("coalbrookdale", "dudley"))
    tile(g, 1, "coalbrookdale/2", "coal", 2)
    tile(g, 2, "coalbrookdale/0", "brewery", 1)
    assert "R-BUILD-12" in refused(g, build(g, "coalbrookdale", "iron", "coalbrookdale/1"))
    g = acting(cards=("coalbrookdale", "dudley"))
    tile(g, 2, "coalbrookdale/2", "coal", 2)
    tile(g, 2, "coalbrookdale/0", "brewery", 1)
    g.apply(build(g, "coalbrookdale", "iron", "coalbrookdale/1"))
    assert sorted(t.owner.seat for t in g.table.tiles_at("coalbrookdale")) == [1, 2, 2]


def test_R_BUILD_12_rail_several_own_tiles_per_location() -> None:
    """R-BUILD-12: in the Rail Era the same build is allowed: Iron Works II, £7, coal from the own mine."""
    g = acting(cards=("coalbrookdale", "dudley"), era_id="rail")
    set_mat(g, 1, "iron", 2)
    tile(g, 1, "coalbrookdale/2", "coal", 2)
    g.apply(build(g, "coalbrookdale", "iron", "coalbrookdale/1"))
    assert [t.owner.seat for t in g.table.tiles_at("coalbrookdale")] == [1, 1]
    assert (cubes(g, "coalbrookdale/2"), g.table.player(1).money) == (2, 17 - 7 + 2)


@pytest.mark.parametrize("industry, level, slot", [("brewery", 4, "stafford/0"), ("pottery", 5, "stafford/1")])
def test_R_BUILD_13_rail_only_tiles_not_in_the_canal_era(industry: str, level: int, slot: str) -> None:
    """R-BUILD-13: Brewery IV and Pottery V cannot be built in the Canal Era."""
    g = acting(cards=("stafford", "dudley"))
    set_mat(g, 1, industry, level)
    set_player(g, 1, money=40)
    assert "R-BUILD-13" in refused(g, build(g, "stafford", industry, slot))


def test_R_BUILD_13_pottery_v_in_the_rail_era() -> None:
    """R-BUILD-13: Pottery V is built in the Rail Era: £24 + 2 coal (Stafford–Cannock mine)."""
    g = acting(cards=("stafford", "dudley"), era_id="rail")
    set_mat(g, 1, "pottery", 5)
    set_player(g, 1, money=40)
    tile(g, 2, "cannock/1", "coal", 2)
    link(g, 2, "L17")
    g.apply(build(g, "stafford", "pottery", "stafford/1"))
    assert (g.table.player(1).money, cubes(g, "cannock/1")) == (16, 1)


@pytest.mark.parametrize("industry, slot", [("cotton", "worcester/0"), ("coal", "dudley/0"), ("iron", "dudley/1"),
                                            ("manufacturer", "birmingham/1"), ("brewery", "stafford/0")])
def test_R_BUILD_14_level_1_tiles_not_in_the_rail_era(industry: str, slot: str) -> None:
    """R-BUILD-14: Cotton I, Coal I, Iron I, Manufacturer I, Brewery I cannot be built in the Rail Era."""
    g = acting(cards=("wild_location", "dudley"), era_id="rail")
    link(g, 2, "L06", "L04", "L10")
    tile(g, 2, "dudley/0" if industry != "coal" else "coalbrookdale/2", "coal", 2)
    rules = refused(g, build(g, "wild_location", industry, slot))
    assert len(rules) == 1  # only the era badge stands in the way


def test_R_BUILD_14_the_refusal_cites_R_BUILD_14() -> None:
    """R-BUILD-14: the reason given for refusing a canal-only tile in the Rail Era is R-BUILD-14
    (R-BUILD-13 is the rail-only tile in the Canal Era)."""
    g = acting(cards=("wild_location", "dudley"), era_id="rail")
    assert refused(g, build(g, "wild_location", "cotton", "worcester/0")) == ["R-BUILD-14"]


def test_R_BUILD_15_pottery_i_in_the_rail_era() -> None:
    """R-BUILD-15: Pottery I may be built in the Rail Era: £17 + 1 iron (£2): £30 → £11."""
    g = acting(cards=("stafford", "dudley"), era_id="rail")
    set_player(g, 1, money=30)
    g.apply(build(g, "stafford", "pottery", "stafford/1"))
    assert g.state.tiles["stafford/1"].spec.id == "pottery/1"
    assert g.table.player(1).money == 11


def test_R_BUILD_16_towns_without_cards_in_the_deck() -> None:
    """R-BUILD-16: at 2 players there is no Leek card, yet Leek can be built: Coal Mine I with a Coal
    Mine card (Leek in the network through Leek–Stoke-on-Trent), Cotton I with a Wild Location."""
    g = acting(cards=("coal_mine", "wild_location", "dudley"))
    assert not any(c.face == "leek" for c in g.table.cards.values())
    link(g, 1, "L31")
    g.apply(build(g, "coal_mine", "coal", "leek/1"))
    assert (cubes(g, "leek/1"), g.table.player(1).money) == (2, 12)
    g = acting(cards=("wild_location", "dudley"))
    g.apply(build(g, "wild_location", "cotton", "leek/0"))
    assert g.state.tiles["leek/0"].spec.id == "cotton/1"
