"""What each effect step of the vocabulary (`ruleset/effects.py`) does to a table.

Every implementation takes the table, the environment the step's arguments are
evaluated in, and the evaluated arguments; it may return steps to run right after
it (a merchant's beer bonus). An implementation that needs a player's choice asks
for it through `table.ask(...)` BEFORE changing anything, so that the step can be
run again, unchanged, once the answer is known.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from brass_dsl import Env
from interpreter.engine.exclusions import develop_exclusion, shortfall_exclusion
from interpreter.engine.resources import consume, sell_to_market
from interpreter.engine.state import PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.model import EffectStep
from interpreter.ruleset.primitives import ACTION_VAR

Impl = Callable[[Table, Env, dict[str, Any]], Sequence[EffectStep] | None]
IMPLS: dict[str, Impl] = {}


def effect(name: str) -> Callable[[Impl], Impl]:
    def register(fn: Impl) -> Impl:
        IMPLS[name] = fn
        return fn
    return register


# -- inside actions ---------------------------------------------------------------

@effect("discard")
def _discard(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.discard(table.me, args["card"])


@effect("pay")
def _pay(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.spend(table.me, args["amount"])


@effect("gain_money")
def _gain_money(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.me.money += args["amount"]


@effect("gain_vp")
def _gain_vp(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.me.vp += args["amount"]


@effect("advance_income")
def _advance_income(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.advance_income(table.me, args["spaces"])


@effect("drop_income_levels")
def _drop_income_levels(table: Table, env: Env, args: dict[str, Any]) -> None:
    track = table.ruleset.income
    level = max(track.lowest_level, track.level_at(table.me.income_position) - args["levels"])
    table.me.income_position = track.top_position(level)  # R-LOAN-01: the top space of the new level


@effect("consume")
def _consume(table: Table, env: Env, args: dict[str, Any]) -> None:
    if args["amount"] > 0:
        taken = consume(table, table.me, args["resource"], args["amount"], list(args["at"]),
                        env.vars.get(ACTION_VAR))
        table.note("consumed", resource=args["resource"], amount=args["amount"], sources=taken)


@effect("build_tile")
def _build_tile(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.build_tile(table.me, args["industry"], args["slot"])


@effect("sell_output")
def _sell_output(table: Table, env: Env, args: dict[str, Any]) -> None:
    tile = table.state.tiles.get(args["slot"].id)
    sale = sell_to_market(table, tile) if tile else None
    if tile and sale:
        table.note("sold to market", tile=tile.slot.id, **sale)


@effect("place_link")
def _place_link(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.place_link(table.me, args["link"])


@effect("develop")
def _develop(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.take_from_mat(table.me, args["industry"])
    table.note("developed", player=table.me.seat, industry=args["industry"])


@effect("flip")
def _flip(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.flip(args["tile"])


@effect("use_merchant_beer")
def _use_merchant_beer(table: Table, env: Env, args: dict[str, Any]) -> Sequence[EffectStep]:
    space = args["merchant"]
    space.has_beer = False
    table.note(f"merchant {_barrel(table)}", space=space.id, player=table.me.seat)
    return table.ruleset.merchants[space.location].beer_bonus  # run right after this step


@effect("use_actions")
def _use_actions(table: Table, env: Env, args: dict[str, Any]) -> None:
    state = table.state
    used = max(0, min(args["count"], state.actions_left - 1))  # the action being taken stays: the flow ends it
    state.actions_left -= used
    table.note("actions used", player=table.me.seat, actions=used, left=state.actions_left)


@effect("gain_wild_card")
def _gain_wild_card(table: Table, env: Env, args: dict[str, Any]) -> None:
    pile = table.state.wild_piles[args["kind"]]
    if pile:
        table.me.hand.append(pile.pop())


@effect("develop_without_iron")
def _develop_without_iron(table: Table, env: Env, args: dict[str, Any]) -> None:
    chosen: list[str] = []  # every choice is asked before anything changes
    for n in range(args["tiles"]):
        options = [i for i in table.ruleset.industries if _bonus_developable(table, i, chosen.count(i))]
        if not options:
            break
        excluded = {i: develop_exclusion(table, i, chosen.count(i)).as_answer() for i in table.ruleset.industries
                    if i not in options}
        chosen.append(table.ask(table.me, f"develop_without_iron/{n}", options,
                               "Choose an industry whose lowest tile to remove from your mat (free)",
                               excluded=excluded))
    for industry in chosen:
        table.take_from_mat(table.me, industry)
        table.note("developed", player=table.me.seat, industry=industry, bonus=True)


def _bonus_developable(table: Table, industry: str, already: int) -> bool:
    """The tile `already` places above the lowest exists and may be developed (R-MERCH-01, R-DEV-03)."""
    player = table.me
    used = player.mat_used.get(industry, 0) + already
    stack = table.mat_stack(industry)
    return used < len(stack) and stack[used].develop


# -- anywhere ----------------------------------------------------------------------------------

@effect("move_track")
def _move_track(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.set_track(args["track"], table.state.tracks[args["track"]] + args["by"])


@effect("set_track")
def _set_track(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.set_track(args["track"], args["to"])


@effect("draw")
def _draw(table: Table, env: Env, args: dict[str, Any]) -> None:
    value = table.draw(args["stack"])
    if value is not None:
        table.set_track(args["into"], value)


@effect("reshuffle")
def _reshuffle(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.reshuffle(args["stack"])


# -- end of a round ---------------------------------------------------------------------

@effect("set_turn_order")
def _set_turn_order(table: Table, env: Env, args: dict[str, Any]) -> None:
    state = table.state
    order = state.turn_order
    spent = {seat: table.player(seat).spent for seat in order}
    state.turn_order = sorted(order, key=lambda seat: (spent[seat], order.index(seat)))  # R-ORDER-01/02
    for player in state.players:
        player.spent = 0  # R-ORDER-03
    table.note("turn order", spent=spent, order=state.turn_order)


@effect("collect_income")
def _collect_income(table: Table, env: Env, args: dict[str, Any]) -> None:
    if table.is_last_round():
        table.note("no income after the last round")  # R-INC-03
        return
    plans = [(p, _shortfall_choice(table, p)) for p in table.state.players]  # every choice before any change
    for player, removals in plans:
        _pay_income(table, player, removals)


def _shortfall_choice(table: Table, player: Player) -> list[PlacedTile]:
    """The tiles the player removes to cover unpaid negative income (R-SHORT-01/02). A tile raises
    its cost divided by the ruleset's divisor; a tile that would raise nothing (an unflipped
    Pottery II, £0) is never offered nor forced: removing it would pay nothing (docs/engine.md)."""
    owed = -table.income_level(player) - player.money
    chosen: list[PlacedTile] = []
    divisor = table.ruleset.economy.shortfall_tile_value_divisor
    while owed > 0:
        options = [t for t in table.board_tiles()
                   if t.owner is player and t not in chosen and t.spec.cost // divisor > 0]
        if not options:
            break
        excluded = {t.slot.id: shortfall_exclusion(table, player, t, chosen).as_answer()
                    for t in table.board_tiles() if t not in options}
        slot_id = table.ask(player, f"shortfall/{player.seat}/{len(chosen)}", [t.slot.id for t in options],
                            f"Remove a tile to raise £{owed} of unpaid income", excluded=excluded)
        tile = table.state.tiles[slot_id]
        chosen.append(tile)
        owed -= tile.spec.cost // divisor
    return chosen


def _pay_income(table: Table, player: Player, removals: list[PlacedTile]) -> None:
    level = table.income_level(player)
    if player.money + level >= 0:  # money below 0 (a debt, where the ruleset allows one) is owed too
        player.money += level  # R-INC-02
        table.note("income", player=player.seat, level=level, money=player.money)
        return
    economy = table.ruleset.economy
    money = player.money + level
    for tile in removals:
        table.remove_tile(tile)
        money += tile.spec.cost // economy.shortfall_tile_value_divisor  # R-SHORT-02: an excess is kept
    floor = economy.shortfall_money_floor  # 0 in the rulebook: what is still owed costs VP
    owed = 0 if floor is None else max(0, floor - money)
    player.money = money + owed
    vp_lost = owed * economy.shortfall_vp_per_money  # R-SHORT-03: 1 VP per £1 short …
    if economy.shortfall_vp_floor is not None:  # … if possible: never below the floor (0 in the rulebook)
        vp_lost = max(0, min(vp_lost, player.vp - economy.shortfall_vp_floor))
    player.vp -= vp_lost
    table.note("shortfall", player=player.seat, level=level, removed=[t.slot.id for t in removals],
               vp_lost=vp_lost, money=player.money)


# -- end of an era ----------------------------------------------------------------------

@effect("score_links")
def _score_links(table: Table, env: Env, args: dict[str, Any]) -> None:
    """Score every placed link, then remove them all (R-ERA-02).

    `value` is the compiled `score_links: {value: …}` expression, evaluated per (link k, end
    location l, owner p); without it a link scores the link icons of its ends. Every value is
    computed before any VP is awarded, so the order of the links does not matter.
    """
    value = args.get("value")
    links = table.state.links
    breakdown: list[dict[str, Any]] = []
    for link_id in sorted(links):
        seat = links[link_id]
        owner = table.player(seat)
        icons = {loc: table.location_link_icons(loc) if value is None
                 else value(Env(table, {"k": link_id, "l": loc, "p": owner}))
                 for loc in table.ruleset.links[link_id].ends}
        breakdown.append({"link": link_id, "owner": seat, "icons": icons, "vp": sum(icons.values())})
    for scored in breakdown:
        player = table.player(scored["owner"])
        player.vp += scored["vp"]  # R-ERA-02
        player.links_left += 1
    links.clear()
    table.network.update(())
    table.note("link scoring", links=breakdown)


@effect("score_tiles")
def _score_tiles(table: Table, env: Env, args: dict[str, Any]) -> None:
    where = args.get("where")
    scored = []
    for tile in table.board_tiles():
        if tile.flipped and (where is None or where(Env(table, {"t": tile}))):
            tile.owner.vp += tile.spec.vp  # R-ERA-03
            scored.append({"tile": tile.slot.id, "owner": tile.owner.seat, "vp": tile.spec.vp})
    table.note("tile scoring", tiles=scored)


@effect("remove_tiles")
def _remove_tiles(table: Table, env: Env, args: dict[str, Any]) -> None:
    where = args["where"]
    gone = [t for t in table.board_tiles() if where(Env(table, {"t": t}))]
    for tile in gone:
        table.remove_tile(tile)
    table.note("tiles removed", tiles=[t.slot.id for t in gone])


@effect("refill_merchant_beer")
def _refill_merchant_beer(table: Table, env: Env, args: dict[str, Any]) -> None:
    for space in table.state.merchants:
        space.has_beer = bool(space.buys)
    table.note(f"merchant {_barrel(table)} refilled")


@effect("deal_merchants")
def _deal_merchants(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.deal_merchants()


def _barrel(table: Table) -> str:
    """The log's word for a merchant's barrel: the id of the resource it holds (`merchant beer`,
    as saved games have always written it), or `barrel` in a ruleset whose merchants hold none."""
    return table.ruleset.barrel_resource or "barrel"


@effect("new_draw_deck")
def _new_draw_deck(table: Table, env: Env, args: dict[str, Any]) -> None:
    table.new_draw_deck()


@effect("deal_hands")
def _deal_hands(table: Table, env: Env, args: dict[str, Any]) -> None:
    for player in table.state.players:
        table.refill_hand(player)


@effect("award_vp")
def _award_vp(table: Table, env: Env, args: dict[str, Any]) -> None:
    amount = args["amount"]
    awarded = {}
    for player in table.state.players:
        vp = amount(Env(table, {"p": player}))
        player.vp += vp
        awarded[player.seat] = vp
    table.note("award", vp=awarded)
