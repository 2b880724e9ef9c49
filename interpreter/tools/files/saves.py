"""Saved games: read one (any malformed file becomes a `GameFileError` naming it) and write one whole.

A save is `Game.to_json` text. The terminal game, `brass board --load`, `brass replay` and the
web app all read and write saves through here.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.engine.game import FORMAT, Game, GameFileError
from interpreter.ruleset.model import Ruleset
from interpreter.tools.files.guards import ENGINE_SLIPS, parse_json, read_text, slip_text, write_whole


def read_saved(ruleset: Ruleset, path: str | Path) -> Game:
    """A saved game (`Game.to_json` text) from a file; GameFileError for anything unreadable."""
    return parse_saved(ruleset, read_text(path, str(path), GameFileError), str(path))


def parse_saved(ruleset: Ruleset, text: str, name: str = "the saved game") -> Game:
    """Game.from_json, with every malformed input turned into a GameFileError naming the file.

    `Game.from_json` lets a few malformed files through as raw Python errors (JSON that is
    not an object, a missing "state"); they are caught here so that no user sees a traceback.
    """
    data = parse_json(text, name, GameFileError)  # NaN, Infinity and deep nesting are refused here
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"{name} is not a saved game (expected a JSON object with format {FORMAT!r})")
    if data.get("ruleset") not in (None, ruleset.name):
        raise GameFileError(f"{name} is a game of ruleset {data.get('ruleset')!r}, not {ruleset.name!r}")
    try:
        return Game.from_json(ruleset, text)
    except GameFileError as error:
        raise GameFileError(f"{name}: {error}") from None
    except ENGINE_SLIPS as error:
        raise GameFileError(f"{name} cannot be read: {slip_text(error)}") from None


def save(game: Game, path: str | Path) -> None:
    """Write the game so that a crash or a full disk never destroys the previous save: a fresh
    temporary file in the same folder (never a fixed name, which a planted symlink could
    redirect), flushed to the disk, then renamed over `path`; removed again on any failure."""
    write_whole(Path(path), (game.to_json() + "\n").encode("utf-8"))
