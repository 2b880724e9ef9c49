"""The panel beside the map on `board_svg`'s picture.

The panel shows the era and round, whose turn it is, the turn order, each player's money,
income, VP, links left, hand, money spent and tiles left per industry, the markets (each space
with its price, filled or not), the ruleset's own tracks (the marker's space) and stacks (how many
tiles are face down, and the drawn ones) and the draw deck.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

from interpreter.engine.state import Player
from interpreter.tools.board.style import LINK_BED, BoardSource, LinkStyle, Palette
from interpreter.tools.board.svg import MIN_FONT, element, ink_on, roman, text_width

PANEL_WIDTH = 380.0
TITLE_SIZE = 16.0
LINE = 16.0  # one line of text


def draw_panel(parent: ET.Element, game: BoardSource, palette: Palette, x: float, y: float) -> float:
    """Draw the panel with its top left corner at (x, y); return where it ends (its bottom)."""
    ruleset, table = game.ruleset, game.table
    state = table.state
    panel = element(parent, "g", id="panel", transform=f"translate({x:.1f},{y:.1f})")
    era = ruleset.eras[state.era_index]
    rounds = ruleset.setup.rounds_per_era.get(len(state.players))
    # the title in as many lines as the panel's width needs (a variant's title can be long)
    title_lines = textwrap.wrap(ruleset.title, width=max(10, int(PANEL_WIDTH / text_width("x", TITLE_SIZE))))
    for n, line in enumerate(title_lines or [""]):
        element(panel, "text", line, x=0, y=LINE + n * (TITLE_SIZE + 3), font_size=TITLE_SIZE, font_weight="bold",
                class_="title")
    below = (len(title_lines) - 1) * (TITLE_SIZE + 3) if title_lines else 0
    of_rounds = f" of {rounds}" if rounds else ""
    element(panel, "text", f"{era.name}, round {state.round}{of_rounds}", id="era", x=0, y=below + 2 * LINE + 4,
            font_size=12.0, data_era=era.id, data_round=state.round)
    if game.is_over:
        to_play = "The game is over"
    else:
        to_play = f"{palette.player_name(game.deciding_seat).capitalize()} to play, " \
                  f"{state.actions_left} action{'s' if state.actions_left != 1 else ''} left"
    element(panel, "text", to_play, id="to-play", x=0, y=below + 3 * LINE + 4, font_size=12.0,
            data_seat=None if game.is_over else game.deciding_seat)
    top = _turn_order(panel, state.turn_order, palette, below + 4 * LINE + 12)
    for player in state.players:
        top = _player_block(panel, game, player, palette, top)
    for market_id in ruleset.markets:
        top = _market(panel, game, market_id, palette, top)
    for track_id in ruleset.tracks:
        top = _track(panel, game, track_id, top)
    for stack_id in ruleset.stacks:
        top = _stack(panel, game, stack_id, top)
    element(panel, "text", f"Draw deck: {len(state.deck)} card{'s' if len(state.deck) != 1 else ''}", id="deck",
            x=0, y=top + LINE, font_size=11.0, data_cards=len(state.deck))
    top = _legend(panel, palette, top + LINE + 10)
    return y + top


def _turn_order(panel: ET.Element, order: list[int], palette: Palette, top: float) -> float:
    element(panel, "text", "Turn order", x=0, y=top + 12, font_size=11.0)
    group = element(panel, "g", id="turn-order", data_order=" ".join(map(str, order)))
    for n, seat in enumerate(order):
        left = 75 + n * 26
        element(group, "rect", x=left, y=top, width=22.0, height=16.0, rx=3.0, fill=palette.seat(seat),
                stroke="#000000")
        element(group, "text", str(seat), x=left + 11, y=top + 12, font_size=10.0, text_anchor="middle",
                fill=ink_on(palette.seat(seat)))
    return top + 26


def _player_block(panel: ET.Element, game: BoardSource, player: Player, palette: Palette, top: float) -> float:
    table = game.table
    seat, colour = player.seat, palette.seat(player.seat)
    group = element(panel, "g", id=f"player-{seat}", class_="player", data_seat=seat)
    element(group, "rect", x=0, y=top, width=PANEL_WIDTH, height=74.0, rx=4.0, fill="#fffaf0", stroke=colour,
            stroke_width=2.0)
    element(group, "rect", x=0, y=top, width=PANEL_WIDTH, height=LINE, rx=4.0, fill=colour)
    element(group, "text", f"{palette.player_name(seat).capitalize()}{_standing(game, seat)}", id=f"player-{seat}-name",
            x=6, y=top + 12, font_size=11.0, font_weight="bold", fill=ink_on(colour))
    level = table.income_level(player)
    figures = (("money", "money", f"£{player.money}", 60),
               ("income", f"income (space {player.income_position})", f"{level:+d}", 92),
               ("vp", "VP", str(player.vp), 52), ("links", "links left", str(player.links_left), 60),
               ("hand", "hand", str(len(player.hand)), 46), ("spent", "spent", f"£{player.spent}", 50))
    left = 6.0
    for key, label, value, width in figures:
        element(group, "text", label, x=left, y=top + LINE + 11, font_size=8.5, fill="#555555")
        element(group, "text", value, id=f"player-{seat}-{key}", x=left, y=top + LINE + 26, font_size=13.0,
                font_weight="bold", data_space=player.income_position if key == "income" else None)
        left += width
    _mat_chips(group, game, player, palette, top + 50)
    return top + 82


def _standing(game: BoardSource, seat: int) -> str:
    """After a player's name: a marker on the one to play, or the final place once the game is over."""
    if not game.is_over:
        return "  ◀ to play" if game.deciding_seat == seat else ""
    place = next(row["place"] for row in game.table.standings() if row["seat"] == seat)
    return f": place {place}"


def _mat_chips(group: ET.Element, game: BoardSource, player: Player, palette: Palette, top: float) -> None:
    """A chip per industry: its label, the level of the next tile on the mat (what a Build would
    take) and how many tiles are left; the font shrinks when the chips would not fit in a row."""
    table = game.table
    texts = []
    for industry in game.ruleset.industries:
        count = table.tiles_left(player, industry)
        level = f" {roman(table.lowest_tile(player, industry).level)}" if count else ""
        texts.append((industry, count, f"{palette.label(industry)}{level}: {count}"))
    natural = sum(text_width(text, 9.0) + 12 for _, _, text in texts)
    size = max(MIN_FONT, 9.0 * min(1.0, (PANEL_WIDTH - 12) / natural)) if natural else 9.0
    left = 6.0
    for industry, count, text in texts:
        chip, width = palette.industry(industry), text_width(text, size) + 8
        element(group, "rect", x=left, y=top, width=width, height=16.0, rx=3.0, fill=chip)
        element(group, "text", text, id=f"player-{player.seat}-left-{industry}", x=left + 4, y=top + 12,
                font_size=size, fill=ink_on(chip), data_tiles_left=count)
        left += width + 4


def _track(panel: ET.Element, game: BoardSource, track_id: str, top: float) -> float:
    """A track of the ruleset: its name and value, and a row of its spaces with the marker's filled."""
    track = game.ruleset.tracks[track_id]
    value = game.table.state.tracks.get(track_id, track.start)
    group = element(panel, "g", id=f"track-{track_id}", class_="track", data_value=value, data_min=track.min,
                    data_max=track.max)
    element(group, "text", f"{track.name}: {value}", x=0, y=top + 12, font_size=11.0)
    spaces = range(track.min, track.max + 1)
    size = min(22.0, (PANEL_WIDTH - 2) / max(len(spaces), 1) - 2)
    for index, space in enumerate(spaces):
        left, here = index * (size + 2), space == value
        element(group, "rect", x=left, y=top + 18, width=size, height=size * 0.8, rx=2.0,
                fill="#333333" if here else "#ffffff", stroke="#6b6b6b")
        element(group, "text", str(space), x=left + size / 2, y=top + 18 + size * 0.55, font_size=8.0,
                text_anchor="middle", fill="#ffffff" if here else "#333333")
    return top + 18 + size * 0.8 + 6


def _stack(panel: ET.Element, game: BoardSource, stack_id: str, top: float) -> float:
    """A stack of the ruleset: how many tiles are face down (never which, nor their order) and the
    values of the drawn ones, which were shown."""
    stack, state = game.ruleset.stacks[stack_id], game.table.state
    face_down, drawn = len(state.stacks.get(stack_id, [])), state.drawn.get(stack_id, [])
    shown = f"drawn {' '.join(map(str, drawn))}" if drawn else "none drawn"
    element(panel, "text", f"{stack.name}: {face_down} face down, {shown}", id=f"stack-{stack_id}", class_="stack",
            x=0, y=top + 12, font_size=11.0, data_face_down=face_down, data_drawn=" ".join(map(str, drawn)))
    return top + LINE + 2


def _market(panel: ET.Element, game: BoardSource, market_id: str, palette: Palette, top: float) -> float:
    ruleset = game.ruleset
    market = ruleset.markets[market_id]
    cubes = game.table.state.markets.get(market_id, 0)
    resource = next((r for r in ruleset.resources.values() if r.market == market_id), None)
    name = resource.name if resource else market_id
    colour = palette.resource(resource.id if resource else None)
    group = element(panel, "g", id=f"market-{market_id}", class_="market", data_cubes=cubes,
                    data_capacity=market.capacity)
    element(group, "text", f"{name} market: {cubes} of {market.capacity}, £{market.empty_price} when empty",
            x=0, y=top + 12, font_size=11.0)
    size = min(24.0, (PANEL_WIDTH - 2) / max(market.capacity, 1) - 2)
    empty = market.capacity - cubes  # filled from the most expensive space down
    for index, price in enumerate(market.prices):
        left = index * (size + 2)
        filled = index >= empty
        space = element(group, "g", id=f"market-{market_id}-{index}", data_price=price, data_filled=filled)
        element(space, "rect", x=left, y=top + 18, width=size, height=size, fill="#ffffff", stroke="#6b6b6b")
        if filled:
            element(space, "rect", class_="cube", x=left + 4, y=top + 22, width=size - 8, height=size - 8,
                    fill=colour, stroke="#000000", stroke_width=0.8)
        element(space, "text", f"£{price}", x=left + size / 2, y=top + 18 + size + 10, font_size=8.0,
                text_anchor="middle")
    return top + 18 + size + 18


def _legend(panel: ET.Element, palette: Palette, top: float) -> float:
    group = element(panel, "g", id="legend")
    rows = _legend_rows(list(palette.links.values()))
    for n, (label, styles) in enumerate(rows):
        y = top + n * LINE + 6
        element(group, "line", x1=0, y1=y, x2=30, y2=y, stroke=LINK_BED, stroke_width=9.0)
        for k, style in enumerate(styles):  # as a line of several kinds is drawn (board_svg._segment)
            element(group, "line", x1=0, y1=y, x2=30, y2=y, stroke=style.colour,
                    stroke_dasharray="6 5" if style.dashed else None, stroke_width=3.0 if k == 0 else 1.5)
        element(group, "text", label, x=38, y=y + 4, font_size=10.0)
    dashed = " or ".join(style.name for style in palette.links.values() if style.dashed)
    sleepers = f" (a {dashed} link with sleepers)" if dashed else ""
    notes = ("a line faded: no link of this era can be built on it",
             f"built links and tiles: their owner's colour{sleepers}",
             "✓ a flipped tile and its VP")
    for n, note in enumerate(notes):
        element(group, "text", note, x=0, y=top + (len(rows) + n) * LINE + 8, font_size=9.5, fill="#444444")
    return top + (len(rows) + len(notes)) * LINE + 6


def _legend_rows(styles: list[LinkStyle]) -> list[tuple[str, list[LinkStyle]]]:
    """A row per link kind, and one for a line that takes them all when there are several."""
    rows = [(f"a {style.name} line", [style]) for style in styles]
    if len(styles) > 1:
        rows.append((f"a {' or '.join(style.name for style in styles)} line", styles))
    return rows
