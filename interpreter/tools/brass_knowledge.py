"""What the heuristic bot knows of Brass, in one place: the worth of a position and of an action.

Everything a bot believes about playing Brass well lives here, with the reasons, so that it can be
read, tuned and shared (the search bot uses `estimate` at its leaves and the heuristic bot as its
rollout policy). The numbers the rules fix are read from the ruleset (tiles' VP, income and cost,
the eras and what their ends score, rounds per era, link prices, the income track, merchant
bonuses); what is written here are judgements: how much £1 is worth, how likely a tile is to flip,
how many link icons a location will show. They were tuned by self-play (docs/bots.md).

    estimate(game_or_view, seat)      expected final VP of a seat (a float, comparable between positions)
    Outlook(table)                    the same, piece by piece, with what an action changes (Appraiser)

The position is judged as an experienced player does, in VP:

- VP already scored;
- each tile still to score: its VP times the era ends it will be scored at (level I tiles are
  removed at the end of the Canal Era), times the chance it flips (sold tiles: how many links
  are missing to a merchant that buys them; producers: how many cubes are left);
- each link still to score: the link icons expected at its ends at the era's end;
- money and income: £ turn into VP through the actions still to play, so £1 is worth
  `VP_PER_POUND` while there are actions to spend it, less beyond what those actions can spend,
  and nothing at the very end; an income level is worth the money it pays over the rounds left;
- the mat: tiles that can never be built again (level I in the Rail Era) block better ones and
  cost VP until developed away; a lightbulb tile cannot be developed, so it is not counted;
- the network: each location in it with a free slot is a place to build later.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from brass_dsl import Env
from interpreter.engine.state import Card, PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.model import Ruleset, Slot, TileSpec

# == judgements (VP unless said otherwise) ======================================================

VP_PER_POUND = 0.4  # what £1 buys while there are actions left to spend it
SPEND_PER_ACTION = 10  # £ one action can usefully spend: funds beyond that per action left …
SURPLUS_SHARE = 0.25  # … are worth this share of a pound
DEBT = 2.0  # a £ of income the seat cannot pay costs more: unpaid income takes tiles and VP
SHORTFALL = 3.0  # VP per £ of the next round's negative income the seat cannot pay: it costs tiles
MONEY_FADES_WITHIN = 3  # in the last actions of the game money can no longer be turned into VP
ACTION_WORTH = 3.0  # what an action is worth: a tile that needs another action of its owner is worth less
PENDING_INCOME = 0.8  # income from tiles still to flip comes later than the income of the level now
SELL_CHANCE = 0.85  # a mill, manufacturer or pottery connected to a merchant that buys it gets sold …
MISSING_LINK = 0.5  # … times this for each link still missing between them …
NO_BUYER = 0.03  # … nearly never when no merchant buys it …
SHORT_OF_BEER = 0.5  # … and less likely when the beer it needs is not in sight
PRODUCER_CHANCE = 0.95  # a mine, works or brewery flips if what it holds is all wanted …
PER_CUBE = 0.08  # … less likely with each cube more on it
DEMAND = {"coal": 0.3, "iron": 0.2}  # cubes asked for per action still to play (beer: by the tiles to sell)
LINK_DEMAND = 0.5  # the share of actions that are links, for a resource links consume
BEER_DEMAND = 0.03  # barrels asked for per action beyond what the unsold tiles on the board need
OTHERS_BEER = 0.3  # the share of other seats' beer needs a brewery meets (they use their own first)
LONELY_COAL = 0.5  # a mine with no link at its town is used only by its town
FREE_SLOT_ICONS = 0.6  # link icons a free slot is expected to show by the era's end, at its start
DEAD_TILE = 3.0  # a tile that can never be built again blocks its industry until developed
DEAD_SOON_ACTIONS = 6  # a tile of this era only starts to count as dead this many actions before its end
REACH = 0.5  # a location of the network with a free slot: a place to build later
REACH_CAP = 8  # … counted up to this many locations
WILD_KEEP = 2.5  # a wild card in hand (it builds anything, anywhere)
CARD_KEEP = 0.8  # a normal card per good build it allows (up to CARD_USES)
CARD_USES = 2
GLOUCESTER_DEVELOP = 2.0  # a free develop (a merchant's beer bonus)
LOAN_BELOW = 15  # a loan only when money is short (below this) …
LOAN_LOWEST_LEVEL = -3  # … the income level stays at least this after it (unless the seat is stuck) …
LOAN_ACTIONS = 4  # … and there are this many actions left to spend it
STUCK_BELOW = 4  # a seat with less money than this can do nothing: a loan is its way out
INFINITE = 99


class HasTable(Protocol):
    """A `Game` or a `SeatView`: what the estimate reads."""

    @property
    def table(self) -> Table: ...


def estimate(game_or_view: HasTable, seat: int) -> float:
    """Expected final VP of `seat` from this position (see the module's docstring)."""
    return Outlook(game_or_view.table).estimate(seat)


# == what the ruleset says, once per ruleset ======================================================

@dataclass(frozen=True)
class Facts:
    """Lookups of a ruleset the judgements read: lines touching each location, the last era."""

    touching: Mapping[str, tuple[tuple[str, tuple[str, ...]], ...]]  # location -> (link id, ends) of its lines
    last_era: int  # index of the era after which the game ends


_FACTS: dict[int, tuple[Ruleset, Facts]] = {}
_SCORINGS: dict[tuple[int, int, str], int] = {}  # (ruleset, era, tile spec) -> era ends that score it


def facts(ruleset: Ruleset) -> Facts:
    found = _FACTS.get(id(ruleset))
    if found is None or found[0] is not ruleset:
        touching: dict[str, list[tuple[str, tuple[str, ...]]]] = {loc: [] for loc in ruleset.locations}
        for link in ruleset.links.values():
            for end in link.ends:
                touching[end].append((link.id, link.ends))
        era_ids = [e.id for e in ruleset.eras]
        last = era_ids.index(ruleset.game_end.last_era) if ruleset.game_end else len(era_ids) - 1
        found = _FACTS[id(ruleset)] = (ruleset, Facts({k: tuple(v) for k, v in touching.items()}, last))
    return found[1]


def scorings(table: Table, tile: PlacedTile) -> int:
    """How many era ends (and the game's end) will still score this tile if it is flipped: the
    `score_tiles` steps it meets before a `remove_tiles` step takes it off the board."""
    rs = table.ruleset
    key = (id(rs), table.state.era_index, tile.spec.id)
    found = _SCORINGS.get(key)
    if found is None:
        found = _SCORINGS[key] = _count_scorings(table, tile)
    return found


def _count_scorings(table: Table, tile: PlacedTile) -> int:
    rs = table.ruleset
    steps = [s for e in rs.eras[table.state.era_index:facts(rs).last_era + 1] for s in e.end]
    steps += list(rs.game_end.scoring) if rs.game_end else []
    count, env = 0, Env(table, {"t": tile})
    for step in steps:
        where = step.args.get("where")
        holds = where is None or bool(where(env))
        if step.name == "score_tiles" and holds:
            count += 1
        elif step.name == "remove_tiles" and holds:
            break
    return count


# == the phase of the game ========================================================================

@dataclass(frozen=True)
class Phase:
    """How much of the game is left, in actions and income payments."""

    actions_era: float  # actions each seat still takes in this era
    actions_later: int  # actions each seat takes in the eras after this one
    per_round: int  # actions a seat takes in a round
    payments: int  # income payments still to come (the game's last round pays none)
    era_left: float  # share of this era still to play, 1 at its start

    @property
    def actions(self) -> float:
        return self.actions_era + self.actions_later


def phase_of(table: Table) -> Phase:
    rs, state = table.ruleset, table.state
    seats = len(state.players)
    rounds = rs.setup.rounds_per_era.get(seats, 1)
    last = facts(rs).last_era
    era = rs.eras[state.era_index]
    cards = len(state.deck) + sum(len(p.hand) for p in state.players)
    per_era = [rounds * e.actions_per_turn - (e.actions_per_turn - e.first_round_actions) for e in rs.eras]
    payments = (rounds - state.round + 1) + rounds * max(0, last - state.era_index) - 1
    return Phase(cards / seats, sum(per_era[state.era_index + 1:last + 1]), era.actions_per_turn,
                 max(0, payments), min(1.0, cards / max(1, seats * per_era[state.era_index])))


# == a position, judged ===========================================================================

class Outlook:
    """One position judged for every seat; `extra_links` are lines taken as built by `owner` (what a
    Network would add)."""

    def __init__(self, table: Table, extra_links: Iterable[str] = (), owner: int = 0,
                 base: Outlook | None = None) -> None:
        self.table = table
        self.rs = table.ruleset
        self.state = table.state
        self.facts = facts(self.rs) if base is None else base.facts
        self.phase = phase_of(table) if base is None else base.phase
        self.links: dict[str, int] = dict(self.state.links)
        for link in extra_links:
            self.links[link] = owner
        self.era = self.rs.eras[self.state.era_index]
        self._buyers: dict[str, dict[str, int]] = {}
        self._prospects: dict[str, tuple[float, float]] = {}
        self._icons: dict[str, float] = {}
        self._blocked: dict[tuple[str, int], float] = {}
        self._market: dict[str, tuple[float, float]] = {} if base is None else base._market
        phase = self.phase
        self.pay_factor = sum(self.fade(phase.actions - k * phase.per_round) for k in range(1, phase.payments + 1))

    # -- money and income ------------------------------------------------------------------------

    @staticmethod
    def fade(actions: float) -> float:
        """The share of its worth £1 keeps with `actions` actions left to spend it."""
        return max(0.0, min(1.0, actions / MONEY_FADES_WITHIN))

    def funds(self, player: Player) -> float:
        """Money in hand and the income still to come, in £ that can still be spent."""
        return player.money * self.fade(self.phase.actions) + self.table.income_level(player) * self.pay_factor

    def funds_worth(self, funds: float) -> float:
        """Funds in VP: £ up to what the actions left can spend are worth VP_PER_POUND, £ beyond a
        share of it, and a debt more than its size."""
        need = SPEND_PER_ACTION * self.phase.actions
        if funds < 0:
            return VP_PER_POUND * DEBT * funds
        return VP_PER_POUND * (min(funds, need) + SURPLUS_SHARE * max(0.0, funds - need))

    def _share(self, player: Player) -> float:
        """The share of VP_PER_POUND the player's next £ is worth: less when rich (see `funds_worth`).
        A debt is not counted here: it would make a loan look cheap by making the income it takes
        away look dear to win back."""
        return SURPLUS_SHARE if self.funds(player) >= SPEND_PER_ACTION * self.phase.actions else 1.0

    def rate(self, player: Player) -> float:
        """What the next £ in hand is worth to the player, in VP."""
        return VP_PER_POUND * self._share(player) * self.fade(self.phase.actions)

    def level_worth(self, player: Player) -> float:
        """What one more income level is worth to the player, in VP."""
        return VP_PER_POUND * self._share(player) * self.pay_factor

    def spaces_worth(self, player: Player, spaces: float, position: float | None = None) -> float:
        """What moving the income marker up `spaces` spaces from `position` (by default where it
        is) is worth: spaces are not levels, and the higher the marker the more spaces a level takes."""
        start = player.income_position if position is None else position
        return (self.level_after(start + spaces) - self.level_after(start)) * self.level_worth(player)

    def level_after(self, position: float) -> float:
        """The income level at a track position, between whole positions by interpolation."""
        track = self.rs.income
        position = max(0.0, min(track.positions - 1.0, position))
        low = int(position)
        high = min(track.positions - 1, low + 1)
        return track.levels[low] + (position - low) * (track.levels[high] - track.levels[low])

    def pending_spaces(self, player: Player) -> float:
        """Income spaces the player's unflipped tiles are expected to add."""
        return sum(self.flip_chance(t) * t.spec.income for t in self.state.tiles.values()
                   if t.owner is player and not t.flipped)

    def pending_worth(self, player: Player, position: float | None = None, pending: float | None = None) -> float:
        """The income still to come from tiles to flip, valued together (one tile's spaces are worth
        fewer levels once another one has moved the marker up)."""
        pending = self.pending_spaces(player) if pending is None else pending
        return PENDING_INCOME * self.spaces_worth(player, pending, position)

    # -- will a tile flip? -----------------------------------------------------------------------

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
        produces = self.rs.industries[spec.industry].produces
        if produces is None:
            return self._sale_prospects(spec, location, owner)
        if cubes <= 0:
            return 1.0, 0.0
        supply, demand = self._wanted(produces)
        if produces in self.rs.resources and self.rs.resources[produces].market is None:
            demand = self._own_beer_need(owner)  # one's own beer is used first, the others' own beer first
            supply = float(self._own_cubes(produces, owner))
        share = min(1.0, demand / max(1.0, supply))
        chance = PRODUCER_CHANCE * share * max(0.4, 1.0 - PER_CUBE * (cubes - 1))
        resource = self.rs.resources.get(produces)
        if resource is not None and resource.market_access != "anywhere" and not self._has_link(location):
            chance *= LONELY_COAL
        return chance, 0.0

    def _sale_prospects(self, spec: TileSpec, location: str, owner: Player) -> tuple[float, float]:
        missing = self.buyer_distance(spec.industry).get(location, INFINITE)
        if missing >= INFINITE:
            return NO_BUYER, 1.0
        chance = SELL_CHANCE * MISSING_LINK ** missing
        if spec.beer > self._beer_for(owner):
            chance *= SHORT_OF_BEER
        actions = 1.0 + 0.5 * missing  # the sale, and the links someone still has to build
        return chance * min(1.0, self.phase.actions_era / actions), actions

    def _wanted(self, resource: str) -> tuple[float, float]:
        """Cubes of a resource on unflipped producers, and cubes asked for until the era's end."""
        found = self._market.get(resource)
        if found is None:
            actions = self.phase.actions_era * len(self.state.players)
            supply = float(sum(t.cubes for t in self._producers(resource)))
            network = self.era.network
            link_use = max((getattr(o, resource, 0) / max(1, o.links) for o in network), default=0)
            if self.rs.resources[resource].market is None:
                demand = self._beer_need(None) + actions * BEER_DEMAND
            else:
                demand = actions * (DEMAND.get(resource, 0.2) + LINK_DEMAND * link_use)
            found = self._market[resource] = (supply, demand)
        return found

    def _producers(self, resource: str) -> list[PlacedTile]:
        return [t for t in self.state.tiles.values()
                if not t.flipped and t.cubes > 0 and self.rs.industries[t.spec.industry].produces == resource]

    def _own_cubes(self, resource: str, owner: Player) -> int:
        return sum(t.cubes for t in self._producers(resource) if t.owner is owner)

    def _beer_need(self, owner: Player | None) -> float:
        """Barrels the unsold tiles on the board need (of one owner, or all)."""
        return float(sum(t.spec.beer for t in self.state.tiles.values()
                         if not t.flipped and self.rs.industries[t.spec.industry].produces is None
                         and (owner is None or t.owner is owner)))

    def _own_beer_need(self, owner: Player) -> float:
        mine = self._beer_need(owner)
        return mine + OTHERS_BEER * (self._beer_need(None) - mine) \
            + self.phase.actions_era * len(self.state.players) * BEER_DEMAND

    def _beer_for(self, owner: Player) -> float:
        """Barrels a seat can count on: its own, the merchants' and a share of the others'."""
        barrels = 0.0
        for tile in self.state.tiles.values():
            if not tile.flipped and tile.cubes and self.rs.industries[tile.spec.industry].produces is not None \
                    and self.rs.resources.get(self.rs.industries[tile.spec.industry].produces or "") is not None \
                    and self.rs.resources[self.rs.industries[tile.spec.industry].produces or ""].market is None:
                barrels += tile.cubes * (1.0 if tile.owner is owner else OTHERS_BEER)
        return barrels + sum(1 for m in self.state.merchants if m.has_beer)

    def _has_link(self, location: str) -> bool:
        return any(link in self.links for link, _ in self.facts.touching[location])

    def buyer_distance(self, industry: str) -> dict[str, int]:
        """Links still missing from each location to a merchant that buys `industry` (built links
        count 0, free lines of this era 1, lines of another era cannot be used)."""
        found = self._buyers.get(industry)
        if found is None:
            sources = {m.location for m in self.state.merchants if industry in m.buys}
            found = self._buyers[industry] = self.missing_links(sources)
        return found

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
                if not built and not getattr(lines[link], kind, False):
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

    # -- what will be scored ---------------------------------------------------------------------

    def tile_worth(self, tile: PlacedTile) -> float:
        """The VP a tile on the board will still bring its owner at the era ends ahead, less the
        actions its owner still has to spend on it (its income is `pending_worth`)."""
        vp = tile.spec.vp * scorings(self.table, tile)
        if tile.flipped:
            return float(vp)
        chance, actions = self.prospects(tile)
        return chance * (vp - actions * ACTION_WORTH)

    def tile_and_income_worth(self, tile: PlacedTile) -> float:
        """A tile's worth with its own income, as if it were the only one to flip."""
        chance = self.flip_chance(tile) if not tile.flipped else 0.0
        return self.tile_worth(tile) + PENDING_INCOME * chance * self.spaces_worth(tile.owner, tile.spec.income)

    def icons_expected(self, location: str) -> float:
        """Link icons the location is expected to show when this era's links are scored."""
        found = self._icons.get(location)
        if found is None:
            spot = self.rs.locations[location]
            icons = float(spot.link_icons)
            for slot in spot.slots:
                tile = self.state.tiles.get(slot.id)
                if tile is None:
                    icons += FREE_SLOT_ICONS * self.phase.era_left
                else:
                    icons += tile.spec.link_icons * self.flip_chance(tile)
            found = self._icons[location] = icons
        return found

    def link_worth(self, link: str, player: Player) -> float:
        """What one of this era's links will score at the era's end."""
        step = next((s for s in self.era.end if s.name == "score_links"), None)
        if step is None:
            return 0.0
        ends = self.rs.links[link].ends
        value = step.args.get("value")
        if value is None:
            return sum(self.icons_expected(end) for end in ends)
        if link not in self.state.links:
            return 0.0  # a custom score needs the link on the board
        return float(sum(value(Env(self.table, {"k": link, "l": end, "p": player})) for end in ends))

    def network_of(self, player: Player) -> set[str]:
        places = {t.slot.location for t in self.state.tiles.values() if t.owner is player}
        for link, seat in self.links.items():
            if seat == player.seat:
                places.update(self.rs.links[link].ends)
        return places

    def reach_worth(self, player: Player) -> float:
        """Places to build later: locations of the network with a free slot."""
        tiles = self.state.tiles
        free = sum(1 for loc in self.network_of(player)
                   if any(s.id not in tiles for s in self.rs.locations[loc].slots))
        return REACH * min(free, REACH_CAP) * min(1.0, self.phase.actions / 8)

    # -- the mat ---------------------------------------------------------------------------------

    def deadness(self, spec: TileSpec) -> float:
        """1 for a tile no era ahead lets anyone build; rising to 1 over the last actions of its
        only era; else 0."""
        eras = [e.id for e in self.rs.eras[self.state.era_index:self.facts.last_era + 1]]
        if not any(e in spec.eras for e in eras):
            return 1.0
        if len(eras) > 1 and not any(e in spec.eras for e in eras[1:]):
            return max(0.0, 1.0 - self.phase.actions_era / DEAD_SOON_ACTIONS)
        return 0.0

    def mat_worth(self, player: Player, used: Mapping[str, int] | None = None) -> float:
        """Minus the VP lost to dead tiles still blocking each industry (see `deadness`)."""
        used = player.mat_used if used is None else used
        return -sum(self.blocked(industry, used.get(industry, 0)) for industry in self.rs.tiles)

    def blocked(self, industry: str, used: int) -> float:
        """The VP lost to the dead tiles on top of an industry's stack with `used` tiles gone."""
        key = (industry, used)
        found = self._blocked.get(key)
        if found is None:
            keen = min(1.0, self.phase.actions / 6)  # at the very end nothing more will be built anyway
            found, blocked = 0.0, 0.0
            for spec in self.table.mat_stack(industry)[used:]:
                dead = self.deadness(spec)
                if dead == 0.0:
                    found = blocked
                    break
                if not spec.develop:
                    break  # a lightbulb tile: developing cannot get past it
                blocked += dead * DEAD_TILE * keen
            self._blocked[key] = found
        return found

    # -- the whole position ----------------------------------------------------------------------

    def estimate(self, seat: int) -> float:
        player = self.table.player(seat)
        if self.state.finished:
            return player.vp + player.income_position / 1000 + player.money / 100000
        tiles = sum(self.tile_worth(t) for t in self.state.tiles.values() if t.owner is player)
        links = sum(self.link_worth(k, player) for k, s in self.links.items() if s == seat)
        return (player.vp + tiles + self.pending_worth(player) + links + self.funds_worth(self.funds(player))
                - self.shortfall(player)
                + self.mat_worth(player) + self.reach_worth(player) + self.awards(player))

    def shortfall(self, player: Player) -> float:
        """The £ of the next negative income the player could not pay, in VP (a shortfall removes
        tiles, R-SHORT-01)."""
        if self.phase.payments <= 0:
            return 0.0
        return SHORTFALL * max(0, -self.table.income_level(player) - player.money)

    def awards(self, player: Player) -> float:
        """What the game's end awards beyond the eras' scoring (the Introductory Game: money,
        income), as it would stand now."""
        steps = self.rs.game_end.scoring if self.rs.game_end else ()
        env = Env(self.table, {"p": player})
        return float(sum(s.args["amount"](env) for s in steps if s.name == "award_vp"))


# == what an action is worth, before looking closer ==============================================

class Appraiser:
    """Quick values of the parts of whole actions for the seat to move, in VP gained: what the bot
    ranks every listed action by before it plays the best few out on a copy."""

    def __init__(self, table: Table, seat: int) -> None:
        self.outlook = Outlook(table)
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

    # -- building --------------------------------------------------------------------------------

    def build(self, industry: str, location: str, slot_id: str) -> float:
        me, out = self.me, self.outlook
        spec = self.table.lowest_tile(me, industry)
        produces = self.rs.industries[industry].produces
        cubes = spec.output.get(self.table.era, 0) if produces else 0
        sold, money = self._market_sale(produces, cubes, location)
        probe = PlacedTile(me, spec, self.table.slots[slot_id], False, cubes - sold)
        chance, actions = out.prospects_at(spec, location, cubes - sold, me)
        worth = chance * (spec.vp * scorings(self.table, probe) - actions * ACTION_WORTH)
        pending = self._pending
        if chance >= 1.0:  # flips at once: the marker moves now
            worth += out.spaces_worth(me, spec.income) + out.pending_worth(me, me.income_position + spec.income,
                                                                           pending) - out.pending_worth(me)
        else:
            worth += out.pending_worth(me, None, pending + chance * spec.income) - out.pending_worth(me)
        worth += chance * spec.link_icons * self._my_links_at.get(location, 0)
        cost = spec.cost + self._cost("coal", spec.coal, location) + self._cost("iron", spec.iron, location)
        worth += (money - cost) * self.rate
        old = self.table.state.tiles.get(slot_id)
        if old is not None and old.owner is me:
            worth -= out.tile_and_income_worth(old)
        if location not in self._network:
            worth += REACH
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
            found += REACH * sum(1 for end in self.rs.links[link].ends
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
        coal = option.coal // max(1, len(links)) if option is not None else 0
        cost = money + sum(self.table.source_cost(self.me, "coal", coal, list(self.rs.links[k].ends)) for k in links)
        return sum(self.link(k) for k in links) - cost * self.rate

    # -- selling, developing, loans --------------------------------------------------------------

    def sale(self, slot_id: str, merchant: str, merchant_beer: bool) -> float:
        tile = self.table.state.tiles.get(slot_id)
        if tile is None:
            return 0.0
        out = self.outlook
        worth = out.tile_worth(PlacedTile(tile.owner, tile.spec, tile.slot, True, 0)) - out.tile_worth(tile)
        pending = self._pending - out.flip_chance(tile) * tile.spec.income
        worth += out.spaces_worth(self.me, tile.spec.income) - out.pending_worth(self.me)
        worth += out.pending_worth(self.me, self.me.income_position + tile.spec.income, pending)
        worth += (1.0 - out.flip_chance(tile)) * tile.spec.link_icons * self._my_links_at.get(tile.slot.location, 0)
        return worth + (self.beer_bonus(merchant.rsplit("/", 1)[0]) if merchant_beer else 0.0)

    def beer_bonus(self, location: str) -> float:
        """A merchant's beer bonus in VP, read from its effect steps."""
        merchant = self.rs.merchants.get(location)
        if merchant is None:
            return 0.0
        env, out, total = Env(self.table, {}), self.outlook, 0.0
        for step in merchant.beer_bonus:
            amount = next(iter(step.args.values()))(env) if step.args else 1
            total += {"gain_vp": float(amount), "gain_money": amount * self.rate,
                      "advance_income": out.spaces_worth(self.me, amount)}.get(step.name, GLOUCESTER_DEVELOP)
        return total

    def develop(self, industries: list[str]) -> float:
        me, out = self.me, self.outlook
        used = dict(me.mat_used)
        for industry in industries:
            used[industry] = used.get(industry, 0) + 1
        iron = self.table.source_cost(me, "iron", len(industries), [])
        return out.mat_worth(me, used) - out.mat_worth(me) - iron * self.rate

    def rescue_loan(self, kinds: set[str]) -> bool:
        """A seat that can pay for nothing (only a loan, a pass or a scout is possible) takes a loan
        while the game has actions left to spend it: passing would waste every action to come."""
        return "loan" in kinds and not kinds - {"loan", "pass", "scout"} and self.outlook.phase.actions >= LOAN_ACTIONS

    def loan_sensible(self) -> bool:
        """Loans pay off only when money is short, income stays above a spiral of unpaid income,
        and there are actions left to spend the money; a richer seat would only pay interest."""
        level = self.table.income_level(self.me) - self.rs.economy.loan_income_levels
        stuck = self.me.money < STUCK_BELOW
        return (self.me.money < LOAN_BELOW and (level >= LOAN_LOWEST_LEVEL or stuck)
                and self.outlook.phase.actions >= LOAN_ACTIONS)

    def loan(self) -> float:
        me, out = self.me, self.outlook
        economy = self.rs.economy
        level = self.table.income_level(me)
        lowest = self.rs.income.lowest_level
        dropped = level - max(lowest, level - economy.loan_income_levels)
        funds = out.funds(me)
        after = funds + economy.loan_amount * out.fade(out.phase.actions) - dropped * out.pay_factor
        return out.funds_worth(after) - out.funds_worth(funds)

    # -- cards -----------------------------------------------------------------------------------

    def wild_keep(self) -> float:
        return WILD_KEEP * min(1.0, max(0.0, self.outlook.phase.actions_era - 1) / 4)

    def card_keep(self, card: Card, hand: list[Card]) -> float:
        """What keeping a card in hand is worth: wild cards most, then cards that allow good builds."""
        left = min(1.0, max(0.0, self.outlook.phase.actions_era - 1) / 4)
        if card.wild:
            return self.wild_keep()
        uses = sum(1 for loc in (card.locations if card.kind == "location" else self._network)
                   for slot in self.rs.locations[loc].slots if self._fits(slot, card))
        twin = sum(1 for c in hand if c.face == card.face) > 1
        return CARD_KEEP * min(uses, CARD_USES) * left * (0.5 if twin else 1.0)

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
        tiles = self.table.state.tiles
        tile = tiles.get(option) if isinstance(option, str) else None
        if key.startswith("shortfall/") and tile is not None:
            return -self.outlook.tile_and_income_worth(tile)
        if tile is not None:
            return (10.0 if tile.owner is self.me else 0.0) - tile.cubes
        if isinstance(option, str) and option in self.rs.tiles and self.table.tiles_left(self.me, option) > 0:
            return self.develop([option]) - self.table.lowest_tile(self.me, option).vp / 10
        return 0.0
