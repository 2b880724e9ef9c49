"""The `brass` console script: the CLI imported and run so that Ctrl-C, whenever it comes, ends
brass with one line and status 130, never with a KeyboardInterrupt traceback.

`cli.main` handles Ctrl-C during a command; this module covers the moments around it, above all
the import of the CLI itself. It imports nothing at module level, so that as little as possible
runs before its guard.
"""

import contextlib
import sys

INTERRUPTED = "brass: interrupted (Ctrl-C)"  # the words of cli.INTERRUPTED (imported here it would be too late)


def main() -> int:
    try:
        from interpreter.tools.cli.main import main as run_cli

        return run_cli()
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):  # no usable stderr: the status says it
            print(INTERRUPTED, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
