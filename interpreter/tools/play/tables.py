"""What `brass play` shows of the game: the player's own mat, a compact summary of the table,
and the full board on request, each fitting 80 columns (rich wraps the long lines at the
console's width, with nothing printed wider than it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from interpreter.engine.game import Game
from interpreter.tools.wording.names import (
    hand_names,
    industry_name,
    link_name,
    location_name,
    merchant_name,
    roman,
    seat_label,
    seat_style,
)


def header(game: Game) -> Text:
    """`Canal Era, round 2 of 10: P1 to act, 2 actions left; 18 cards in the deck`."""
    state = game.state
    era = game.ruleset.eras[state.era_index].name
    if game.is_over:
        return Text(f"{era}: the game is over", style="bold")
    rounds = game.ruleset.setup.rounds_per_era.get(len(state.players))
    of = f" of {rounds}" if rounds else ""
    seat = game.deciding_seat
    text = Text.assemble((f"{era}, round {state.round}{of}: ", "bold"))
    text.append_text(seat_label(seat))
    left = state.actions_left
    text.append(f" to act, {left} action{'s' if left != 1 else ''} left; {len(state.deck)} cards in the deck")
    return text


Figures = dict[int, tuple[int, int, int]]  # seat -> money, income level, VP


def figures(game: Game) -> Figures:
    """What the summary marks when it changes: each player's money, income level and VP."""
    return {p.seat: (p.money, game.table.income_level(p), p.vp) for p in game.table.players}


def _with_change(now: int, before: int | None, text: str) -> Text:
    """`£12 -5`: a figure and, dimmed, how it changed since the player last looked."""
    if before is None or before == now:
        return Text(text)
    return Text.assemble(text, (f" {now - before:+d}", "dim"))


def players_table(game: Game, seats: Sequence[str], before: Figures | None = None) -> Table:
    """One row per player, in turn order: money, income, VP (each with its change since `before`),
    cards, money spent this round, tiles on the board, links left."""
    table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    for column, justify in (("", "left"), ("who", "left"), ("money", "right"), ("income", "right"),
                            ("VP", "right"), ("cards", "right"), ("spent", "right"), ("tiles", "right"),
                            ("links", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    on_board = {p.seat: 0 for p in game.table.players}
    for tile in game.state.tiles.values():
        on_board[tile.owner.seat] += 1
    acting = None if game.is_over else game.deciding_seat
    for seat in game.state.turn_order or [p.seat for p in game.table.players]:
        p = game.table.player(seat)
        marker = Text(">" if seat == acting else " ").append_text(seat_label(seat))
        was = (before or {}).get(seat)
        money, income, vp = figures(game)[seat]
        table.add_row(marker, Text(seats[seat - 1], style=seat_style(seat)),
                      _with_change(money, was[0] if was else None, f"£{money}"),
                      _with_change(income, was[1] if was else None, f"{income:+d}"),
                      _with_change(vp, was[2] if was else None, str(vp)), str(len(p.hand)), f"£{p.spent}",
                      str(on_board[seat]), str(p.links_left))
    return table


def markets_line(game: Game) -> Text:
    """`Coal market: 13 of 14, next £1 · Iron market: …`."""
    parts = []
    for market_id, cubes in sorted(game.state.markets.items()):
        market = game.ruleset.markets[market_id]
        price = market.prices[market.capacity - cubes] if cubes > 0 else market.empty_price
        resource = game.ruleset.resources.get(market_id)
        name = resource.name if resource is not None else market_id
        parts.append(f"{name} market {cubes}/{market.capacity}, next £{price}")
    return Text("; ".join(parts) or "no markets", style="dim")


def tracks_line(game: Game) -> Text | None:
    """`Distant Market demand 3 (1..9); Distant Market tiles: 9 face down, drawn 2 0`: the value of
    each track of the ruleset and the size of each stack (its order is hidden; the drawn tiles were
    shown), or None for a ruleset without either."""
    state, ruleset = game.state, game.ruleset
    parts = [f"{track.name} {state.tracks.get(track_id, track.start)} ({track.min}..{track.max})"
             for track_id, track in ruleset.tracks.items()]
    for stack_id, stack in ruleset.stacks.items():
        drawn = state.drawn.get(stack_id, [])
        shown = f"drawn {' '.join(map(str, drawn))}" if drawn else "none drawn"
        parts.append(f"{stack.name}: {len(state.stacks.get(stack_id, []))} face down, {shown}")
    return Text("; ".join(parts), style="dim") if parts else None


def mat(game: Game, seat: int) -> list[Any]:
    """The player's own mat: money, income (level and track space), VP, what is left of each
    industry (count and next level), links left, and the hand by card name."""
    table, player = game.table, game.table.player(seat)
    figures = Text.assemble(("Your mat ", "bold"), seat_label(seat))
    figures.append(f": £{player.money}, income {table.income_level(player):+d} (space {player.income_position}), "
                   f"{player.vp} VP, {player.links_left} links left")
    tiles = Table(box=None, pad_edge=False, header_style="bold", title="Tiles left on your mat",
                  title_justify="left", title_style="bold")
    row = []
    for industry in game.ruleset.industries:
        tiles.add_column(industry_name(game.ruleset, industry), justify="left")
        n = table.tiles_left(player, industry)
        row.append(f"{roman(table.lowest_tile(player, industry).level)} ({n})" if n else "none")
    tiles.add_row(*row)
    hand = Text.assemble(("Hand: ", "bold"), hand_names(player.hand))
    return [figures, tiles, hand]


def summary(game: Game, seats: Sequence[str], seat: int, before: Figures | None = None) -> list[Any]:
    """What a player needs before choosing an action: the round, the players (with what changed
    since `before`, when they last looked), the markets and their own mat; what the others did
    was printed as they did it, and `m` shows the full board."""
    tracks = tracks_line(game)
    return [Text(), header(game), players_table(game, seats, before), markets_line(game),
            *([tracks] if tracks is not None else []), *mat(game, seat)]


def full_board(game: Game) -> list[Any]:
    """Every tile by location, the links by player, the markets, the tracks and stacks, and the merchants
    (of a ruleset that has them)."""
    ruleset = game.ruleset
    parts: list[Any] = [header(game), Text("Tiles:", style="bold")]
    by_location: dict[str, list[Text]] = {}
    for tile in game.table.board_tiles():
        text = seat_label(tile.owner.seat).append(
            f" {industry_name(ruleset, tile.spec.industry)} {roman(tile.spec.level)}")
        produces = ruleset.industries[tile.spec.industry].produces
        if tile.flipped:
            text.append(" flipped", style="green")
        elif tile.cubes and produces:
            text.append(f" ({tile.cubes} {ruleset.resources[produces].name.lower()})")
        by_location.setdefault(tile.slot.location, []).append(text)
    for location, tiles in by_location.items():
        line = Text(f"  {location_name(ruleset, location)}: ")
        line.append_text(Text(", ").join(tiles))
        parts.append(line)
    if not by_location:
        parts.append(Text("  none"))
    parts.append(Text("Links:", style="bold"))
    by_owner: dict[int, list[str]] = {}
    for link_id, owner in sorted(game.state.links.items()):
        by_owner.setdefault(owner, []).append(link_name(ruleset, link_id))
    for owner, links in sorted(by_owner.items()):
        parts.append(Text("  ").append_text(seat_label(owner)).append(": " + ", ".join(links)))
    if not by_owner:
        parts.append(Text("  none"))
    parts.append(markets_line(game))
    tracks = tracks_line(game)
    if tracks is not None:
        parts.append(tracks)
    if ruleset.merchants:  # a ruleset without merchants has no line for them
        merchants = [merchant_name(ruleset, m) for m in game.state.merchants if m.buys]
        parts.append(Text.assemble(("Merchants: ", "bold"), "; ".join(merchants) or "none"))
    return parts


def standings_table(game: Game, seats: Sequence[str] | None = None) -> Table:
    """Final (or current) places with VP, income and money, the ranking's order."""
    table = Table(title="Final standings" if game.is_over else "Standings so far", box=None)
    columns = ("place", "seat", "who", "VP", "income space", "money") if seats else \
        ("place", "seat", "VP", "income space", "money")
    for column in columns:
        table.add_column(column, justify="left" if column == "who" else "right")
    for row in game.standings():
        who = [seats[row["seat"] - 1]] if seats else []
        table.add_row(str(row["place"]), str(row["seat"]), *who, str(row["vp"]),
                      f"{row['income_position']} ({row['income_level']:+d})", f"£{row['money']}")
    return table
