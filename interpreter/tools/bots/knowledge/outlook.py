"""Brass knowledge, part 3: a position judged in VP for each seat (overview in `bots/knowledge/worth.py`):
VP scored, tiles and links still to score, money and income, the mat, the network."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from brass_dsl import Env
from interpreter.engine.state import PlacedTile, Player
from interpreter.engine.table import Table
from interpreter.ruleset.bot_params import HeuristicParams
from interpreter.ruleset.model import TileSpec
from interpreter.tools.bots.knowledge.facts import scorings
from interpreter.tools.bots.knowledge.flips import Prospects


class Outlook(Prospects):
    """One position judged for every seat (the flip chances are `Prospects`), with the judgements
    `params` (by default the ruleset's: `Prospects`)."""

    def __init__(self, table: Table, extra_links: Iterable[str] = (), owner: int = 0,
                 base: Outlook | None = None, params: HeuristicParams | None = None) -> None:
        super().__init__(table, extra_links, owner, base, params)
        self._icons: dict[str, float] = {}
        self._blocked: dict[tuple[str, int], float] = {}
        phase = self.phase
        self.pay_factor = sum(self.fade(phase.actions - k * phase.per_round) for k in range(1, phase.payments + 1))

    # -- money and income ------------------------------------------------------------------------

    def fade(self, actions: float) -> float:
        """The share of its worth £1 keeps with `actions` actions left to spend it."""
        return max(0.0, min(1.0, actions / self.params.money_fades_within))

    def funds(self, player: Player) -> float:
        """Money in hand and the income still to come, in £ that can still be spent."""
        return player.money * self.fade(self.phase.actions) + self.table.income_level(player) * self.pay_factor

    def funds_worth(self, funds: float) -> float:
        """Funds in VP: £ up to what the actions left can spend are worth `vp_per_pound`, £ beyond a
        share of it, and a debt more than its size."""
        p = self.params
        need = p.spend_per_action * self.phase.actions
        if funds < 0:
            return p.vp_per_pound * p.debt * funds
        return p.vp_per_pound * (min(funds, need) + p.surplus_share * max(0.0, funds - need))

    def _share(self, player: Player) -> float:
        """The share of `vp_per_pound` the player's next £ is worth: less when rich (see `funds_worth`).
        A debt is not counted here: it would make a loan look cheap by making the income it takes
        away look dear to win back."""
        p = self.params
        return p.surplus_share if self.funds(player) >= p.spend_per_action * self.phase.actions else 1.0

    def rate(self, player: Player) -> float:
        """What the next £ in hand is worth to the player, in VP."""
        return self.params.vp_per_pound * self._share(player) * self.fade(self.phase.actions)

    def level_worth(self, player: Player) -> float:
        """What one more income level is worth to the player, in VP."""
        return self.params.vp_per_pound * self._share(player) * self.pay_factor

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

    def income_of(self, spec: TileSpec) -> float:
        """Income spaces a tile of `spec` is expected to bring when it flips: its own, and for a tile
        its owner sells the sale's own bonus (`sale_bonus`)."""
        return spec.income + self.sale_bonus(spec)

    def pending_spaces(self, player: Player) -> float:
        """Income spaces the player's unflipped tiles are expected to add."""
        return sum(self.flip_chance(t) * self.income_of(t.spec) for t in self.state.tiles.values()
                   if t.owner is player and not t.flipped)

    def pending_worth(self, player: Player, position: float | None = None, pending: float | None = None) -> float:
        """The income still to come from tiles to flip, valued together (one tile's spaces are worth
        fewer levels once another one has moved the marker up)."""
        pending = self.pending_spaces(player) if pending is None else pending
        return self.params.pending_income * self.spaces_worth(player, pending, position)

    # -- will a tile flip? -----------------------------------------------------------------------
    # -- what will be scored ---------------------------------------------------------------------

    def tile_worth(self, tile: PlacedTile) -> float:
        """The VP a tile on the board will still bring its owner at the era ends ahead, less the
        actions its owner still has to spend on it (its income is `pending_worth`)."""
        vp = tile.spec.vp * scorings(self.table, tile)
        if tile.flipped:
            return float(vp)
        chance, actions = self.prospects(tile)
        return chance * (vp - actions * self.params.action_worth)

    def tile_and_income_worth(self, tile: PlacedTile) -> float:
        """A tile's worth with its own income, as if it were the only one to flip."""
        chance = self.flip_chance(tile) if not tile.flipped else 0.0
        income = self.params.pending_income * chance * self.spaces_worth(tile.owner, self.income_of(tile.spec))
        return self.tile_worth(tile) + income

    def icons_expected(self, location: str) -> float:
        """Link icons the location is expected to show when this era's links are scored."""
        found = self._icons.get(location)
        if found is None:
            spot = self.rs.locations[location]
            icons = float(spot.link_icons)
            for slot in spot.slots:
                tile = self.state.tiles.get(slot.id)
                if tile is None:
                    icons += self.params.free_slot_icons * self.phase.era_left
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

    def reach_worth(self, player: Player) -> float:
        """Places to build later: locations of the network with a free slot."""
        tiles = self.state.tiles
        free = sum(1 for loc in self.network_of(player)
                   if any(s.id not in tiles for s in self.rs.locations[loc].slots))
        p = self.params
        return p.reach * min(free, p.reach_cap) * min(1.0, self.phase.actions / p.reach_actions)

    # -- the mat ---------------------------------------------------------------------------------

    def deadness(self, spec: TileSpec) -> float:
        """1 for a tile no era ahead lets anyone build; rising to 1 over the last actions of its
        only era; else 0."""
        eras = [e.id for e in self.rs.eras[self.state.era_index:self.facts.last_era + 1]]
        if not any(e in spec.eras for e in eras):
            return 1.0
        if len(eras) > 1 and not any(e in spec.eras for e in eras[1:]):
            return max(0.0, 1.0 - self.phase.actions_era / self.params.dead_soon_actions)
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
            p = self.params
            keen = min(1.0, self.phase.actions / p.mat_fade_actions)  # at the very end nothing more is built anyway
            found, blocked = 0.0, 0.0
            for spec in self.table.mat_stack(industry)[used:]:
                dead = self.deadness(spec)
                if dead == 0.0:
                    found = blocked
                    break
                if not spec.develop:
                    break  # a lightbulb tile: developing cannot get past it
                blocked += dead * p.dead_tile * keen
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
                + self.liquidity(player.money) - self.shortfall(player)
                + self.mat_worth(player) + self.reach_worth(player) + self.awards(player))

    def liquidity(self, money: float) -> float:
        """What money in hand is worth beyond its worth as funds: the means to act now."""
        p = self.params
        return p.liquidity * min(max(0.0, money), p.liquid_up_to) * min(1.0, self.phase.actions / p.liquid_actions)

    def shortfall(self, player: Player) -> float:
        """The £ of the next negative income the player could not pay, in VP (a shortfall removes
        tiles, R-SHORT-01)."""
        if self.phase.payments <= 0:
            return 0.0
        return self.params.shortfall * max(0, -self.table.income_level(player) - player.money)

    def awards(self, player: Player) -> float:
        """What the game's end awards beyond the eras' scoring (the Introductory Game: money,
        income), as it would stand now."""
        steps = self.rs.game_end.scoring if self.rs.game_end else ()
        env = Env(self.table, {"p": player})
        return float(sum(s.args["amount"](env) for s in steps if s.name == "award_vp"))
