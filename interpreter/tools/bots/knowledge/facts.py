"""Brass knowledge, part 1: the judgements (numbers a player's experience sets, tuned by self-play)
and what the ruleset says about the game's shape (lines at each location, when tiles score, how
many actions and income payments are left). The overview is in `bots/knowledge/worth.py`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from brass_dsl import Env
from interpreter.engine.state import PlacedTile
from interpreter.engine.table import Table
from interpreter.ruleset.model import Ruleset

# == judgements (VP unless said otherwise) ======================================================

VP_PER_POUND = 0.4  # what £1 buys while there are actions left to spend it
SPEND_PER_ACTION = 6  # £ one action can usefully spend: funds beyond that per action left …
SURPLUS_SHARE = 0.25  # … are worth this share of a pound
DEBT = 2.0  # a £ of income the seat cannot pay costs more: unpaid income takes tiles and VP
LIQUIDITY = 0.1  # VP per £ in hand (up to LIQUID_UP_TO) on top of its worth as funds: money now builds
LIQUID_UP_TO = 30  # … the tiles that pay back sooner than income that only comes later
LIQUID_ACTIONS = 8  # … and it stops mattering over the game's last this many actions
SHORTFALL = 3.0  # VP per £ of the next round's negative income the seat cannot pay: it costs tiles
MONEY_FADES_WITHIN = 3  # in the last actions of the game money can no longer be turned into VP
PASS_WASTE = 2.0  # a pass throws an action away: the money it keeps is worth less than the estimate says
ACTION_WORTH = 2.0  # what an action is worth: a tile that needs another action of its owner is worth less
PENDING_INCOME = 0.8  # income from tiles still to flip comes later than the income of the level now
SELL_CHANCE = 0.85  # a mill, manufacturer or pottery connected to a merchant that buys it gets sold …
MISSING_LINK = 0.5  # … times this for each link still missing between them …
NO_BUYER = 0.03  # … nearly never when no merchant buys it …
SHORT_OF_BEER = 0.5  # … and less likely when the beer it needs is not in sight
PRODUCER_CHANCE = 0.95  # a mine, works or brewery flips if what it holds is all wanted …
PER_CUBE = 0.08  # … less likely with each cube more on it
DEMAND = 0.2  # cubes of a market resource asked for per action still to play (beer: by the tiles to sell) …
BURNT_DEMAND = 0.3  # … more for the one links also burn (coal): it is the fuel most tiles need too
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
LOAN_BELOW = 30  # a loan only when money is short (below this) …
LOAN_LOWEST_LEVEL = -3  # … the income level stays at least this after it (unless the seat is stuck) …
LOAN_ACTIONS = 4  # … and there are this many actions left to spend it
STUCK_BELOW = 4  # a seat with less money than this can do nothing: a loan is its way out
INFINITE = 99

# == what the ruleset says, once per ruleset ======================================================

@dataclass(frozen=True)
class Facts:
    """Lookups of a ruleset the judgements read: lines touching each location, the last era."""

    touching: Mapping[str, tuple[tuple[str, tuple[str, ...]], ...]]  # location -> (link id, ends) of its lines
    last_era: int  # index of the era after which the game ends


_FACTS: dict[int, tuple[Ruleset, Facts]] = {}
# (ruleset id, era, tile spec) -> (the ruleset, era ends that score it): the ruleset is kept and
# compared, for an id is reused once its object is gone (a stale count misjudged another ruleset)
_SCORINGS: dict[tuple[int, int, str], tuple[Ruleset, int]] = {}


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
    if found is None or found[0] is not rs:
        found = _SCORINGS[key] = (rs, _count_scorings(table, tile))
    return found[1]


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
