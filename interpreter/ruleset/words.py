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

# A key of a resource's `source_rules` beside its source kinds: the rule a move breaks that names a
# producer with none of the resource left (flipped), e.g. R-BEER-04 in Birmingham.
EMPTY_SOURCE = "empty"
