"""Files cached between processes in the user's cache folder, where nobody else can write.

A cache file tells a later process what an earlier one found; whoever could plant one could make
`brass` believe anything. So a cache file is used only when nobody but the user could have
written it:

* the folder is `$XDG_CACHE_HOME/brass` (else `~/.cache/brass`), created with mode 0700; a
  folder that is a symbolic link, belongs to another user or that the group or others may
  write to is not used at all (nothing is then cached);
* a file must be a regular file of the current user that only they may write (a symbolic link
  planted in its place is not followed), no larger than the limit its reader gives; it is
  replaced atomically (written to a private temporary file, then renamed), never written in place.

The files hold JSON (which can only describe data), never a pickle. Used by the parser tables'
cache (`parser_cache`) and the ruleset cache (`interpreter.ruleset.ruleset_cache`).
"""

from __future__ import annotations

import contextlib
import os
import stat

__all__ = ["cache_folder", "private_folder", "read_private", "write_private"]


def cache_folder() -> str:
    """Where the cache lives: `$XDG_CACHE_HOME/brass`, else `~/.cache/brass`."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "brass")


def private_folder() -> str | None:
    """The cache folder, created if need be; None when it cannot be used (unsafe, or unwritable)."""
    folder = cache_folder()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except (OSError, ValueError):
        return None
    if not stat.S_ISDIR(info.st_mode) or not private(info):
        return None
    return folder


def private(info: os.stat_result) -> bool:
    """Owned by the current user, and neither the group nor others may write to it."""
    getuid = getattr(os, "getuid", None)  # not on Windows, where the folder is the user's profile
    owned = getuid is None or info.st_uid == getuid()
    return owned and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_private(path: str, limit: int) -> bytes | None:
    """The file's bytes if it is a regular file of ours that nobody else can write and holds at
    most `limit` bytes, else None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)  # never follow a link planted in its place
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode) or not private(info) or info.st_size > limit:
                return None
            raw = file.read(limit + 1)
    except OSError:
        return None
    return raw if len(raw) <= limit else None


def write_private(path: str, data: bytes, prefix: str) -> bool:
    """Replace the file at `path` by `data` atomically; False (and nothing left behind) on failure."""
    import tempfile  # only when writing: it imports `random` and `shutil`

    try:
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=prefix, suffix=".tmp")  # mode 0600
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException as error:  # a full disk, or Ctrl-C: no temporary file is left behind
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            return False
        raise
    return True
