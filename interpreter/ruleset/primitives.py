"""The names, types and functions a ruleset's expressions may use.

This is the whole vocabulary of the condition language for Brass-like games:
every type (player, location, tile, …) with its fields, every constant name and
every function, each with a one-line meaning and an example. `docs/condition-
language.md` is generated from it, so the documentation cannot drift.

Values at run time:
- locations, links, industries, resources, eras and merchant locations are their
  string ids (fields are looked up in the ruleset);
- slots, mat tiles and static cards are the model objects of `model.py`;
- players, placed tiles, cards in hand and merchant tiles are game-state objects.

Functions about the game in progress ask `env.context`, the running game, through
the `GameQueries` protocol below. The engine implements that protocol; until a
game is running (e.g. while a ruleset is only being checked) such a function
reports that it needs a game instead of guessing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from operator import attrgetter
from typing import Any, Protocol

from brass_dsl import BOOL, INT, STR, DslError, Env, ListType, Param, RecordType, Registry
from interpreter.ruleset.effects import EFFECTS
from interpreter.ruleset.examples import Examples
from interpreter.ruleset.model import NetworkOption, Slot, TileSpec
from interpreter.ruleset.sizes import Sizes, declare_bounds
from interpreter.ruleset.words import FLIPS, LOCATION_KINDS, WILD_KINDS

# The variable holding the id of the action being decided, for the primitives whose meaning
# depends on it (a resource's `sources_in`). No expression can name it: '@' is not in names.
ACTION_VAR = "@action"

# The names and functions that read the game in progress. Everything else reads only the
# ruleset, so a text can be worked out once when the ruleset loads (`ruleset_only`).
GAME_NAMES = ("me", "players", "era", "round", "board_tiles", "merchant_tiles", "deck_size", "set_aside_size",
              "actions_left", "rounds_in_era")
GAME_FUNCTIONS = ("network_step", "hand", "income_level", "turn_place", "in_network", "connected", "has_board_tiles",
                  "tiles_left", "lowest_tile", "tiles_at", "slot_free", "tile_in", "cubes_available",
                  "can_source", "source_cost", "link_free", "link_icons_at", "links_at", "link_owner",
                  "hand_size", "discard_size", "track", "stack_size", "drawn")


class GameQueries(Protocol):
    """What the condition language asks of a game in progress (implemented by the engine)."""

    ruleset: Any

    # Read only: expressions never set them (and the engine derives them from its state).
    @property
    def me(self) -> Any: ...
    @property
    def era(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def players(self) -> Sequence[Any]: ...

    def hand(self, player: Any) -> list[Any]: ...
    def income_level(self, player: Any) -> int: ...
    def turn_place(self, player: Any) -> int: ...
    def in_network(self, player: Any, location: str) -> bool: ...
    def connected(self, a: str, b: str) -> bool: ...
    def has_board_tiles(self, player: Any) -> bool: ...
    def tiles_left(self, player: Any, industry: str) -> int: ...
    def lowest_tile(self, player: Any, industry: str) -> TileSpec: ...
    def tiles_at(self, location: str) -> list[Any]: ...
    def board_tiles(self) -> list[Any]: ...
    def slot_free(self, slot: Slot) -> bool: ...
    def tile_in(self, slot: Slot) -> Any: ...
    def cubes_available(self, resource: str) -> int: ...
    def can_source(self, player: Any, resource: str, amount: int, places: list[str],
                   action: str | None = None) -> bool: ...
    def source_cost(self, player: Any, resource: str, amount: int, places: list[str],
                    action: str | None = None) -> int: ...
    def link_free(self, link: str) -> bool: ...
    def merchant_tiles(self) -> list[Any]: ...
    def location_link_icons(self, location: str) -> int: ...
    def player(self, seat: int) -> Any: ...
    state: Any  # .links: placed links, link id -> owner's seat


def game(env: Env) -> GameQueries:
    """The running game behind an expression, or a clear error when there is none."""
    context = env.context
    if context is None:
        raise ValueError("this expression needs a game in progress")
    return context


def _first(table: Any) -> str:
    return str(next(iter(table), "x"))


def _ids(table: Any) -> Callable[[], list[str]]:
    return lambda: list(table)


class BrassVocabulary:
    """Builds the registry of one ruleset (types know that ruleset's ids)."""

    def __init__(self, ruleset: Any) -> None:
        self.rs = ruleset
        self.sizes = Sizes.of(ruleset)
        self.ex = Examples(ruleset)
        self.registry = Registry()
        self._define_types()
        self._define_fields()
        self._define_names()
        self._define_ruleset_functions()
        self._define_game_functions()
        declare_bounds(self.registry, ruleset, self.sizes)  # list lengths and call costs (cost.py)

    # -- types ---------------------------------------------------------------

    def _define_types(self) -> None:
        rs, add = self.rs, self.registry.add_type
        self.player = add(RecordType("player", "A player: money, VP, income marker, links left."))
        self.location = add(RecordType("location", f"A location of the board ({', '.join(LOCATION_KINDS)}), by id.",
                                       ids=_ids(rs.locations)))
        self.link = add(RecordType("link", "A link line of the board, by id (L01…).", ids=_ids(rs.links)))
        self.industry = add(RecordType("industry", "An industry, by id.", ids=_ids(rs.industries)))
        self.resource = add(RecordType("resource", f"A resource ({', '.join(rs.resources)}), by id.",
                                       ids=_ids(rs.resources)))
        self.era = add(RecordType("era", "An era, by id.", ids=lambda: [e.id for e in rs.eras]))
        self.slot = add(RecordType("slot", "An industry slot of a location, with the icons it shows."))
        self.mat_tile = add(RecordType("mat_tile",
                                       "One level of an industry's tiles on a player mat (its printed stats)."))
        self.tile = add(RecordType("tile", "An industry tile placed on the board."))
        self.card = add(RecordType("card", "A card: location, industry, wild location or wild industry."))
        self.merchant_tile = add(RecordType("merchant_tile", "A merchant tile lying on a merchant space."))
        self.network_option = add(RecordType("network_option", "Cost of a Network action placing N links in an era."))
        self.loan_terms = add(RecordType("loan_terms", "The terms of a Loan."))
        self.income_terms = add(RecordType("income_terms", "Facts of the income track."))
        self.setup_terms = add(RecordType("setup_terms", "What each player starts with (`setup`)."))
        self.shortfall_terms = add(RecordType("shortfall_terms", "What unpaid income costs (`economy.shortfall`)."))
        self.market = add(RecordType("market_terms", f"The terms of a market of cubes ({self.ex.markets}), by id: "
                                     f"`market_terms(\"{self.ex.market}\")`.",
                                     ids=_ids(rs.markets)))
        self.track = add(RecordType("track", "A track the ruleset defines (`tracks:`), by id.", ids=_ids(rs.tracks)))
        self.stack = add(RecordType("stack", "A stack of face-down tiles the ruleset defines (`stacks:`), by id.",
                                    ids=_ids(rs.stacks)))

    def _define_fields(self) -> None:
        rs = self.rs
        f = self._field
        f(self.player, "money", INT, "Money in hand (£).", attrgetter("money"))
        f(self.player, "vp", INT, "Victory points scored so far.", attrgetter("vp"))
        f(self.player, "income_position", INT, "Track position of the income marker (0–99).",
          attrgetter("income_position"))
        f(self.player, "links_left", INT, "Link tiles not yet placed.", attrgetter("links_left"))
        f(self.player, "spent", INT, "Money spent this round.", attrgetter("spent"))
        f(self.player, "seat", INT, "Seat number, from 1.", attrgetter("seat"))

        f(self.location, "name", STR, "Printed name.", _by_id(rs.locations, "name"))
        f(self.location, "kind", STR, "town, farm_brewery, merchant or external.", _by_id(rs.locations, "kind"),
          words=lambda: LOCATION_KINDS)
        f(self.location, "group", STR, "Banner colour group ('' if none).", lambda loc: rs.locations[loc].group or "",
          words=lambda: ["", *rs.colour_groups])
        f(self.location, "slots", ListType(self.slot), "Industry slots.", _by_id(rs.locations, "slots"),
          max_length=self.sizes.slots_per_location)
        f(self.location, "link_icons", INT, "Printed link icons (merchant locations).",
          _by_id(rs.locations, "link_icons"))

        f(self.link, "ends", ListType(self.location),
          "Locations the line touches (2, or more for a line with a branch).", _by_id(rs.links, "ends"),
          max_length=self.sizes.link_ends)
        for kind in rs.link_kinds.values():  # one field per declared link kind: `link.canal`
            f(self.link, kind.id, BOOL, f"The line takes a {kind.name.lower()} link.",
              {kid: link.takes(kind.id) for kid, link in rs.links.items()}.__getitem__)

        f(self.industry, "name", STR, "Printed name.", _by_id(rs.industries, "name"))
        f(self.industry, "flips", STR, "'sold', 'emptied' or 'built'.", _by_id(rs.industries, "flips"),
          words=lambda: FLIPS)
        f(self.industry, "produces", self.resource, "Resource it produces (none for sold industries).",
          _by_id(rs.industries, "produces"))

        f(self.resource, "name", STR, "Printed name.", _by_id(rs.resources, "name"))
        f(self.era, "name", STR, "Printed name.", _era_field(rs, "name"))
        f(self.era, "link_kind", STR, "The kind of link placed in the era (`link_kinds:`).",
          _era_field(rs, "link_kind"), words=lambda: list(rs.link_kinds))
        f(self.era, "actions_per_turn", INT, "Actions in a turn.", _era_field(rs, "actions_per_turn"))
        f(self.era, "first_round_actions", INT, "Actions per turn in the era's first round.",
          _era_field(rs, "first_round_actions"))
        f(self.era, "network", ListType(self.network_option), "Network options of the era.",
          lambda e: rs.era(e).network, max_length=self.sizes.network_options)

        f(self.slot, "location", self.location, "Location of the slot.", attrgetter("location"))
        f(self.slot, "industries", ListType(self.industry), "Industries whose icon the slot shows.",
          attrgetter("industries"), max_length=self.sizes.slot_icons)
        f(self.slot, "index", INT, "Position of the slot in its location, from 0.", attrgetter("index"))

        for name, doc in (("level", "Level (1 = I)."), ("cost", "Build cost (£).")):
            f(self.mat_tile, name, INT, doc, _attr(name))
        for rid, resource in self._need_fields(self.mat_tile):  # one field per resource: `mat_tile.coal`
            f(self.mat_tile, rid, INT, f"{resource.name} it needs.", _need(rid))
        for name, doc in (("vp", "VP when flipped."), ("link_icons", "Link icons when flipped."),
                          ("income", "Income spaces on flipping.")):
            f(self.mat_tile, name, INT, doc, _attr(name))
        f(self.mat_tile, "industry", self.industry, "Industry.", attrgetter("industry"))
        f(self.mat_tile, "copies", INT, "Tiles of this level on each player mat.", attrgetter("count"))
        f(self.mat_tile, "develop", BOOL, "May be removed by Develop (no lightbulb).", attrgetter("develop"))
        f(self.mat_tile, "eras", ListType(self.era), "Eras in which it may be built.", attrgetter("eras"))

        f(self.tile, "owner", self.player, "Owner.", attrgetter("owner"))
        f(self.tile, "industry", self.industry, "Industry.", attrgetter("spec.industry"))
        f(self.tile, "spec", self.mat_tile, "Printed stats of the tile.", attrgetter("spec"))
        for name in ("level", "cost", "vp", "link_icons", "income"):
            f(self.tile, name, INT, f"Printed {name.replace('_', ' ')}.", _spec_attr(name))
        for rid, resource in self._need_fields(self.tile):  # `tile.beer`: its spec's need
            f(self.tile, rid, INT, f"Printed {resource.name.lower()} needed.", _spec_need(rid))
        f(self.tile, "flipped", BOOL, "The tile has flipped.", attrgetter("flipped"))
        f(self.tile, "cubes", INT, "Cubes (or barrels) of its resource left on the tile.", attrgetter("cubes"))
        f(self.tile, "slot", self.slot, "Slot it stands on.", attrgetter("slot"))
        f(self.tile, "location", self.location, "Location it stands in.", attrgetter("slot.location"))

        f(self.card, "kind", STR, "location, industry, wild_location or wild_industry.", attrgetter("kind"),
          words=lambda: ["location", "industry", *(f"wild_{kind}" for kind in WILD_KINDS)])
        f(self.card, "locations", ListType(self.location), "Locations it lets you build in (none for industry cards).",
          attrgetter("locations"))
        f(self.card, "industries", ListType(self.industry), "Industries it lets you build (all for location cards).",
          attrgetter("industries"))
        f(self.card, "name", STR, "What the card shows.", attrgetter("name"))

        f(self.merchant_tile, "location", self.location, "Merchant location of the space.", attrgetter("location"))
        f(self.merchant_tile, "buys", ListType(self.industry), "Industries it buys (none for a blank tile).",
          attrgetter("buys"))
        f(self.merchant_tile, "has_beer", BOOL, "A barrel lies beside the tile.", attrgetter("has_beer"))

        for name in ("links", "money"):
            f(self.network_option, name, INT, f"{name.capitalize()} for the whole action.", _attr(name))
        for rid, resource in self._need_fields(self.network_option):
            f(self.network_option, rid, INT, f"{resource.name} for the whole action.", _need(rid))

        f(self.loan_terms, "amount", INT, "Money a Loan gives.", lambda _: rs.economy.loan_amount)
        f(self.loan_terms, "income_levels", INT, "Income levels a Loan costs.", lambda _: rs.economy.loan_income_levels)
        f(self.income_terms, "lowest_level", INT, "Lowest income level.", lambda _: rs.income.lowest_level)
        f(self.income_terms, "highest_level", INT, "Highest income level.", lambda _: rs.income.highest_level)
        f(self.income_terms, "start_position", INT, "Track position at the start.", lambda _: rs.income.start_position)
        f(self.income_terms, "positions", INT, "Number of track positions.", lambda _: rs.income.positions)
        f(self.track, "name", STR, "Printed name.", _by_id(rs.tracks, "name"))
        f(self.stack, "name", STR, "Printed name.", _by_id(rs.stacks, "name"))
        for name, key in (("start", "start"), ("lowest", "min"), ("highest", "max")):  # min, max: reserved words
            f(self.track, name, INT, f"The track's `{key}` (tracks: in the ruleset).", _by_id(rs.tracks, key))
        self._define_data_fields()

    def _define_data_fields(self) -> None:
        """Fields of the ruleset's data that texts repeat (R-SETUP-08's £17, a market's £8 when empty)."""
        rs, f = self.rs, self._field
        for name, doc in (("money", "Money each player starts with (£)."), ("vp", "VP each player starts with."),
                          ("hand_size", "Cards in a hand."), ("face_down_discards", "Cards dealt face down "
                           "onto each discard pile at setup."), ("links_per_player", "Link tiles per player.")):
            f(self.setup_terms, name, INT, doc, _data_getter(partial(getattr, rs.setup, name)))
        f(self.shortfall_terms, "tile_value_divisor", INT, "A removed tile is worth its cost divided by this.",
          _data_getter(lambda: rs.economy.shortfall_tile_value_divisor))
        f(self.shortfall_terms, "vp_per_money", INT, "VP lost per £1 still owed.",
          _data_getter(lambda: rs.economy.shortfall_vp_per_money))
        f(self.market, "prices", ListType(INT), "The price of each space, cheapest first.",
          _by_id(rs.markets, "prices"), max_length=max((m.capacity for m in rs.markets.values()), default=0))
        f(self.market, "start_cubes", INT, "Cubes at setup.", _by_id(rs.markets, "start_cubes"))
        f(self.market, "empty_price", INT, "Price of a cube when the market is empty.",
          _by_id(rs.markets, "empty_price"))
        f(self.market, "spaces", INT, "Spaces of the market.", _by_id(rs.markets, "capacity"))

    def _need_fields(self, record: RecordType) -> list[tuple[str, Any]]:
        """The resources read as fields of `record` (`tile.beer`): every declared resource whose id
        is not already a field of it (`needs(spec, resource)` reads any of them)."""
        return [(rid, r) for rid, r in self.rs.resources.items() if rid not in record.fields]

    @staticmethod
    def _field(record: RecordType, name: str, type_: Any, doc: str, get: Callable[[Any], Any], *,
               max_length: int | None = None, words: Callable[[], Collection[str]] | None = None) -> None:
        record.add_field(name, type_, doc, of_value=get, max_length=max_length, words=words)

    # -- names ---------------------------------------------------------------

    def _define_names(self) -> None:
        rs, name = self.rs, self.registry.add_name
        name("locations", ListType(self.location), "Every location of the board.",
             "count(l in locations where l.kind == \"town\")", lambda env: list(rs.locations))
        name("links", ListType(self.link), "Every link line of the board.",
             f"count(k in links where k.{_first(rs.link_kinds)})", lambda env: list(rs.links))
        name("industries", ListType(self.industry), "Every industry.", "industries", lambda env: list(rs.industries))
        name("slots", ListType(self.slot), "Every industry slot of the board.", "count(s in slots)",
             lambda env: list(rs.slots))
        name("loan", self.loan_terms, "The terms of a Loan (amount, income_levels).", "loan.amount",
             lambda env: None)
        name("income", self.income_terms, "Facts of the income track.", "income.lowest_level", lambda env: None)
        self._define_data_names()
        name("me", self.player, "The player taking the action.", "me.money >= 5", _me)
        name("players", ListType(self.player), "Every player, in seat order.", "count(p in players)",
             lambda env: list(game(env).players))
        # steady: the era ends between actions, never inside one (the flow's end of a round)
        name("era", self.era, "The current era.", f"era == \"{self.ex.era}\"", lambda env: game(env).era,
             steady=True)
        name("round", INT, "The round of the current era, from 1.", "round == 1", lambda env: game(env).round)
        name("board_tiles", ListType(self.tile), "Every industry tile on the board.",
             "count(t in board_tiles where t.flipped)", lambda env: game(env).board_tiles())
        name("merchant_tiles", ListType(self.merchant_tile), "Merchant tiles on the board.",
             "any(m in merchant_tiles where m.has_beer)", lambda env: game(env).merchant_tiles())
        self._define_public_figures()

    def _define_public_figures(self) -> None:
        """Figures every player can see (a seat's view shows them too), so a rule may read them:
        no loans in an era's last rounds, an action that needs two of the turn's actions."""
        rs, name, fn = self.rs, self.registry.add_name, self.registry.add_function
        p = Param("p", self.player)
        name("deck_size", INT, "Cards left in the draw deck.", "deck_size == 0", lambda env: len(game(env).state.deck))
        name("set_aside_size", INT, "Cards set aside face down, unseen by all, until a new draw deck takes them "
             "back (eras' `set_aside`).", "set_aside_size == 4", lambda env: len(game(env).state.aside))
        name("actions_left", INT, "Actions the player to act has left this turn, the one being taken included.",
             "actions_left >= 2", lambda env: game(env).state.actions_left)
        name("rounds_in_era", INT, "Rounds of each era at this game's player count (setup.rounds_per_era).",
             "round <= rounds_in_era - 4", lambda env: rs.setup.rounds_per_era[len(game(env).players)])
        fn("track", (Param("t", self.track),), INT, "The value of a track the ruleset defines (`tracks:`).",
           "track(\"demand\") < 3", lambda env, t: game(env).state.tracks[t])
        stack = Param("s", self.stack)
        fn("stack_size", (stack,), INT, "Face-down tiles left in a stack the ruleset defines (`stacks:`).",
           "stack_size(\"market_tiles\") > 0", lambda env, s: len(game(env).state.stacks[s]))
        fn("drawn", (stack,), ListType(INT), "The values of the tiles drawn from a stack, face up, first drawn first.",
           "sum(v for v in drawn(\"market_tiles\")) >= 8", lambda env, s: list(game(env).state.drawn[s]),
           max_length=self.sizes.stack_tiles)
        fn("hand_size", (p,), INT, "Cards in a player's hand.", "hand_size(me) >= 2", lambda env, q: len(q.hand))
        fn("discard_size", (p,), INT, "Cards on a player's discard pile.", "discard_size(me) == 1",
           lambda env, q: len(q.discard))

    def _define_data_names(self) -> None:
        """The ruleset's tables as lists, for texts that repeat them (R-SELL-02 lists the industries
        a merchant may buy)."""
        rs, name = self.rs, self.registry.add_name
        name("setup", self.setup_terms, "What each player starts with.", "setup.money == 17", lambda env: None)
        name("shortfall", self.shortfall_terms, "What unpaid income costs.", "shortfall.vp_per_money == 1",
             lambda env: None)
        name("eras", ListType(self.era), "Every era, in the order played.", "count(e in eras)",
             lambda env: [e.id for e in rs.eras])
        name("mat_tiles", ListType(self.mat_tile), "Every level of every industry on a player mat.",
             "sum(t.copies for t in mat_tiles) == 45", lambda env: [t for specs in rs.tiles.values() for t in specs])
        name("sold_industries", ListType(self.industry), "The industries whose tiles flip when sold (merchants "
             "buy them).", "count(i in sold_industries) == 3",
             lambda env: [i for i, industry in rs.industries.items() if industry.flips == "sold"])
        name("emptied_industries", ListType(self.industry), "The industries whose tiles flip when emptied "
             "(producers).", f"\"{self.ex.emptied}\" in emptied_industries",
             lambda env: [i for i, industry in rs.industries.items() if industry.flips == "emptied"])
        name("merchant_locations", ListType(self.location), "Every merchant location of the board.",
             "count(l in merchant_locations) == 5",
             lambda env: [lid for lid, loc in rs.locations.items() if loc.kind == "merchant"])

    # -- functions about the ruleset only ---------------------------------------

    def _define_ruleset_functions(self) -> None:
        rs, fn = self.rs, self.registry.add_function
        fn("level_at", (Param("position", INT),), INT, "Income level of a track position.", "level_at(10) == 0",
           lambda env, position: rs.income.level_at(position))
        fn("top_position", (Param("level", INT),), INT,
           "Highest track position of an income level (where a Loan leaves the marker).", "top_position(-3) == 7",
           lambda env, level: _top_position(rs, level))
        fn("tile_spec", (Param("industry", self.industry), Param("level", INT)), self.mat_tile,
           "The printed stats of an industry's tile of a level.", self.ex.tile_cost(),
           lambda env, industry, level: _tile_spec(rs, industry, level))
        fn("takes", (Param("link", self.link), Param("kind", STR)), BOOL,
           "The line takes links of a kind (`link_kinds:`); an error for a kind the ruleset does not declare.",
           "takes(link, era.link_kind)", lambda env, k, kind: _takes(rs, k, kind))
        fn("needs", (Param("tile", self.mat_tile), Param("resource", self.resource)), INT,
           "What a tile needs of a resource (0 if none); `tile.RESOURCE` reads the same for a resource whose id "
           "is not a field of its own.", self.ex.tile_need(),
           lambda env, tile, r: tile.needs.get(r, 0))
        self._define_data_functions()
        fn("network_step", (Param("n", INT),), self.network_option,
           "What the n-th link of one Network action adds in the current era (money, resources), "
           "from the era's totals for n and n − 1 links.",
           "network_step(2).money == 10", lambda env, n: rs.era(game(env).era).network_step(n))

    def _define_data_functions(self) -> None:
        """Numbers of the ruleset's tables that texts repeat, by player count, era or merchant."""
        rs, fn = self.rs, self.registry.add_function
        players = Param("players", INT)
        fn("rounds_per_era", (players,), INT, "Rounds in each era with this many players.", "rounds_per_era(4) == 8",
           lambda env, n: _per_players(rs.setup.rounds_per_era, n, rs))
        fn("deck_cards", (players,), INT, "Cards in the draw deck with this many players.", "deck_cards(2) == 40",
           lambda env, n: _per_players({p: rs.deck_size(p) for p in rs.players}, n, rs))
        fn("merchant_spaces", (players,), INT, "Merchant spaces in use (and merchant tiles) with this many players.",
           "merchant_spaces(3) == 7",
           lambda env, n: _per_players({p: sum(m.spaces.get(p, 0) for m in rs.merchants.values())
                                        for p in rs.players}, n, rs))
        fn("network_row", (Param("era", self.era), Param("links", INT)), self.network_option,
           "What one Network action placing this many links costs in an era, in total.",
           self.ex.network_row(), lambda env, era, n: _network_row(rs.era(era), n))
        fn("output", (Param("tile", self.mat_tile), Param("era", self.era)), INT,
           "Cubes or barrels a tile receives when built in an era.", self.ex.output(),
           lambda env, tile, era: tile.output.get(era, 0))
        fn("bonus", (Param("merchant", self.location), Param("effect", STR)), INT,
           "The amount of a merchant's bonus step (`beer_bonus`) (`gain_vp: 4` gives 4); an error if its bonus has no "
           "such step.", self.ex.bonus(),
           lambda env, merchant, effect: _bonus(rs, merchant, effect))

    # -- functions about the game in progress -----------------------------------

    def _define_game_functions(self) -> None:
        fn = self.registry.add_function
        p = Param("p", self.player)
        places = Param("at", ListType(self.location))
        resource = Param("resource", self.resource)
        amount = Param("amount", INT)
        fn("hand", (p,), ListType(self.card), "Cards in a player's hand.",
           "not any(c in hand(me) where c.kind == \"wild_location\")", lambda env, q: game(env).hand(q),
           max_length=self.sizes.hand)
        fn("income_level", (p,), INT, "A player's income level (R-INC-01).", "income_level(me) >= -7",
           lambda env, q: game(env).income_level(q))
        fn("turn_place", (p,), INT, "A player's place in the current turn order: 1 for the first to act. A ranking "
           "key `0 - turn_place(p)` breaks a tie in favour of the earlier player.", "turn_place(me) == 1",
           lambda env, q: game(env).turn_place(q))
        fn("in_network", (p, Param("location", self.location)), BOOL,
           "The location holds one of the player's industry tiles or touches one of their links (R-CONN-01).",
           "in_network(me, location)", lambda env, q, loc: game(env).in_network(q, loc))
        fn("connected", (Param("a", self.location), Param("b", self.location)), BOOL,
           "A route of placed links (any owner) joins the two locations; "
           "a location is connected to itself (R-CONN-02).",
           "connected(tile.location, merchant.location)", lambda env, a, b: game(env).connected(a, b))
        fn("has_board_tiles", (p,), BOOL, "The player has an industry or link tile on the board (R-BUILD-07).",
           "not has_board_tiles(me)", lambda env, q: game(env).has_board_tiles(q))
        fn("tiles_left", (p, Param("industry", self.industry)), INT, "Tiles of an industry left on the player's mat.",
           "tiles_left(me, industry) > 0", lambda env, q, i: game(env).tiles_left(q, i))
        fn("lowest_tile", (p, Param("industry", self.industry)), self.mat_tile,
           "The lowest-level tile of an industry on the player's mat (R-BUILD-08); an error if none is left.",
           "lowest_tile(me, industry).develop", lambda env, q, i: game(env).lowest_tile(q, i))
        fn("tiles_at", (Param("location", self.location),), ListType(self.tile),
           "Industry tiles placed in a location.", "count(t in tiles_at(location) where t.owner == me)",
           lambda env, loc: game(env).tiles_at(loc), max_length=self.sizes.slots_per_location)
        fn("slot_free", (Param("slot", self.slot),), BOOL, "No tile stands on the slot.", "slot_free(slot)",
           lambda env, s: game(env).slot_free(s))
        fn("tile_in", (Param("slot", self.slot),), self.tile, "The tile standing on a slot; an error if it is free.",
           "tile_in(slot).owner == me", lambda env, s: game(env).tile_in(s))
        r = self.ex.resource
        fn("cubes_available", (resource,), INT, "Cubes of a resource on board tiles and in its market (R-OVER-03).",
           f"cubes_available(\"{r}\") == 0", lambda env, r: game(env).cubes_available(r))
        fn("can_source", (p, resource, amount, places), BOOL,
           "The amount of a resource can be obtained for something at the given locations, following the "
           "resource's `sources` in order (resources.yaml: producers near or far, own or an opponent's, a "
           "merchant's barrel, the market through a connection).",
           f"can_source(me, \"{r}\", 1, [location])",
           lambda env, q, r, n, at: game(env).can_source(q, r, n, at, env.vars.get(ACTION_VAR)))
        fn("source_cost", (p, resource, amount, places), INT,
           "Money needed to buy the part of the amount that must come from the market (0 if free sources suffice).",
           f"me.money >= tile.cost + source_cost(me, \"{r}\", tile.{r}, [location])",
           lambda env, q, r, n, at: game(env).source_cost(q, r, n, at, env.vars.get(ACTION_VAR)))
        fn("link_free", (Param("link", self.link),), BOOL, "No link tile lies on the line.", "link_free(link)",
           lambda env, k: game(env).link_free(k))
        fn("link_icons_at", (Param("location", self.location),), INT,
           "Link icons shown in a location, as link scoring counts them (R-ERA-02): its printed icons "
           "(merchant locations) plus the link icons of the flipped tiles of any owner there.",
           "link_icons_at(l) >= 2", lambda env, loc: game(env).location_link_icons(loc))
        fn("links_at", (Param("location", self.location),), ListType(self.link),
           "Placed links (any owner) that touch a location, in board order.",
           "any(j in links_at(l) where j != k and link_owner(j) == p)",
           lambda env, loc: _links_at(game(env), loc), max_length=self.sizes.links_per_location)
        fn("link_owner", (Param("link", self.link),), self.player,
           "The owner of the link tile lying on a line; an error if the line is free.",
           "link_owner(k) == me", lambda env, k: _link_owner(game(env), k))


def _me(env: Env) -> Any:
    """`me`, the most read name of all: `game(env)` written out (one call, not two)."""
    context = env.context
    if context is None:
        raise ValueError("this expression needs a game in progress")
    return context.me


def _links_at(g: GameQueries, location: str) -> list[str]:
    placed = g.state.links
    return [k for k, spec in g.ruleset.links.items() if k in placed and location in spec.ends]


def _link_owner(g: GameQueries, link: str) -> Any:
    seat = g.state.links.get(link)
    if seat is None:
        raise ValueError(f"no link lies on {link}")
    return g.player(seat)


def _attr(name: str) -> Callable[[Any], Any]:
    return attrgetter(name)  # a C function: a field read is one call, not two


def _spec_attr(name: str) -> Callable[[Any], Any]:
    return attrgetter(f"spec.{name}")


def _takes(rs: Any, link: str, kind: str) -> bool:
    if kind not in rs.link_kinds:
        raise ValueError(f"'{kind}' is not a link kind (link kinds: {', '.join(rs.link_kinds)})")
    return bool(rs.links[link].takes(kind))


def _need(resource: str) -> Callable[[Any], int]:
    """What a mat tile or a Network option needs of one resource (0 if none)."""
    return lambda item: item.needs.get(resource, 0)


def _spec_need(resource: str) -> Callable[[Any], int]:
    return lambda tile: tile.spec.needs.get(resource, 0)


def _era_field(rs: Any, name: str) -> Callable[[str], Any]:
    """A field of an era, read by id; remembered on first use (the eras are compiled after the
    vocabulary is built, so the table cannot be made up front)."""
    known: dict[str, Any] = {}

    def get(era_id: str) -> Any:
        found = known.get(era_id, known)
        if found is known:
            found = known[era_id] = getattr(rs.era(era_id), name)
        return found

    return get


def _by_id(table: Mapping[str, Any], name: str) -> Callable[[str], Any]:
    """A field of the static objects of a table, read by id: one dict lookup (a C call)."""
    return {key: getattr(value, name) for key, value in table.items()}.__getitem__


def _top_position(rs: Any, level: int) -> int:
    if not rs.income.lowest_level <= level <= rs.income.highest_level:
        raise ValueError(f"income level {level} is not on the track")
    return rs.income.top_position(level)


def _tile_spec(rs: Any, industry: str, level: int) -> TileSpec:
    for spec in rs.tiles[industry]:
        if spec.level == level:
            return spec
    raise ValueError(f"{industry} has no level {level} tile")


def _data_getter(read: Callable[[], Any]) -> Callable[[Any], Any]:
    """The getter of a field of a record with a single value (`setup`, `shortfall`): the object
    is None, the value is read from the ruleset."""
    return lambda _: read()


def _per_players(table: Mapping[int, int], players: int, rs: Any) -> int:
    if players not in table:
        raise ValueError(f"the ruleset is played by {', '.join(map(str, rs.players))} players, not {players}")
    return table[players]


def _network_row(era: Any, n: int) -> NetworkOption:
    found = next((o for o in era.network if o.links == n), None)
    if found is None:
        raise ValueError(f"the {era.name} has no Network row for {n} links")
    return found


def _bonus(rs: Any, merchant: str, effect: str) -> int:
    """The sum of the fixed amounts of the merchant's bonus steps of that effect."""
    if merchant not in rs.merchants:
        raise ValueError(f"{merchant} is not a merchant with a bonus")
    if effect not in EFFECTS:
        raise ValueError(f"there is no effect '{effect}'")
    steps = [step for step in rs.merchants[merchant].beer_bonus if step.name == effect]
    if not steps:
        raise ValueError(f"the bonus of {merchant} has no {effect} step")
    amount = next((p.name for p in EFFECTS[effect].params if p.required and p.type == "int"), None)
    try:
        return sum(step.args[amount].fn(Env()) for step in steps) if amount is not None else len(steps)
    except (DslError, ValueError, KeyError):
        raise ValueError(f"the {effect} of the bonus of {merchant} is not a fixed number") from None


def ruleset_only(registry: Registry) -> Registry:
    """`registry` without the names and functions that read a game in progress: what a text worked
    out when the ruleset loads (a rule's text) may use."""
    why = "it is known only during a game, and this text is worked out when the ruleset loads"
    return registry.without(dict.fromkeys((*GAME_NAMES, *GAME_FUNCTIONS), why))


def build_registry(ruleset: Any) -> Registry:
    """The condition-language registry for one ruleset."""
    return BrassVocabulary(ruleset).registry
