"""The board picture of the web page (placeholder until the board drawing lands)."""

from __future__ import annotations

from html import escape

from interpreter.engine.game import Game


def board_picture(game: Game) -> str:
    """An SVG of the position whose slots, links, locations and merchants carry data- attributes."""
    rows = []
    y = 20
    for loc_id, location in game.ruleset.locations.items():
        rows.append(f'<text x="5" y="{y}" data-location="{escape(loc_id)}">{escape(location.name)}</text>')
        x = 160
        for slot in (s for s in game.ruleset.slots if s.location == loc_id):
            tile = game.state.tiles.get(slot.id)
            label = f"{tile.spec.industry} {tile.spec.level} p{tile.owner.seat}" if tile else "/".join(slot.industries)
            rows.append(f'<g data-slot="{escape(slot.id)}"><rect x="{x}" y="{y - 12}" width="150" height="15" '
                        f'fill="#eee" stroke="#999"/><text x="{x + 2}" y="{y}">{escape(label)}</text></g>')
            x += 155
        y += 18
    for link_id in game.ruleset.links:
        rows.append(f'<text x="5" y="{y}" data-link="{escape(link_id)}">{escape(link_id)} '
                    f'{game.state.links.get(link_id, "")}</text>')
        y += 18
    for merchant in game.state.merchants:
        rows.append(f'<text x="5" y="{y}" data-merchant="{escape(merchant.id)}">{escape(merchant.id)} '
                    f'{escape(merchant.tile)}</text>')
        y += 18
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="{y}" font-size="11">'
            + "".join(rows) + "</svg>")
