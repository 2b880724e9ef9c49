"""Brass knowledge, part 2: will a tile flip? The chance that each unflipped tile is sold or
emptied before it stops counting, from the merchants it can reach, the beer in sight and the
demand for what it produces (overview in `bots/knowledge/worth.py`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from brass_dsl import Env
from interpreter.engine.state import PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.bot_params import HeuristicParams
from interpreter.ruleset.model import EffectStep, TileSpec
from interpreter.tools.bots.knowledge.facts import INFINITE, UNREADABLE, Facts, Phase, facts, phase_of
from interpreter.tools.bots.knowledge.roles import Role, roles

SOLD = "sold"  # an industry's `flips`: its tiles flip when sold
BUILT = "built"  # … its tiles flip in the build that places them
_ADVANCES_INCOME, _SPACES = "advance_income", "spaces"  # the engine's effect that moves the income marker up
_WHEN, _WORDS = "when", "str"  # an effect step's condition; the type of a choice among words


class Prospects:
    """The flip chances of one position's tiles; `extra_links` are lines taken as built by `owner`
    (what a Network would add); `base` shares the lookups of the same position without them. The
    judgements are `params`, by default those of the ruleset played (a base's: the same)."""

    def __init__(self, table: Table, extra_links: Iterable[str] = (), owner: int = 0,
                 base: Prospects | None = None, params: HeuristicParams | None = None) -> None:
        self.table = table
        # bound once here: every judgement below is then one attribute read, as cheap as a constant was
        self.params: HeuristicParams = (base.params if base is not None
                                        else params if params is not None else table.ruleset.bots.heuristic)
        self.rs = table.ruleset
        self.state = table.state
        self.facts: Facts = facts(self.rs) if base is None else base.facts
        self.phase: Phase = phase_of(table) if base is None else base.phase
        self.links: dict[str, int] = dict(self.state.links)
        for link in extra_links:
            self.links[link] = owner
        self.era = self.rs.eras[self.state.era_index]
        self._buyers: dict[str, dict[str, int]] = {}
        self._prospects: dict[str, tuple[float, float]] = {}
        self._market: dict[str, tuple[float, float]] = {} if base is None else base._market
        self._bonus: float | None = None if base is None else base._bonus
        self._edge: tuple[float, bool] | None = None if base is None else base._edge
        self._buyers_share: float | None = None if base is None else base._buyers_share

    def flip_chance(self, tile: PlacedTile) -> float:
        return self.prospects(tile)[0]

    def prospects(self, tile: PlacedTile) -> tuple[float, float]:
        """The chance that a tile flips, and the actions its owner still has to spend on it."""
        if tile.flipped:
            return 1.0, 0.0
        found = self._prospects.get(tile.slot.id)
        if found is None:
            found = self._prospects[tile.slot.id] = self.prospects_at(tile.spec, tile.slot.location, tile.cubes,
                                                                      tile.owner)
        return found

    def prospects_at(self, spec: TileSpec, location: str, cubes: int, owner: Player) -> tuple[float, float]:
        """`prospects` of an unflipped tile of `spec` at `location` with `cubes` on it."""
        industry = self.rs.industries[spec.industry]
        if industry.flips == BUILT:
            return 1.0, 0.0  # it flips in the build that places it (Lancashire's Shipyard, L-BUILD-14)
        produces = industry.produces
        if produces is None:
            return self._sale_prospects(spec, location, owner)
        if cubes <= 0:
            return 1.0, 0.0
        supply, demand = self._wanted(produces)
        if produces in self.rs.resources and self.rs.resources[produces].market is None:
            demand = self._own_beer_need(owner)  # one's own beer is used first, the others' own beer first
            supply = float(self._own_cubes(produces, owner))
        share = min(1.0, demand / max(1.0, supply))
        p = self.params
        chance = p.producer_chance * share * max(p.producer_floor, 1.0 - p.per_cube * (cubes - 1))
        resource = self.rs.resources.get(produces)
        if resource is not None and resource.market_access != "anywhere" and not self._has_link(location):
            chance *= p.unlinked_producer
        return chance, 0.0

    def _sale_prospects(self, spec: TileSpec, location: str, owner: Player) -> tuple[float, float]:
        p = self.params
        missing = self.buyer_distance(spec.industry).get(location, INFINITE)
        if missing >= INFINITE:
            return p.no_buyer, 1.0
        chance = p.sell_chance * p.missing_link ** missing
        if spec.industry in self.facts.trading:  # the seller of the goods it buys flips it: its owner spends no action
            return chance * self._sellers_share() * min(1.0, self.phase.actions_era), 0.0  # while the era lasts
        if self._sale_need(spec) > self._beer_for(owner):
            chance *= p.unsupplied_sale
        actions = 1.0 + p.owner_link_share * missing  # the sale, and the links its owner still has to build
        return chance * min(1.0, self.phase.actions_era / actions), actions

    def _sellers_share(self) -> float:
        """How many of the tiles that buy goods (a trading industry's unflipped tiles) the goods still
        to sell can flip: each sale flips one buyer (L-SELL-02), so Ports share the unsold Cotton Mills."""
        if self._buyers_share is None:
            trading, sellers, buyers = self.facts.trading, 0, 0
            for t in self.state.tiles.values():
                if t.flipped or self.rs.industries[t.spec.industry].flips != SOLD:
                    continue
                if t.spec.industry in trading:
                    buyers += 1
                else:
                    sellers += 1
            self._buyers_share = min(1.0, sellers / max(1, buyers))
        return self._buyers_share

    def sale_bonus(self, spec: TileSpec) -> float:
        """Income spaces a sale of a tile of `spec` is expected to bring beyond the tile's own income
        (`sale_bonus_share` of the sell-like actions' `advance_income` as the state stands: Lancashire's
        Distant Market pays +3 … +0 spaces, L-DM-04); none for a tile its owner does not sell."""
        if self.rs.industries[spec.industry].flips != SOLD or spec.industry in self.facts.trading:
            return 0.0
        if self._bonus is None:
            self._bonus = self.params.sale_bonus_share * self._edge_market()[0]
        return self._bonus

    def _edge_market(self) -> tuple[float, bool]:
        """What the sell-like actions' own `advance_income` steps say of the market beyond the board
        (Lancashire's Distant Market, L-DM-04): the most income spaces one gives now, and whether
        one still applies for some value of the sale's `str` choices (its `when`; no longer once the
        market's marker is on X, L-DM-03/05). A ruleset without such a step: (0, True)."""
        if self._edge is None:
            found = [self._bonus_now(step, envs) for step, envs in self._sale_bonus_steps()]
            paid = [spaces for spaces in found if spaces is not None]
            self._edge = (max(paid, default=0.0), bool(paid) or not found)
        return self._edge

    def _sale_bonus_steps(self) -> Iterable[tuple[EffectStep, list[Env]]]:
        """Each `advance_income` step of a sell-like action, with an environment for each value of
        the action's `str` choices."""
        for action_id in roles(self.rs).ids(Role.SELL):
            action = self.rs.actions[action_id]
            parts = [action.part] + ([action.repeat.part] if action.repeat else [])
            envs = self._word_choices([p for part in parts for p in part.params if p.type == _WORDS])
            for step in (s for part in parts for s in part.effects if s.name == _ADVANCES_INCOME):
                yield step, envs

    @staticmethod
    def _bonus_now(step: EffectStep, envs: list[Env]) -> float | None:
        """The most income spaces the step gives now for any of the choices it applies with (None:
        it applies with none of them, or it reads a choice not known before the action is played)."""
        best: float | None = None
        for env in envs:
            try:
                when = step.args.get(_WHEN)
                if when is not None and not when(env):
                    continue
                spaces = step.args.get(_SPACES)
                value = float(spaces(env)) if callable(spaces) else float(spaces or 0)
            except UNREADABLE:  # an expression that needs more than the word choices
                continue
            best = value if best is None else max(best, value)
        return best

    def _word_choices(self, params: list[Any]) -> list[Env]:
        """An environment for each value of each `str` choice (the others unbound), or one empty."""
        envs = []
        for param in params:
            try:
                envs += [Env(self.table, {param.name: value}) for value in param.domain(Env(self.table, {}))]
            except UNREADABLE:  # a domain that reads other choices
                continue
        return envs or [Env(self.table, {})]

    def _wanted(self, resource: str) -> tuple[float, float]:
        """Cubes of a resource on unflipped producers, and cubes asked for until the era's end."""
        found = self._market.get(resource)
        if found is None:
            actions = self.phase.actions_era * len(self.state.players)
            supply = float(sum(t.cubes for t in self._producers(resource)))
            network = self.era.network
            link_use = max((o.needs.get(resource, 0) / max(1, o.links) for o in network), default=0)
            p = self.params
            if self.rs.resources[resource].market is None:
                demand = self._beer_need(None) + actions * p.unmarketed_demand
            else:
                burnt = resource in roles(self.rs).consumed(Role.LINK)
                demand = actions * ((p.burnt_demand if burnt else p.demand) + p.link_demand * link_use)
            found = self._market[resource] = (supply, demand)
        return found

    def _producers(self, resource: str) -> list[PlacedTile]:
        return [t for t in self.state.tiles.values()
                if not t.flipped and t.cubes > 0 and self.rs.industries[t.spec.industry].produces == resource]

    def _own_cubes(self, resource: str, owner: Player) -> int:
        return sum(t.cubes for t in self._producers(resource) if t.owner is owner)

    def _beer_need(self, owner: Player | None) -> float:
        """Barrels the unsold tiles on the board need (of one owner, or all)."""
        return float(sum(self._sale_need(t.spec) for t in self.state.tiles.values()
                         if not t.flipped and self.rs.industries[t.spec.industry].produces is None
                         and (owner is None or t.owner is owner)))

    def _sale_need(self, spec: TileSpec) -> int:
        """What selling a tile of `spec` consumes: its needs of the resources a sell-like action
        consumes (Birmingham's beer; nothing in a game whose sales consume nothing)."""
        return sum(spec.needs.get(r, 0) for r in roles(self.rs).consumed(Role.SELL))

    def _own_beer_need(self, owner: Player) -> float:
        mine, p = self._beer_need(owner), self.params
        return mine + p.others_share * (self._beer_need(None) - mine) \
            + self.phase.actions_era * len(self.state.players) * p.unmarketed_demand

    def _beer_for(self, owner: Player) -> float:
        """Barrels a seat can count on: its own, the merchants' and a share of the others'."""
        barrels, others = 0.0, self.params.others_share
        for tile in self.state.tiles.values():
            if not tile.flipped and tile.cubes and self.rs.industries[tile.spec.industry].produces is not None \
                    and self.rs.resources.get(self.rs.industries[tile.spec.industry].produces or "") is not None \
                    and self.rs.resources[self.rs.industries[tile.spec.industry].produces or ""].market is None:
                barrels += tile.cubes * (1.0 if tile.owner is owner else others)
        return barrels + sum(1 for m in self.state.merchants if m.has_beer)

    def _has_link(self, location: str) -> bool:
        return any(link in self.links for link, _ in self.facts.touching[location])

    def buyer_distance(self, industry: str) -> dict[str, int]:
        """Links still missing from each location to a merchant that buys `industry` (built links
        count 0, free lines of this era 1, lines of another era cannot be used)."""
        found = self._buyers.get(industry)
        if found is None:
            sources = {m.location for m in self.state.merchants if industry in m.buys}
            if not self.rs.merchants:
                sources = self._trade_partners(industry)
            found = self._buyers[industry] = self.missing_links(sources)
        return found

    def _trade_partners(self, industry: str) -> set[str]:
        """Where a sold tile finds a buyer in a ruleset without merchants (Lancashire): the tiles of
        another industry that flips when sold (a Cotton Mill sells to a Port, and so a Port flips);
        for a tile of a non-trading industry also, while the market beyond the board is open, the
        board's edge and every tile of a trading industry (the Distant Market's trade icons)."""
        trading = self.facts.trading
        tiles = {t.slot.location for t in self.state.tiles.values() if not t.flipped and t.spec.industry != industry
                 and self.rs.industries[t.spec.industry].flips == SOLD and (industry not in trading
                                                                           or t.spec.industry not in trading)}
        if industry in trading:
            return tiles  # a Port is bought from by the mills that sell to it, never by the edge
        if not self._edge_market()[1]:
            return tiles  # the market beyond the board is closed for the era (L-DM-03/05)
        return tiles | self._edge_trade() | {t.slot.location for t in self.state.tiles.values()
                                              if t.spec.industry in trading}  # any Port's trade icon, L-TRADE-01

    def _edge_trade(self) -> set[str]:
        """The board's edge where goods leave it: its locations without slots, but of a ruleset
        whose markets are reached through some locations only (`access_through`: Lancashire's
        trade icons, L-TRADE-02), only those (Blackpool or Southport show no trade icon)."""
        edge = {loc for loc, spec in self.rs.locations.items() if not spec.slots}
        through = [r for r in self.rs.resources.values() if r.market is not None and r.access_through is not None]
        if not through:
            return edge
        return edge & {loc for r in through for loc in self.table.access_through(r)}

    def missing_links(self, sources: Iterable[str]) -> dict[str, int]:
        """0-1 breadth-first search from `sources` over the lines of the board."""
        kind = self.era.link_kind
        lines = self.rs.links
        dist = dict.fromkeys(sources, 0)
        queue = deque(dist)
        while queue:
            here = queue.popleft()
            near = dist[here]
            for link, ends in self.facts.touching[here]:
                built = link in self.links
                if not built and not lines[link].takes(kind):
                    continue
                far = near if built else near + 1
                for there in ends:
                    if far < dist.get(there, INFINITE):
                        dist[there] = far
                        if built:
                            queue.appendleft(there)
                        else:
                            queue.append(there)
        return dist


    def network_of(self, player: Player) -> set[str]:
        places = {t.slot.location for t in self.state.tiles.values() if t.owner is player}
        for link, seat in self.links.items():
            if seat == player.seat:
                places.update(self.rs.links[link].ends)
        return places
