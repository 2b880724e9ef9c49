"""What the heuristic bot knows of Brass, in one place: the worth of a position and of an action.

Everything a bot believes about playing Brass well lives here, with the reasons, so that it can be
read, tuned and shared (the search bot uses `estimate` at its leaves and the heuristic bot as its
rollout policy). The numbers the rules fix are read from the ruleset (tiles' VP, income and cost,
the eras and what their ends score, rounds per era, link prices, the income track, merchant
bonuses); what is judged here with parameters: how much £1 is worth, how likely a tile is to flip,
how many link icons a location will show. Their defaults were tuned by self-play (docs/bots.md).

    estimate(game_or_view, seat)      expected final VP of a seat (a float, comparable between positions)
    Outlook(table)                    the same, piece by piece (brass_knowledge_outlook)
    Appraiser(table, seat)            quick values of the parts of an action (brass_knowledge_actions)

Each takes the judgements as `params` (a `HeuristicParams`), by default the parameters of the
ruleset played (`ruleset.bots.heuristic`, interpreter/ruleset/bot_params.py: a variant may carry
its own, and a tuner may pass candidates).

The knowledge is split by job: `brass_knowledge_facts` (the judgements, and what the ruleset says
about the shape of the game), `brass_knowledge_flips` (will a tile flip?), `brass_knowledge_outlook`
(a position in VP), `brass_knowledge_actions` (an action in VP), `brass_knowledge_roles` (what each
action of the ruleset is for, read from its effects, and its choices by type) and
`brass_knowledge_choices` (the engine's decisions, valued by role: no part knows an action's name).
This module is their front door: the bots import from it.

The position is judged as an experienced player does, in VP:

- VP already scored;
- each tile still to score: its VP times the era ends it will be scored at (level I tiles are
  removed at the end of the Canal Era), times the chance it flips (sold tiles: how many links
  are missing to a merchant that buys them; producers: how many cubes are left);
- each link still to score: the link icons expected at its ends at the era's end;
- money and income: £ turn into VP through the actions still to play, so £1 is worth
  `vp_per_pound` while there are actions to spend it, less beyond what those actions can spend,
  and nothing at the very end; an income level is worth the money it pays over the rounds left;
  money in hand is worth a little more (it builds now: what makes an early loan pay);
- the mat: tiles that can never be built again (level I in the Rail Era) block better ones and
  cost VP until developed away; a lightbulb tile cannot be developed, so it is not counted;
- the network: each location in it with a free slot is a place to build later.
"""

from __future__ import annotations

from typing import Protocol

from interpreter.engine.table import Table
from interpreter.ruleset.bot_params import HeuristicParams
from interpreter.tools.bots.knowledge.actions import Appraiser
from interpreter.tools.bots.knowledge.choices import (
    admitted,
    answer_value,
    decision_value,
    discard_gain,
    searched,
    whole_value,
)
from interpreter.tools.bots.knowledge.outlook import Outlook

__all__ = ["Appraiser", "HasTable", "Outlook", "admitted", "answer_value", "decision_value", "discard_gain",
           "estimate", "searched", "whole_value"]


class HasTable(Protocol):
    """A `Game` or a `SeatView`: what the estimate reads."""

    @property
    def table(self) -> Table: ...


def estimate(game_or_view: HasTable, seat: int, params: HeuristicParams | None = None) -> float:
    """Expected final VP of `seat` from this position (see the module's docstring), with the
    judgements `params` (by default those of the ruleset played)."""
    return Outlook(game_or_view.table, params=params).estimate(seat)
