"""Words with a meaning of their own in a ruleset: the values the structure check allows for
`location.kind`, `industry.flips` and a wild card's kind (an era's `link_kind` is one of the
ruleset's own link kinds: declared.py). The vocabulary of the
condition language knows them too (`brass lint` checks a word compared with such a field against
them). A module of its own so that the vocabulary does not import the structure check (cerberus).
"""

from __future__ import annotations

LOCATION_KINDS = ("town", "farm_brewery", "merchant", "external")
# Kinds of location where nothing is built: no slots, no cards (merchants hold merchant spaces;
# an external location is a plain node of the network, as Lancashire's Scotland or Blackpool).
SLOTLESS_KINDS = ("merchant", "external")
FLIPS = ("sold", "emptied", "built")
WILD_KINDS = ("location", "industry")

# Keys of a resource's `source_rules` beside its source kinds, each the rule a move breaks that names
# a producer excluded for that reason (engine/exclusions.py): one with none of the resource left
# (flipped, or its last taken by the action's earlier units), e.g. R-BEER-04 in Birmingham; one not
# connected to where the resource is needed (R-COAL-01); one farther than a producer that must be
# used first (R-COAL-06). Without the key, the rule of the kind of source concerned is cited.
EMPTY_SOURCE = "empty"
UNCONNECTED_SOURCE = "unconnected"
FARTHER_SOURCE = "farther"
SOURCE_EXCLUSION_KEYS = (EMPTY_SOURCE, UNCONNECTED_SOURCE, FARTHER_SOURCE)
