"""The bots' parameters: the judgements of the heuristic bot and the knobs of the search bot, as
named numbers a ruleset may set in its `bots:` section (docs/bots.md, docs/ruleset-format.md).

    ruleset.bots.heuristic.vp_per_pound        # what the bots of this ruleset play with
    replace(ruleset.bots.heuristic, looks=8)   # a candidate for a tuner: frozen, so copied
    bot_params({"heuristic": {"debt": 2.5}})   # from a validated `bots:` section

The numbers the rules fix (tiles' VP, costs, the income track …) are read from the ruleset's other
sections; what is declared here is experience: what £1 is worth, how likely a tile is to flip, how
many actions ahead a search looks. Each parameter is a field with its default (the value the bots
were tuned to by self-play on the base game), its range and its meaning, in one place: the loader
checks a ruleset's values against it (`section_schema`), `brass schema` and docs/bots.md show it.

They are declared here, in the ruleset layer, because a ruleset's file carries them and the loader
must refuse a wrong one at its line; the bots (interpreter/tools/bots/) read them from the ruleset
they play, or from values a caller passes (a tuner's candidates). A bot binds the group it needs
once per position it judges: a field of a frozen, slotted dataclass is one attribute read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any

__all__ = ["GROUPS", "TUNED_KEYS", "BotParams", "HeuristicParams", "Param", "SearchParams", "Tuned", "bot_params",
           "catalogue", "section_schema", "to_data", "tuned_record"]


def _param(default: float, low: float, high: float, doc: str) -> Any:
    """A parameter: its default (whose Python type, int or float, is the parameter's type), the
    closed range a ruleset may set it in, and what it means."""
    assert low <= default <= high, doc  # a default outside its own range would fail every load
    return field(default=default, metadata={"low": low, "high": high, "doc": doc})


@dataclass(frozen=True, slots=True)
class HeuristicParams:
    """The heuristic bot's judgements (interpreter/tools/bots/knowledge/), also the search bot's: its
    candidates, its rollouts and the estimate it scores its leaves with. VP unless said otherwise."""

    # -- money and income ------------------------------------------------------------------------
    vp_per_pound: float = _param(0.4, 0.0, 5.0, "VP £1 is worth while there are actions left to spend it")
    spend_per_action: int = _param(6, 0, 1000, "£ one action can usefully spend: funds beyond this for each "
                                               "action left are a surplus")
    surplus_share: float = _param(0.25, 0.0, 1.0, "the share of `vp_per_pound` a £ of surplus is worth")
    debt: float = _param(2.0, 0.0, 20.0, "funds below £0 (income the seat will not be able to pay) cost this "
                                         "many times `vp_per_pound` a £: unpaid income takes tiles and VP")
    liquidity: float = _param(0.1, 0.0, 5.0, "VP a £ in hand is worth on top of its worth as funds, up to "
                                             "`liquid_up_to`: money now builds tiles that pay back sooner than "
                                             "income that comes later (what makes an early loan pay)")
    liquid_up_to: int = _param(30, 0, 1000, "£ in hand counted by `liquidity`")
    liquid_actions: int = _param(8, 1, 100, "`liquidity` fades out over the game's last this many actions")
    money_fades_within: int = _param(3, 1, 100, "money fades to nothing over the game's last this many actions: "
                                                "it can no longer be turned into VP")
    pending_income: float = _param(0.8, 0.0, 1.0, "the share of its worth the income of tiles still to flip keeps: "
                                                  "it comes later than the income of the level now")
    shortfall: float = _param(3.0, 0.0, 50.0, "VP a £ of next round's negative income the seat cannot pay costs: "
                                              "unpaid income takes tiles")
    # -- actions ---------------------------------------------------------------------------------
    action_worth: float = _param(2.0, 0.0, 50.0, "VP an action is worth: a tile that needs another action of its "
                                                 "owner (a sale) is worth this less for each")
    pass_waste: float = _param(2.0, 0.0, 50.0, "what a pass costs: it throws an action away, which the estimate "
                                               "of the money it keeps does not count")
    # -- will a tile flip? -----------------------------------------------------------------------
    sell_chance: float = _param(0.85, 0.0, 1.0, "the chance a tile that flips when sold is sold once it is "
                                                "connected to a buyer …")
    missing_link: float = _param(0.5, 0.0, 1.0, "… times this for each link still missing between them")
    owner_link_share: float = _param(0.5, 0.0, 1.0, "actions its owner still spends for each missing link (the "
                                                    "other seats build some of them)")
    no_buyer: float = _param(0.03, 0.0, 1.0, "the chance a tile that flips when sold flips with no buyer in reach")
    unsupplied_sale: float = _param(0.5, 0.0, 1.0, "the sale chance is multiplied by this when the seat cannot "
                                                   "count on the resources its sale consumes")
    sale_bonus_share: float = _param(0.75, 0.0, 1.0, "the share of the income spaces a sale-like action gives on "
                                                    "top of the tile's own income (its `advance_income` steps as the "
                                                    "state stands: Lancashire's Distant Market, L-DM-04) that a tile "
                                                    "still to sell counts")
    producer_chance: float = _param(0.95, 0.0, 1.0, "the chance a producer flips when every cube on it is wanted …")
    per_cube: float = _param(0.08, 0.0, 1.0, "… less this for each cube on it beyond the first …")
    producer_floor: float = _param(0.4, 0.0, 1.0, "… but never below this share for its cubes alone")
    demand: float = _param(0.2, 0.0, 10.0, "cubes of a resource with a market asked for per action still to play")
    burnt_demand: float = _param(0.3, 0.0, 10.0, "the same for the resource links also consume: it is the fuel "
                                                 "most tiles need too")
    link_demand: float = _param(0.5, 0.0, 1.0, "the share of actions that are links, for a resource links consume")
    unmarketed_demand: float = _param(0.03, 0.0, 10.0, "cubes of a resource without a market asked for per action, "
                                                       "beyond what the unsold tiles on the board need")
    others_share: float = _param(0.3, 0.0, 1.0, "the share of other seats' needs for a resource without a market "
                                                "a seat's producer meets (they use their own first), and of their "
                                                "cubes a seat can count on")
    unlinked_producer: float = _param(0.5, 0.0, 1.0, "a producer whose market is reached through a connection, "
                                                     "with no link at its location, flips this much less often: "
                                                     "only its location uses it")
    # -- links, the mat, the network -------------------------------------------------------------
    free_slot_icons: float = _param(0.6, 0.0, 10.0, "link icons a free slot is expected to show by the era's end, "
                                                    "at the era's start (fewer as the era goes on)")
    dead_tile: float = _param(3.0, 0.0, 50.0, "VP lost to a tile of the mat that can never be built again: it "
                                              "blocks the better tiles under it until developed away")
    dead_soon_actions: int = _param(6, 1, 100, "a tile of this era only starts to count as dead this many actions "
                                               "before the era's end")
    mat_fade_actions: int = _param(6, 1, 100, "dead tiles cost less over the game's last this many actions: "
                                              "nothing more will be built anyway")
    reach: float = _param(0.5, 0.0, 10.0, "VP a location of the seat's network with a free slot is worth: a place "
                                          "to build later")
    reach_cap: int = _param(8, 0, 100, "… counted up to this many locations")
    reach_actions: int = _param(8, 1, 100, "… fading out over the game's last this many actions")
    free_develop: float = _param(2.0, 0.0, 50.0, "VP a bonus step other than VP, money or income spaces is "
                                                 "worth (a free develop)")
    # -- cards -----------------------------------------------------------------------------------
    wild_keep: float = _param(2.5, 0.0, 50.0, "VP a wild card in hand is worth (it builds anything, anywhere)")
    card_keep: float = _param(0.8, 0.0, 10.0, "VP a normal card in hand is worth for each good build it allows …")
    card_uses: int = _param(2, 0, 100, "… counted up to this many builds")
    twin_share: float = _param(0.5, 0.0, 1.0, "a card with a twin of the same face in hand is worth this share")
    card_fade_actions: int = _param(4, 1, 100, "cards kept are worth less over the era's last this many actions")
    # -- loans -----------------------------------------------------------------------------------
    loan_below: int = _param(30, 0, 1_000_000, "a loan is looked at only with less money than this …")
    loan_lowest_level: int = _param(-3, -1000, 1000, "… when the income level stays at least this after it "
                                                     "(unless the seat is stuck) …")
    loan_actions: int = _param(4, 0, 1000, "… and there are this many actions left to spend it")
    stuck_below: int = _param(4, 0, 1_000_000, "a seat with less money than this can do nothing: a loan is its "
                                               "way out")
    # -- the shortlist ---------------------------------------------------------------------------
    looks: int = _param(5, 1, 100, "actions played out on a copy of the game and judged whole, best quick value "
                                   "first …")
    kind_margin: float = _param(5.0, 0.0, 1000.0, "… and the best of each other kind whose quick value is at most "
                                                  "this far below the best")

    def __post_init__(self) -> None:
        check_values(self)


@dataclass(frozen=True, slots=True)
class SearchParams:
    """The search bot's knobs (interpreter/tools/bots/search.py, on the generic search of mcts.py)."""

    candidates: int = _param(5, 1, 100, "own actions the halving search compares, best first by the estimate "
                                        "one action ahead")
    value_scale: float = _param(10.0, 0.1, 1000.0, "VP per unit of a position's value (a seat's estimate minus "
                                                   "the best other seat's): `exploration` is relative to it")
    heuristic_rollout: int = _param(2, 0, 100, "actions played after a candidate with heuristic rollouts, "
                                               "before the estimate judges the position")
    greedy_rollout: int = _param(4, 0, 100, "the same with greedy rollouts (cheaper, so longer)")
    exploration: float = _param(0.7, 0.0, 100.0, "the tree search's UCB constant")
    widening: float = _param(1.5, 0.01, 100.0, "progressive widening: a node visited n times has at most "
                                               "ceil(widening * n ** widening_power) children")
    widening_power: float = _param(0.5, 0.0, 1.0, "the power of progressive widening")
    own_turn_once: int = _param(1, 0, 1, "1: in a playout, the seat's own later actions of the turn the search "
                                         "started in are the rollout policy's choice made once for each "
                                         "candidate (they depend on its hand and the board only, the same in "
                                         "every world), not again in every world; 0: chosen in every world")
    shared_rollouts: int = _param(1, 0, 1, "1: in the halving search, a rollout action in a world (another "
                                            "seat's, or the seat's own after the turn searched) is chosen once, "
                                            "after the first candidate, and replayed after the others where it is "
                                            "legal (chosen anew where not): fewer choices, but rollouts that do not "
                                            "react to the candidate; 0: chosen after each candidate")
    greedy_others: int = _param(0, 0, 1, "1: in heuristic rollouts, the other seats' actions are the greedy "
                                          "bot's (about 8 times cheaper, a cruder opponent); 0: the heuristic's")

    def __post_init__(self) -> None:
        check_values(self)


@dataclass(frozen=True, slots=True)
class BotParams:
    """Every group of parameters a ruleset carries (its `bots:` section; a group not written takes
    its defaults, a parameter not written its default)."""

    heuristic: HeuristicParams = field(default_factory=HeuristicParams)
    search: SearchParams = field(default_factory=SearchParams)


# The groups by their key in `bots:`.
GROUPS: dict[str, type[HeuristicParams] | type[SearchParams]] = {"heuristic": HeuristicParams,
                                                                  "search": SearchParams}


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter as the docs and the schema show it."""

    group: str
    name: str
    kind: type  # int or float
    default: float
    low: float
    high: float
    doc: str


def _default(spec: Field[Any]) -> int | float:
    default = spec.default
    assert isinstance(default, int | float)  # every parameter is declared with `_param`
    return default


def _describe(group: str, spec: Field[Any]) -> Param:
    default = _default(spec)
    return Param(group, spec.name, type(default), default, spec.metadata["low"], spec.metadata["high"],
                 spec.metadata["doc"])


def catalogue() -> list[Param]:
    """Every parameter, group by group, in the order they are declared."""
    return [_describe(group, spec) for group, cls in GROUPS.items() for spec in fields(cls)]


def section_schema() -> dict[str, Any]:
    """The cerberus schema of the `bots:` section: each group a mapping of its parameters, each
    parameter an integer or a number (not NaN) in its range."""
    groups: dict[str, Any] = {}
    for param in catalogue():
        rule: dict[str, Any] = {"type": "int"} if param.kind is int else {"type": "number", "check_with": "not_nan"}
        groups.setdefault(param.group, {})[param.name] = {**rule, "min": param.low, "max": param.high}
    sections: dict[str, Any] = {group: {"type": "dict", "schema": schema} for group, schema in groups.items()}
    return {"type": "dict", "schema": {**sections, "tuned": TUNED_SCHEMA}}


# The record `brass tune --write` leaves beside the parameters (the `tuned:` key of `bots:`): for
# how many players the ruleset was tuned, how many games, and what came of it, so that a comparison
# can say whether its parameters were tuned for it or borrowed (docs/bots.md, "Tuning").
TUNED_KEYS: dict[str, str] = {
    "players": "the number of players of the tuning run",
    "seed": "the tuning run's seed",
    "games": "the tuning games played",
    "result": "`better`: tuned parameters beat the starting ones in the verdict; `kept`: they were not shown "
              "better, so the starting parameters were kept",
    "verdict": "the verdict's games won by the tuned parameters (`wins`) and played (`games`: 0 when no "
               "candidate was taken and no verdict was played)",
}
# Every key is required: a ruleset's record must not borrow one from its base's (mappings merge key
# by key through `extends`).
TUNED_SCHEMA: dict[str, Any] = {"type": "dict", "schema": {
    "players": {"type": "int", "min": 1, "max": 99, "required": True},
    "seed": {"type": "int", "required": True},
    "games": {"type": "int", "min": 0, "required": True},
    "result": {"type": "string", "allowed": ["better", "kept"], "required": True},
    "verdict": {"type": "dict", "required": True, "schema": {
        "wins": {"type": "number", "min": 0, "required": True, "check_with": "not_nan"},
        "games": {"type": "int", "min": 0, "required": True}}},
}}


@dataclass(frozen=True, slots=True)
class Tuned:
    """A ruleset's tuning record: what `brass tune --write` found for it."""

    players: int
    seed: int
    games: int
    result: str  # "better" or "kept"
    wins: float = 0  # the verdict: games won by the tuned parameters, of `verdict_games` (0: none played)
    verdict_games: int = 0

    def to_data(self) -> dict[str, Any]:
        return {"players": self.players, "seed": self.seed, "games": self.games, "result": self.result,
                "verdict": {"wins": self.wins, "games": self.verdict_games}}


def tuned_record(section: Mapping[str, Any] | None) -> Tuned | None:
    """The tuning record of a validated `bots:` section, or None when it has none."""
    data = (section or {}).get("tuned")
    if not data:
        return None
    verdict = data["verdict"]
    return Tuned(int(data["players"]), int(data["seed"]), int(data["games"]), str(data["result"]),
                 verdict["wins"], int(verdict["games"]))


def bot_params(data: Mapping[str, Any] | None) -> BotParams:
    """The parameters of a validated `bots:` section (None or empty: every default). A number
    parameter written as an integer is read as a float, so it computes exactly as its default does."""
    data = data or {}
    made: dict[str, Any] = {}
    for group, cls in GROUPS.items():
        given = data.get(group) or {}
        kinds = {spec.name: type(_default(spec)) for spec in fields(cls)}
        values: dict[str, Any] = {name: kinds[name](value) for name, value in given.items()}
        made[group] = cls(**values)
    return BotParams(**made)


def to_data(params: BotParams, *, changed_only: bool = True) -> dict[str, dict[str, float]]:
    """A `bots:` section that sets `params` (by default only the values that differ from the
    defaults): what a tuner writes beside a ruleset."""
    out: dict[str, dict[str, float]] = {}
    for group, cls in GROUPS.items():
        values, defaults = getattr(params, group), cls()
        for spec in fields(cls):
            value = getattr(values, spec.name)
            if not changed_only or value != getattr(defaults, spec.name):
                out.setdefault(group, {})[spec.name] = value
    return out


def check_values(group: HeuristicParams | SearchParams) -> None:
    """ValueError unless every value of a group has its parameter's type and lies in its range: a
    value set in code (a tuner's) is held to what a ruleset's file is held to when it loads."""
    for spec in fields(group):
        value, kind = getattr(group, spec.name), type(_default(spec))
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or (kind is int and not isinstance(value, int)) or not not_nan(value) \
                or not spec.metadata["low"] <= value <= spec.metadata["high"]:
            words = "an integer" if kind is int else "a number"
            raise ValueError(f"{spec.name} must be {words} from {spec.metadata['low']} to {spec.metadata['high']}, "
                             f"not {value!r}")


def not_nan(value: Any) -> bool:
    """Whether a value is no NaN, which passes every `min`/`max` comparison, so it is refused apart
    (an infinity fails the range, and is refused there)."""
    return not (isinstance(value, float) and math.isnan(value))
