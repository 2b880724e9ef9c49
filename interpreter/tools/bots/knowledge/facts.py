"""Brass knowledge, part 1: where the judgements come from (numbers a player's experience sets, tuned
by self-play: parameters of the ruleset played) and what the ruleset says about the game's shape
(lines at each location, when tiles score, how many actions and income payments are left). The
overview is in `bots/knowledge/worth.py`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from brass_dsl import Env
from interpreter.engine.state import PlacedTile
from interpreter.engine.table import Table
from interpreter.ruleset.bot_params import HeuristicParams
from interpreter.ruleset.model import Ruleset

# == judgements ===================================================================================
# The judgements (what £1 is worth, how likely a tile is to flip …) are parameters of the ruleset the
# bots play (`ruleset.bots.heuristic`, interpreter/ruleset/bot_params.py, docs/bots.md): a variant
# may carry its own. Each class that judges binds them once (`Prospects.params`).

# What evaluating a ruleset's expression outside the engine raises when it reads a choice or value
# not bound (KeyError) or one that cannot be used without playing the action: the knowledge then
# does without what the expression says.
UNREADABLE = (LookupError, TypeError, ValueError, AttributeError)

NO_BUYER = HeuristicParams().no_buyer  # the default chance of a tile no one buys (tests compare with it)
INFINITE = 99  # links missing to a buyer that cannot be reached

# == what the ruleset says, once per ruleset ======================================================

@dataclass(frozen=True)
class Facts:
    """Lookups of a ruleset the judgements read: lines touching each location, the last era."""

    touching: Mapping[str, tuple[tuple[str, tuple[str, ...]], ...]]  # location -> (link id, ends) of its lines
    last_era: int  # index of the era after which the game ends
    # industries whose tiles open a market to their location (named in a resource's `access_through`:
    # Lancashire's Port, L-TRADE-01): their tiles are bought from, and flip by the seller's action
    trading: frozenset[str] = frozenset()


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
        found = _FACTS[id(ruleset)] = (ruleset, Facts({k: tuple(v) for k, v in touching.items()}, last,
                                                      _trading(ruleset)))
    return found[1]


def _trading(ruleset: Ruleset) -> frozenset[str]:
    """The industries a market resource's `access_through` names (as a quoted literal of its text):
    a tile of theirs is where goods reach the market."""
    texts = [getattr(r.access_through, "text", "") for r in ruleset.resources.values()
             if r.market is not None and r.access_through is not None]
    return frozenset(i for i in ruleset.industries
                     if any(f'"{i}"' in text or f"'{i}'" in text for text in texts))


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
