"""The effect vocabulary: the named steps a ruleset's actions and flow are made of.

An effect step in YAML is one of
    - name                      (no arguments)
    - name: ARG                 (the effect's single required argument)
    - name: {param: ARG, …}     (named arguments)
Every argument is a condition-language expression of the parameter's type, except
parameters marked `literal`, which take a plain id (`resource: coal`). Every step
may also take `when: EXPR` (bool): the step is skipped when it is false.

Each effect names the contexts it may appear in: inside an action (`action`), a
merchant beer bonus (`bonus`, which runs inside a Sell), the end of a round
(`round`), the end of an era (`era`) or the end of the game (`game`). Some
parameters bind a variable for their expression (`remove_tiles: {where: …}` binds
`t`, the tile being considered).

The engine (issue 3) executes these steps; this module is their single definition,
used to validate rulesets and to generate the reference documentation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ACTION, BONUS, ROUND, ERA, GAME = "action", "bonus", "round", "era", "game"
ANYWHERE = frozenset({ACTION, BONUS, ROUND, ERA, GAME})


@dataclass(frozen=True, slots=True)
class EffectParam:
    name: str
    type: str  # a condition-language type name: int, bool, player, list[location], …
    doc: str
    required: bool = True
    literal: bool = False  # a plain id of `type`, not an expression
    binds: tuple[tuple[str, str], ...] = ()  # variables visible in the expression: (name, type)
    table: str = ""  # for a literal: the ruleset section whose keys are the allowed values


@dataclass(frozen=True, slots=True)
class EffectSpec:
    name: str
    doc: str
    contexts: frozenset[str]
    params: tuple[EffectParam, ...] = ()
    rules: tuple[str, ...] = field(default=())

    def param(self, name: str) -> EffectParam | None:
        return next((p for p in self.params if p.name == name), None)


def _effect(name: str, doc: str, contexts: frozenset[str] | set[str], *params: EffectParam,
            rules: tuple[str, ...] = ()) -> EffectSpec:
    return EffectSpec(name, doc, frozenset(contexts), tuple(params), rules)


P = EffectParam
TILE_FILTER = (("t", "tile"),)
EACH_PLAYER = (("p", "player"),)
LINK_END = (("k", "link"), ("l", "location"), ("p", "player"))

EFFECTS: dict[str, EffectSpec] = {e.name: e for e in (
    # -- inside actions ----------------------------------------------------------
    _effect("discard", "Discard a card from the acting player's hand (a wild card returns to its pile).",
            {ACTION}, P("card", "card", "The card."), rules=("R-TURN-04",)),
    _effect("pay", "The acting player pays money to the bank; it counts as spent this round.",
            {ACTION}, P("amount", "int", "Money (£)."), rules=("R-TURN-07",)),
    _effect("gain_money", "The acting player takes money from the bank (not counted as spent).",
            {ACTION, BONUS}, P("amount", "int", "Money (£)."), rules=("R-LOAN-03", "R-MERCH-04")),
    _effect("gain_vp", "The acting player scores VP.", {ACTION, BONUS}, P("amount", "int", "VP."),
            rules=("R-MERCH-03",)),
    _effect("advance_income", "Move the acting player's income marker up by spaces (never past the top).",
            {ACTION, BONUS}, P("spaces", "int", "Track spaces."), rules=("R-INC-04", "R-INC-05")),
    _effect("drop_income_levels", "Move the acting player's income marker down by levels, onto the highest "
            "space of the new level.", {ACTION}, P("levels", "int", "Income levels."), rules=("R-LOAN-01",)),
    _effect("consume", "Take an amount of a resource for something at the given locations, following the "
            "resource's sources in order (free producers first, then the market, paying its prices). "
            "The player may name the producers among equally good ones; otherwise the documented default applies.",
            {ACTION}, P("resource", "resource", "Resource id.", literal=True), P("amount", "int", "Cubes or barrels."),
            P("at", "list[location]", "Where the resource is needed (distance is measured from the nearest)."),
            rules=("R-COAL-02", "R-COAL-03", "R-IRON-02", "R-IRON-03", "R-BEER-02")),
    _effect("build_tile", "Take the lowest tile of the industry from the acting player's mat and place it on the "
            "slot (replacing the tile there when overbuilding); producers receive their output for the era.",
            {ACTION}, P("industry", "industry", "Industry."), P("slot", "slot", "Slot."),
            rules=("R-BUILD-08", "R-BUILD-11", "R-OVER-02", "R-OVER-04")),
    _effect("sell_output", "Move as many cubes as possible from a newly built producer to its resource's market, "
            "dearest empty space first, paying the owner each space's price, when the resource's "
            "`sell_on_build` rule allows.", {ACTION}, P("slot", "slot", "Slot of the new tile."),
            rules=("R-MKT-01", "R-MKT-02", "R-MKT-03")),
    _effect("place_link", "Place one of the acting player's link tiles on a line.", {ACTION},
            P("link", "link", "Link line."), rules=("R-LINK-01",)),
    _effect("develop", "Remove the lowest tile of an industry from the acting player's mat.", {ACTION},
            P("industry", "industry", "Industry."), rules=("R-DEV-01",)),
    _effect("flip", "Flip a tile and advance its owner's income by the tile's income.", {ACTION},
            P("tile", "tile", "Tile."), rules=("R-SELL-04", "R-FLIP-03")),
    _effect("use_merchant_beer",
            "Take the barrel beside a merchant tile and apply that merchant's bonus (`beer_bonus`).",
            {ACTION}, P("merchant", "merchant_tile", "Merchant tile."), rules=("R-SELL-03", "R-SELL-07")),
    _effect("use_actions", "The action being taken also uses up more of the turn's actions (never the action itself): "
            "a Build that takes both actions of a turn. Read `actions_left` in a precondition to require them.",
            {ACTION}, P("count", "int", "Further actions of the turn used up.")),
    _effect("gain_wild_card", "Take a wild card of a kind from its pile.", {ACTION},
            P("kind", "str", "A wild card id of `wild_cards`.", literal=True, table="wild_cards"),
            rules=("R-SCOUT-01",)),
    _effect("develop_without_iron", "The acting player removes the lowest tile of an industry of their choice "
            "(not a tile that cannot be developed) from their mat, free: nothing is consumed.", {BONUS},
            P("tiles", "int", "Number of tiles."), rules=("R-MERCH-01",)),
    # -- anywhere ----------------------------------------------------------------------
    _effect("move_track", "Move a track of the ruleset (`tracks:`) by an amount, up or down, never past its "
            "min or max.", ANYWHERE, P("track", "track", "A track id of `tracks:`.", literal=True),
            P("by", "int", "Steps: positive up, negative down.")),
    _effect("set_track", "Set a track of the ruleset (`tracks:`) to a value, kept within its min and max.", ANYWHERE,
            P("track", "track", "A track id of `tracks:`.", literal=True), P("to", "int", "The new value.")),
    _effect("draw", "Draw the top tile of a stack (`stacks:`), lay it face up, and set a track (`tracks:`) "
            "to the value it shows, kept within the track's min and max. From an empty stack nothing is "
            "drawn and the track keeps its value (read `stack_size` to know).", ANYWHERE,
            P("stack", "stack", "A stack id of `stacks:`.", literal=True),
            P("into", "track", "The track set to the value drawn.", literal=True)),
    _effect("reshuffle", "Shuffle the tiles drawn from a stack back into it, face down, with the game's own "
            "generator.", ANYWHERE, P("stack", "stack", "A stack id of `stacks:`.", literal=True)),
    # -- end of a round --------------------------------------------------------------
    _effect("set_turn_order", "Order players by money spent this round, least first, ties keeping their order; "
            "spent money returns to the bank.", {ROUND}, rules=("R-ORDER-01", "R-ORDER-02", "R-ORDER-03")),
    _effect("collect_income", "Each player takes money equal to their income level, or pays it when negative; "
            "a shortfall is covered by removing tiles of the player's choice, then by VP (or stays owed as "
            "negative money down to `economy.shortfall.money_floor`). "
            "Skipped after the last round of the game.", {ROUND},
            rules=("R-INC-02", "R-INC-03", "R-SHORT-01", "R-SHORT-02", "R-SHORT-03")),
    _effect("deal_merchants", "Gather the merchant tiles of this player count, shuffle them with the game's own "
            "generator and deal them onto the merchant spaces in use, as at setup: each tile that buys "
            "something comes with a barrel, a blank tile with none.", {ROUND, ERA},
            rules=("R-SETUP-04", "R-SETUP-05")),
    # -- end of an era ---------------------------------------------------------------
    _effect("score_links", "Each player scores every one of their links: for each location the link touches, "
            "`value` VP (by default 1 VP per link icon there: flipped tiles of any owner, printed merchant icons, "
            "as `link_icons_at(l)`). Every value is computed before any VP is awarded; then the links are removed.",
            {ERA},
            P("value", "int", "VP for link k at one of its end locations l, k being owned by player p "
              "(default: `link_icons_at(l)`).", required=False, binds=LINK_END),
            rules=("R-ERA-02",)),
    _effect("score_tiles", "Each player scores the VP of their flipped tiles matching the filter.", {ERA, GAME},
            P("where", "bool", "Which tiles score (default: all flipped tiles).", required=False, binds=TILE_FILTER),
            rules=("R-ERA-03",)),
    _effect("remove_tiles", "Remove the board's industry tiles matching the filter (mats are untouched).", {ERA},
            P("where", "bool", "Which tiles go.", binds=TILE_FILTER), rules=("R-ERA-05",)),
    _effect("refill_merchant_beer", "Put a barrel on each empty barrel space beside a non-blank merchant tile.",
            {ERA}, rules=("R-ERA-06",)),
    _effect("new_draw_deck", "Shuffle all discard piles (wild cards stay on their piles) into a new draw deck.",
            {ERA}, rules=("R-ERA-07",)),
    _effect("deal_hands", "Each player draws a new hand.", {ERA}, rules=("R-ERA-08",)),
    # -- end of the game ---------------------------------------------------------
    _effect("award_vp", "Each player scores VP computed for them (`p` is the player).", {ERA, GAME},
            P("amount", "int", "VP for player p.", binds=EACH_PLAYER), rules=("R-INTRO-02", "R-INTRO-03")),
)}
