"""The bots' parameters (interpreter/ruleset/bot_params.py, docs/bots.md#parameters): a ruleset may
carry them in a `bots:` section, a variant inherits and overrides them, the loader refuses a wrong
one at its line, and the bots judge with the parameters of the ruleset they play.

The numbers compared here are worked out from the parameters' meanings: at the start of a
2-player game of Birmingham seat 1 has £17 (setup.money), income level 0 and nothing on the board,
so its estimate is its funds, 17 * `vp_per_pound`, plus its money in hand, 17 * `liquidity`."""

from __future__ import annotations

import re
import textwrap
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from interpreter import Game, load_ruleset
from interpreter.ruleset.bot_params import (
    GROUPS,
    BotParams,
    HeuristicParams,
    SearchParams,
    Tuned,
    bot_params,
    catalogue,
    to_data,
    tuned_record,
)
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import ruleset_from_document
from interpreter.tools.authoring.json_schema import ruleset_json_schema
from interpreter.tools.authoring.schema_docs import key_docs
from interpreter.tools.bots.heuristic import HeuristicBot
from interpreter.tools.bots.knowledge.worth import Appraiser, estimate
from interpreter.tools.bots.ladder import make_bot
from interpreter.tools.bots.mcts import Budget, Settings
from interpreter.tools.bots.search import SearchBot, SearchOptions
from interpreter.tools.scenarios.mutants import generate

HEADER = "name: {name}\ntitle: A variant\nversion: '0.1'\nextends: {base}\n"


def variant(folder: Path, bots: str, base: str = "birmingham") -> Path:
    """A variant of `base` in `folder` whose bots.yaml is `bots`."""
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(HEADER.format(name=folder.name, base=base))
    (folder / "bots.yaml").write_text(textwrap.dedent(bots))
    return folder


def refusals(folder: Path) -> list[tuple[str, int, str]]:
    """The loader's errors, as (file name, line, message)."""
    with pytest.raises(RulesetError) as refused:
        load_ruleset(folder)
    return [(Path(d.pos.file).name, d.pos.line, d.message) for d in refused.value.diagnostics]


def start(ruleset: Any) -> Game:
    return Game.new(ruleset, 2, seed=1)


# == a ruleset without `bots:` plays with the defaults ==============================================

def test_every_shipped_ruleset_plays_with_the_defaults() -> None:
    for name in ("birmingham", "lancashire", "what-if"):
        assert load_ruleset(name).bots == BotParams()


def test_the_introductory_game_carries_its_tuned_parameters() -> None:
    """rulesets/birmingham-intro/bots.yaml, written by `brass tune` (docs/bots.md, "Tuning"): only
    what differs from the defaults; the search group keeps them all."""
    tuned = load_ruleset("birmingham-intro").bots
    assert tuned.search == BotParams().search
    h = tuned.heuristic
    assert (h.vp_per_pound, h.action_worth, h.pass_waste, h.free_slot_icons, h.loan_below, h.loan_actions) == (
        0.1, 1.1047, 5.4098, 0.0, 44, 1)
    assert (h.spend_per_action, h.looks) == (HeuristicParams().spend_per_action, HeuristicParams().looks)


def test_every_shipped_ruleset_carries_the_record_of_its_own_tuning_run() -> None:
    """docs/bots.md, "Every shipped ruleset": each folder's bots.yaml holds its run's record (Birmingham
    plays with the defaults, which are its own); summary-es carries the parameters its run found."""
    folders = sorted(p.parent.name for p in (Path(__file__).resolve().parents[1] / "rulesets").glob("*/ruleset.yaml"))
    for name in folders:
        ruleset = load_ruleset(name)
        record = tuned_record(ruleset.source.data.get("bots"))
        if name == "birmingham":
            assert record is None and ruleset.bots == BotParams()
            continue
        own = Path(ruleset.source.pos(("bots",), key=True).file).resolve().parent.name
        assert record is not None and own == name, name
    assert tuned_record(load_ruleset("summary-es").source.data["bots"]) == Tuned(2, 3, 384, "better", 71.5, 100)
    tuned = load_ruleset("summary-es").bots.heuristic
    assert (tuned.vp_per_pound, tuned.loan_below, tuned.loan_actions) == (0.1978, 43, 7)
    assert load_ruleset("lancashire").bots == BotParams()  # kept: its run took no step


def test_the_defaults_are_the_numbers_the_bots_were_tuned_to() -> None:
    """A few of them, as docs/bots.md states them (all of them: the behaviour fingerprint)."""
    h = HeuristicParams()
    assert (h.vp_per_pound, h.spend_per_action, h.liquidity, h.liquid_up_to, h.shortfall) == (0.4, 6, 0.1, 30, 3.0)
    assert (h.loan_below, h.loan_lowest_level, h.stuck_below, h.loan_actions, h.pass_waste) == (30, -3, 4, 4, 2.0)
    assert (h.looks, h.kind_margin) == (5, 5.0)
    s = SearchParams()
    assert (s.candidates, s.value_scale, s.heuristic_rollout, s.greedy_rollout) == (5, 10.0, 2, 4)
    assert (s.exploration, s.widening, s.widening_power) == (0.7, 1.5, 0.5)


def test_the_search_knobs_default_to_what_the_search_options_default_to() -> None:
    """A search bot made from options alone (tests, code) and one reading a ruleset without
    `bots.search` search alike."""
    options = SearchOptions(Budget(iterations=1))
    assert options.tuned(SearchParams()) == options == SearchOptions(Budget(iterations=1), Settings(rollout_moves=2))


def test_every_parameter_has_a_type_a_range_around_its_default_and_a_meaning() -> None:
    params = catalogue()
    assert len(params) == sum(len(fields(group)) for group in GROUPS.values()) == 56
    assert len({p.name for p in params}) == len(params)  # a name means one thing in every group
    for p in params:
        assert p.kind in (int, float) and p.low <= p.default <= p.high and len(p.doc) > 20, p


# == a variant's bots.yaml ===========================================================================

def test_a_variant_sets_some_parameters_and_inherits_the_others(tmp_path: Path) -> None:
    base = variant(tmp_path / "tuned", """\
        bots:
          heuristic: {vp_per_pound: 0.5, looks: 3, debt: 3}
        """)
    child = variant(tmp_path / "child", """\
        bots:
          heuristic: {looks: 7}
          search: {candidates: 2}
        """, base="../tuned")
    tuned, inherited = load_ruleset(base).bots, load_ruleset(child).bots
    assert (tuned.heuristic.vp_per_pound, tuned.heuristic.looks, tuned.search) == (0.5, 3, SearchParams())
    assert tuned.heuristic.debt == 3.0 and type(tuned.heuristic.debt) is float  # computes as the default 2.0 does
    assert (inherited.heuristic.vp_per_pound, inherited.heuristic.debt) == (0.5, 3.0)  # the base's
    assert (inherited.heuristic.looks, inherited.search.candidates) == (7, 2)  # its own
    assert inherited.heuristic.liquidity == 0.1  # written nowhere: the default
    assert to_data(inherited) == {"heuristic": {"vp_per_pound": 0.5, "debt": 3.0, "looks": 7},
                                  "search": {"candidates": 2}}
    assert bot_params(to_data(inherited)) == inherited


def test_a_ruleset_sent_to_a_worker_keeps_its_parameters(tmp_path: Path) -> None:
    """`simulate --jobs`/`--ray` rebuild the ruleset from its document in each worker."""
    tuned = load_ruleset(variant(tmp_path / "tuned", "bots:\n  heuristic: {pass_waste: 4}\n"))
    assert tuned.source is not None
    again = ruleset_from_document(tuned.source, tuned.folders, tuned.rule_folders)
    assert again.bots == tuned.bots and again.bots.heuristic.pass_waste == 4.0


def test_mutation_testing_leaves_the_parameters_alone(tmp_path: Path) -> None:
    """No scenario plays a bot, so a changed parameter could only survive as an equivalent."""
    tuned = load_ruleset(variant(tmp_path / "tuned", "bots:\n  heuristic: {looks: 6, debt: 3}\n"))
    assert tuned.source is not None
    mutants = generate(tuned.source)
    assert mutants and not [m for m in mutants if m.path[0] == "bots"]


def test_an_unknown_parameter_is_refused_at_its_line(tmp_path: Path) -> None:
    folder = variant(tmp_path / "typo", """\
        bots:
          heuristic:
            vp_per_pund: 0.5
        """)
    assert refusals(folder) == [("bots.yaml", 3, "unknown key 'vp_per_pund' in bots.heuristic; "
                                                 "did you mean 'vp_per_pound'?")]


def test_an_unknown_group_is_refused_at_its_line(tmp_path: Path) -> None:
    folder = variant(tmp_path / "group", "bots:\n  greedy: {loan_below: 10}\n")
    assert refusals(folder) == [("bots.yaml", 2,
                                 "unknown key 'greedy' in bots; allowed keys: heuristic, search, tuned")]


@pytest.mark.parametrize(("line", "message"), [
    ("looks: 2.5", "bots.heuristic.looks must be an integer, not float 2.5"),
    ("vp_per_pound: lots", "bots.heuristic.vp_per_pound must be a number, not string 'lots'"),
    ("vp_per_pound: true", "bots.heuristic.vp_per_pound must be a number, not the boolean true"),
    ("liquidity: .nan", "bots.heuristic.liquidity: must be a number, not nan (not a number)"),
])
def test_a_value_of_the_wrong_type_is_refused_at_its_line(tmp_path: Path, line: str, message: str) -> None:
    folder = variant(tmp_path / "type", f"bots:\n  heuristic:\n    {line}\n")
    assert refusals(folder) == [("bots.yaml", 3, message)]


@pytest.mark.parametrize(("line", "message"), [
    ("debt: -1", "bots.heuristic.debt must be at least 0.0, not -1"),
    ("sell_chance: 1.5", "bots.heuristic.sell_chance must be at most 1.0, not 1.5"),
    ("liquid_actions: 0", "bots.heuristic.liquid_actions must be at least 1, not 0"),  # a divisor
    ("vp_per_pound: .inf", "bots.heuristic.vp_per_pound must be at most 5.0, not inf"),
])
def test_a_value_out_of_range_is_refused_at_its_line(tmp_path: Path, line: str, message: str) -> None:
    folder = variant(tmp_path / "range", f"bots:\n  heuristic:\n    {line}\n")
    assert refusals(folder) == [("bots.yaml", 3, message)]


@pytest.mark.parametrize(("record", "line", "message"), [
    ("{players: 2, seed: 1, games: 8, result: maybe, verdict: {wins: 0, games: 0}}", 2,
     "bots.tuned.result: 'maybe' is not allowed; expected one of better, kept"),
    ("{players: 2, seed: 1, result: kept, verdict: {wins: 0, games: 0}}", 2, "required"),
    ("{players: 2, seed: 1, games: 8, result: kept}", 2, "required"),  # none borrowed from a base's record
    ("{players: 2, seed: 1, games: 8, result: kept, verdict: {wins: 3}}", 2, "required"),
])
def test_a_wrong_tuning_record_is_refused_at_its_line(tmp_path: Path, record: str, line: int, message: str) -> None:
    folder = variant(tmp_path / "record", f"bots:\n  tuned: {record}\n")
    found = refusals(folder)
    assert [(file, at) for file, at, _ in found] == [("bots.yaml", line)] and message in found[0][2], found


def test_a_tuning_record_is_read_beside_the_parameters(tmp_path: Path) -> None:
    folder = variant(tmp_path / "record", """\
        bots:
          tuned: {players: 4, seed: 2, games: 128, result: better, verdict: {wins: 61.5, games: 100}}
          heuristic: {debt: 2.5}
        """)
    loaded = load_ruleset(folder)
    assert loaded.bots.heuristic.debt == 2.5
    assert tuned_record(loaded.source.data["bots"]) == Tuned(4, 2, 128, "better", 61.5, 100)


def test_a_wrong_parameter_does_not_hide_the_other_errors(tmp_path: Path) -> None:
    """Every stage still reports its own: the parameter, and an expression error elsewhere."""
    folder = variant(tmp_path / "both", """\
        bots:
          search: {candidates: 0}
        game_end:
          ranking: [{name: VP, key: p.vpp}]
        """)
    found = refusals(folder)
    assert ("bots.yaml", 2, "bots.search.candidates must be at least 1, not 0") in found
    assert [line for file, line, message in found if "vpp" in message] == [4]


def test_the_editor_schema_holds_each_parameter_with_its_range_and_meaning(tmp_path: Path) -> None:
    schema = ruleset_json_schema(describe=key_docs())
    jsonschema.Draft202012Validator.check_schema(schema)
    heuristic = schema["properties"]["bots"]["properties"]["heuristic"]["properties"]
    assert heuristic["vp_per_pound"] == {"description": "VP £1 is worth while there are actions left to spend it",
                                         "type": "number", "minimum": 0.0, "maximum": 5.0}
    assert heuristic["looks"]["type"] == "integer"
    check = jsonschema.Draft202012Validator(schema)
    assert list(check.iter_errors({"bots": {"heuristic": {"vp_per_pound": 0.45, "looks": 6}}})) == []
    assert len(list(check.iter_errors({"bots": {"heuristic": {"vp_per_pound": 7, "looks": 2.5, "x": 1}}}))) == 3


# == the bots judge with the parameters of the ruleset they play =====================================

def test_a_variants_pound_is_worth_what_its_bots_yaml_says(tmp_path: Path) -> None:
    """`vp_per_pound: 0.5`: seat 1's £17 at the start is worth 17 * 0.5 = 8.5 VP as funds, where
    Birmingham's bots count 17 * 0.4 = 6.8; with 17 * 0.1 = 1.7 for the money in hand, 10.2 against 8.5."""
    richer = load_ruleset(variant(tmp_path / "richer", "bots:\n  heuristic: {vp_per_pound: 0.5}\n"))
    birmingham = load_ruleset("birmingham")
    assert estimate(start(birmingham), 1) == pytest.approx(17 * 0.4 + 17 * 0.1) == pytest.approx(8.5)
    assert estimate(start(richer), 1) == pytest.approx(17 * 0.5 + 17 * 0.1) == pytest.approx(10.2)
    assert Appraiser(start(richer).table, 1).rate == 0.5  # the next £: all of it while funds are short
    # the same game judged with other parameters given in code
    given = replace(birmingham.bots.heuristic, vp_per_pound=0.5)
    assert estimate(start(birmingham), 1, given) == estimate(start(richer), 1)


LAST_ROUND = {"era": "rail", "round": 10, "turn_order": [1, 2], "current": 1, "actions_left": 2, "deck": 0,
              "players": {"1": {"money": 0, "income": 10, "hand": ["coventry", "dudley"]},
                          "2": {"hand": ["coventry", "dudley"]}}}


def test_a_variant_that_looks_at_loans_later_takes_one_in_the_last_round(tmp_path: Path) -> None:
    """The last round of the game, £0, nothing to build: a loan or a pass. Birmingham's bot looks
    at a loan only with `loan_actions` = 4 actions left and passes (test_bot_heuristic); a variant
    with `loan_actions: 2` (the seat's two actions) lets it look, and a seat that can do nothing
    else takes it."""
    birmingham = load_ruleset("birmingham")
    later = load_ruleset(variant(tmp_path / "later", "bots:\n  heuristic: {loan_actions: 2}\n"))
    assert sorted({w["action"] for w in Game.from_setup(later, 2, LAST_ROUND, seed=1).view(1).whole_actions()}) == [
        "loan", "pass"]
    assert HeuristicBot(5).plan(Game.from_setup(birmingham, 2, LAST_ROUND, seed=1).view(1)) == {
        "action": "pass", "card": "dudley#1"}
    assert HeuristicBot(5).plan(Game.from_setup(later, 2, LAST_ROUND, seed=1).view(1)) == {
        "action": "loan", "card": "dudley#1"}
    # a bot given parameters in code plays with them whatever the ruleset says
    own = BotParams(heuristic=replace(HeuristicParams(), loan_actions=2))
    bot = make_bot("heuristic", 5, own)
    assert isinstance(bot, HeuristicBot)
    assert bot.plan(Game.from_setup(birmingham, 2, LAST_ROUND, seed=1).view(1))["action"] == "loan"
    assert HeuristicBot(5, birmingham.bots.heuristic).plan(
        Game.from_setup(later, 2, LAST_ROUND, seed=1).view(1))["action"] == "pass"


def test_the_search_bot_takes_its_knobs_from_the_ruleset(tmp_path: Path) -> None:
    """`candidates: 1`: one candidate action is no choice, so the search plays it without a playout;
    with Birmingham's 5 it spends its 12 iterations."""
    single = load_ruleset(variant(tmp_path / "single", "bots:\n  search: {candidates: 1}\n"))
    iterations = {}
    for name, ruleset in (("birmingham", load_ruleset("birmingham")), ("single", single)):
        bot = make_bot("search:12", 3)
        assert isinstance(bot, SearchBot)
        game = start(ruleset)
        bot.choose(game.view(game.deciding_seat))
        assert bot.last_search is not None
        iterations[name] = (bot.last_search.iterations, len(bot.last_search.root.children))
    assert iterations == {"birmingham": (12, 5), "single": (0, 1)}
    # given in code, the knobs and judgements are the search bot's whatever the ruleset says
    own = make_bot("search:12", 3, BotParams(search=SearchParams(candidates=1)))
    assert isinstance(own, SearchBot)
    game = start(load_ruleset("birmingham"))
    own.choose(game.view(game.deciding_seat))
    assert own.last_search is not None and own.last_search.iterations == 0


def test_parameters_set_in_code_are_held_to_their_ranges() -> None:
    with pytest.raises(ValueError, match=re.escape("vp_per_pound must be a number from 0.0 to 5.0, not -1")):
        replace(HeuristicParams(), vp_per_pound=-1)
    with pytest.raises(ValueError, match=re.escape("candidates must be an integer from 1 to 100, not 2.5")):
        SearchParams(candidates=2.5)  # type: ignore[arg-type]
    assert replace(HeuristicParams(), vp_per_pound=1).vp_per_pound == 1
