"""Concrete game positions for the rule tests, built by editing a fresh game's state.

Every helper takes the game first, changes only what it names, keeps the state's
bookkeeping consistent (cards are moved, never created or lost; a placed tile is
taken off its owner's mat; a placed link uses one of the owner's link tiles) and
forgets what the decision engine had worked out for the old state.

    g = new_game(players=2)
    turn(g, seat=1, round=2)                       # player 1 to act, 2 actions left
    hand(g, 1, ["birmingham", "coal_mine"])        # exactly these cards, by face id
    tile(g, 2, "dudley/0", "coal", 1, cubes=1)     # an opponent's Coal Mine I with 1 cube
    link(g, 1, "L04")
    market(g, coal=0)
    merchant(g, "oxford/0", "cotton", beer=True)

Players are named by seat (1 = the first seat); slots as "location/index"
(board.yaml order); cards by face id ("birmingham", "coal_mine",
"cotton_manufacturer", "wild_location", …).  A later issue turns these calls into
a YAML "given" format, so they stay few and plain.
"""

from __future__ import annotations

from interpreter.engine.flow import start_turn
from interpreter.engine.game import Game
from interpreter.engine.state import Card, MerchantSpace, PlacedTile, Player
from interpreter.ruleset.loader import load_ruleset


def ruleset():
    """The birmingham ruleset (the loader caches it per process)."""
    return load_ruleset("birmingham")


def new_game(players: int = 2, seed: int = 1) -> Game:
    """A fresh game: setup done, nothing on the board."""
    return Game.new(ruleset(), players, seed)


def _done(g: Game) -> None:
    assert g.pending is None and g.question is None, "positions are built between actions"
    check(g)
    g.table.changed()


def check(g: Game) -> None:
    """The invariants every position keeps: each card in exactly one place (no wild card in the deck
    or a discard pile); placed links + links left = the setup number; no more tiles of an industry
    on the board than have left the owner's mat."""
    s = g.state
    places = s.deck + [c for p in s.players for c in p.hand + p.discard] + \
        [c for pile in s.wild_piles.values() for c in pile]
    assert sorted(c.id for c in places) == sorted(g.table.cards), "a card is missing or doubled"
    assert not any(c.wild for c in s.deck + [c for p in s.players for c in p.discard])
    for p in s.players:
        placed = sum(1 for seat in s.links.values() if seat == p.seat)
        assert placed + p.links_left == g.ruleset.setup.links_per_player
        for industry in g.ruleset.industries:
            on_board = sum(1 for t in s.tiles.values() if t.owner is p and t.spec.industry == industry)
            assert on_board <= p.mat_used.get(industry, 0)


# -- players -----------------------------------------------------------------------------

def set_player(g: Game, seat: int, *, money: int | None = None, income: int | None = None,
               vp: int | None = None, spent: int | None = None) -> Player:
    """Money (£), income track position (0–99, not the level), VP, money spent this round."""
    p = g.table.player(seat)
    if money is not None:
        p.money = money
    if income is not None:
        p.income_position = income
    if vp is not None:
        p.vp = vp
    if spent is not None:
        p.spent = spent
    _done(g)
    return p


# -- cards -------------------------------------------------------------------------------

def _where(g: Game) -> list[list[Card]]:
    """Every pile a card can lie in: the deck, then discard piles, then hands, then wild piles."""
    s = g.state
    return [s.deck] + [p.discard for p in s.players] + [p.hand for p in s.players] + list(s.wild_piles.values())


def _take(g: Game, face: str, keep: list[Card]) -> Card:
    """Remove a card of this face from wherever it lies (deck first; never one of `keep`)."""
    for pile in _where(g):
        for card in reversed(pile):
            if card.face == face and card not in keep:
                pile.remove(card)
                for p in g.state.players:  # a card taken from another hand is replaced from the deck
                    if pile is p.hand and g.state.deck:
                        pile.append(g.state.deck.pop(0))
                return card
    raise ValueError(f"no card of face {face!r} is left in this {len(g.state.players)}-player game")


def _put_away(g: Game, p: Player, cards: list[Card], rest: str) -> None:
    """Cards leaving a hand: wild cards back to their piles, the others to the bottom of the deck
    (rest="deck") or onto the player's discard pile (rest="discard")."""
    for card in cards:
        if card.wild:
            g.state.wild_piles[card.face].append(card)
        elif rest == "deck":
            g.state.deck.insert(0, card)
        else:
            p.discard.append(card)


def hand(g: Game, seat: int, faces: list[str], rest: str = "deck") -> list[Card]:
    """Give the player exactly these cards. Their old cards go to the bottom of the deck
    (rest="deck") or onto their own discard pile (rest="discard"); wild cards to their piles."""
    p = g.table.player(seat)
    old, p.hand = p.hand, []
    _put_away(g, p, old, rest)
    chosen: list[Card] = []
    for face in faces:
        chosen.append(_take(g, face, chosen))
    p.hand = chosen
    _done(g)
    return chosen


def card_id(g: Game, seat: int, face: str) -> str:
    """The id of a card of this face in the player's hand."""
    return next(c.id for c in g.table.player(seat).hand if c.face == face)


def deck(g: Game, faces: list[str] | None = None, size: int | None = None) -> None:
    """Make the draw deck exactly `faces` (top card last) or keep only its top `size` cards.
    Cards leaving the deck go to the discard piles, seat by seat, as if played."""
    s = g.state
    if faces is not None:
        wanted = [_take(g, f, []) for f in faces]
        leaving, s.deck = s.deck, wanted
    else:
        keep = s.deck[len(s.deck) - size:] if size else []
        leaving, s.deck = s.deck[: len(s.deck) - len(keep)], keep
    for n, card in enumerate(leaving):
        s.players[n % len(s.players)].discard.append(card)
    _done(g)


def last_cards(g: Game, hands: dict[int, list[str]]) -> None:
    """The end of an era: an empty draw deck and these last cards in hand (others played)."""
    deck(g, size=0)
    for seat, faces in hands.items():
        hand(g, seat, faces, rest="discard")
    for p in g.state.players:
        if p.seat not in hands:
            old, p.hand = p.hand, []
            _put_away(g, p, old, "discard")
    _done(g)


# -- board -------------------------------------------------------------------------------

def set_mat(g: Game, seat: int, industry: str, lowest_level: int | None) -> None:
    """The player's lowest tile of an industry left on the mat is the first of `lowest_level`
    (None: the industry's tiles are all gone)."""
    stack = g.table.mat_stack(industry)
    p = g.table.player(seat)
    p.mat_used[industry] = len(stack) if lowest_level is None else \
        next(i for i, spec in enumerate(stack) if spec.level == lowest_level)
    _done(g)


def tile(g: Game, seat: int, slot: str, industry: str, level: int, *, flipped: bool = False,
         cubes: int | None = None) -> PlacedTile:
    """Place a player's tile of this industry and level on a slot (taken off their mat: the mat's
    lowest tile of that industry is then above it). A producer gets its printed output for the
    current era unless `cubes` is given; a flipped tile has no cubes by default."""
    p = g.table.player(seat)
    stack = g.table.mat_stack(industry)
    levels = [i for i, spec in enumerate(stack) if spec.level == level]
    if not levels:
        raise ValueError(f"{industry} has no level {level}")
    used = p.mat_used.get(industry, 0)
    if used > levels[-1]:
        raise ValueError(f"player {seat} has no {industry} level {level} tile left on the mat")
    p.mat_used[industry] = max(used, levels[0]) + 1
    spec = stack[levels[0]]
    the_slot = g.table.slots[slot]
    if industry not in the_slot.industries:
        raise ValueError(f"slot {slot} shows no {industry} icon")
    if cubes is None:
        produces = g.ruleset.industries[industry].produces
        cubes = 0 if flipped or not produces else spec.output.get(g.table.era, 0)
    old = g.state.tiles.get(slot)
    if old is not None:
        old.owner.removed += 1
    placed = g.state.tiles[slot] = PlacedTile(p, spec, the_slot, flipped, cubes)
    _done(g)
    return placed


def link(g: Game, seat: int, *links: str) -> None:
    """Place links of a player (one of their link tiles each)."""
    p = g.table.player(seat)
    for k in links:
        assert k not in g.state.links, f"{k} is taken"
        g.state.links[k] = seat
        p.links_left -= 1
    _done(g)


def market(g: Game, *, coal: int | None = None, iron: int | None = None) -> None:
    """Cubes in the markets (they fill the dearest spaces)."""
    if coal is not None:
        g.state.markets["coal"] = coal
    if iron is not None:
        g.state.markets["iron"] = iron
    _done(g)


def merchant(g: Game, space: str, tile_face: str, beer: bool | None = None) -> MerchantSpace:
    """Put a merchant tile (cotton, manufacturer, pottery, wild, blank) on a merchant space that is
    in use at this player count; beer defaults to a barrel beside any non-blank tile."""
    spec = g.ruleset.merchant_tiles[tile_face]
    found = next((m for m in g.state.merchants if m.id == space), None)
    if found is None:
        raise ValueError(f"merchant space {space} is not in use with {len(g.state.players)} players")
    found.tile, found.buys = spec.id, spec.buys
    found.has_beer = bool(spec.buys) if beer is None else beer
    _done(g)
    return found


def merchants(g: Game, tiles: dict[str, str], others: str = "blank") -> None:
    """Set the listed merchant spaces; every other space in use gets `others` (blank by default)."""
    for m in g.state.merchants:
        merchant(g, m.id, tiles.get(m.id, others))


def merchant_space(g: Game, space: str) -> MerchantSpace:
    return next(m for m in g.state.merchants if m.id == space)


# -- time --------------------------------------------------------------------------------

def era(g: Game, era_id: str, round: int | None = None) -> None:
    """Set the era (canal / rail) and optionally the round; actions left follow that round."""
    g.state.era_index = next(i for i, e in enumerate(g.ruleset.eras) if e.id == era_id)
    if round is not None:
        g.state.round = round
    start_turn(g.table)
    _done(g)


def turn(g: Game, seat: int, *, order: list[int] | None = None, round: int | None = None,
         actions_left: int | None = None) -> None:
    """Make `seat` the player to act (optionally in a new turn order and round). Without
    `actions_left`, it is the round's number of actions per turn (1 in the first Canal round)."""
    s = g.state
    if order is not None:
        assert sorted(order) == sorted(p.seat for p in s.players)
        s.turn_order = list(order)
    if round is not None:
        s.round = round
    s.turn_index = s.turn_order.index(seat)
    start_turn(g.table)
    if actions_left is not None:
        s.actions_left = actions_left
    _done(g)


# -- reading -----------------------------------------------------------------------------

def cubes(g: Game, slot: str) -> int:
    return g.state.tiles[slot].cubes


def faces(cards: list[Card]) -> list[str]:
    return [c.face for c in cards]


# -- checking ----------------------------------------------------------------------------

def refused(g: Game, action: dict) -> list[str]:
    """Apply a whole action that must be illegal; check that it raises IllegalAction and changes
    nothing; return the rule IDs of the failed preconditions: those `explain` gives for the position
    before the attempt, then any others the exception carries (the two can differ: see
    test_sell.py and test_develop.py)."""
    from interpreter.engine.game import IllegalAction

    before = g.to_json()
    reasons = [f.rule for f in g.explain(action)["failures"]]
    try:
        g.apply(action)
    except IllegalAction as error:
        assert g.to_json() == before, "an illegal action changed the state"
        return reasons + [f.rule for f in error.failures if f.rule not in reasons]
    raise AssertionError(f"the engine accepted an illegal action: {action}")


def pass_round(g: Game) -> None:
    """Every player still to act this round passes (one decision at a time, so that a question
    at the end of the round, e.g. a shortfall, stays open for the test to answer)."""
    start = (g.state.era_index, g.state.round)
    while (g.state.era_index, g.state.round) == start and g.question is None and not g.is_over:
        g.apply({"action": "pass"})
        g.apply({"card": g.table.me.hand[0].id})


def links_and_tiles_for_link_scoring(g: Game) -> None:
    """The R-ERA-02 position (test_era, and the summary-es variant's contrast in test_variants).

    Player 1: L04 Birmingham–Dudley and L06 Birmingham–Oxford; player 2: L36 Stoke–Warrington and
    L30 Kidderminster–Worcester–farm. Flipped: player 2's Manufacturer I at Birmingham, player 1's
    Coal Mine I at Dudley and Brewery I at the south farm, player 2's Cotton Mill II at Worcester;
    player 1's Cotton Mill I at Birmingham is unflipped."""
    tile(g, 2, "birmingham/1", "manufacturer", 1, flipped=True)
    tile(g, 1, "birmingham/0", "cotton", 1)
    tile(g, 1, "dudley/0", "coal", 1, flipped=True)
    tile(g, 1, "farm_south/0", "brewery", 1, flipped=True)
    tile(g, 2, "worcester/0", "cotton", 2, flipped=True)
    link(g, 1, "L04", "L06")
    link(g, 2, "L36", "L30")


# -- positions of the Lancashire-like test variants (tests/data/distant-market, demand-track …) --

def mill_for_oxford(g: Game, players: int = 2) -> None:
    """Player 1 to act in Canal round 2 with a Cotton Mill I at Birmingham that Oxford's wild
    merchant buys (player 2's links L06 and L03 connect them)."""
    turn(g, 1, order=list(range(1, players + 1)), round=2)
    hand(g, 1, ["birmingham", "dudley", "coventry"])
    merchants(g, {"oxford/0": "wild"})
    link(g, 2, "L06", "L03")
    tile(g, 1, "birmingham/0", "cotton", 1)


def on_top(g: Game, stack: str, values: list[int]) -> None:
    """Put tiles of these values on top of a ruleset's stack, the last one topmost."""
    with g.table.editing():
        pile = g.state.stacks[stack]
        for value in values:
            pile.remove(value)
        pile.extend(values)
