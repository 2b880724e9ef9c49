"""Brass knowledge, part 4: quick values of the parts of an action (overview in `bots/knowledge/worth.py`):
builds, links, sales, develops, loans, the cards kept and the questions asked inside effects."""

from __future__ import annotations

from typing import Any

from brass_dsl import Env
from interpreter.engine.state import Card, PlacedTile
from interpreter.engine.table import Table
from interpreter.ruleset.bot_params import HeuristicParams
from interpreter.ruleset.model import Slot
from interpreter.tools.bots.knowledge.facts import UNREADABLE, scorings
from interpreter.tools.bots.knowledge.outlook import Outlook
from interpreter.tools.bots.knowledge.roles import Role, Shape, roles

# the engine's effects that give a loan its terms (docs/ruleset-format.md)
_GAINS_MONEY, _DROPS_LEVELS = "gain_money", "drop_income_levels"

# == what an action is worth, before looking closer ==============================================

class Appraiser:
    """Quick values of the parts of whole actions for the seat to move, in VP gained: what the bot
    ranks every listed action by before it plays the best few out on a copy. The judgements are
    `params` (by default the ruleset's)."""

    def __init__(self, table: Table, seat: int, params: HeuristicParams | None = None) -> None:
        self.outlook = Outlook(table, params=params)
        self.params = self.outlook.params
        self.table = table
        self.rs = table.ruleset
        self.me = table.player(seat)
        self.rate = self.outlook.rate(self.me)
        self._my_links_at: dict[str, int] = {}
        for link, seat in table.state.links.items():
            if seat == self.me.seat:
                for end in self.rs.links[link].ends:
                    self._my_links_at[end] = self._my_links_at.get(end, 0) + 1
        self._network = self.outlook.network_of(self.me)
        self._link_cache: dict[str, float] = {}
        self._costs: dict[tuple[str, int, str], int] = {}
        self._pending = self.outlook.pending_spaces(self.me)
        known = roles(self.rs)
        # What each kind of action burns: a tile lists its needs, a network option its costs, under
        # the resource's id; only what has a market costs money (the rest comes free from producers).
        self._build_needs = known.consumed(Role.BUILD)
        self._link_needs = tuple(r for r in known.consumed(Role.LINK) if self.rs.resources[r].market is not None)
        self._develop_needs = known.consumed(Role.DEVELOP)

    # -- building --------------------------------------------------------------------------------

    def build(self, industry: str, location: str, slot_id: str) -> float:
        me, out = self.me, self.outlook
        spec = self.table.lowest_tile(me, industry)
        produces = self.rs.industries[industry].produces
        cubes = spec.output.get(self.table.era, 0) if produces else 0
        sold, money = self._market_sale(produces, cubes, location)
        probe = PlacedTile(me, spec, self.table.slots[slot_id], False, cubes - sold)
        chance, actions = out.prospects_at(spec, location, cubes - sold, me)
        worth = chance * (spec.vp * scorings(self.table, probe) - actions * self.params.action_worth)
        pending = self._pending
        if chance >= 1.0:  # flips at once: the marker moves now
            worth += out.spaces_worth(me, spec.income) + out.pending_worth(me, me.income_position + spec.income,
                                                                           pending) - out.pending_worth(me)
        else:
            worth += out.pending_worth(me, None, pending + chance * out.income_of(spec)) - out.pending_worth(me)
        worth += chance * spec.link_icons * self._my_links_at.get(location, 0)
        cost = spec.cost + sum(self._cost(r, spec.needs.get(r, 0), location) for r in self._build_needs)
        worth += (money - cost) * self.rate + out.liquidity(me.money + money - cost) - out.liquidity(me.money)
        old = self.table.state.tiles.get(slot_id)
        if old is not None and old.owner is me:
            worth -= out.tile_and_income_worth(old)
        if location not in self._network:
            worth += self.params.reach
        had = me.mat_used.get(industry, 0)
        return worth + out.blocked(industry, had) - out.blocked(industry, had + 1)

    def _cost(self, resource: str, amount: int, location: str) -> int:
        """What the cubes a build needs cost at a location (remembered: many builds share them)."""
        key = (resource, amount, location if self.rs.resources[resource].market_access != "anywhere" else "")
        found = self._costs.get(key)
        if found is None:
            found = self._costs[key] = self.table.source_cost(self.me, resource, amount, [location])
        return found

    def _market_sale(self, produces: str | None, cubes: int, location: str) -> tuple[int, int]:
        """Cubes a new producer sells to its market at once, and the £ they bring (R-MKT-01/02)."""
        resource = self.rs.resources.get(produces or "")
        if resource is None or resource.market is None or resource.sell_on_build == "never":
            return 0, 0
        if resource.sell_on_build != "always" and not self.table.connected_to_merchant(location):
            return 0, 0
        market = self.rs.markets[resource.market]
        held = self.table.state.markets.get(market.id, 0)
        sold = max(0, min(cubes, market.capacity - held))
        prices = market.prices[market.capacity - held - sold:market.capacity - held]
        return sold, sum(prices)

    # -- networks --------------------------------------------------------------------------------

    def link(self, link: str) -> float:
        """One link's gain, before its price: the icons it will score, the places it opens up, and
        how much likelier it makes the seat's unsold tiles to reach a buyer."""
        found = self._link_cache.get(link)
        if found is None:
            out = self.outlook
            found = out.link_worth(link, self.me)
            found += self.params.reach * sum(1 for end in self.rs.links[link].ends
                                 if end not in self._network and self.rs.locations[end].slots)
            found += self._connection_gain(link)
            self._link_cache[link] = found
        return found

    def _connection_gain(self, link: str) -> float:
        out = self.outlook
        unsold = [t for t in self.table.state.tiles.values()
                  if t.owner is self.me and not t.flipped and self.rs.industries[t.spec.industry].produces is None]
        if not unsold:
            return 0.0
        after = Outlook(self.table, [link], self.me.seat, base=out)
        gained = sum(after.tile_worth(t) - out.tile_worth(t) for t in unsold)
        return gained + after.pending_worth(self.me) - out.pending_worth(self.me)

    def links(self, links: list[str]) -> float:
        option = next((o for o in self.outlook.era.network if o.links == len(links)), None)
        money = option.money if option is not None else 0
        per_link = {r: option.needs.get(r, 0) // max(1, len(links)) if option is not None else 0
                    for r in self._link_needs}
        cost = money + sum(self.table.source_cost(self.me, r, per_link[r], list(self.rs.links[k].ends))
                           for k in links for r in self._link_needs)
        return sum(self.link(k) for k in links) - cost * self.rate

    # -- selling, developing, loans --------------------------------------------------------------

    def sale(self, slot_id: str, merchant: str, merchant_beer: bool, also: list[str] | tuple[str, ...] = ()) -> float:
        """Selling the tile in `slot_id`: its flip, and a merchant's beer bonus; `also` are the tiles
        the sale flips with it (a Lancashire Port, L-SELL-02), whose flip counts when the seat owns them."""
        tile = self.table.state.tiles.get(slot_id)
        if tile is None:
            return 0.0
        tiles = self.table.state.tiles
        flipped = [tile] + [t for t in (tiles.get(s) for s in also) if t is not None and t.owner is self.me
                            and not t.flipped and t is not tile]
        worth = self._flips_worth(flipped)
        return worth + (self.beer_bonus(merchant.rsplit("/", 1)[0]) if merchant_beer else 0.0)

    def _flips_worth(self, flipped: list[PlacedTile]) -> float:
        """What flipping these tiles gains: VP still to score, their income at once (valued together:
        the second tile's spaces are worth the levels above the first's), the link icons they add."""
        out = self.outlook
        worth = sum(out.tile_worth(PlacedTile(t.owner, t.spec, t.slot, True, 0)) - out.tile_worth(t) for t in flipped)
        spaces = sum(t.spec.income for t in flipped)
        pending = self._pending - sum(out.flip_chance(t) * out.income_of(t.spec) for t in flipped)
        worth += out.spaces_worth(self.me, spaces) - out.pending_worth(self.me)
        worth += out.pending_worth(self.me, self.me.income_position + spaces, pending)
        return worth + sum((1.0 - out.flip_chance(t)) * t.spec.link_icons * self._my_links_at.get(t.slot.location, 0)
                           for t in flipped)

    def beer_bonus(self, location: str) -> float:
        """A merchant's beer bonus in VP, read from its effect steps."""
        merchant = self.rs.merchants.get(location)
        if merchant is None:
            return 0.0
        env, out, total = Env(self.table, {}), self.outlook, 0.0
        for step in merchant.beer_bonus:
            amount = next(iter(step.args.values()))(env) if step.args else 1
            total += {"gain_vp": float(amount), "gain_money": amount * self.rate,
                      "advance_income": out.spaces_worth(self.me, amount)}.get(step.name, self.params.free_develop)
        return total

    def develop(self, industries: list[str]) -> float:
        me, out = self.me, self.outlook
        used = dict(me.mat_used)
        for industry in industries:
            used[industry] = used.get(industry, 0) + 1
        # one cube of each resource the develop action consumes per tile removed (R-DEV-02)
        price = sum(self.table.source_cost(me, r, len(industries), []) for r in self._develop_needs)
        return out.mat_worth(me, used) - out.mat_worth(me) - price * self.rate

    def rescue_loan(self) -> bool:
        """Whether a seat that can pay for nothing (only a loan, a pass or a scout is possible) takes a
        loan: while the game has actions left to spend it, passing would waste every action to come."""
        return self.outlook.phase.actions >= self.params.loan_actions

    def loan_sensible(self) -> bool:
        """Loans pay off only when money is short, income stays above a spiral of unpaid income,
        and there are actions left to spend the money; a richer seat would only pay interest."""
        p = self.params
        level = self.table.income_level(self.me) - self.rs.economy.loan_income_levels
        stuck = self.me.money < p.stuck_below
        return (self.me.money < p.loan_below and (level >= p.loan_lowest_level or stuck)
                and self.outlook.phase.actions >= p.loan_actions)

    def loan(self, amount: int | None = None, levels: int | None = None) -> float:
        """A loan of `amount` for `levels` income levels (by default the ruleset's one loan, R-LOAN-01;
        Lancashire's £10, £20 or £30 for 1, 2 or 3 levels, L-LOAN-01, are valued each by its own terms)."""
        me, out = self.me, self.outlook
        economy = self.rs.economy
        amount = economy.loan_amount if amount is None else amount
        levels = economy.loan_income_levels if levels is None else levels
        level = self.table.income_level(me)
        lowest = self.rs.income.lowest_level
        dropped = level - max(lowest, level - levels)
        funds = out.funds(me)
        after = funds + amount * out.fade(out.phase.actions) - dropped * out.pay_factor
        liquid = out.liquidity(me.money + amount) - out.liquidity(me.money)
        return out.funds_worth(after) - out.funds_worth(funds) + liquid

    def loan_terms(self, action_id: str, chosen: dict[str, Any]) -> tuple[int | None, int | None]:
        """The money a loan-like action gives and the income levels it drops, with these choices:
        its `gain_money` and `drop_income_levels` steps evaluated (None: a step it does not have, or
        one that cannot be read without playing it)."""
        part = self.rs.actions[action_id].part
        env = Env(self.table, {k: v for k, v in chosen.items() if k in {p.name for p in part.params}})
        terms: dict[str, int | None] = {_GAINS_MONEY: None, _DROPS_LEVELS: None}
        try:
            for name, derived in part.derived.items():
                env.vars[name] = derived(env)
            for step in part.effects:
                if step.name in terms and step.args:
                    terms[step.name] = int(next(iter(step.args.values()))(env))
        except UNREADABLE:  # an expression that needs more than the choices: the defaults
            return None, None
        return terms[_GAINS_MONEY], terms[_DROPS_LEVELS]

    def more_actions(self, shape: Shape) -> int:
        """The further actions of the turn an action uses up (its `use_actions` counts)."""
        if not shape.more_actions:
            return 0
        env = Env(self.table, {})
        return sum(int(count(env)) if callable(count) else int(count) for count in shape.more_actions)

    # -- cards -----------------------------------------------------------------------------------

    def wild_keep(self) -> float:
        return self.params.wild_keep * self._keep_left()

    def _keep_left(self) -> float:
        """The share of its worth a card kept keeps: less over the era's last actions (the action
        being taken does not count), when there is little time left to use it."""
        return min(1.0, max(0.0, self.outlook.phase.actions_era - 1) / self.params.card_fade_actions)

    def card_keep(self, card: Card, hand: list[Card]) -> float:
        """What keeping a card in hand is worth: wild cards most, then cards that allow good builds."""
        left = self._keep_left()
        if card.wild:
            return self.wild_keep()
        uses = sum(1 for loc in (card.locations if card.kind == "location" else self._network)
                   for slot in self.rs.locations[loc].slots if self._fits(slot, card))
        twin = sum(1 for c in hand if c.face == card.face) > 1
        p = self.params
        return p.card_keep * min(uses, p.card_uses) * left * (p.twin_share if twin else 1.0)

    def _fits(self, slot: Slot, card: Card) -> bool:
        """A free slot where the seat could build one of the card's industries now."""
        if slot.id in self.table.state.tiles:
            return False
        era = self.table.era
        return any(i in card.industries and self.table.tiles_left(self.me, i) > 0
                   and era in self.table.lowest_tile(self.me, i).eras for i in slot.industries)

    # -- questions -------------------------------------------------------------------------------

    def answer_value(self, key: str, option: Any) -> float:
        """Questions inside effects: which tile gives a cube (one's own first: its flip pays the
        seat; the one closest to flipping), which tile to give up for unpaid income (the one worth
        least), which industry a free develop removes (the deadest, then the weakest)."""
        # The 10 and the tenth of the tile's VP below order the answers (one's own tile before any
        # other, whatever its cubes; of tiles about equally worth developing away, the weaker): a
        # preference and a tie-break, never tuned, so not parameters (docs/bots.md#the-parameters).
        tiles = self.table.state.tiles
        tile = tiles.get(option) if isinstance(option, str) else None
        if key.startswith("shortfall/") and tile is not None:
            return -self.outlook.tile_and_income_worth(tile)
        if tile is not None:
            return (10.0 if tile.owner is self.me else 0.0) - tile.cubes
        if isinstance(option, str) and option in self.rs.tiles and self.table.tiles_left(self.me, option) > 0:
            return self.develop([option]) - self.table.lowest_tile(self.me, option).vp / 10
        return 0.0
