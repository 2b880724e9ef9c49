"""Cross-reference checks: every name a ruleset mentions must exist.

Runs after the structural (cerberus) validation, on plain validated data, and
reports each broken reference at the file, line and column that wrote it, with a
"did you mean" suggestion.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from interpreter.ruleset.declared import LINK_FIELDS, NETWORK_FIELDS, TILE_FIELDS, link_kind_ids, sugar_keys
from interpreter.ruleset.errors import DiagnosticSink
from interpreter.ruleset.schema import MAX_TOTAL
from interpreter.ruleset.words import SLOTLESS_KINDS
from interpreter.ruleset.yaml_source import Document

Path = tuple[Any, ...]

PLAYER_COUNT_TABLES: tuple[tuple[str, ...], ...] = (
    ("cards", "*", "count"),
    ("merchants", "*", "spaces"),
    ("merchant_tiles", "*", "count"),
    ("setup", "rounds_per_era"),
    ("stacks", "*", "tiles", "*"),
    ("eras", "*", "set_aside"),
)


# The sections each check reads: a check is left out when one of them failed the structure check
# (it would only add noise about a section already reported), so the others still run.
READS: dict[str, tuple[str, ...]] = {
    "check_locations": ("industries", "locations", "colour_groups"),
    "check_links": ("locations", "links", "link_kinds", "eras"),
    "check_industries": ("industries", "resources", "tiles"),
    "check_tiles": ("industries", "eras", "tiles", "resources"),
    "check_cards": ("locations", "industries", "cards"),
    "check_merchants": ("locations", "industries", "merchants", "merchant_tiles", "players"),
    "check_resources": ("resources", "markets", "actions"),
    "check_income": ("income_track",),
    "check_eras": ("eras", "link_kinds", "resources"),
    "check_tracks": ("tracks",),
    "check_player_count_tables": ("players", "cards", "merchants", "merchant_tiles", "setup", "stacks", "eras"),
    "check_rule_citations": ("rules",),
    "check_actions": ("actions",),
    "check_card_arithmetic": ("setup", "players", "cards", "eras"),
    "check_game_end": ("game_end", "eras"),
    "check_totals": ("tiles", "wild_cards", "players", "cards", "merchants", "stacks"),
}


class CrossChecker:
    """Checks the references of one validated ruleset document; `broken` names the sections that
    failed the structure check (the checks reading them are left out). `failed` receives the path
    of every error reported, so that compiling can leave out what they are about."""

    def __init__(self, doc: Document, sink: DiagnosticSink, broken: frozenset[str] = frozenset()) -> None:
        self.doc = doc
        self.data: Mapping[str, Any] = doc.data
        self.sink = sink
        self.broken = broken
        self.failed: set[tuple[str, Path]] = set()  # (the check, the path of its error)
        self.current = ""

    # -- helpers -----------------------------------------------------------------

    def error(self, path: Path, message: str, *, key: bool = False) -> None:
        self.failed.add((self.current, path))
        self.sink.error(self.doc.pos(path, key=key), message)

    def check_declared(self, row: Mapping[str, Any], fields: frozenset[str], known: list[str], what: str,
                       path: Path) -> None:
        """The keys of a record that are not its fields must name a declared `what` (declared.py),
        and so must the entries of its list of them (`needs:` or `kinds:`); an id written both ways
        (`coal: 1` and `needs: {coal: 1}`) is refused."""
        list_key = "needs" if "needs" in fields else "kinds"
        listed = row.get(list_key) or ()
        for i, key in enumerate(listed):
            self.expect_in(key, known, what, path + (list_key, key if isinstance(listed, Mapping) else i))
        for key in sugar_keys(row, fields):
            if key in listed:
                self.error(path + (key,), f"'{key}' is written twice: as a key and in {list_key}", key=True)
            elif key not in known:
                import difflib  # only for a message: not imported with the module

                hint = difflib.get_close_matches(str(key), [*sorted(fields), *known], n=1)
                suffix = f"; did you mean '{hint[0]}'?" if hint else f"; a {what} is one of: {', '.join(known)}"
                self.error(path + (key,), f"unknown key '{key}' (neither a field nor a {what}){suffix}", key=True)

    def expect_in(self, value: Any, known: Iterable[str], what: str, path: Path) -> bool:
        """Report `value` unless it is one of `known`; suggest the closest name."""
        known = list(known)
        if value in known:
            return True
        import difflib  # only for a message: not imported with the module

        hint = difflib.get_close_matches(str(value), [str(k) for k in known], n=1)
        suffix = f"; did you mean '{hint[0]}'?" if hint else ""
        self.error(path, f"unknown {what} '{value}'{suffix}")
        return False

    # -- the checks --------------------------------------------------------------

    def run(self) -> None:
        for check in (self.check_locations, self.check_links, self.check_industries, self.check_tiles,
                      self.check_cards, self.check_merchants, self.check_resources, self.check_income,
                      self.check_eras, self.check_tracks, self.check_player_count_tables, self.check_rule_citations,
                      self.check_actions, self.check_card_arithmetic, self.check_game_end, self.check_totals):
            if self.broken.intersection(READS[check.__name__]):
                continue
            self.current = check.__name__
            if not self.broken:
                check()
                continue
            try:
                check()
            except (KeyError, TypeError, AttributeError, IndexError, ValueError):
                continue  # a value of the wrong shape deep inside: the structure errors say why

    def check_locations(self) -> None:
        industries = self.data["industries"]
        for lid, loc in self.data["locations"].items():
            kind = loc["kind"]
            if kind == "town" and "group" not in loc:
                self.error(("locations", lid), f"town '{lid}' needs a colour group")
            if "group" in loc:
                self.expect_in(loc["group"], self.data["colour_groups"], "colour group", ("locations", lid, "group"))
            if kind in SLOTLESS_KINDS and loc.get("slots"):
                self.error(("locations", lid, "slots"), f"{kind} location '{lid}' cannot have industry slots")
            if kind not in SLOTLESS_KINDS and not loc.get("slots"):
                self.error(("locations", lid), f"{kind.replace('_', ' ')} '{lid}' needs at least one slot")
            for s, icons in enumerate(loc.get("slots", ())):
                for i, industry in enumerate(icons):
                    self.expect_in(industry, industries, "industry", ("locations", lid, "slots", s, i))
        self.check_positions()

    def check_positions(self) -> None:
        """Two locations drawn at the same point would hide each other on the picture of the board."""
        seen: dict[tuple[int, int], str] = {}
        for lid, loc in self.data["locations"].items():
            if "at" in loc:
                point = (loc["at"][0], loc["at"][1])
                if point in seen:
                    self.error(("locations", lid, "at"), f"location '{lid}' is at the same point as "
                                                         f"'{seen[point]}' ({point[0]}, {point[1]})")
                seen.setdefault(point, lid)

    def check_links(self) -> None:
        locations = self.data["locations"]
        kinds = link_kind_ids(self.data)
        for kid, link in self.data["links"].items():
            ends = link["ends"]
            for i, end in enumerate(ends):
                self.expect_in(end, locations, "location", ("links", kid, "ends", i))
            if len(set(ends)) != len(ends):
                self.error(("links", kid, "ends"), f"link {kid} names the same location twice")
            self.check_declared(link, LINK_FIELDS, kinds, "link kind", ("links", kid))
            if not any(link.get(kind) is True or kind in link.get("kinds", ()) for kind in kinds):
                self.error(("links", kid), f"link {kid} takes no kind of link ({', '.join(kinds)})")

    def check_industries(self) -> None:
        for iid, industry in self.data["industries"].items():
            produces = industry.get("produces")
            if produces is not None:
                self.expect_in(produces, self.data["resources"], "resource", ("industries", iid, "produces"))
            if industry["flips"] == "emptied" and produces is None:
                self.error(("industries", iid), f"industry '{iid}' flips when emptied, so it must say what it produces")
            if iid not in self.data["tiles"]:
                self.error(("industries", iid), f"industry '{iid}' has no tiles")

    def check_tiles(self) -> None:
        industries = self.data["industries"]
        era_ids = [e["id"] for e in self.data["eras"]]
        resources = self.data["resources"]
        sold_only = [rid for rid, r in resources.items() if r.get("sold_tiles_only")]
        for iid, specs in self.data["tiles"].items():
            if not self.expect_in(iid, industries, "industry", ("tiles", iid)):
                continue
            flips = industries[iid]["flips"]
            sold = flips == "sold"
            levels = [t["level"] for t in specs]
            if levels != sorted(set(levels)):
                self.error(("tiles", iid), f"tiles of '{iid}' must be listed lowest level first, each level once")
            for n, tile in enumerate(specs):
                here = ("tiles", iid, n)
                if sold and "output" in tile:
                    self.error(here + ("output",), f"'{iid}' tiles are sold, so they have no output")
                if flips == "built" and "output" in tile:  # flipped at once: nothing could take its cubes
                    self.error(here + ("output",), f"'{iid}' tiles flip when built, so they have no output")
                self.check_declared(tile, TILE_FIELDS, list(resources), "resource", here)
                for rid in sold_only if not sold else ():
                    if rid in tile or rid in tile.get("needs", {}):
                        self.error(here + ((rid,) if rid in tile else ("needs", rid)),
                                   f"'{iid}' tiles are not sold, so they need no {resources[rid]['name'].lower()}")
                if flips == "emptied" and "output" not in tile:
                    self.error(here, f"'{iid}' level {tile['level']} must give its output")
                for i, era in enumerate(tile["eras"]):
                    self.expect_in(era, era_ids, "era", here + ("eras", i))
                if isinstance(tile.get("output"), dict):
                    for era in tile["output"]:
                        self.expect_in(era, era_ids, "era", here + ("output", era))
                    for era in era_ids:
                        if era in tile["eras"] and era not in tile["output"]:
                            self.error(here + ("output",),
                                       f"'{iid}' level {tile['level']} gives no output for era '{era}'")

    def check_cards(self) -> None:
        locations, industries = self.data["locations"], self.data["industries"]
        for cid, card in self.data["cards"].items():
            has_location, has_industries = "location" in card, "industries" in card
            if has_location == has_industries:
                self.error(("cards", cid), f"card '{cid}' must name either a location or industries (not both)")
            if has_location and self.expect_in(card["location"], locations, "location", ("cards", cid, "location")) \
                    and locations[card["location"]]["kind"] in SLOTLESS_KINDS:
                kind = locations[card["location"]]["kind"]
                self.error(("cards", cid, "location"),
                           f"card '{cid}' names {kind} location '{card['location']}', where nothing can be built")
            for i, industry in enumerate(card.get("industries", ())):
                self.expect_in(industry, industries, "industry", ("cards", cid, "industries", i))

    def check_merchants(self) -> None:
        locations, industries = self.data["locations"], self.data["industries"]
        for mid in self.data["merchants"]:
            if self.expect_in(mid, locations, "location", ("merchants", mid)) and locations[mid]["kind"] != "merchant":
                self.error(("merchants", mid), f"'{mid}' is a {locations[mid]['kind']}, not a merchant location",
                           key=True)
        for mid, tile in self.data["merchant_tiles"].items():
            for i, industry in enumerate(tile["buys"]):
                if self.expect_in(industry, industries, "industry", ("merchant_tiles", mid, "buys", i)) \
                        and industries[industry]["flips"] != "sold":
                    self.error(("merchant_tiles", mid, "buys", i),
                               f"merchants buy only sold industries, not '{industry}'")
        for players in self.data["players"]:
            spaces = sum(m["spaces"].get(players, 0) for m in self.data["merchants"].values())
            tiles = sum(t["count"].get(players, 0) for t in self.data["merchant_tiles"].values())
            if spaces != tiles:
                self.error(("merchant_tiles",),
                           f"with {players} players there are {tiles} merchant tiles for {spaces} merchant spaces")

    def check_resources(self) -> None:
        for rid, resource in self.data["resources"].items():
            market = resource.get("market")
            if market is not None:
                self.expect_in(market, self.data["markets"], "market", ("resources", rid, "market"))
            if "market" in resource["sources"] and market is None:
                self.error(("resources", rid, "sources"), f"resource '{rid}' is sourced from a market but names none")
            for action, sources in resource.get("sources_in", {}).items():
                where = ("resources", rid, "sources_in", action)
                if self.expect_in(action, self.data.get("actions", {}), "action", where) \
                        and "market" in sources and market is None:
                    self.error(where, f"resource '{rid}' is sourced from a market in {action} but names none")
        for mid, market in self.data["markets"].items():
            if market["start_cubes"] > len(market["prices"]):
                self.error(("markets", mid, "start_cubes"),
                           f"market '{mid}' holds {len(market['prices'])} cubes, "
                           f"so it cannot start with {market['start_cubes']}")
            if market["prices"] != sorted(market["prices"]):
                self.error(("markets", mid, "prices"), f"market '{mid}' prices must be listed cheapest first")

    def check_income(self) -> None:
        track = self.data["income_track"]
        previous: int | None = None
        positions = 0
        for n, band in enumerate(track["bands"]):
            low, high = band["levels"]
            if low > high:
                self.error(("income_track", "bands", n, "levels"), f"band levels [{low}, {high}] are reversed")
            if previous is not None and low != previous + 1:
                self.error(("income_track", "bands", n, "levels"),
                           f"band starts at level {low}, but the previous band ended at {previous}")
            previous = high
            positions += (high - low + 1) * band["spaces"]
        if not 0 <= track["start_position"] < positions:
            self.error(("income_track", "start_position"),
                       f"start position {track['start_position']} is off the track (0–{positions - 1})")

    def check_tracks(self) -> None:
        for tid, track in self.data.get("tracks", {}).items():
            low, high, start = track["min"], track["max"], track["start"]
            if low > high:
                self.error(("tracks", tid, "min"), f"track '{tid}': min {low} is more than its max {high}")
            elif not low <= start <= high:
                self.error(("tracks", tid, "start"),
                           f"track '{tid}' starts at {start}, outside its min..max ({low}..{high})")

    def check_eras(self) -> None:
        seen: dict[str, int] = {}
        kinds, resources = link_kind_ids(self.data), list(self.data["resources"])
        for n, era in enumerate(self.data["eras"]):
            self.expect_in(era["link_kind"], kinds, "link kind", ("eras", n, "link_kind"))
            for r, row in enumerate(era["network"]):
                self.check_declared(row, NETWORK_FIELDS, resources, "resource", ("eras", n, "network", r))
            if era["id"] in seen:
                self.error(("eras", n, "id"), f"era '{era['id']}' is defined twice")
            seen[era["id"]] = n
            counts = [o["links"] for o in era["network"]]
            if not counts:
                continue
            if counts != sorted(set(counts)):
                self.error(("eras", n, "network"), "network options must be listed by number of links, each once")

    def check_game_end(self) -> None:
        last = self.data["game_end"].get("last_era")
        if last is not None:
            self.expect_in(last, [e["id"] for e in self.data["eras"]], "era", ("game_end", "last_era"))

    def check_actions(self) -> None:
        for aid, action in self.data["actions"].items():
            repeat = action.get("repeat")
            if repeat and "max" in repeat and repeat.get("min", 1) > repeat["max"]:
                self.error(("actions", aid, "repeat", "min"), f"action '{aid}': repeat min {repeat.get('min', 1)} "
                                                             f"is more than its max {repeat['max']}")

    def check_card_arithmetic(self) -> None:
        """Each era's rounds must play exactly the deck (R-SETUP-12): the era ends when the cards run out.

        When some number of rounds would play this deck, the rounds are what is wrong and the error is
        at `rounds_per_era`; when none would (a new player count whose cards were counted anew), the
        deck is, and the error is at the cards, with the deck sizes that would fit."""
        setup = self.data["setup"]
        for players in self.data["players"]:
            deck = sum(card["count"].get(players, 0) for card in self.data["cards"].values())
            rounds = setup["rounds_per_era"].get(players)
            if rounds is None:
                continue
            for n, era in enumerate(self.data["eras"]):
                played = self._cards_played(players, rounds, n)
                if played == deck:
                    continue
                turns = era.get("first_round_actions", era["actions_per_turn"]) + (rounds - 1) * era["actions_per_turn"]
                face_down = setup["face_down_discards"] * players if n == 0 else 0
                aside = era.get("set_aside", {}).get(players, 0)
                text = (f"with {players} players, {rounds} rounds of the {era['name']} use {played} cards "
                        f"({turns} actions each{f' + {face_down} face down' if face_down else ''}"
                        f"{f' + {aside} set aside' if aside else ''}), but the deck has {deck}")
                fitting = [r for r in range(1, deck + 1) if self._plays_all_eras(players, r, deck)]
                if fitting:
                    self.error(("setup", "rounds_per_era", players),
                               f"{text}; {fitting[0]} rounds would play this deck in every era")
                else:
                    self.error(self._deck_path(players), f"{text}: no number of rounds plays a deck of {deck} "
                                                         f"cards in every era; {self._fitting_decks(players, rounds)}")
                break  # one error per player count: the other eras say the same

    def _cards_played(self, players: int, rounds: int, era_index: int) -> int:
        """Cards an era of `rounds` rounds takes from the deck and hands at this player count, those
        it sets aside unplayed included."""
        era = self.data["eras"][era_index]
        turns = era.get("first_round_actions", era["actions_per_turn"]) + (rounds - 1) * era["actions_per_turn"]
        face_down = self.data["setup"]["face_down_discards"] * players if era_index == 0 else 0
        return int(turns * players + face_down + era.get("set_aside", {}).get(players, 0))

    def _plays_all_eras(self, players: int, rounds: int, deck: int) -> bool:
        return all(self._cards_played(players, rounds, n) == deck for n in range(len(self.data["eras"])))

    def _fitting_decks(self, players: int, rounds: int) -> str:
        """The deck sizes that the given rounds, or one round fewer or more, play in every era."""
        fits = []
        for r in (rounds, rounds - 1, rounds + 1):
            sizes = {self._cards_played(players, r, n) for n in range(len(self.data["eras"]))}
            if r >= 1 and len(sizes) == 1:
                fits.append(f"{sizes.pop()} cards ({r} rounds)")
        if not fits:
            return "the eras take different numbers of cards whatever the rounds: see their actions per turn"
        return f"a {players}-player deck of {' or '.join(fits)} would fit"

    def _deck_path(self, players: int) -> Path:
        """The count of the first card dealt at this player count: where its deck is written."""
        for cid, card in self.data["cards"].items():
            if card["count"].get(players):
                return ("cards", cid, "count", players)
        return ("cards",)

    def check_totals(self) -> None:
        """Counts that add up over whole tables stay within MAX_TOTAL: a game holds one object per
        tile, card and merchant space, so no table may multiply them without bound."""
        data = self.data
        mat = sum(tile["count"] for specs in data["tiles"].values() for tile in specs)
        self.at_most(("tiles",), mat, "tiles on a player mat")
        wild = sum(pile["count"] for pile in data["wild_cards"].values())
        self.at_most(("wild_cards",), wild, "wild cards")
        for players in data["players"]:
            deck = sum(card["count"].get(players, 0) for card in data["cards"].values())
            self.at_most(("cards",), deck, f"cards in the deck with {players} players")
            spaces = sum(m["spaces"].get(players, 0) for m in data["merchants"].values())
            self.at_most(("merchants",), spaces, f"merchant spaces with {players} players")
            for sid, stack in data.get("stacks", {}).items():
                tiles = sum(counts.get(players, 0) for counts in stack["tiles"].values())
                self.at_most(("stacks", sid), tiles, f"tiles in stack '{sid}' with {players} players")

    def at_most(self, path: Path, total: int, what: str) -> None:
        if total > MAX_TOTAL:
            self.error(path, f"there are {total:,} {what}, at most {MAX_TOTAL:,}; use smaller counts", key=True)

    def check_player_count_tables(self) -> None:
        supported = self.data["players"]
        for pattern in PLAYER_COUNT_TABLES:
            for path, table in self._match(self.data, pattern, ()):
                missing = [p for p in supported if p not in table]
                extra = [p for p in table if p not in supported]
                if missing:
                    self.error(path,
                               f"{'.'.join(map(str, path))} gives no value for {', '.join(map(str, missing))} players")
                for p in extra:
                    self.error(path + (p,), f"{'.'.join(map(str, path))} gives a value for {p} players, "
                               "which this ruleset does not support", key=True)

    def check_rule_citations(self) -> None:
        rules = self.data["rules"]
        for path, rule_id in rule_citations(self.data, ()):
            if path[0] != "rules" and rule_id not in rules:
                import difflib  # only for a message: not imported with the module

                hint = difflib.get_close_matches(str(rule_id), list(rules), n=1)
                suffix = f"; did you mean '{hint[0]}'?" if hint else ""
                self.error(path, f"unknown rule ID '{rule_id}'{suffix} {where_rules_are(self.doc)}")

    def _match(self, node: Any, pattern: tuple[str, ...], path: Path) -> Iterator[tuple[Path, Any]]:
        if not pattern:
            if isinstance(node, dict):
                yield path, node
            return
        head, rest = pattern[0], pattern[1:]
        if isinstance(node, list) and head == "*":  # a list of records (eras): each one, by index
            for index, item in enumerate(node):
                yield from self._match(item, rest, path + (index,))
            return
        if not isinstance(node, dict):
            return
        keys = list(node) if head == "*" else [head] if head in node else []
        for key in keys:
            yield from self._match(node[key], rest, path + (key,))


def rule_citations(node: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """Every `rule: ID` and `rules: [ID, …]` anywhere in the data."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "rule" and isinstance(value, str):
                yield path + (key,), value
            elif key == "rules" and isinstance(value, list) and path:
                for i, item in enumerate(value):
                    if isinstance(item, str):
                        yield path + (key, i), item
            else:
                yield from rule_citations(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from rule_citations(item, path + (i,))


def where_rules_are(doc: Document) -> str:
    """Where a forgotten rule ID is to be declared, for the end of a message about it."""
    declared = doc.pos(("rules",), key=True)
    place = f" of {declared.file}" if declared is not None else ""
    return (f"(a rule ID must first be declared in the rule index: the 'rules:' section{place}, or a 'rules:' "
            "section in this ruleset's own files)")


def check_references(doc: Document, sink: DiagnosticSink,
                     broken: frozenset[str] = frozenset()) -> set[tuple[str, Path]]:
    """Report every broken cross-reference of a ruleset; with `broken`, of the sections that passed
    the structure check. Returns each error reported, as the name of its check and its path."""
    checker = CrossChecker(doc, sink, broken)
    checker.run()
    return checker.failed
