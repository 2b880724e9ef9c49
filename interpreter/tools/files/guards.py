"""Guards on what people give the tools: JSON files, an ACTION or a typed move, the terminal's streams.

The engine refuses a malformed move with its reasons; these guards keep out what must never
reach it (text so deeply nested that parsing it recurses, NaN or Infinity in a save, a YAML
alias bomb) and turn what still slips through the engine as a raw Python error into the
project's own error, so that one bad input never ends a run with "internal error".
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.ruleset.errors import BrassError
from interpreter.ruleset.yaml_source import load_yaml_text

# Deeper than any file the project writes (a save is about 6 levels, a trace about 7), far
# shallower than the recursion limit of the code that reads the data afterwards.
MAX_FILE_DEPTH = 64
# A save of a whole game or a real game's trace is a few hundred kilobytes.
MAX_FILE_BYTES = 32_000_000
# A whole action is at most 4 levels ({sales: [{tile: …}]}); room for a few mistakes.
MAX_MOVE_DEPTH = 8
# The longest whole action is a few hundred characters.
MAX_MOVE_CHARS = 10_000

# What the engine lets slip for a malformed move instead of refusing it with reasons.
ENGINE_SLIPS: tuple[type[Exception], ...] = (TypeError, ValueError, KeyError, IndexError, AttributeError,
                                             RecursionError, OverflowError)


def too_deep(value: Any, limit: int) -> bool:
    """Whether lists and mappings nest more than `limit` levels (iterative: deep data cannot crash it)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            if level > limit:
                return True
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def read_text(path: str | Path, name: str, error: Callable[[str], BrassError], limit: int = MAX_FILE_BYTES) -> str:
    """A UTF-8 text file of at most `limit` bytes; `error(message)` for anything else (a device
    such as /dev/zero would otherwise be read until memory runs out)."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read(limit + 1)
    except OSError as problem:
        raise error(f"cannot read {name}: {problem.strerror or problem}") from None
    if len(raw) > limit:
        raise error(f"{name} is larger than {limit // 1_000_000} MB: not a file brass wrote")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(f"{name} is not UTF-8 text (byte {problem.start + 1} cannot be decoded)") from None


def parse_json(text: str, name: str, error: Callable[[str], BrassError]) -> Any:
    """JSON text as data; `error(message)` is raised for anything that is not plain, finite JSON
    nested at most MAX_FILE_DEPTH levels (Python's json reads NaN, Infinity and 1e999, which
    no save or trace holds and which break the code that reads numbers)."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise error(_too_deep_message(name, MAX_FILE_DEPTH)) from None
    except ValueError as problem:
        raise error(f"{name} is not JSON: {problem}") from None
    if too_deep(data, MAX_FILE_DEPTH):
        raise error(_too_deep_message(name, MAX_FILE_DEPTH))
    return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


def _too_deep_message(name: str, limit: int) -> str:
    return f"{name} nests lists or mappings more than {limit} levels deep"


def parse_action_text(text: str, name: str = "ACTION") -> Any:
    """A whole action written on the command line, as JSON or YAML: loaded by the project's YAML
    loader (aliases of lists or mappings and deep nesting are located errors, so an alias bomb
    cannot expand) after a bound on its length."""
    if len(text) > MAX_MOVE_CHARS:
        raise BrassError(f"{name} is {len(text)} characters long; a whole action is at most {MAX_MOVE_CHARS}")
    return load_yaml_text(text if text.endswith("\n") else text + "\n", name).data


def move_problem(move: Any) -> str | None:
    """What keeps a move (a decision or a whole action) from being given to the engine at all: a
    nesting deep enough to make code that walks it recurse; None otherwise (the engine judges
    the rest and refuses with reasons)."""
    if too_deep(move, MAX_MOVE_DEPTH):
        return f"it nests lists or mappings more than {MAX_MOVE_DEPTH} levels deep"
    return None


def slip_text(error: BaseException) -> str:
    """An engine's raw Python error in one line, for a message that says it is the engine's bug."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def clip(text: str, limit: int = 80) -> str:
    """`text` shortened to `limit` characters for a message (a pasted line may be huge)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def forgiving_streams() -> None:
    """Never fail on a character the terminal's encoding lacks (£, →, – with LC_ALL=C or
    PYTHONIOENCODING=ascii): it is shown as ? instead. Typed bytes that are not in the
    encoding become � rather than ending the game."""
    # the process's own streams: a test's captured ones are left as they are
    for stream, errors in ((sys.__stdout__, "replace"), (sys.__stderr__, "backslashreplace"),
                           (sys.__stdin__, "replace")):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            try:
                stream.reconfigure(errors=errors)
            except (ValueError, OSError):  # a closed or detached stream: nothing will be written to it
                continue


def write_whole(target: Path, data: bytes) -> None:
    """Write `data` to the file `target` whole or not at all, so that a crash or a full disk never
    leaves half a file nor destroys the previous one: a fresh temporary file in the same folder
    (never a fixed name, which a planted symlink could redirect), flushed to the disk, then
    renamed over the target; removed again on any failure. Through a symbolic link the file it
    points to is replaced and the link stays. Something that is not a plain file (/dev/stdout, a
    pipe, a device) is written to as it is, never replaced: as root, a rename would put a plain
    file in place of /dev/full. OSError says what went wrong.

    A save killed between creating its temporary file and the rename (kill -9, a power cut)
    leaves that file behind, which nothing else would remove: each save first removes the
    stale ones of the same target (`remove_stale_temporaries`)."""
    import tempfile

    if target.exists() and not target.is_file():
        with open(target, "wb") as stream:
            stream.write(data)
        return
    target = target.resolve()
    remove_stale_temporaries(target)  # first: on a full disk, what they hold may be the room needed
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 would hide the file from the user's group
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# A temporary file of `write_whole` is `.NAME.XXXXXXXX.tmp`: mkstemp's 8 random characters.
_TEMPORARY_MIDDLE = r"[a-z0-9_]{8}"
# A save writes its temporary file within a second; ten minutes also leaves room for a slow disk
# and for the clock of a network file system that differs from this machine's.
STALE_AFTER_SECONDS = 600


def remove_stale_temporaries(target: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files earlier saves of `target` left behind (`write_whole`); the
    files removed. Only what is certainly such a file goes:

    - in `target`'s own folder, a name `write_whole` makes for this target and no other:
      `.` + the target's name + `.` + mkstemp's 8 characters (a-z, 0-9, _) + `.tmp`;
    - a plain file (never a symbolic link, a folder or a device), owned by this user;
    - last written more than STALE_AFTER_SECONDS ago: a save still going on, in this process or
      another (two windows saving the same game), has written its file within the last second,
      so its file is never taken. (The writer's process cannot be asked instead: the name does
      not say which it was, and a process id may be reused or belong to another machine.)

    Anything else is left alone, and a file that cannot be examined or removed is skipped:
    cleaning up never makes a save fail."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.{_TEMPORARY_MIDDLE}\.tmp\Z")
    prefix = f".{target.name}."
    moment = time.time() if now is None else now
    owner = getattr(os, "geteuid", lambda: None)()
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix) or not pattern.match(entry.name):
            continue
        try:
            found = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(found.st_mode) or (owner is not None and found.st_uid != owner):
                continue
            if moment - found.st_mtime <= STALE_AFTER_SECONDS:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed
