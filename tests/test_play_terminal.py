"""`brass play` as a person meets it (issue 15, point 4): 80 columns, fixed action keys from the
ruleset, forced choices taken without reading a line, backing out of a half-made action, the
shortfall question in words, and a whole game played from scripted input."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from interpreter import Game, load_ruleset
from interpreter.tools.play.keys import action_keys
from interpreter.tools.play.session import TerminalGame
from interpreter.tools.play.terminal import run_play

Script = Callable[[TerminalGame], str | None]
SEED = 163  # two players: P2 (greedy) acts first, and P1 holds Nuneaton, its first card on offer


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=80, color_system=None, legacy_windows=False), out


def play(game: Game, seats: list[str], script: Script) -> tuple[TerminalGame, str, int]:
    """Run the terminal game; `script` is asked for each line (None ends the input)."""
    terminal_console, out = console()
    holder: dict[str, TerminalGame] = {}
    terminal = TerminalGame(game, seats, terminal_console, lambda: script(holder["terminal"]))
    holder["terminal"] = terminal
    status = terminal.run()
    return terminal, out.getvalue(), status


def lines_of(*lines: str) -> Script:
    feed = iter(lines)
    return lambda terminal: next(feed, None)


def test_the_keys_come_from_the_ruleset_and_avoid_the_commands() -> None:
    keys = {k.action: k.key for k in action_keys(load_ruleset("birmingham"))}
    # s saves, so Sell takes its next free letter and Scout the one after its s
    assert keys == {"build": "b", "network": "n", "develop": "d", "sell": "e", "loan": "l", "scout": "c",
                    "pass": "p"}


def test_a_whole_game_against_a_bot_from_scripted_input_fits_80_columns() -> None:
    """The person always passes with the first card offered: the game ends with the final scores,
    every line fits 80 columns, and no line was read for a decision with one possibility."""
    asked_with: list[int] = []

    def always_pass(terminal: TerminalGame) -> str:
        game = terminal.game
        asked_with.append(len(terminal.offered(game.legal_actions())))
        return "p" if game.pending is None and game.question is None else "1"

    terminal, out, status = play(Game.new(load_ruleset("birmingham"), 2, seed=SEED), ["human", "greedy"], always_pass)
    assert status == 0 and terminal.game.is_over
    assert "Final standings" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert min(asked_with) >= 2  # a forced decision never costs a line
    assert terminal.prompts == len(asked_with)
    assert "(the only choice)" in out  # ... and there were forced ones, said in one line
    places = {row["seat"]: row["vp"] for row in terminal.game.standings()}
    for seat, vp in places.items():
        assert any(line.split()[1:2] == [str(seat)] and str(vp) in line.split() for line in out.splitlines()
                   if line.strip().startswith(("1 ", "2 ")))


def test_a_forced_decision_reads_no_line() -> None:
    """Seed 1, P1's first action: Build (b), card Nuneaton (1), Coal Mine (2); Nuneaton has one
    location and one free Coal Mine slot, so the Build ends after 3 lines for 5 decisions."""
    game = Game.new(load_ruleset("birmingham"), 2, seed=SEED)
    terminal, out, _ = play(game, ["human", "greedy"], lines_of("b", "1", "2"))
    assert terminal.prompts == 4  # the three lines, then the end of the input at the next action
    p1_moves = terminal.game.moves[5:10]  # after P2's first Build
    assert p1_moves == [{"action": "build"}, {"card": "nuneaton#1"}, {"industry": "coal"},
                        {"location": "nuneaton"}, {"slot": "nuneaton/1"}]
    assert "  Build: location: Nuneaton (the only choice)" in out
    assert "  Build: slot: Nuneaton 1 (Cotton Mill/Coal Mine), free (the only choice)" in out


def test_backing_out_of_a_half_made_build_restores_the_exact_game() -> None:
    seen: dict[str, Any] = {}
    script = iter(["b", "1", "x"])

    def back_out(terminal: TerminalGame) -> str | None:
        if "start" not in seen:
            seen["start"] = terminal.game.to_json()
        line = next(script, None)
        if line is None:  # asked again after the back-out
            seen["after"], seen["seat"] = terminal.game.to_json(), terminal.game.deciding_seat
            seen["pending"] = terminal.game.pending
        return line

    terminal, out, _ = play(Game.new(load_ruleset("birmingham"), 2, seed=SEED), ["human", "greedy"], back_out)
    assert "Build: industry (type a number, x backs out)" in out
    assert "backed out of Build: nothing was changed" in out
    assert seen["after"] == seen["start"] and seen["seat"] == 1 and seen["pending"] is None
    assert terminal.game.to_json() == seen["start"]


def test_x_between_actions_is_refused_and_right_after_the_action_key_backs_out() -> None:
    terminal, out, _ = play(Game.new(load_ruleset("birmingham"), 2, seed=SEED), ["human", "greedy"],
                            lines_of("x", "b", "x"))
    assert "refused: 'x' is not a key of the menu (h for help)" in out
    assert "backed out of Build: nothing was changed" in out
    assert terminal.game.pending is None and terminal.game.deciding_seat == 1


SHORTFALL = {  # scenarios/birmingham/shortfall_two_tiles_chosen_excess_kept.yaml: £7 to raise after paying £3
    "round": 3, "turn_order": [1, 2], "current": 2, "actions_left": 1,
    "players": {1: {"money": 3, "income": 0, "vp": 5}, 2: {"hand": ["stafford", "dudley"]}},
    "tiles": [{"slot": "worcester/0", "owner": 1, "industry": "cotton", "level": 1},
              {"slot": "dudley/0", "owner": 1, "industry": "coal", "level": 1, "cubes": 2},
              {"slot": "stafford/0", "owner": 1, "industry": "brewery", "level": 2, "flipped": True}],
}


def test_the_shortfall_question_names_each_tile_with_its_level_and_vp() -> None:
    game = Game.from_setup(load_ruleset("birmingham"), 2, SHORTFALL)
    terminal, out, _ = play(game, ["human", "human"], lines_of("p", "1", "1"))
    question = out[out.index("P1: Remove a tile"):]
    assert question.splitlines()[:4] == [
        "P1: Remove a tile to raise £7 of unpaid income (type a number)",
        "  1  Brewery level 2 at Stafford 0, flipped; 5 VP, raises £3",  # in board order
        "  2  Coal Mine level 1 at Dudley 0; 1 VP, raises £2",
        "  3  Cotton Mill level 1 at Worcester 0; 5 VP, raises £6"]
    assert "P1: answer Brewery level 2 at Stafford 0, flipped; 5 VP, raises £3" in out
    assert terminal.game.question is not None and terminal.game.question["prompt"].endswith("£4 of unpaid income")


def test_an_impossible_action_is_dimmed_and_explains_itself_with_its_rule() -> None:
    _, out, _ = play(Game.new(load_ruleset("birmingham"), 2, seed=SEED), ["human", "greedy"],
                     lines_of("?e", "e", "?"))
    assert "Actions: [b]uild [n]etwork [d]evelop sell?e [l]oan s[c]out [p]ass" in out
    after = out[out.index("(h: help)"):]
    reason = "[R-SELL-01] Sell needs at least 1 of sales, and none is possible now"
    assert after.startswith(f"(h: help)\n- {reason}")  # ?e: every reason
    assert f"refused: Sell is not possible now: {reason}" in " ".join(after.split())  # e: the first reason
    assert after.count("[R-SELL-01]") == 4  # ?e, then e refused, then ? with every reason
    assert "    R-SELL-01: " in after  # the rule's own text


def test_the_menu_is_styled_dim_for_what_is_impossible() -> None:
    from interpreter.tools.play.keys import menu

    game = Game.new(load_ruleset("birmingham"), 2, seed=SEED)
    text = menu(action_keys(game.ruleset), game.legal_actions())
    dimmed = [text.plain[span.start:span.end] for span in text.spans if "dim" in str(span.style)]
    assert "sell?e" in dimmed and not any("build" in d for d in dimmed)


def test_run_play_still_loads_saves_and_takes_seats(tmp_path: Any) -> None:
    save = tmp_path / "game.json"
    terminal_console, out = console()
    ruleset = load_ruleset("birmingham")
    feed = iter(["b", "1", "s", "q"])
    assert run_play(ruleset, 2, SEED, "human,greedy", None, str(save), terminal_console, lambda: next(feed, None)) == 0
    assert f"saved to {save}" in out.getvalue()
    again_console, again = console()
    feed = iter(["x", "q"])
    assert run_play(ruleset, 2, 0, "human,greedy", str(save), None, again_console, lambda: next(feed, None)) == 0
    # the save was made mid-action: the loaded game has no copy of its start, so x refuses
    assert "resumed" in again.getvalue() and "nothing to back out of" in again.getvalue()


@pytest.mark.parametrize("seats", ["human,random", "random,human"])
def test_bots_of_any_registered_name_play_their_seats(seats: str) -> None:
    terminal_console, out = console()
    feed = iter(["p", "1", "1", "1", "q"])
    assert run_play(load_ruleset("birmingham"), 2, 3, seats, None, None, terminal_console,
                    lambda: next(feed, None)) == 0
    assert "(random): " in out.getvalue()


def test_in_a_terminal_the_players_have_their_colours_and_the_lines_still_fit() -> None:
    out = io.StringIO()
    colour_console = Console(file=out, width=80, force_terminal=True, color_system="standard")
    feed = iter(["b", "1", "q"])
    TerminalGame(Game.new(load_ruleset("birmingham"), 2, seed=SEED), ["human", "greedy"], colour_console,
                 lambda: next(feed, None)).run()
    text = out.getvalue()
    assert "\x1b[1;35mP1\x1b[0m" in text and "\x1b[1;31mP2\x1b[0m" in text  # magenta, red
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert max(cell_len(line) for line in plain.splitlines()) <= 80
    assert "\x1b[1;2;9msell?e\x1b[0m" not in text and "\x1b[2;9msell?e\x1b[0m" in text  # dimmed, struck out


def test_the_summary_marks_what_changed_since_the_person_last_looked() -> None:
    """Seed 163: P1 builds a Coal Mine I (£5) from £17; P2 spends £10 in round 2 from £12."""
    _, out, _ = play(Game.new(load_ruleset("birmingham"), 2, seed=SEED), ["human", "greedy"], lines_of("b", "1", "2"))
    second = out[out.index("round 2 of 10"):].splitlines()
    assert second[2].split() == ["P2", "greedy", "£2", "-10", "+0", "0", "8", "£10", "2", "13"]
    assert second[3].split() == [">P1", "human", "£12", "-5", "+0", "0", "8", "£0", "1", "14"]


VARIANT = """\
name: with-a-sabbatical
title: With a sabbatical
version: "0.1"
extends: birmingham
actions:
  sabbatical:
    name: Sabbatical
    rules: [R-TURN-05]
    doc: Discard a card and do nothing, with style.
    params:
      - {name: card, type: card, from: hand(me), rule: R-TURN-04}
    effects:
      - discard: card
"""


def test_a_variants_new_action_gets_a_key_of_its_own(tmp_path: Any) -> None:
    folder = tmp_path / "with-a-sabbatical"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(VARIANT, encoding="utf-8")
    ruleset = load_ruleset(str(folder))
    keys = {k.action: k.key for k in action_keys(ruleset)}
    assert keys["sabbatical"] == "a"  # s saves: the next letter of its name
    _, out, _ = play(Game.new(ruleset, 2, seed=SEED), ["human", "greedy"], lines_of("a", "1"))
    assert "s[a]bbatical" in out and "P1: Sabbatical" in out and "P1: card Nuneaton" in out
