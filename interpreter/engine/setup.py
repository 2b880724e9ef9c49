"""Setting up a new game from the ruleset's data (R-SETUP-*), driven by a seed."""

from __future__ import annotations

from interpreter.engine.rng import Rng, stream
from interpreter.engine.state import Card, GameState, MerchantSpace, Player
from interpreter.ruleset.model import Ruleset


def all_cards(ruleset: Ruleset, players: int) -> dict[str, Card]:
    """Every card of a game at this player count, by id: the deck and the wild piles. Cards are
    immutable, so the games of one ruleset and player count share them (made once per process)."""
    key = (id(ruleset), players)
    found = _CARDS.get(key)
    if found is None or found[0] is not ruleset:
        found = _CARDS[key] = (ruleset, _make_cards(ruleset, players))
    return dict(found[1])


_CARDS: dict[tuple[int, int], tuple[Ruleset, dict[str, Card]]] = {}


def _make_cards(ruleset: Ruleset, players: int) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    every_industry = tuple(ruleset.industries)
    for spec in ruleset.cards.values():
        for n in range(1, spec.count.get(players, 0) + 1):
            if spec.location:
                card = Card(f"{spec.id}#{n}", spec.id, "location", ruleset.locations[spec.location].name,
                            (spec.location,), every_industry)
            else:
                name = " / ".join(ruleset.industries[i].name for i in spec.industries)
                card = Card(f"{spec.id}#{n}", spec.id, "industry", name, (), spec.industries)
            cards[card.id] = card
    for wild in ruleset.wild_cards.values():
        locations = tuple(loc.id for loc in ruleset.locations.values()
                          if loc.slots and loc.kind not in wild.excludes) if wild.kind == "location" else ()
        for n in range(1, wild.count + 1):
            card = Card(f"{wild.id}#{n}", wild.id, f"wild_{wild.kind}", wild.id.replace("_", " ").title(),
                        locations, every_industry)
            cards[card.id] = card
    return cards


def new_state(ruleset: Ruleset, players: int, seed: int, cards: dict[str, Card]) -> GameState:
    """The state after setup: markets, merchants, deck, hands, the first era's cards set aside, turn order."""
    if players not in ruleset.players:
        raise ValueError(f"{ruleset.title} is played by {', '.join(map(str, ruleset.players))} players, not {players}")
    setup = ruleset.setup
    people = [Player(seat, setup.money, ruleset.income.start_position, setup.vp, setup.links_per_player)
              for seat in range(1, players + 1)]
    deck = [c for c in cards.values() if not c.wild]
    stream(seed, "deck").shuffle(deck)  # R-SETUP-03, from the ruleset's order of the cards
    wild_piles = {w.id: [c for c in cards.values() if c.face == w.id] for w in ruleset.wild_cards.values()}
    merchants = _merchants(ruleset, players, stream(seed, "merchants"))
    for player in people:  # R-SETUP-10
        player.hand = [deck.pop() for _ in range(min(setup.hand_size, len(deck)))]
        player.discard = [deck.pop() for _ in range(min(setup.face_down_discards, len(deck)))]
    era = ruleset.eras[0]
    aside = [deck.pop() for _ in range(min(era.set_aside.get(players, 0), len(deck)))]  # unseen, out of the era
    order = [p.seat for p in people]
    if setup.turn_order == "random":  # R-SETUP-11
        stream(seed, "turn order").shuffle(order)
    markets = {m.id: m.start_cubes for m in ruleset.markets.values()}  # R-SETUP-06
    stacks = {s.id: s.pile(players) for s in ruleset.stacks.values()}  # shuffled face down
    for stack_id, pile in stacks.items():
        stream(seed, f"stack {stack_id}").shuffle(pile)
    state = GameState(people, {}, {}, markets, merchants, deck, wild_piles, turn_order=order,
                      actions_left=era.first_round_actions, rng_state=stream(seed, "play").state,
                      tracks={t.id: t.start for t in ruleset.tracks.values()},
                      stacks=stacks, drawn={sid: [] for sid in stacks}, aside=aside)
    state.log.append({"event": "setup", "players": players, "seed": seed, "turn_order": order,
                      "merchants": {m.id: m.tile for m in merchants}})
    return state


def _merchants(ruleset: Ruleset, players: int, rng: Rng) -> list[MerchantSpace]:
    """Shuffle this player count's merchant tiles onto the spaces in use (R-SETUP-04/05)."""
    return deal_merchant_tiles(ruleset, players, rng)


def deal_merchant_tiles(ruleset: Ruleset, players: int, rng: Rng) -> list[MerchantSpace]:
    """This player count's merchant tiles shuffled with `rng` and dealt onto the spaces in use, a
    barrel beside each tile that buys something: at setup, and again by the `deal_merchants` effect."""
    tiles = [t.id for t in ruleset.merchant_tiles.values() for _ in range(t.count.get(players, 0))]
    rng.shuffle(tiles)
    spaces = []
    for merchant in ruleset.merchants.values():
        for index in range(merchant.spaces.get(players, 0)):
            tile = ruleset.merchant_tiles[tiles.pop()]
            spaces.append(MerchantSpace(merchant.id, index, tile.id, tile.buys, bool(tile.buys)))
    return spaces
