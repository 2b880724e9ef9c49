"""The loaded ruleset as typed, immutable Python objects.

`build_model` turns the validated YAML data (plain dicts and lists) into these
dataclasses once, so that the rest of the interpreter works with attributes and
precomputed tables (income level per track position, deck per player count)
instead of re-reading dictionaries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from brass_dsl.source import SourcePos
from interpreter.ruleset.bot_params import BotParams
from interpreter.ruleset.declared import TILE_FIELDS, kinds_of, link_kind_ids, needs_of

if TYPE_CHECKING:
    from interpreter.ruleset.yaml_source import Document


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    text: str
    source: str
    # Why the ruleset does not play this rule (data the rules name is missing, say); empty when it does.
    # `brass verify --coverage` lists such rules apart instead of counting them as uncovered.
    not_implemented: str = ""


@dataclass(frozen=True, slots=True)
class ColourGroup:
    id: str
    name: str
    colour: str | None = None  # "#rrggbb" of its banner, for pictures of the board


@dataclass(frozen=True, slots=True)
class Slot:
    """One industry space of a location; `industries` are the icons it shows."""

    location: str
    index: int
    industries: tuple[str, ...]
    id: str = field(init=False, compare=False, repr=False)  # "location/index", made once: slots key many memos

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", f"{self.location}/{self.index}")

    def __hash__(self) -> int:
        return hash(self.id)


@dataclass(frozen=True, slots=True)
class Location:
    id: str
    name: str
    kind: str  # town | farm_brewery | merchant | external (words.LOCATION_KINDS)
    group: str | None
    slots: tuple[Slot, ...]
    link_icons: int
    at: tuple[int, int] | None = None  # where it is drawn (board units, y to the south); None: laid out automatically


@dataclass(frozen=True, slots=True)
class Link:
    """A line on the board; it may touch more than two locations (Kidderminster–Worcester)."""

    id: str
    ends: tuple[str, ...]
    kinds: tuple[str, ...]  # the link kinds it takes (`link_kinds:`), in declared order

    def takes(self, kind: str) -> bool:
        return kind in self.kinds



@dataclass(frozen=True, slots=True)
class LinkKind:
    """A kind of link tile (`link_kinds:`, else the eras' `link_kind`s): what a line may take."""

    id: str
    name: str
    colour: str | None = None  # "#rrggbb", for pictures of the board (None: the default palette)
    dashed: bool | None = None  # drawn dashed on pictures (None: the default palette's choice)


@dataclass(frozen=True, slots=True)
class Industry:
    id: str
    name: str
    flips: str  # sold | emptied | built (flips in the Build that places it)
    produces: str | None
    short: str | None = None  # its label on a picture of the board
    colour: str | None = None  # "#rrggbb", for pictures of the board


@dataclass(frozen=True, slots=True, eq=False)  # identity: each level is one object, usable as a key
class TileSpec:
    """One level of an industry's tiles on a player mat."""

    industry: str
    level: int
    count: int
    cost: int
    needs: Mapping[str, int]  # resource id -> amount (every declared resource, 0 when not needed)
    output: Mapping[str, int]  # era id -> cubes or barrels placed when built
    vp: int
    link_icons: int
    income: int
    develop: bool
    eras: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.industry}/{self.level}"



@dataclass(frozen=True, slots=True)
class CardSpec:
    """A face of the draw deck: a location card or an industry card."""

    id: str
    location: str | None
    industries: tuple[str, ...]
    count: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class WildCardSpec:
    id: str
    kind: str  # location | industry
    count: int
    excludes: tuple[str, ...]  # location kinds a wild location card cannot stand for


@dataclass(frozen=True, slots=True)
class EffectStep:
    """One named effect with its arguments (compiled expressions or literals)."""

    name: str
    args: Mapping[str, Any]
    pos: SourcePos | None
    rule: str | None = None  # the rule it applies: cited when an answer to its question is refused


@dataclass(frozen=True, slots=True)
class Merchant:
    id: str
    spaces: Mapping[int, int]
    beer_bonus: tuple[EffectStep, ...]


@dataclass(frozen=True, slots=True)
class MerchantTileSpec:
    id: str
    buys: tuple[str, ...]
    count: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Resource:
    id: str
    name: str
    sources: tuple[str, ...]
    choice: str  # in_order: each source only when the earlier ones cannot serve; any_mix: the player mixes freely
    market: str | None
    market_access: str
    sell_on_build: str
    sources_in: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # action id -> its own sources
    source_rules: Mapping[str, str] = field(default_factory=dict)  # source kind -> the rule a wrong choice breaks
    # `access_through`: which locations (`l`) reach the market, as the state stands (None: the merchant locations)
    access_through: Any = None

    def sources_for(self, action: str | None) -> tuple[str, ...]:
        """Where the resource may come from for this action (the action's own list, else `sources`)."""
        return self.sources_in.get(action, self.sources) if action is not None else self.sources


@dataclass(frozen=True, slots=True)
class Market:
    id: str
    prices: tuple[int, ...]  # cheapest space first
    start_cubes: int
    empty_price: int

    @property
    def capacity(self) -> int:
        return len(self.prices)


@dataclass(frozen=True, slots=True)
class Track:
    """A number of the game a ruleset defines (`tracks:`), kept within min..max by the effects."""

    id: str
    name: str
    start: int
    min: int
    max: int

    def clamp(self, value: int) -> int:
        return max(self.min, min(self.max, value))


@dataclass(frozen=True, slots=True)
class Stack:
    """Face-down tiles, each showing a number, shuffled at setup and drawn by the `draw` effect."""

    id: str
    name: str
    tiles: Mapping[int, Mapping[int, int]]  # value shown -> player count -> copies

    def pile(self, players: int) -> list[int]:
        """Every tile of the stack at a player count, lowest value first."""
        return [value for value, counts in sorted(self.tiles.items()) for _ in range(counts.get(players, 0))]


@dataclass(frozen=True, slots=True)
class IncomeTrack:
    start_position: int
    levels: tuple[int, ...]  # income level of each track position

    @property
    def positions(self) -> int:
        return len(self.levels)

    @property
    def lowest_level(self) -> int:
        return self.levels[0]

    @property
    def highest_level(self) -> int:
        return self.levels[-1]

    def level_at(self, position: int) -> int:
        return self.levels[max(0, min(position, len(self.levels) - 1))]

    def top_position(self, level: int) -> int:
        """The highest track position of an income level (where a loan leaves the marker)."""
        return max(p for p, lv in enumerate(self.levels) if lv == level)


@dataclass(frozen=True, slots=True)
class Setup:
    money: int
    vp: int
    hand_size: int
    face_down_discards: int
    links_per_player: int
    rounds_per_era: Mapping[int, int]
    turn_order: str


@dataclass(frozen=True, slots=True)
class Economy:
    loan_amount: int
    loan_income_levels: int
    shortfall_tile_value_divisor: int
    shortfall_vp_per_money: int
    shortfall_vp_floor: int | None = 0  # VP a shortfall never takes a player below; None: no floor
    # Money a shortfall may leave: what tiles do not raise is owed down to it, VP pay the rest; None: no floor
    shortfall_money_floor: int | None = 0


@dataclass(frozen=True, slots=True)
class NetworkOption:
    links: int
    money: int
    needs: Mapping[str, int]  # resource id -> amount for the whole action (every declared resource)



@dataclass(frozen=True, slots=True)
class Era:
    id: str
    name: str
    link_kind: str
    actions_per_turn: int
    first_round_actions: int
    network: tuple[NetworkOption, ...]
    end: tuple[EffectStep, ...]
    end_before_round_end: bool = False  # the last round's `round_end` steps follow `end` (else precede it)
    set_aside: Mapping[int, int] = field(default_factory=dict)  # player count -> cards set aside as the era begins
    # the steps made so far (`network_step`): made from the era alone, so each once
    _steps: dict[int, NetworkOption] = field(default_factory=dict, init=False, compare=False, repr=False)

    def network_step(self, n: int) -> NetworkOption:
        """What the n-th link of one Network action adds: the totals for n links less those for n − 1
        (the rules of a Network read it for every link they judge). A ValueError if there is none."""
        found = self._steps.get(n)
        if found is None:  # (one that does not exist raises each time it is asked for)
            totals = {o.links: o for o in self.network}
            if n not in totals:
                raise ValueError(f"the {self.name} allows no Network action with {n} links")
            before, now = totals.get(n - 1, NetworkOption(n - 1, 0, {})), totals[n]
            found = self._steps[n] = NetworkOption(1, now.money - before.money, {
                rid: amount - before.needs.get(rid, 0) for rid, amount in now.needs.items()})
        return found


@dataclass(frozen=True, slots=True)
class Requirement:
    """A precondition of an action: the check, the player's message, the rule it enforces."""

    rule: str | None
    check: Any  # CompiledExpression -> bool
    message: tuple[tuple[str, Any], ...]  # text and compiled {expression} parts, in order (compile_rules.message)
    pos: SourcePos | None


@dataclass(frozen=True, slots=True)
class ActionParam:
    name: str
    type: str
    domain: Any  # CompiledExpression -> list
    doc: str
    rule: str | None = None  # the rule a value outside `domain` breaks (cited when one is named)
    # An optional param: asked only when this holds (CompiledExpression -> bool); otherwise absent,
    # its value ABSENT (brass_dsl.runtime), and `domain` gives only that value. None: always asked.
    when: Any = None


@dataclass(frozen=True, slots=True)
class ActionPart:
    """The choices, derived values, preconditions and effects of an action or of its repeated part."""

    params: tuple[ActionParam, ...]
    derived: Mapping[str, Any]  # name -> CompiledExpression
    requires: tuple[Requirement, ...]
    effects: tuple[EffectStep, ...]


@dataclass(frozen=True, slots=True)
class ActionRepeat:
    name: str
    min: int
    max: int | None
    part: ActionPart
    rules: tuple[str, ...] = ()  # the rules that set min and max, cited when a repetition is one too many
    # Preconditions over every repetition together (`requires_whole`), judged when the action ends:
    # the repeated part's name is a list with one entry per repetition, each entry's fields its choices.
    whole: tuple[Requirement, ...] = ()


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    name: str
    doc: str
    rules: tuple[str, ...]
    part: ActionPart
    repeat: ActionRepeat | None
    pos: SourcePos | None


@dataclass(frozen=True, slots=True)
class RankingKey:
    name: str
    key: Any  # CompiledExpression over `p` -> int


@dataclass(frozen=True, slots=True)
class GameEnd:
    scoring: tuple[EffectStep, ...]
    ranking: tuple[RankingKey, ...]
    last_era: str  # the game ends after this era (by default the last one listed)
    rule: str | None = None  # the rule ID that ends the game, cited when an action comes after the end


@dataclass
class Ruleset:
    """Everything that defines one game, resolved and checked."""

    name: str
    title: str
    version: str
    players: tuple[int, ...]
    description: str
    rulebook: Mapping[str, Any]
    rules: Mapping[str, Rule]
    colour_groups: Mapping[str, ColourGroup]
    locations: Mapping[str, Location]
    links: Mapping[str, Link]
    link_kinds: Mapping[str, LinkKind]
    industries: Mapping[str, Industry]
    tiles: Mapping[str, tuple[TileSpec, ...]]
    cards: Mapping[str, CardSpec]
    wild_cards: Mapping[str, WildCardSpec]
    merchants: Mapping[str, Merchant]
    merchant_tiles: Mapping[str, MerchantTileSpec]
    resources: Mapping[str, Resource]
    markets: Mapping[str, Market]
    income: IncomeTrack
    setup: Setup
    economy: Economy
    eras: tuple[Era, ...]
    round_end: tuple[EffectStep, ...] = ()
    game_end: GameEnd | None = None
    actions: Mapping[str, Action] = field(default_factory=dict)
    turn_rules: Mapping[str, str] = field(default_factory=dict)  # `turns:` kind (order, actions) -> rule ID
    tracks: Mapping[str, Track] = field(default_factory=dict)  # `tracks:`, by id
    stacks: Mapping[str, Stack] = field(default_factory=dict)  # `stacks:`, by id
    bots: BotParams = field(default_factory=BotParams)  # `bots:`, the bots' parameters (the defaults if absent)
    folders: tuple[str, ...] = ()  # the extends chain, base first
    rule_folders: Mapping[str, str] = field(default_factory=dict)  # rule ID -> the folder whose files state it
    registry: Any = field(default=None, repr=False)  # the condition-language vocabulary of this ruleset
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)  # the resolved YAML, for `brass show`
    # The resolved Document with the position of every value (for FILE:LINE:COL in `brass rule`), set by the loader.
    source: Document | None = field(default=None, repr=False, compare=False)

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(s for loc in self.locations.values() for s in loc.slots)

    @property
    def barrel_resource(self) -> str | None:
        """The resource merchants hold beside their tiles (a source `merchant_barrel`), if any."""
        return next((rid for rid, r in self.resources.items()
                     if "merchant_barrel" in r.sources or any("merchant_barrel" in s for s in r.sources_in.values())),
                    None)

    def deck_size(self, players: int) -> int:
        return sum(card.count.get(players, 0) for card in self.cards.values())

    def tiles_per_player(self) -> dict[str, int]:
        return {industry: sum(t.count for t in specs) for industry, specs in self.tiles.items()}

    def era(self, era_id: str) -> Era:
        index = self.__dict__.get("_era_index")  # built once the eras are compiled (the loader sets them late)
        if index is None or len(index) != len(self.eras):
            index = self.__dict__["_era_index"] = {e.id: e for e in self.eras}
        found = index.get(era_id)
        return found if found is not None else next(e for e in self.eras if e.id == era_id)

    def where(self, path: tuple[Any, ...]) -> str:
        """FILE:LINE:COL of a value of the resolved YAML, for a refusal to name ("" when unknown)."""
        pos = self.source.pos(path) if self.source is not None else None
        return str(pos) if pos is not None else ""


def build_static_model(data: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a Ruleset that need no expression compiling, from validated data."""
    return {
        "name": data["name"],
        "title": data["title"],
        "version": data["version"],
        "players": tuple(data["players"]),
        "description": data.get("description", "").strip(),
        "rulebook": dict(data.get("rulebook", {})),
        "rules": {rid: Rule(rid, r["text"], r.get("source", ""), r.get("not_implemented", ""))
                  for rid, r in data["rules"].items()},
        "colour_groups": {gid: ColourGroup(gid, g["name"], g.get("colour"))
                          for gid, g in data["colour_groups"].items()},
        "locations": {lid: _location(lid, loc) for lid, loc in data["locations"].items()},
        "link_kinds": _link_kinds(data),
        "links": {kid: Link(kid, tuple(k["ends"]), kinds_of(k, link_kind_ids(data)))
                  for kid, k in data["links"].items()},
        "industries": {iid: Industry(iid, i["name"], i["flips"], i.get("produces"), i.get("short"), i.get("colour"))
                       for iid, i in data["industries"].items()},
        "tiles": {iid: tuple(_tile(iid, t, data) for t in specs) for iid, specs in data["tiles"].items()},
        "cards": {cid: CardSpec(cid, c.get("location"), tuple(c.get("industries", ())), dict(c["count"]))
                  for cid, c in data["cards"].items()},
        "wild_cards": {wid: WildCardSpec(wid, w["kind"], w["count"], tuple(w.get("excludes", ())))
                       for wid, w in data["wild_cards"].items()},
        "merchant_tiles": {mid: MerchantTileSpec(mid, tuple(m["buys"]), dict(m["count"]))
                           for mid, m in data["merchant_tiles"].items()},
        "resources": {rid: Resource(rid, r["name"], tuple(r["sources"]), r.get("choice", "in_order"), r.get("market"),
                                    r.get("market_access", "anywhere"), r["sell_on_build"],
                                    {a: tuple(s) for a, s in r.get("sources_in", {}).items()},
                                    {kind: c["rule"] for kind, c in r.get("source_rules", {}).items() if "rule" in c})
                      for rid, r in data["resources"].items()},
        "markets": {mid: Market(mid, tuple(m["prices"]), m["start_cubes"], m["empty_price"])
                    for mid, m in data["markets"].items()},
        "income": income_track(data["income_track"]),
        "setup": _setup(data["setup"]),
        "economy": _economy(data["economy"]),
        "turn_rules": {kind: c["rule"] for kind, c in data.get("turns", {}).items() if "rule" in c},
        "tracks": {tid: Track(tid, t["name"], t["start"], t["min"], t["max"])
                   for tid, t in data.get("tracks", {}).items()},
        "stacks": {sid: Stack(sid, s["name"], {v: dict(c) for v, c in s["tiles"].items()})
                   for sid, s in data.get("stacks", {}).items()},
    }


def income_track(data: Mapping[str, Any]) -> IncomeTrack:
    """Expand the bands (levels a..b, n spaces each) into one level per position."""
    levels: list[int] = []
    for band in data["bands"]:
        low, high = band["levels"]
        for level in range(low, high + 1):
            levels.extend([level] * band["spaces"])
    return IncomeTrack(data["start_position"], tuple(levels))


def _location(lid: str, data: Mapping[str, Any]) -> Location:
    slots = tuple(Slot(lid, i, tuple(icons)) for i, icons in enumerate(data.get("slots", ())))
    at = data.get("at")
    return Location(lid, data["name"], data["kind"], data.get("group"), slots, data.get("link_icons", 0),
                    (at[0], at[1]) if at is not None else None)


def _tile(industry: str, t: Mapping[str, Any], data: Mapping[str, Any]) -> TileSpec:
    output = t.get("output", 0)
    era_ids = [e["id"] for e in data.get("eras", ()) if isinstance(e, dict) and "id" in e]
    per_era = dict(output) if isinstance(output, dict) else dict.fromkeys(era_ids, output)
    return TileSpec(industry, t["level"], t["count"], t["cost"], needs_of(t, TILE_FIELDS, data["resources"]),
                    per_era, t["vp"], t["link_icons"], t["income"], t["develop"], tuple(t["eras"]))


def _link_kinds(data: Mapping[str, Any]) -> dict[str, LinkKind]:
    declared = data.get("link_kinds") or {}
    found = {}
    for kind in link_kind_ids(data):
        given = declared.get(kind, {})
        found[kind] = LinkKind(kind, given.get("name", kind.replace("_", " ").capitalize()), given.get("colour"),
                               given.get("dashed"))
    return found


def _setup(s: Mapping[str, Any]) -> Setup:
    return Setup(s["money"], s["vp"], s["hand_size"], s["face_down_discards"], s["links_per_player"],
                 dict(s["rounds_per_era"]), s["turn_order"])


def _economy(e: Mapping[str, Any]) -> Economy:
    return Economy(e["loan"]["amount"], e["loan"]["income_levels"],
                   e["shortfall"]["tile_value_divisor"], e["shortfall"]["vp_per_money"],
                   e["shortfall"].get("vp_floor", 0), e["shortfall"].get("money_floor", 0))
