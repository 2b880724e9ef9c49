"""What a game was made of, beyond its result: the profile that `brass report` draws.

    watch = RoundWatch(game)
    while not game.is_over:
        game.apply(...)
        watch.after(game)
    game_profile(game, watch)   # JSON-ready: VP by source, money and income by round, tiles built and flipped

Recorded while a game is played (`games.play_game`) and saved as the optional `profile` field of
each `--out` record (docs/simulate.md). Everything comes from what the engine already says, so
it holds for any ruleset (Birmingham, Lancashire, a variant) and names no game's pieces:

- `vp`: each seat's final VP by source. `links` sums the seat's links in every 'link scoring'
  event (R-ERA-02); `tiles` the seat's tiles in every 'tile scoring' event (R-ERA-03), by
  industry, a tile's industry being the one of the 'built' event that put it in its slot;
  `awards` the seat's VP of every 'award' event (the ruleset's `award_vp` steps: Lancashire's VP
  for money at the end, the Introductory Game's scoring); `shortfall` the VP lost to unpaid
  income (R-SHORT-03, as a negative number); `other` the rest, which no event reports: VP gained
  during actions (Birmingham's merchant bonuses, a `gain_vp` effect) and any VP a seat starts
  with. The sources add up to the seat's final VP by construction; the tests check each logged
  source against the log and `other` against the VP the seats gain inside their actions.
- `rounds`, `money`, `income_level`: at the end of every round (each 'end of round' event), the
  era and round, and each seat's money and income level, read from the state once the decision
  that ended the round is applied (income paid; an era's end, which may come with it, moves
  neither). Lists by seat, seat 1 first.
- `built`, `flipped`: by seat, industry and level, the tiles built ('built' events) and flipped
  ('flipped' events; the industry and level are those of the tile built in that slot).

Seats, levels and industries are JSON object keys, so strings: the profile is the same in memory
and read back from a file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.game import Game

Profile = dict[str, Any]
Counts = dict[str, dict[str, dict[str, int]]]  # seat -> industry -> level -> tiles
SOURCES = ("links", "tiles", "awards", "shortfall", "other")  # the keys of a seat's `vp`, `tiles` by industry
ROUND_END = "end of round"


class RoundWatch:
    """Each seat's money and income level at the end of every round, seen between decisions.

    After each decision it compares the era, round and end of the game with those before: only
    when one changed does it look at the new log entries for 'end of round' (a few attribute
    reads per decision otherwise, so a game is not slower)."""

    def __init__(self, game: Game) -> None:
        self.rounds: list[list[Any]] = []
        self.money: list[list[int]] = []
        self.income_level: list[list[int]] = []
        self._when = _when(game)
        self._seen = len(game.log)

    def after(self, game: Game) -> None:
        when = _when(game)
        if when == self._when:
            return
        self._when = when
        log = game.log
        ends = [entry for entry in log[self._seen:] if entry["event"] == ROUND_END]
        self._seen = len(log)
        table = game.table
        for entry in ends:
            self.rounds.append([entry.get("era"), entry.get("round")])
            self.money.append([player.money for player in game.state.players])
            self.income_level.append([table.income_level(player) for player in game.state.players])


def _when(game: Game) -> tuple[int, int, bool]:
    state = game.state
    return state.era_index, state.round, state.finished


def game_profile(game: Game, watch: RoundWatch) -> Profile:
    """The profile of a finished game (see the module's docstring)."""
    seats = [str(player.seat) for player in game.state.players]
    vp: dict[str, dict[str, Any]] = {seat: {"links": 0, "tiles": {}, "awards": 0, "shortfall": 0} for seat in seats}
    built: Counts = {seat: {} for seat in seats}
    flipped: Counts = {seat: {} for seat in seats}
    placed: dict[str, tuple[str, str]] = {}  # slot -> (industry, level) of the tile built there last
    for entry in game.log:
        event = entry["event"]
        if event == "built":
            placed[entry["slot"]] = industry_level = (entry["industry"], str(entry["level"]))
            _count(built, str(entry["player"]), *industry_level)
        elif event == "flipped" and entry["tile"] in placed:
            _count(flipped, str(entry["owner"]), *placed[entry["tile"]])
        elif event == "link scoring":
            for link in entry["links"]:
                vp[str(link["owner"])]["links"] += link["vp"]
        elif event == "tile scoring":
            for tile in entry["tiles"]:
                industry = placed.get(tile["tile"], ("?", ""))[0]
                tiles = vp[str(tile["owner"])]["tiles"]
                tiles[industry] = tiles.get(industry, 0) + tile["vp"]
        elif event == "award":
            for seat, points in entry["vp"].items():
                vp[str(seat)]["awards"] += points
        elif event == "shortfall":
            vp[str(entry["player"])]["shortfall"] -= entry["vp_lost"]
    for player in game.state.players:
        sources = vp[str(player.seat)]
        sources["other"] = player.vp - logged_vp(sources)
    return {"vp": vp, "rounds": watch.rounds, "money": watch.money, "income_level": watch.income_level,
            "built": built, "flipped": flipped}


def logged_vp(sources: dict[str, Any]) -> int:
    """A seat's VP from the sources the log reports (all but `other`)."""
    return int(sources["links"] + sum(sources["tiles"].values()) + sources["awards"] + sources["shortfall"])


def _count(counts: Counts, seat: str, industry: str, level: str) -> None:
    levels = counts[seat].setdefault(industry, {})
    levels[level] = levels.get(level, 0) + 1
