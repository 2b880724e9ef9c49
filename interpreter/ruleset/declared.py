"""What a ruleset declares for itself and other records refer to: its resources (a tile's or a Network
row's `needs`) and its link kinds (a line's `kinds`, an era's `link_kind`).

Both may also be written as sugar, a key named after the declared id: `coal: 1` on a tile is
`needs: {coal: 1}` and `canal: true` on a line is `kinds: [canal]` (Birmingham's YAML is written so).
Any key of a tile, Network row or line that is not one of its fixed fields is read that way; the
cross-reference check refuses a key that names nothing declared. Plain functions over validated
data, shared by the checks and the model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# The fields of the records that may carry sugar keys; any other key names a resource or a link kind.
TILE_FIELDS = frozenset({"level", "count", "cost", "needs", "output", "vp", "link_icons", "income", "develop",
                         "eras", "rule", "rules"})
NETWORK_FIELDS = frozenset({"links", "money", "needs"})
LINK_FIELDS = frozenset({"ends", "kinds", "rule", "rules"})


def link_kind_ids(data: Mapping[str, Any]) -> list[str]:
    """The link kinds: the `link_kinds:` section, else the eras' `link_kind`s in order of the eras."""
    declared = data.get("link_kinds")
    if isinstance(declared, Mapping) and declared:
        return [str(k) for k in declared]
    kinds: list[str] = []
    for era in data.get("eras") or ():
        kind = era.get("link_kind") if isinstance(era, Mapping) else None
        if isinstance(kind, str) and kind not in kinds:
            kinds.append(kind)
    return kinds


def sugar_keys(row: Mapping[Any, Any], fields: frozenset[str]) -> list[Any]:
    """The keys of `row` that are none of its fixed fields (each should name a declared id; YAML
    may make one a number or null, which the cross-reference check refuses)."""
    return [key for key in row if key not in fields]


def needs_of(row: Mapping[str, Any], fields: frozenset[str], resources: Iterable[str]) -> dict[str, int]:
    """A tile's or a Network row's needs, resource -> amount, in the order the resources are declared
    (every declared resource present, 0 when not needed): `needs:` merged with the sugar keys."""
    given = {key: row[key] for key in sugar_keys(row, fields)}
    given.update(row.get("needs") or {})
    return {rid: int(given.get(rid, 0)) for rid in resources}


def kinds_of(link: Mapping[str, Any], kinds: Iterable[str]) -> tuple[str, ...]:
    """The link kinds a line takes, in declared order: `kinds:` and the sugar booleans set to true."""
    listed = set(link.get("kinds") or ())
    listed.update(key for key in sugar_keys(link, LINK_FIELDS) if link[key] is True)
    return tuple(kind for kind in kinds if kind in listed)
