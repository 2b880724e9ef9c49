"""The examples the vocabulary's reference shows (`brass docs`, condition-language.md), made from the
ruleset they document: each is true of that ruleset, and the Python names none of its ids.

Built with the vocabulary, before the eras and merchants are compiled: those are read from the
validated data. A ruleset without such a thing (no market, no per-era output) gets an example
with the first id there is, or a placeholder."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def _first(ids: Iterable[Any], default: str = "x") -> str:
    return str(next(iter(ids), default))


class Examples:
    """Ids and numbers of one ruleset, for the examples of its vocabulary."""

    def __init__(self, rs: Any) -> None:
        self.rs = rs
        data: Mapping[str, Any] = rs.data
        self.eras = [e["id"] for e in data.get("eras", ()) if isinstance(e, Mapping) and "id" in e]
        self.era = _first(self.eras)
        self.resource = _first(rs.resources)
        self.market = _first(rs.markets)
        self.markets = ", ".join(rs.markets)
        self.emptied = _first(i for i, industry in rs.industries.items() if industry.flips == "emptied")

    def tile_cost(self) -> str:
        """`tile_spec("manufacturer", 4).cost == 8`: the fourth level of the industry with most levels."""
        if not self.rs.tiles:
            return 'tile_spec("x", 1).cost'
        industry = max(self.rs.tiles, key=lambda i: len(self.rs.tiles[i]))
        spec = self.rs.tiles[industry][min(3, len(self.rs.tiles[industry]) - 1)]
        return f'tile_spec("{industry}", {spec.level}).cost == {spec.cost}'

    def tile_need(self) -> str:
        """`needs(tile_spec("manufacturer", 1), "coal") == 1`: the first tile that needs something."""
        for industry, specs in self.rs.tiles.items():
            for spec in specs:
                for resource, amount in spec.needs.items():
                    if amount:
                        return f'needs(tile_spec("{industry}", {spec.level}), "{resource}") == {amount}'
        return f'needs(tile_spec("x", 1), "{self.resource}") == 0'

    def network_row(self) -> str:
        """`network_row("rail", 2).money == 15`: the last row of the last era."""
        eras = [e for e in self.rs.data.get("eras", ()) if isinstance(e, Mapping) and e.get("network")]
        if not eras:
            return f'network_row("{self.era}", 1).money'
        row = eras[-1]["network"][-1]
        return f'network_row("{eras[-1]["id"]}", {row["links"]}).money == {row["money"]}'

    def output(self) -> str:
        """`output(tile_spec("brewery", 2), "rail") == 2`: a tile whose output differs by era, else any."""
        tiles = [(i, spec) for i, specs in self.rs.tiles.items() for spec in specs if spec.output]
        varied = [(i, spec) for i, spec in tiles if len(set(spec.output.values())) > 1]
        if not (varied or tiles):
            return f'output(tile_spec("x", 1), "{self.era}") == 0'
        industry, spec = (varied or tiles)[0]
        era, cubes = list(spec.output.items())[-1]
        return f'output(tile_spec("{industry}", {spec.level}), "{era}") == {cubes}'

    def bonus(self) -> str:
        """`bonus("oxford", "advance_income") == 2`: a merchant's bonus step with a plain number."""
        for merchant, terms in self.rs.data.get("merchants", {}).items():
            for step in terms.get("beer_bonus", ()) if isinstance(terms, Mapping) else ():
                if isinstance(step, Mapping) and len(step) == 1:
                    [(effect, amount)] = step.items()
                    if isinstance(amount, int) and not isinstance(amount, bool):
                        return f'bonus("{merchant}", "{effect}") == {amount}'
        return 'bonus("x", "gain_vp") == 0'


def example_move(rs: Any) -> str:
    """`{action: loan, card: leek}` for Birmingham: a short whole action of the ruleset, for the
    messages that say what a move looks like (its last action with a card, and its first card)."""
    action = _first(reversed(list(rs.actions)), "ACTION")
    card = _first(rs.cards, "")
    return f"{{action: {action}, card: {card}}}" if card else f"{{action: {action}}}"
