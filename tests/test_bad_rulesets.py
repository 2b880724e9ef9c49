"""Every class of bad ruleset gives located errors and no traceback.

Most cases write a tiny variant that extends the built-in game and breaks one
thing, so that the expected file and line are known exactly.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

import rulesets
from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset
from interpreter.tools.cli.main import main

ROOT = """\
name: broken
title: Broken variant
version: "0.1"
extends: birmingham
"""


def variant(tmp_path: Path, files: dict[str, str], root: str = ROOT) -> Path:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(root)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    return folder


def errors_of(folder: Path) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(folder)
    return [str(d) for d in caught.value.diagnostics]


def cli_output(folder: Path, capsys) -> tuple[int, str]:
    code = main(["check", str(folder)])
    out = capsys.readouterr()
    return code, out.out + out.err


def assert_located(messages: list[str], file: str, line: int, *words: str) -> None:
    """Some message is at FILE:LINE and contains every word."""
    for message in messages:
        head = message.split(": ", 1)[0]
        if head.endswith(file) or f"{file}:" in head:
            parts = head.rsplit(":", 2)
            if len(parts) == 3 and int(parts[1]) == line and all(w in message for w in words):
                return
    raise AssertionError(f"no message at {file}:{line} with {words}; got:\n" + "\n".join(messages))


def test_malformed_yaml(tmp_path: Path, capsys) -> None:
    folder = variant(tmp_path, {"extra.yaml": "tiles:\n  cotton: [unclosed\n"})
    code, output = cli_output(folder, capsys)
    assert code == 1 and "Traceback" not in output
    assert "extra.yaml:" in output


def test_duplicate_key(tmp_path: Path, capsys) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        setup:
          money: 20
          money: 25
        """})
    assert_located(errors_of(folder), "extra.yaml", 3, "duplicate key 'money'")
    code, output = cli_output(folder, capsys)
    assert code == 1 and "Traceback" not in output


def test_yaml_11_boolean_words_stay_strings(tmp_path: Path) -> None:
    """`yes` is a string in YAML 1.2, so a boolean field rejects it instead of reading true."""
    folder = variant(tmp_path, {"extra.yaml": """\
        links:
          L15: {ends: [burton_on_trent, walsall], canal: yes, rail: false}
        """})
    assert_located(errors_of(folder), "extra.yaml", 2, "links.L15.canal", "true or false")


def test_sexagesimal_is_not_a_number(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        setup:
          money: 1:20
        """})
    assert_located(errors_of(folder), "extra.yaml", 2, "setup.money must be an integer", "'1:20'")


def test_wrong_type(tmp_path: Path, capsys) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        economy:
          loan: {amount: thirty}
        """})
    assert_located(errors_of(folder), "extra.yaml", 2, "economy.loan.amount must be an integer")
    code, output = cli_output(folder, capsys)
    assert code == 1 and "extra.yaml:2:" in output and "Traceback" not in output


def test_unknown_key_suggests(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        setup:
          hand_sise: 7
        """})
    assert_located(errors_of(folder), "extra.yaml", 2, "unknown key 'hand_sise'", "did you mean 'hand_size'")


def test_unknown_reference(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        links:
          L99: {ends: [birmingham, coventy], canal: true, rail: true}
        """})
    assert_located(errors_of(folder), "extra.yaml", 2, "unknown location 'coventy'", "did you mean 'coventry'")


def test_unknown_rule_id(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        economy:
          loan: {amount: 25, rule: R-LOAN-99}
        """})
    assert_located(errors_of(folder), "extra.yaml", 2, "unknown rule ID 'R-LOAN-99'")


def test_player_count_table_must_cover_supported_counts(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        setup:
          rounds_per_era: {$replace: {2: 10, 3: 9}}
        """})
    assert_located(errors_of(folder), "extra.yaml", 2, "gives no value for 4 players")


def action_with_check(check: str) -> str:
    return f"""\
        actions:
          loan:
            requires:
              - rule: R-LOAN-02
                check: {check}
                message: No.
        """


def test_dsl_syntax_error(tmp_path: Path, capsys) -> None:
    folder = variant(tmp_path, {"extra.yaml": action_with_check("income_level(me) >= ")})
    messages = errors_of(folder)
    assert_located(messages, "extra.yaml", 5, "expected")
    code, output = cli_output(folder, capsys)
    assert code == 1 and "^" in output and "Traceback" not in output


def test_unknown_dsl_name(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": action_with_check("incme_level(me) >= -7")})
    messages = errors_of(folder)
    assert_located(messages, "extra.yaml", 5, "incme_level", "did you mean 'income_level'")
    # the column points inside the expression: `check: ` starts at column 9, the name at column 16
    assert any("extra.yaml:5:16:" in m for m in messages), messages


def test_wrong_arity(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": action_with_check("income_level(me, me) >= -7")})
    assert_located(errors_of(folder), "extra.yaml", 5, "income_level", "1 argument", "2 given")


def test_dsl_type_error(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": action_with_check("me.money == era")})
    assert_located(errors_of(folder), "extra.yaml", 5, "cannot compare", "int", "era")


def test_dsl_expression_must_be_boolean(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": action_with_check("me.money + 1")})
    assert_located(errors_of(folder), "extra.yaml", 5, "bool")


def test_unknown_effect(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        actions:
          loan:
            effects:
              - gain_mony: 5
        """})
    assert_located(errors_of(folder), "extra.yaml", 4, "unknown effect 'gain_mony'", "did you mean 'gain_money'")


def test_all_errors_are_listed(tmp_path: Path, capsys) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        links:
          L98: {ends: [birmingham, nowhere], canal: true, rail: true}
          L99: {ends: [elsewhere, coventry], canal: true, rail: true}
        """})
    messages = errors_of(folder)
    assert_located(messages, "extra.yaml", 2, "nowhere")
    assert_located(messages, "extra.yaml", 3, "elsewhere")
    _code, output = cli_output(folder, capsys)
    assert "2 errors" in output


def test_extends_cycle(tmp_path: Path, capsys) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "ruleset.yaml").write_text('name: a\ntitle: A\nversion: "1"\nextends: ../b\n')
    (b / "ruleset.yaml").write_text('name: b\ntitle: B\nversion: "1"\nextends: ../a\n')
    messages = errors_of(a)
    assert any("cycle" in m for m in messages), messages
    code, output = cli_output(a, capsys)
    assert code == 1 and "Traceback" not in output


def test_missing_base(tmp_path: Path, capsys) -> None:
    folder = variant(tmp_path, {}, root=ROOT.replace("extends: birmingham", "extends: birmingam"))
    messages = errors_of(folder)
    assert_located(messages, "ruleset.yaml", 4, "birmingam", "did you mean 'birmingham'")
    code, output = cli_output(folder, capsys)
    assert code == 1 and "Traceback" not in output


def test_missing_ruleset_folder(tmp_path: Path, capsys) -> None:
    code, output = cli_output(tmp_path / "nothing-here", capsys)
    assert code == 1 and "no ruleset here" in output and "Traceback" not in output


def test_missing_section_in_a_full_ruleset(tmp_path: Path, capsys) -> None:
    """A copied ruleset that lost a file reports the sections that file held."""
    folder = tmp_path / "copy"
    shutil.copytree(rulesets.builtin_path("birmingham"), folder)
    (folder / "income.yaml").unlink()
    messages = errors_of(folder)
    assert any("missing required key 'income_track'" in m for m in messages), messages
    code, output = cli_output(folder, capsys)
    assert code == 1 and "Traceback" not in output


def test_rounds_must_play_exactly_the_deck(tmp_path: Path) -> None:
    """R-SETUP-12: 8 rounds at 4 players use the 64 cards; 9 would need 72."""
    folder = variant(tmp_path, {"extra.yaml": """\
        setup:
          rounds_per_era: {2: 10, 3: 9, 4: 9}
        """})
    messages = errors_of(folder)
    assert_located(messages, "extra.yaml", 2, "9 rounds of the Canal Era use 72 cards", "the deck has 64",
                   "8 rounds would play this deck in every era")


def test_a_deck_no_rounds_can_play_is_located_at_the_cards_with_the_sizes_that_fit(tmp_path: Path) -> None:
    """R-SETUP-12 at 5 players: 7 rounds use 5 * (1 + 6 * 2) + 5 = 70 cards in the Canal Era and 5 * 7 * 2 = 70
    in the Rail Era; the 4-player counts give 64, which no number of rounds plays (10 cards a round). The
    error is at the first 5-player card count, not at rounds_per_era."""
    counts = {cid: card["count"][4] for cid, card in load_ruleset("birmingham").data["cards"].items()}
    cards = "".join(f"  {cid}: {{count: {{5: {n}}}}}\n" for cid, n in counts.items())
    folder = variant(tmp_path, {"extra.yaml": "players: [2, 3, 4, 5]\nsetup:\n  rounds_per_era: {5: 7}\n"
                                              "cards:\n" + cards})
    messages = errors_of(folder)
    assert_located(messages, "extra.yaml", 5, "with 5 players, 7 rounds of the Canal Era use 70 cards",
                   "the deck has 64: no number of rounds plays a deck of 64 cards in every era",
                   "a 5-player deck of 70 cards (7 rounds) or 60 cards (6 rounds) or 80 cards (8 rounds) would fit")
    assert not [m for m in messages if "rounds_per_era" in m.split(": ")[0] or "rounds of the Rail" in m]


def test_repeat_min_above_max(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"extra.yaml": """\
        actions:
          develop:
            repeat:
              min: 3
        """})
    assert_located(errors_of(folder), "extra.yaml", 4, "repeat min 3 is more than its max 2")


def test_sources_in_names_actions_and_source_kinds(tmp_path: Path) -> None:
    folder = variant(tmp_path, {"r.yaml": """\
        resources:
          beer:
            sources_in:
              netwrok: [own_producer]
        """})
    assert_located(errors_of(folder), "r.yaml", 4, "unknown action 'netwrok'", "did you mean 'network'")
    shutil.rmtree(folder)
    folder = variant(tmp_path, {"r.yaml": "resources:\n  beer:\n    sources_in:\n      sell: [own_brewery]\n"})
    assert_located(errors_of(folder), "r.yaml", 4, "'own_brewery' is not allowed")


def test_sources_in_changes_the_sources_of_that_action_only(tmp_path: Path) -> None:
    """Beer for Network only from your own Breweries: the second rail link cannot use an
    opponent's connected Brewery, while a sale still can."""
    from interpreter.engine.game import Game

    folder = variant(tmp_path, {"r.yaml": "resources:\n  beer:\n    sources_in:\n      network: [own_producer]\n"})
    rs = load_ruleset(folder)
    assert rs.resources["beer"].sources_for("network") == ("own_producer",)
    assert rs.resources["beer"].sources_for("sell") == rs.resources["beer"].sources
    game = Game.from_setup(rs, 2, {
        "era": "rail", "round": 2, "current": 1, "turn_order": [1, 2],
        "players": {1: {"money": 30, "hand": ["birmingham", "dudley", "coventry"]}},
        "tiles": [{"slot": "birmingham/1", "owner": 1, "industry": "manufacturer", "level": 2, "flipped": True},
                  {"slot": "dudley/0", "owner": 2, "industry": "coal", "level": 2, "cubes": 3},
                  {"slot": "farm_south/0", "owner": 2, "industry": "brewery", "level": 2, "cubes": 2}],
        "links": [{"link": "L30", "owner": 2}]}, seed=1)
    card = next(c.id for c in game.table.player(1).hand if c.face == "birmingham")
    network = {"action": "network", "card": card, "links": [{"link": "L04"}, {"link": "L26"}]}
    failures = game.explain(network)["failures"]
    assert [f.rule for f in failures] == ["R-LINK-05"]
    assert game.table.can_source(game.table.player(1), "beer", 1, ["kidderminster"], "network") is False
    assert game.table.can_source(game.table.player(1), "beer", 1, ["kidderminster"], "sell") is True


@pytest.mark.parametrize("text, line", [
    ("game_end:\n  ranking:\n    - {name: VP, key: me.vp}\n", 3),
    ("eras:\n  $patch:\n    key: id\n    set:\n      - {id: canal, end: [{award_vp: {amount: me.vp}}]}\n", 5),
])
def test_me_outside_an_action_is_refused_when_the_ruleset_loads(tmp_path: Path, text: str, line: int) -> None:
    folder = variant(tmp_path, {"x.yaml": text})
    assert_located(errors_of(folder), "x.yaml", line, "'me' is not available here")
