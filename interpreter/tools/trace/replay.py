"""Real-game traces: replay a trace's steps through `Game.apply` and compare every step with the record
(players, era scoring, turn order, board, links, markets, merchant beer, hands, final scores)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.game import Game, IllegalAction
from interpreter.ruleset.model import Ruleset
from interpreter.tools.trace.actions import ChoiceResolver, RoundEndAnswers, try_action, whole_action
from interpreter.tools.trace.mapping import CARD_ID, TraceError, TraceMapping
from interpreter.tools.trace.setup import deal_rail_from_trace, game_from_trace_setup
from interpreter.tools.trace.shape import check_trace_shape
from interpreter.tools.trace.sources import choose_sources


@dataclass
class Difference:
    seq: int
    what: str
    trace: Any
    ours: Any
    action: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)  # the rules the refusal, the question or our step cites

    @property
    def group(self) -> str:
        """What differs, for grouping many games' differences: the columns or fields that differ
        (`players: VP`, `board tiles: cubes`), else `what`."""
        fields = _DIFFERING_FIELDS.get(self.what)
        if fields is None:
            return self.what
        name, columns = fields
        changed: set[str] = set()
        if isinstance(self.trace, list) and isinstance(self.ours, list):  # one row per player
            for theirs, ours in zip(self.trace, self.ours, strict=False):
                changed |= {c for c, a, b in zip(columns, theirs, ours, strict=False) if a != b}
        elif isinstance(self.trace, dict) and isinstance(self.ours, dict):  # one row per slot
            for key in set(self.trace) | set(self.ours):
                theirs, ours = self.trace.get(key), self.ours.get(key)
                if theirs is None or ours is None:
                    changed.add("tile")
                else:
                    changed |= {c for c, a, b in zip(columns, theirs, ours, strict=False) if a != b}
        return f"{name}: {', '.join(c for c in columns if c in changed) or 'order'}" if changed else name

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "what": self.what, "group": self.group, "trace": self.trace, "ours": self.ours,
                "rules": self.rules}

    def describe(self) -> str:
        lines = [f"step seq {self.seq}: {self.what} differs",
                 f"  trace: {json.dumps(self.trace)}",
                 f"  ours:  {json.dumps(self.ours)}"]
        if self.rules:
            lines.append(f"  rules: {', '.join(self.rules)}")
        if "R-SETUP-08" in str(self.ours):
            lines.append("  note: the upstream engine does not limit link tiles; the rulebook gives 14 per "
                         "player (R-SETUP-08). Replay with --links-per-player 99 to go on.")
        if self.action is not None:
            lines.append(f"  action: {json.dumps(self.action)}")
        if self.log:
            lines.append("  our log for this step:")
            lines += [f"    {json.dumps(entry)}" for entry in self.log]
        return "\n".join(lines)


PLAYER_COLUMNS = ("money", "income space", "income level", "VP")
TILE_COLUMNS = ("owner", "industry", "level", "cubes", "flipped")
_DIFFERING_FIELDS = {
    "players [money, income space, income level, VP]": ("players", PLAYER_COLUMNS),
    "board tiles [owner, industry, level, cubes, flipped]": ("board tiles", TILE_COLUMNS),
}


@dataclass
class ReplayResult:
    name: str
    steps: int  # steps applied and matched
    total: int
    differences: list[Difference]
    final: list[dict[str, Any]] = field(default_factory=list)  # our standings at the end
    notes: list[str] = field(default_factory=list)
    game: Game | None = None

    @property
    def ok(self) -> bool:
        return not self.differences and self.steps == self.total


class _TraceBoard:
    """The trace's view of the board, kept from the effects, to compare with ours."""

    def __init__(self, trace: dict[str, Any], mapping: TraceMapping) -> None:
        self.mapping = mapping
        self.tiles: dict[str, dict[str, Any]] = {}
        self.links: dict[str, int] = {}
        self.markets = {"coal": trace["setup"]["coalMarket"], "iron": trace["setup"]["ironMarket"]}
        self.barrels = {f"{m}/{i}": bool(b) for m, d in trace["setup"]["merchants"].items()
                        for i, b in enumerate(d.get("barrels", []))}

    def apply(self, effects: dict[str, Any]) -> None:
        for change in effects.get("slots", []):
            slot = self.mapping.slot(change["location"], change["slotIndex"])
            if change["after"] is None:
                self.tiles.pop(slot, None)
            else:
                self.tiles[slot] = change["after"]
        if effects.get("linksRemoved"):
            self.links.clear()
        for added in effects.get("linksAdded", []):
            self.links[self.mapping.link(added["linkIndex"])] = self.mapping.player(added["owner"])
        for market in ("coal", "iron"):
            if f"{market}Market" in effects:
                self.markets[market] = effects[f"{market}Market"][1]
        for barrel in effects.get("merchantBarrels", []):
            self.barrels[f"{barrel['merchant']}/{barrel['tileIndex']}"] = bool(barrel["barrel"][1])

    def tiles_view(self) -> dict[str, list[Any]]:
        return {slot: [t["owner"] + 1, t["industry"], t["level"], t["resources"], t["flipped"]]
                for slot, t in sorted(self.tiles.items())}


def _our_tiles(game: Game) -> dict[str, list[Any]]:
    return {slot: [t.owner.seat, t.spec.industry, t.spec.level, t.cubes, t.flipped]
            for slot, t in sorted(game.state.tiles.items())}


def _dict_diff(theirs: dict[str, Any], ours: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    keys = sorted(set(theirs) | set(ours))
    return ({k: theirs.get(k) for k in keys if theirs.get(k) != ours.get(k)},
            {k: ours.get(k) for k in keys if theirs.get(k) != ours.get(k)})


def replay_trace(ruleset: Ruleset, trace: dict[str, Any], name: str = "trace",
                 progress: Callable[[str], None] | None = None,
                 on_step: Callable[[dict[str, Any], Game], None] | None = None,
                 source: str | None = None) -> ReplayResult:
    """Apply every recorded action through `Game.apply` and compare after every step; stop at the first difference.
    `on_step(step, game)` is called after each step that matched (the web replay keeps a copy of each position).

    A trace whose shape is wrong, or whose values do not fit together (a player, slot or link
    index the trace does not have, a catalogue that is not our board), is a TraceError naming
    `source` (the trace's file; `name` if not given) and the step or the field."""
    source = source or name
    check_trace_shape(trace, source)
    at = _Place()
    try:
        return _replay(ruleset, trace, name, progress, at, on_step, source)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise TraceError(f"{source}: the trace does not fit together {at}: {_what_is_wrong(error)}") from None


@dataclass
class _Place:
    """Where the replay is, for an error: the setup, or the step being replayed."""

    seq: int | None = None

    def __str__(self) -> str:
        return "in its setup" if self.seq is None else f"at step seq {self.seq}"


def _whole_refusal(game: Game, action: dict[str, Any] | None) -> IllegalAction | None:
    """The refusal of the whole action, as `Game.apply` gives it (on a copy): a decision taken alone
    can be refused for another reason (a second rail link without link tiles left is judged with the
    action by R-SETUP-08; alone, the action has ended and the link starts nothing)."""
    if action is None or game.pending is not None or game.question is not None:
        return None
    try:
        game.copy().apply(action)
    except IllegalAction as refused:
        return refused
    return None


def _rules_of(refused: IllegalAction) -> list[str]:
    """The rule IDs a refusal cites, each once, in order."""
    return list(dict.fromkeys(f.rule for f in refused.failures if f.rule))


def _rules_of_log(ruleset: Ruleset, log: list[dict[str, Any]]) -> list[str]:
    """The rules our step's log entries point to: a shortfall cites the ruleset's shortfall rules."""
    rules: list[str] = []
    if any(entry.get("event") == "shortfall" for entry in log):
        shortfall = ruleset.data.get("economy", {}).get("shortfall", {})
        rules += [r for r in shortfall.get("rules", []) if isinstance(r, str)]
    return rules


def _what_is_wrong(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"it refers to {error.args[0]!r}, which it does not define (or lacks that key)"
    if isinstance(error, IndexError):
        return f"an index beyond its list ({error})"
    return f"a value of the wrong kind ({type(error).__name__}: {error})"


def _replay(ruleset: Ruleset, trace: dict[str, Any], name: str, progress: Callable[[str], None] | None,
            at: _Place, on_step: Callable[[dict[str, Any], Game], None] | None = None,
            source: str = "the trace") -> ReplayResult:
    mapping = TraceMapping(ruleset, trace, source)
    game = game_from_trace_setup(ruleset, trace, mapping)
    board = _TraceBoard(trace, mapping)
    steps = trace["steps"]
    result = ReplayResult(name, 0, len(steps), [], notes=list(mapping.notes), game=game)
    hands = {mapping.player(n): Counter(h) for n, h in enumerate(trace["setup"]["hands"])}  # trace ids
    say = progress or (lambda text: None)

    def differ(seq: int, what: str, theirs: Any, ours: Any, action: Any = None, log: Any = (),
               rules: list[str] | None = None) -> ReplayResult:
        entries = list(log)
        result.differences.append(Difference(seq, what, theirs, ours, action, entries,
                                             rules if rules is not None else _rules_of_log(ruleset, entries)))
        return result

    for step in steps:
        seq = at.seq = step["seq"]
        seat = mapping.player(step["player"])
        if game.is_over:
            return differ(seq, "game over", "more steps", "our game has ended")
        if game.table.me.seat != seat:
            return differ(seq, "acting player", seat, game.table.me.seat)
        start = len(game.state.log)
        action = None
        try:
            action = whole_action(game, step, mapping)
            resolver = ChoiceResolver(game, step, mapping)
            trial = try_action(game, action, resolver)
            chosen = choose_sources(game, step, mapping, action, trial)
            action = chosen.action
            if chosen.refused is not None:
                return differ(seq, f"{', '.join(chosen.resources)} source", chosen.recorded,
                              f"illegal: {chosen.refused}", action, rules=_rules_of(chosen.refused))
            if resolver.problems and not chosen.named:
                return differ(seq, "engine choice", resolver.problems, "no matching option", action)
            held_wild = {c.id for c in game.table.me.hand if c.wild}
            before = game.copy() if (step.get("roundEnd") or {}).get("eraEnd") else None  # see RoundEndAnswers
            game.apply(action)
        except IllegalAction as refused:
            refused = _whole_refusal(game, action) or refused
            return differ(seq, "legality", "legal", f"illegal: {refused}", action, game.state.log[start:],
                          rules=_rules_of(refused))
        except TraceError as error:
            return differ(seq, "import of the recorded action", step["action"], str(error), action)
        round_end_answers = RoundEndAnswers(game, step, mapping, before=before, action=action)
        try:
            answered = round_end_answers.answer_all()
        except IllegalAction as refused:
            return differ(seq, "answer at the round's end", round_end_answers.given, f"illegal: {refused}", action,
                          game.state.log[start:], rules=_rules_of(refused))
        result.notes += round_end_answers.notes
        if not answered:
            problem = round_end_answers.problem or {}
            return differ(seq, "tiles removed for unpaid income" if "recorded" in problem else "question at the "
                          "round's end", problem.get("recorded"), problem, action, game.state.log[start:],
                          rules=[problem["rule"]] if problem.get("rule") else [])
        log = game.state.log[start:]
        # card flow, with the wild cards our engine handed out matched to the trace's
        effects = step["effects"]
        for card in effects.get("cardsSpent", []):
            hands[seat][card] -= 1
            mapping.wild.pop(card, None)  # a spent wild card goes back to its pile
        gained = list(effects.get("cardsGained", []))
        if gained:
            new = [c.id for c in game.table.player(seat).hand if c.wild and c.id not in held_wild]
            for card in gained:
                match = CARD_ID.match(card)
                if match is None:
                    raise TraceError(f"{name}: step seq {seq} gains card {card!r}, which is not a card id of "
                                     "the trace (loc-<location>-<n>, ind-<industry>-<n> or wild-<kind>-<n>)")
                kind = "wild_" + match.group(2)
                our_wild = next((c for c in new if c.startswith(kind + "#")), None)
                if our_wild is None:
                    return differ(seq, "wild cards gained", gained, new, action, log)
                new.remove(our_wild)
                mapping.wild[card] = our_wild
                hands[seat][card] += 1
        for card in step.get("drew", []):
            hands[seat][card] += 1
        board.apply(effects)
        round_end = step.get("roundEnd")
        if round_end:
            board.apply(round_end.get("effects", {}))
            if round_end.get("railHands"):
                try:
                    deal_rail_from_trace(game, round_end, mapping)
                except TraceError as error:
                    return differ(seq, "rail deal", "trace deal", str(error), action, log)
                hands = {mapping.player(n): Counter(h) for n, h in enumerate(round_end["railHands"])}
        # players after the step
        theirs = [[a["money"], a["incomeSpace"], a["incomeLevel"], a["vp"]] for a in step["after"]]
        ours = [[p.money, p.income_position, game.table.income_level(p), p.vp] for p in game.state.players]
        if theirs != ours:
            return differ(seq, "players [money, income space, income level, VP]", theirs, ours, action, log)
        if round_end:
            if round_end.get("eraEnd"):
                link_vp, tile_vp = [0] * len(game.state.players), [0] * len(game.state.players)
                for entry in log:
                    if entry.get("event") == "link scoring":
                        for link in entry["links"]:
                            link_vp[link["owner"] - 1] += link["vp"]
                    if entry.get("event") == "tile scoring":
                        for tile in entry["tiles"]:
                            tile_vp[tile["owner"] - 1] += tile["vp"]
                if link_vp != round_end["linkVP"]:
                    return differ(seq, f"{round_end['eraEnd']} link VP", round_end["linkVP"], link_vp, action, log)
                if tile_vp != round_end["industryVP"]:
                    return differ(seq, f"{round_end['eraEnd']} industry VP", round_end["industryVP"], tile_vp,
                                  action, log)
                say(f"  {round_end['eraEnd']} era end: link VP {link_vp}, industry VP {tile_vp}, "
                    f"VP {[p.vp for p in game.state.players]}")
            order = [mapping.player(p) for p in round_end["newTurnOrder"]]
            if order != game.state.turn_order:
                return differ(seq, "turn order after the round", order, game.state.turn_order, action, log)
            say(f"  {step['era']} round {step['round']}: turn order {order}, "
                f"money {[p.money for p in game.state.players]}, VP {[p.vp for p in game.state.players]}")
        # board, markets, merchant beer, hands
        tiles_t, tiles_o = _dict_diff(board.tiles_view(), _our_tiles(game))
        if tiles_t or tiles_o:
            return differ(seq, "board tiles [owner, industry, level, cubes, flipped]", tiles_t, tiles_o, action, log)
        if board.links != game.state.links:
            return differ(seq, "links", *_dict_diff(board.links, game.state.links), action, log)
        if board.markets != {k: game.state.markets[k] for k in board.markets}:
            return differ(seq, "markets", board.markets, dict(game.state.markets), action, log)
        beer = {m.id: m.has_beer for m in game.state.merchants}
        if board.barrels != beer:
            return differ(seq, "merchant barrels", *_dict_diff(board.barrels, beer), action, log)
        for player in game.state.players:
            want = sorted(mapping.card(c) for c, n in hands[player.seat].items() for _ in range(n))
            have = sorted(c.id for c in player.hand)
            if want != have:
                return differ(seq, f"hand of player {player.seat}", want, have, action, log)
        result.steps += 1
        if on_step is not None:
            on_step(step, game)
    if not game.is_over:
        return differ(steps[-1]["seq"] if steps else -1, "game end", "game over", "our game goes on")
    scores = trace.get("scores", {})
    result.final = game.standings()
    by_seat = sorted(result.final, key=lambda s: s["seat"])
    if scores.get("finalVP") is not None and [s["vp"] for s in by_seat] != scores["finalVP"]:
        return differ(steps[-1]["seq"], "final VP", scores["finalVP"], [s["vp"] for s in by_seat])
    winners = sorted(s["seat"] for s in result.final if s["place"] == 1)
    if scores.get("winner") is not None and winners != sorted(mapping.player(w) for w in scores["winner"]):
        return differ(steps[-1]["seq"], "winner", [mapping.player(w) for w in scores["winner"]], winners)
    return result
