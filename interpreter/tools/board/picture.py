"""A picture of a game's position as SVG: `board_svg(game)`, drawn from the ruleset's data.

    from interpreter.tools.board.picture import board_svg
    svg_text = board_svg(game)            # a Game, or a seat's view: game.view(seat)

The picture shows the map (every location with its industry slots and the tiles built on them,
every link line, the merchants with their tiles and beer barrels) and, in a panel beside it, the
era and round, the turn order, each player's money, income, VP, links, hand and tiles left, the
markets and the draw deck. Nothing in it is particular to Birmingham: names, slots, links and
labels come from the ruleset; a location is drawn at its `at` (board.yaml) or laid out
automatically (`board/layout.py`); a colour group's or an industry's `colour` and an industry's
`short` label are used when the ruleset gives them; players have the colours of their seats
(`player_colour`).

Every element a program may want to find or click carries an id and `data-` attributes:

* a location: `loc-<location>`; `data-location`, `data-kind`, `data-group`;
* an industry slot: `slot-<location>-<index>`; `data-slot` (the engine's slot id), `data-industries`;
* a tile on a slot: `tile-<location>-<index>`; `data-owner` (the seat), `data-industry`, `data-level`,
  `data-flipped`, `data-cubes`;
* a link line: `link-<link>`; `data-link`, `data-ends`, one `data-<kind>` per link kind of the ruleset
  (Birmingham: `data-canal`, `data-rail`), `data-this-era` (a link of the current era's kind fits it),
  and once built `data-owner` and `data-built` (the kind);
* a merchant space: `merchant-<location>-<index>`; `data-space`, `data-tile`, `data-buys`, `data-beer`,
  `data-in-play` (false for a space not used at this player count);
* a player's figures: `player-<seat>-money`, `-income` (its `data-space`: the track space), `-vp`,
  `-links`, `-hand`, `-spent`, `-left-<industry>` (`data-tiles-left`);
* a market: `market-<market>` (`data-cubes`, `data-capacity`), its spaces `market-<market>-<index>`
  (`data-price`, `data-filled`); the era `era`, whose turn `to-play`, the turn order `turn-order`, the
  draw deck `deck`.

The output depends only on the position: the same position gives the same bytes. It has no XML
declaration, so a web page can put it inline as it is; as a file it is a complete SVG document.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from interpreter.engine.state import MerchantSpace, PlacedTile
from interpreter.engine.table import Table
from interpreter.ruleset.model import Link, Location, Ruleset, Slot
from interpreter.tools.board.layout import Point, location_positions
from interpreter.tools.board.panel import PANEL_WIDTH, draw_panel
from interpreter.tools.board.style import LINK_BED, BoardSource, Palette, player_colour
from interpreter.tools.board.svg import (
    FONT,
    MIN_FONT,
    SVG_NAMESPACE,
    element,
    fitting,
    ink_on,
    number,
    roman,
    serialise,
    text_width,
)

__all__ = ["BoardSource", "board_svg", "player_colour"]

SLOT = 40.0  # an industry slot or merchant space, square
SLOT_GAP = 4.0
PAD = 6.0
BANNER = 18.0  # the band with the location's name
NAME_SIZE = 11.0
BONUS_LINE = 13.0  # a merchant's beer bonus, under its spaces
BONUS_SIZE = 8.5
MARGIN = 30.0
CUBE = 6.0
BADGE = 7.5  # the radius of a seat's number on a tile or link


@dataclass(frozen=True)
class _Box:
    """Where a location's box lies on the picture (its centre and size, in pixels)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def top(self) -> float:
        return self.y - self.height / 2


def board_svg(game: BoardSource) -> str:
    """The position of `game` as an SVG document (text). A seat's view draws the same board (the
    board is public); nothing hidden (hands, the deck's order) is ever drawn."""
    ruleset, table = game.ruleset, game.table
    palette = Palette.of(ruleset)
    boxes = _boxes(ruleset)
    map_width = max((b.left + b.width for b in boxes.values()), default=0.0) + MARGIN
    map_height = max((b.top + b.height for b in boxes.values()), default=0.0) + MARGIN
    panel = ET.Element("g")
    panel_height = draw_panel(panel, game, palette, x=map_width, y=MARGIN)
    width, height = map_width + PANEL_WIDTH + MARGIN, max(map_height, panel_height + MARGIN)
    root = element(None, "svg", xmlns=SVG_NAMESPACE, width=width, height=height,
                   viewBox=f"0 0 {number(width)} {number(height)}", font_family=FONT,
                   data_ruleset=ruleset.name)
    element(root, "title", ruleset.title)
    element(root, "rect", class_="background", x=0, y=0, width=width, height=height, fill="#f4efe4")
    links = element(root, "g", id="links")
    for link in ruleset.links.values():
        _draw_link(links, link, boxes, table, palette)
    places = element(root, "g", id="locations")
    for location in ruleset.locations.values():
        _draw_location(places, location, boxes[location.id], table, palette)
    root.append(panel)
    return serialise(root)


# -- where the locations go ----------------------------------------------------------------------

def _boxes(ruleset: Ruleset) -> dict[str, _Box]:
    """Each location's box, the whole map moved so that it starts at the margin; worked out once
    per ruleset (an automatic layout takes some 80 ms, a page may draw hundreds of positions)."""
    known = ruleset.__dict__.get("_board_boxes")
    if known is None:
        known = ruleset.__dict__["_board_boxes"] = _place_boxes(ruleset)
    boxes: dict[str, _Box] = known
    return boxes


def _place_boxes(ruleset: Ruleset) -> dict[str, _Box]:
    sizes = {lid: _box_size(ruleset, loc) for lid, loc in ruleset.locations.items()}
    centres = location_positions(ruleset, sizes)
    left = min((centres[lid][0] - sizes[lid][0] / 2 for lid in centres), default=0.0)
    top = min((centres[lid][1] - sizes[lid][1] / 2 for lid in centres), default=0.0)

    def shifted(lid: str, point: Point) -> _Box:
        return _Box(point[0] - left + MARGIN, point[1] - top + MARGIN, *sizes[lid])

    return {lid: shifted(lid, point) for lid, point in centres.items()}


def _box_size(ruleset: Ruleset, location: Location) -> tuple[float, float]:
    spaces = _spaces_drawn(ruleset, location)
    cells = max(spaces, 1)
    row = cells * SLOT + (cells - 1) * SLOT_GAP + 2 * PAD
    width = max(row, text_width(location.name, NAME_SIZE) + 2 * PAD,
                text_width(_bonus_text(ruleset, location.id), BONUS_SIZE) + 2 * PAD)
    height = BANNER + SLOT + 2 * PAD + (BONUS_LINE if location.kind == "merchant" else 0.0)
    return width, height


def _spaces_drawn(ruleset: Ruleset, location: Location) -> int:
    """Slots of a town or farm; for a merchant, its spaces at the player count that has the most."""
    if location.slots:
        return len(location.slots)
    merchant = ruleset.merchants.get(location.id)
    return max(merchant.spaces.values(), default=0) if merchant else 0


# -- links ---------------------------------------------------------------------------------------

def _draw_link(parent: ET.Element, link: Link, boxes: dict[str, _Box], table: Table, palette: Palette) -> None:
    owner = table.state.links.get(link.id)
    # Every link is removed at the end of an era, so a built link is of the current era's kind.
    era_kind = table.ruleset.eras[table.state.era_index].link_kind
    built_kind = era_kind if owner is not None else None
    this_era = link.takes(era_kind)
    ends = [(boxes[e].x, boxes[e].y) for e in link.ends if e in boxes]
    takes: dict[str, Any] = {f"data_{kind}": link.takes(kind) for kind in table.ruleset.link_kinds}  # data-canal
    group = element(parent, "g", id=f"link-{link.id}", class_="link", data_link=link.id,
                    data_ends=" ".join(link.ends), **takes,
                    data_this_era=this_era, data_owner=owner, data_built=built_kind,
                    opacity=0.4 if not this_era and owner is None else None)  # faded: no link of this era fits
    kinds = " and ".join(palette.links[kind].name for kind in link.kinds)
    names = " – ".join(table.ruleset.locations[e].name for e in link.ends)
    built = f", a {built_kind} link of {palette.player_name(owner)}" if owner is not None else ""
    element(group, "title", f"{link.id}: {names} ({kinds}){built}")
    hub = (sum(x for x, _ in ends) / len(ends), sum(y for _, y in ends) / len(ends))
    segments = [(ends[0], ends[1])] if len(ends) == 2 else [(hub, end) for end in ends]
    for start, end in segments:
        _segment(group, start, end, link, owner, built_kind, palette)
    if len(ends) > 2:
        element(group, "circle", cx=hub[0], cy=hub[1], r=6.0,
                fill=palette.seat(owner) if owner is not None else LINK_BED, stroke="#000000")
    if owner is not None:  # the owner's number, on the hub or the middle of the line
        middle = hub if len(ends) > 2 else ((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2)
        _seat_badge(group, owner, middle[0], middle[1])


def _segment(group: ET.Element, start: Point, end: Point, link: Link, owner: int | None, built_kind: str | None,
             palette: Palette) -> None:
    """An unbuilt line shows what may be built on it; a built one its owner's colour, with the
    sleepers of a railway when its kind is drawn dashed (Birmingham's rail)."""
    line: dict[str, Any] = {"x1": start[0], "y1": start[1], "x2": end[0], "y2": end[1]}
    if owner is not None:
        element(group, "line", **line, stroke="#000000", stroke_width=11.0, stroke_linecap="round")
        element(group, "line", **line, stroke=palette.seat(owner), stroke_width=8.0, stroke_linecap="round")
        if built_kind is not None and palette.links[built_kind].dashed:
            element(group, "line", **line, stroke="#000000", stroke_width=8.0, stroke_dasharray="2 8",
                    stroke_opacity=0.6)
        return
    element(group, "line", **line, stroke=LINK_BED, stroke_width=9.0)
    for n, kind in enumerate(link.kinds):  # a second kind on the same line is drawn thinner, over the first
        style = palette.links[kind]
        element(group, "line", **line, stroke=style.colour, stroke_width=3.0 if n == 0 else 1.5,
                stroke_dasharray="6 5" if style.dashed else None)


# -- locations, slots and tiles ------------------------------------------------------------------

def _draw_location(parent: ET.Element, location: Location, box: _Box, table: Table, palette: Palette) -> None:
    ruleset = table.ruleset
    group = element(parent, "g", id=f"loc-{location.id}", class_="location", data_location=location.id,
                    data_kind=location.kind, data_group=location.group,
                    transform=f"translate({number(box.left)},{number(box.top)})")
    element(group, "title", location.name)
    banner = palette.group(location.group)
    element(group, "rect", x=0, y=0, width=box.width, height=box.height, rx=5.0, fill="#fffaf0",
            stroke=banner, stroke_width=2.0)
    element(group, "rect", x=0, y=0, width=box.width, height=BANNER, rx=5.0, fill=banner)
    element(group, "text", location.name, x=box.width / 2, y=BANNER - 5, font_size=NAME_SIZE,
            font_weight="bold", text_anchor="middle", fill=ink_on(banner))
    first = (box.width - (_spaces_drawn(ruleset, location) * (SLOT + SLOT_GAP) - SLOT_GAP)) / 2
    top = BANNER + PAD
    for slot in location.slots:
        _draw_slot(group, slot, first + slot.index * (SLOT + SLOT_GAP), top, table, palette)
    if location.kind == "merchant":
        _draw_merchant(group, location, first, top, box, table, palette)


def _draw_slot(parent: ET.Element, slot: Slot, x: float, y: float, table: Table, palette: Palette) -> None:
    group = element(parent, "g", id=f"slot-{slot.location}-{slot.index}", class_="slot", data_slot=slot.id,
                    data_industries=" ".join(slot.industries))
    names = " or ".join(table.ruleset.industries[i].name for i in slot.industries)
    element(group, "title", f"slot {slot.id}: {names}")
    element(group, "rect", x=x, y=y, width=SLOT, height=SLOT, fill="#ffffff", stroke="#6b6b6b")
    part = SLOT / len(slot.industries)
    for n, industry in enumerate(slot.industries):
        colour = palette.industry(industry)
        element(group, "rect", x=x + n * part, y=y, width=part, height=SLOT, fill=colour, fill_opacity=0.35)
        element(group, "text", palette.label(industry), x=x + n * part + part / 2, y=y + SLOT / 2 + 3,
                font_size=fitting(palette.label(industry), part - 2, 8.0 if len(slot.industries) > 1 else 10.0),
                text_anchor="middle", fill="#222222")
    tile = table.state.tiles.get(slot.id)
    if tile is not None:
        _draw_tile(group, tile, x, y, table, palette)


def _draw_tile(parent: ET.Element, tile: PlacedTile, x: float, y: float, table: Table, palette: Palette) -> None:
    industry = table.ruleset.industries[tile.spec.industry]
    owner = tile.owner.seat
    colour, band = palette.seat(owner), palette.industry(industry.id)
    group = element(parent, "g", id=f"tile-{tile.slot.location}-{tile.slot.index}", class_="tile",
                    data_owner=owner, data_industry=industry.id, data_level=tile.spec.level,
                    data_flipped=tile.flipped, data_cubes=tile.cubes)
    held = f", {tile.cubes} {_resource_name(table.ruleset, industry.produces)}" if industry.produces else ""
    state = f", flipped ({tile.spec.vp} VP)" if tile.flipped else held
    element(group, "title", f"{palette.player_name(owner)}: {industry.name} {roman(tile.spec.level)}{state}")
    element(group, "rect", x=x + 1, y=y + 1, width=SLOT - 2, height=SLOT - 2, rx=3.0, fill=colour,
            stroke="#000000", stroke_width=1.5)
    element(group, "rect", x=x + 1, y=y + 1, width=SLOT - 2, height=11.0, fill=band)
    element(group, "text", palette.label(industry.id), x=x + SLOT / 2, y=y + 9.5,
            font_size=fitting(palette.label(industry.id), SLOT - 4, 8.0),
            text_anchor="middle", fill=ink_on(band))
    element(group, "text", roman(tile.spec.level), x=x + 13, y=y + 26, font_size=12.0, font_weight="bold",
            text_anchor="middle", fill=ink_on(colour))
    _seat_badge(group, owner, x + 29, y + 21)
    if tile.flipped:
        element(group, "rect", x=x + 1, y=y + SLOT - 10, width=SLOT - 2, height=9.0, fill="#000000")
        element(group, "text", f"✓ {tile.spec.vp} VP", x=x + SLOT / 2, y=y + SLOT - 2, font_size=MIN_FONT,
                text_anchor="middle", fill="#ffffff", class_="flipped")
    elif tile.cubes:
        _draw_cubes(group, tile.cubes, palette.resource(industry.produces), x, y + SLOT - CUBE - 2,
                    barrels=industry.produces is not None and industry.produces == palette.barrel_resource)


def _seat_badge(parent: ET.Element, seat: int, x: float, y: float) -> None:
    """The seat's number in a white disc centred on (x, y): whose a tile or link is, for a reader who
    cannot tell the seats' colours apart."""
    badge = element(parent, "g", class_="seat-number", data_seat=seat)
    element(badge, "circle", cx=x, cy=y, r=BADGE, fill="#ffffff", stroke="#000000", stroke_width=1.2)
    element(badge, "text", str(seat), x=x, y=y + 4, font_size=NAME_SIZE, font_weight="bold", text_anchor="middle",
            fill="#000000")


def _draw_cubes(parent: ET.Element, cubes: int, colour: str, x: float, y: float, barrels: bool = False) -> None:
    """Up to 4 cubes (or barrels, round) side by side; more as one and the count."""
    shown = cubes if cubes <= 4 else 1
    left = x + (SLOT - (shown * (CUBE + 2) - 2)) / 2 - (6 if cubes > 4 else 0)
    for n in range(shown):
        if barrels:
            element(parent, "circle", class_="barrel", cx=left + n * (CUBE + 2) + CUBE / 2, cy=y + CUBE / 2,
                    r=CUBE / 2 + 0.4, fill=colour, stroke="#5a3d12", stroke_width=0.8)
        else:
            element(parent, "rect", class_="cube", x=left + n * (CUBE + 2), y=y, width=CUBE, height=CUBE,
                    fill=colour, stroke="#ffffff", stroke_width=0.8)
    if cubes > 4:
        element(parent, "text", f"x{cubes}", x=left + CUBE + 2, y=y + CUBE, font_size=MIN_FONT, fill="#ffffff",
                stroke="#000000", stroke_width=0.3)


def _resource_name(ruleset: Ruleset, resource: str | None) -> str:
    found = ruleset.resources.get(resource or "")
    return found.name.lower() if found else (resource or "")


# -- merchants -------------------------------------------------------------------------------------

def _draw_merchant(parent: ET.Element, location: Location, first: float, top: float, box: _Box, table: Table,
                   palette: Palette) -> None:
    spaces = {m.index: m for m in table.state.merchants if m.location == location.id}
    for index in range(_spaces_drawn(table.ruleset, location)):
        _draw_merchant_space(parent, location, index, spaces.get(index), first + index * (SLOT + SLOT_GAP), top,
                             table, palette)
    bonus = _bonus_text(table.ruleset, location.id)
    if bonus:
        element(parent, "text", bonus, x=box.width / 2, y=top + SLOT + BONUS_LINE - 2, font_size=BONUS_SIZE,
                text_anchor="middle", fill="#333333", class_="merchant-bonus")


def _draw_merchant_space(parent: ET.Element, location: Location, index: int, space: MerchantSpace | None,
                         x: float, y: float, table: Table, palette: Palette) -> None:
    group = element(parent, "g", id=f"merchant-{location.id}-{index}", class_="merchant-space",
                    data_space=f"{location.id}/{index}", data_tile=space.tile if space else None,
                    data_buys=" ".join(space.buys) if space else None,
                    data_beer=space.has_beer if space else None, data_in_play=space is not None)
    if space is None:
        element(group, "title", f"{location.name}: a space not in play at this player count")
        element(group, "rect", x=x, y=y, width=SLOT, height=SLOT, fill="none", stroke="#9a9a9a",
                stroke_dasharray="3 3")
        return
    buys = ", ".join(table.ruleset.industries[i].name for i in space.buys) or "nothing"
    element(group, "title", f"{location.name}: merchant tile {space.tile} (buys {buys})"
                            f"{_barrel_words(table.ruleset) if space.has_beer else ''}")
    element(group, "rect", x=x, y=y, width=SLOT, height=SLOT, rx=3.0, fill="#efe6d2", stroke="#6b5a45")
    part = SLOT / max(len(space.buys), 1)
    for n, industry in enumerate(space.buys):
        element(group, "rect", x=x + n * part, y=y + 12, width=part, height=16.0, fill=palette.industry(industry))
        element(group, "text", palette.label(industry), x=x + n * part + part / 2, y=y + 23,
                font_size=fitting(palette.label(industry), part - 1, MIN_FONT if len(space.buys) > 1 else 9.0),
                text_anchor="middle",
                fill=ink_on(palette.industry(industry)))
    if not space.buys:
        element(group, "text", "—", x=x + SLOT / 2, y=y + 24, font_size=10.0, text_anchor="middle", fill="#6b5a45")
    if space.has_beer:
        element(group, "circle", class_="barrel", cx=x + SLOT - 7, cy=y + 7, r=5.0,
                fill=palette.barrel, stroke="#5a3d12")


def _barrel_words(ruleset: Ruleset) -> str:
    """`, a beer barrel`: the merchant's barrel named after the resource it holds."""
    barrel = ruleset.barrel_resource
    return f", a {ruleset.resources[barrel].name.lower()} barrel" if barrel else ", a barrel"


def _bonus_text(ruleset: Ruleset, location: str) -> str:
    """The merchant's bonus in the ruleset's own words: its effect steps with their amounts, after
    the name of the resource whose barrel pays it (`beer: …` in Birmingham)."""
    steps = ruleset.data.get("merchants", {}).get(location, {}).get("beer_bonus", [])
    parts = []
    for step in steps:
        if isinstance(step, str):
            parts.append(step.replace("_", " "))
        elif isinstance(step, dict):
            for name, value in step.items():
                amount = f" {value}" if isinstance(value, int) and not isinstance(value, bool) else ""
                parts.append(f"{name.replace('_', ' ')}{amount}")
    barrel = ruleset.barrel_resource
    label = ruleset.resources[barrel].name.lower() if barrel else "bonus"
    return (f"{label}: " + ", ".join(parts)) if parts else ""
