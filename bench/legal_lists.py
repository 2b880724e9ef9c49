"""Behaviour fingerprint: the legal decision lists, states and refusals of bot games.

    python bench/legal_lists.py                      # print the fingerprints
    python bench/legal_lists.py --save FILE          # write them as JSON
    python bench/legal_lists.py --check FILE         # compare with a saved file (exit 1 on a difference)
    python bench/legal_lists.py --games 3 --bots random,greedy --rulesets birmingham

A restructuring or a speed-up must not change what the engine does. For every shipped ruleset,
player count, bot and seed this plays a game between bots and feeds, in order, into one SHA-256:
every legal list (canonical JSON), every decision taken and the canonical state after it (the
play digest); and, in a second SHA-256, the text of the refusal of a few decisions that are always
illegal (an unknown value, a wrong key, a whole action with a card nobody holds) (the refusals
digest: a change of wording changes only this one). `tests/test_behaviour_fingerprint.py` checks a small
subset against `tests/data/behaviour_fingerprint.json` in CI; run the whole set here before and
after a change that must keep behaviour byte-identical.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

from interpreter import Game, IllegalAction, load_ruleset
from interpreter.tools.bots.ladder import bot_seed, decide, make_bot

RULESETS = ("birmingham", "birmingham-intro", "summary-es", "tiebreak-by-level", "what-if")
BOTS = ("random", "greedy")
# Decisions no position allows: their refusals are part of the behaviour.
PROBES: tuple[dict[str, Any], ...] = (
    {"action": "no-such-action"},
    {"card": "no-such-card#1"},
    {"nonsense": 1},
    {"action": "build", "card": "no-such-card#1", "industry": "coal", "location": "birmingham",
     "slot": "birmingham/0"},
)


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _without_check(text: str) -> str:
    """A save's text without its leading `check` (added to saves after these were recorded)."""
    data = json.loads(text)
    data.pop("check", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(ruleset_name: str, players: int, bot: str, seed: int) -> dict[str, Any]:
    """One bot game's fingerprint: the digest, the decisions taken and the final standings."""
    ruleset = load_ruleset(ruleset_name)
    game = Game.new(ruleset, players, seed)
    seats = {s: make_bot(bot, bot_seed(seed, s)) for s in range(1, players + 1)}
    play, refusals = hashlib.sha256(), hashlib.sha256()
    decisions = 0
    while not game.is_over:
        legal = game.legal_actions()
        play.update(_canonical(legal))
        if decisions % 7 == 0:
            for probe in PROBES:
                before = game.to_json()
                try:
                    game.apply(probe)
                    refusals.update(b"accepted?!")
                except IllegalAction as refused:
                    refusals.update(str(refused).encode())
                assert game.to_json() == before, "a refused decision changed the game"
        move = decide(seats[game.deciding_seat], game)
        play.update(_canonical(move))
        game.apply(move)
        play.update(_without_check(game.to_json()).encode())
        decisions += 1
    play.update(_canonical(game.standings()))
    return {"ruleset": ruleset_name, "players": players, "bot": bot, "seed": seed,
            "decisions": decisions, "vp": [row["vp"] for row in game.standings()],
            "play_sha256": play.hexdigest(), "refusals_sha256": refusals.hexdigest()}


def fingerprints(rulesets: list[str], bots: list[str], games: int) -> list[dict[str, Any]]:
    found = []
    for name in rulesets:
        for players in load_ruleset(name).players:
            for bot in bots:
                for seed in range(1, games + 1):
                    found.append(fingerprint(name, players, bot, seed))
    return found


def _same(saved: dict[str, Any] | None, found: dict[str, Any], keys: list[str] | None) -> bool:
    if saved is None:
        return False
    return all(saved.get(k) == found.get(k) for k in keys) if keys else saved == found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="seeds 1..N per ruleset, player count and bot")
    parser.add_argument("--bots", default=",".join(BOTS))
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--save", metavar="FILE")
    parser.add_argument("--check", metavar="FILE")
    parser.add_argument("--play-only", action="store_true",
                        help="with --check: compare only the play digests (a change that rewords refusals)")
    args = parser.parse_args(argv)
    found = fingerprints(args.rulesets.split(","), args.bots.split(","), args.games)
    for row in found:
        print(f"{row['ruleset']:>18} {row['players']}p {row['bot']:>6} seed {row['seed']}: "
              f"{row['decisions']:>4} decisions  play {row['play_sha256'][:16]}  "
              f"refusals {row['refusals_sha256'][:16]}")
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(found, out, indent=1)
            out.write("\n")
    if args.check:
        with open(args.check, encoding="utf-8") as saved_file:
            saved = {(r["ruleset"], r["players"], r["bot"], r["seed"]): r for r in json.load(saved_file)}
        keys = ["play_sha256"] if args.play_only else None
        differ = [r for r in found if not _same(saved.get((r["ruleset"], r["players"], r["bot"], r["seed"])), r, keys)]
        for row in differ:
            print(f"DIFFERS: {row['ruleset']} {row['players']}p {row['bot']} seed {row['seed']}", file=sys.stderr)
        print(f"{len(found) - len(differ)} of {len(found)} games identical" + (" in play" if keys else ""))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
