"""Conservation laws and bounds that hold after every decision of any legal table.

    problems = check_invariants(game.table)   # [] when all is well

These are checked from outside the engine, on the state alone (plus the game log
for the one quantity the state does not keep), so a bug in an effect shows up as a
broken law right after the decision that caused it instead of as a strange score
at the end. Each message names the broken quantity and the values found.

What is checked (all read from the ruleset, nothing is Birmingham-specific):

- cards: deck + hands + discard piles + wild piles + cards set aside is exactly the game's cards,
  each card once;
- industry tiles, per player and industry: tiles taken from the mat never exceed
  the stack; per player, tiles taken = tiles on the board + tiles removed for good
  + tiles developed away (counted from the log's `developed` entries) + tiles gone
  before a given position started the game;
- links, per player: links left + links on the board = links per player;
- money never negative, or never below the ruleset's shortfall money floor, if it sets a lower one or
  none (the bank is unlimited, so there is no total to conserve);
- cubes: never negative on a tile or in a market, a market holds at most its
  capacity, a non-producer holds none, a producer that flips when emptied holds none
  once flipped and is flipped once it holds none; a tile that flips when built is flipped;
- income position on the track and its level within lowest..highest;
- VP never negative (below the ruleset's shortfall floor, if it sets a lower one or none);
- tracks: each of the ruleset's tracks has a value within its min..max;
- stacks: each stack's face-down and drawn tiles are exactly the ruleset's at this player count;
- the board: every tile sits in the slot it is filed under, in a slot showing its
  industry; every link on the board exists and belongs to a seat.
"""

from __future__ import annotations

from collections import Counter

from interpreter.engine.state import Card, Player
from interpreter.engine.table import Table


def check_invariants(table: Table) -> list[str]:
    """Every broken invariant of the table's current state, as readable messages."""
    problems: list[str] = []
    for check in (_cards, _tiles, _links, _players, _cubes, _board, _tracks, _stacks):
        problems.extend(check(table))
    return problems


# -- cards -------------------------------------------------------------------------------

def _cards(table: Table) -> list[str]:
    """Cards are only ever moved, never created or lost (R-SCOUT-03 sends wilds back to their pile)."""
    state = table.state
    places: list[tuple[str, list[Card]]] = [("deck", state.deck)]
    for p in state.players:
        places += [(f"{p.name}'s hand", p.hand), (f"{p.name}'s discard pile", p.discard)]
    places += [(f"wild pile {k}", v) for k, v in state.wild_piles.items()] + [("cards set aside", state.aside)]
    seen: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for place, cards in places:
        for card in cards:
            seen[card.id] += 1
            where.setdefault(card.id, []).append(place)
    problems = [f"cards: {cid} is in {len(where[cid])} places at once ({', '.join(where[cid])})"
                for cid, n in sorted(seen.items()) if n > 1]
    missing = sorted(set(table.cards) - set(seen))
    extra = sorted(set(seen) - set(table.cards))
    if missing:
        problems.append(f"cards: {len(missing)} card(s) of the game are nowhere: {', '.join(missing[:10])}")
    if extra:
        problems.append(f"cards: {len(extra)} card(s) that are not in this game: {', '.join(extra[:10])}")
    problems += [f"cards: wild pile {k} holds {c.id}, which is not a {k} card"
                 for k, pile in state.wild_piles.items() for c in pile if c.face != k]
    return problems


# -- industry tiles -------------------------------------------------------------------------

def _tiles(table: Table) -> list[str]:
    """A tile leaves its mat once, to the board or by developing; from the board only for good."""
    problems: list[str] = []
    developed = developed_counts(table)
    on_board = Counter(t.owner.seat for t in table.state.tiles.values())
    for player in table.state.players:
        for industry, used in sorted(player.mat_used.items()):
            size = len(table.mat_stack(industry)) if industry in table.ruleset.tiles else None
            if size is None:
                problems.append(f"tiles: {player.name} took tiles of unknown industry {industry!r}")
            elif not 0 <= used <= size:
                problems.append(f"tiles: {player.name} has {size - used} {industry} tiles on the mat "
                                f"(mat_used {used} of {size})")
        taken = sum(player.mat_used.values())
        accounted = on_board[player.seat] + player.removed + developed.get(player.seat, 0) + player.gone_before
        if taken != accounted:
            before = f" + {player.gone_before} gone before the given position" if player.gone_before else ""
            problems.append(f"tiles: {player.name} took {taken} tiles from the mat but {accounted} are accounted for "
                            f"({on_board[player.seat]} on the board + {player.removed} removed + "
                            f"{developed.get(player.seat, 0)} developed{before})")
        if player.removed < 0:
            problems.append(f"tiles: {player.name} has removed = {player.removed} (negative)")
    return problems


def developed_counts(table: Table) -> dict[int, int]:
    """Tiles each seat developed away, from the log (the state does not count them).

    A `developed` entry carries no player; it belongs to the action during which it was
    written, and an action's `action` entry (which names the player) is written when the
    action ends, after its effects. Entries not yet followed by one belong to the action
    still being decided, i.e. to the current player.
    """
    counts: Counter[int] = Counter()
    waiting = 0
    for entry in table.state.log:
        event = entry.get("event")
        if event == "developed":
            waiting += 1
        elif event == "action" and waiting:
            counts[entry["player"]] += waiting
            waiting = 0
    if waiting and not table.state.finished:
        counts[table.me.seat] += waiting
    return dict(counts)


# -- links ---------------------------------------------------------------------------------------

def _links(table: Table) -> list[str]:
    """Link tiles go to the board and come back at the end of an era (R-SETUP-08, R-ERA-02)."""
    per_player = table.ruleset.setup.links_per_player
    placed = Counter(table.state.links.values())
    problems = []
    for player in table.state.players:
        total = player.links_left + placed[player.seat]
        if total != per_player or player.links_left < 0:
            problems.append(f"links: {player.name} has {player.links_left} left + {placed[player.seat]} on the board "
                            f"= {total}, expected {per_player}")
    return problems


# -- money, income, VP ------------------------------------------------------------------------------

def _players(table: Table) -> list[str]:
    """Bounds of each player's counters: money and VP never negative (or below the shortfall's
    floors), income on the track."""
    track = table.ruleset.income
    problems = []
    for player in table.state.players:
        problems += _player_bounds(table, player, track.positions, track.lowest_level, track.highest_level)
    return problems


def _player_bounds(table: Table, player: Player, positions: int, lowest: int, highest: int) -> list[str]:
    problems = []
    money_floor = table.ruleset.economy.shortfall_money_floor  # a variant may let unpaid income stay owed
    if money_floor is not None and player.money < money_floor:
        problems.append(f"money: {player.name} has £{player.money} (below £{money_floor})")
    floor = table.ruleset.economy.shortfall_vp_floor  # a variant may let a shortfall go lower, or have no floor
    if floor is not None and player.vp < min(0, floor):
        problems.append(f"vp: {player.name} has {player.vp} VP (negative)")
    if not 0 <= player.income_position < positions:
        problems.append(f"income: {player.name} is on track position {player.income_position}, "
                        f"outside 0..{positions - 1}")
    else:
        level = table.income_level(player)
        if not lowest <= level <= highest:
            problems.append(f"income: {player.name} is at level {level}, outside {lowest}..{highest}")
    return problems


# -- cubes ---------------------------------------------------------------------------------------------

def _cubes(table: Table) -> list[str]:
    """Cubes on tiles and in markets stay within their bounds; flipping follows emptying (R-FLIP-02)."""
    problems = []
    for market_id, cubes in sorted(table.state.markets.items()):
        market = table.ruleset.markets.get(market_id)
        if market is None:
            problems.append(f"markets: unknown market {market_id!r}")
        elif not 0 <= cubes <= market.capacity:
            problems.append(f"markets: the {market_id} market holds {cubes} cubes, outside 0..{market.capacity}")
    for sid, tile in sorted(table.state.tiles.items()):
        industry = table.ruleset.industries[tile.spec.industry]
        label = f"tile {tile.spec.id} of {tile.owner.name} at {sid}"
        if tile.cubes < 0:
            problems.append(f"cubes: {label} holds {tile.cubes} cubes (negative)")
        elif not industry.produces and tile.cubes:
            problems.append(f"cubes: {label} produces nothing but holds {tile.cubes} cubes")
        elif industry.flips == "built" and not tile.flipped:
            problems.append(f"flips: {label} flips when built but is not flipped")
        elif industry.produces and industry.flips == "emptied":
            if tile.flipped and tile.cubes:
                problems.append(f"cubes: {label} is flipped but still holds {tile.cubes} cubes")
            elif not tile.flipped and tile.cubes == 0 and min(tile.spec.output.values(), default=0) > 0:
                problems.append(f"cubes: {label} holds no cubes but is not flipped")
    return problems


# -- the board ----------------------------------------------------------------------------------------

def _board(table: Table) -> list[str]:
    """Tiles are where their slot says, in slots that allow them; links are real lines."""
    problems = []
    seats = {p.seat for p in table.state.players}
    for sid, tile in sorted(table.state.tiles.items()):
        if tile.slot.id != sid:
            problems.append(f"board: the tile filed under {sid} says it is in {tile.slot.id}")
        if tile.spec.industry not in tile.slot.industries:
            problems.append(f"board: a {tile.spec.industry} tile is in {sid}, which shows "
                            f"{', '.join(tile.slot.industries)}")
    for link, seat in sorted(table.state.links.items()):
        if link not in table.ruleset.links:
            problems.append(f"links: unknown link {link!r} on the board")
        if seat not in seats:
            problems.append(f"links: link {link} belongs to seat {seat}, who is not playing")
    return problems


# -- tracks ---------------------------------------------------------------------------------------

def _tracks(table: Table) -> list[str]:
    """Every track of the ruleset has a value within its min..max, and there is no other."""
    problems = []
    tracks, values = table.ruleset.tracks, table.state.tracks
    for track_id in sorted(set(tracks) | set(values)):
        track, value = tracks.get(track_id), values.get(track_id)
        if track is None:
            problems.append(f"tracks: unknown track {track_id!r}")
        elif value is None:
            problems.append(f"tracks: the {track_id} track has no value")
        elif not track.min <= value <= track.max:
            problems.append(f"tracks: the {track_id} track is at {value}, outside {track.min}..{track.max}")
    return problems


def _stacks(table: Table) -> list[str]:
    """Each stack's tiles, face down and drawn, are exactly the ruleset's at this player count."""
    problems = []
    players = len(table.state.players)
    stacks, state = table.ruleset.stacks, table.state
    for stack_id in sorted(set(stacks) | set(state.stacks) | set(state.drawn)):
        if stack_id not in stacks:
            problems.append(f"stacks: unknown stack {stack_id!r}")
            continue
        have = sorted(state.stacks.get(stack_id, []) + state.drawn.get(stack_id, []))
        if have != stacks[stack_id].pile(players):
            problems.append(f"stacks: the {stack_id} stack holds {have}, not {stacks[stack_id].pile(players)}")
    return problems
