"""What the page of `brass serve` shows, as JSON: a game being played, or one step of a replay.

The page never needs the rules: it shows the board picture, the players' mats, the hand, the
legal next decisions (each with words that say what it is, from the terminal game's describer),
the actions that cannot be taken with every reason and the text of each rule cited, and the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpreter.engine.errors import Failure
from interpreter.engine.game import Game
from interpreter.ruleset.model import Ruleset, TileSpec
from interpreter.tools.board.picture import board_svg, player_colour
from interpreter.tools.web.sessions import PlaySession, ReplaySession
from interpreter.tools.web.table import (
    TableNote,
    cards_this_era,
    last_action,
    log_lines,
    score_breakdown,
    unseen_cards,
)
from interpreter.tools.wording.names import decision_name, param_type, prompt_text

LOG_LINES = 60  # the page shows the end of the log; the whole of it is in a save
# Decisions whose value is a thing drawn on the board, by the type of the action's parameter: the
# data- attribute the picture (board/picture.py) marks it with; a tile is found by the slot it stands on,
# a merchant tile by its space. By type, so that a ruleset's own parameter names need nothing here.
BOARD_TYPES = {"slot": "slot", "tile": "slot", "link": "link", "location": "location", "merchant_tile": "space"}


def failures_json(ruleset: Ruleset, failures: list[Failure]) -> list[dict[str, Any]]:
    """Each reason with its rule ID, YAML place and the rule's own text (from the rule index)."""
    rows = []
    for failure in failures:
        rule = ruleset.rules.get(failure.rule) if failure.rule else None
        rows.append({**failure.to_dict(), "rule_text": rule.text.strip() if rule is not None else ""})
    return rows


def position_json(game: Game, seats: list[str] | None = None, board: str | None = None) -> dict[str, Any]:
    """What every view of a game has: the header, the picture, the players, the standings at the end."""
    state = game.state
    era = game.ruleset.eras[state.era_index].name
    header = (f"{era}: the game is over" if game.is_over else
              f"{era}, round {state.round}: player {game.deciding_seat} to decide, "
              f"{state.actions_left} action(s) left this turn; draw deck {len(state.deck)} card(s)")
    return {"ruleset": game.ruleset.name, "title": game.ruleset.title, "header": header, "over": game.is_over,
            "board": board_picture(game) if board is None else board, "players": players_json(game, seats),
            **counters_json(game), "standings": game.standings() if game.is_over else []}


def counters_json(game: Game) -> dict[str, Any]:
    """The ruleset's tracks (their values) and stacks (how many tiles are face down, and the drawn
    ones, which were shown; never the face-down order, which no player knows)."""
    state, ruleset = game.state, game.ruleset
    tracks = [{"id": track_id, "name": track.name, "value": state.tracks.get(track_id, track.start),
               "min": track.min, "max": track.max} for track_id, track in ruleset.tracks.items()]
    stacks = [{"id": stack_id, "name": stack.name, "face_down": len(state.stacks.get(stack_id, [])),
               "drawn": list(state.drawn.get(stack_id, []))} for stack_id, stack in ruleset.stacks.items()]
    return {"tracks": tracks, "stacks": stacks}


def board_picture(game: Game) -> str:
    """The board (board/picture.py). While a question is open at a round's end (unpaid income) the
    round's turn order is used up and `table.me`, which the picture's panel reads, has no player
    (IndexError): the page then says so instead of the picture, and the answers stay listed."""
    try:
        return board_svg(game)
    except IndexError:
        if game.question is None:
            raise
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="40"><text x="10" y="25">'
                "The board is drawn again once the question is answered.</text></svg>")


def players_json(game: Game, seats: list[str] | None) -> list[dict[str, Any]]:
    table = game.table
    on_board = {p.seat: 0 for p in table.players}
    for tile in game.state.tiles.values():
        on_board[tile.owner.seat] += 1
    return [{"seat": p.seat, "colour": player_colour(p.seat), "who": seats[p.seat - 1] if seats else "",
             "money": p.money,
             "income_position": p.income_position, "income_level": table.income_level(p), "vp": p.vp,
             "links_left": p.links_left, "hand": len(p.hand), "spent": p.spent, "tiles": on_board[p.seat],
             "to_act": not game.is_over and p.seat == game.deciding_seat} for p in table.players]


def mat_json(game: Game, seat: int) -> list[dict[str, Any]]:
    """A player's mat: per industry the tiles left and the lowest one (what a Build would place)."""
    player = game.table.player(seat)
    rows = []
    for industry_id, industry in game.ruleset.industries.items():
        left = game.table.tiles_left(player, industry_id)
        row: dict[str, Any] = {"industry": industry_id, "name": industry.name, "left": left}
        if left > 0:
            tile = game.table.lowest_tile(player, industry_id)
            row.update(level=tile.level, cost=tile.cost, needs=tile_needs(game.ruleset, tile), vp=tile.vp,
                       income=tile.income, link_icons=tile.link_icons, eras=list(tile.eras))
        rows.append(row)
    return rows


def tile_needs(ruleset: Ruleset, tile: TileSpec) -> dict[str, int]:
    """What building the tile consumes, per resource of the ruleset (0 for none)."""
    return {resource: int(tile.needs.get(resource, 0)) for resource in ruleset.resources}


def resources_json(ruleset: Ruleset) -> list[dict[str, str]]:
    """The ruleset's resources in its order: the columns of the mat's needs."""
    return [{"id": resource_id, "name": resource.name} for resource_id, resource in ruleset.resources.items()]


def hand_json(game: Game, seat: int) -> list[dict[str, Any]]:
    return [{"id": c.id, "name": c.name, "kind": c.kind} for c in game.table.player(seat).hand]


def log_json(game: Game, entries: list[dict[str, Any]] | None = None, notes: Sequence[TableNote] = ()) -> list[str]:
    """The end of the log in the terminal game's words, with what was said to the table among it."""
    return log_lines(game, game.log if entries is None else entries, notes, last=LOG_LINES)


def table_json(game: Game, viewer: int | None) -> dict[str, Any]:
    """What the table reads beside the board (web/table.py): the last action, the eras' scores, the
    cards played this era and those the viewer has not seen."""
    return {"last_action": last_action(game), "scores": score_breakdown(game), "played": cards_this_era(game),
            "unseen": unseen_cards(game, viewer)}


def can_take_back(session: PlaySession) -> bool:
    """Whether the page offers *Take back*: between actions, a person to decide whose seat took the
    last action (the server says why when it still cannot be: a card drawn since …)."""
    game = session.game
    if game.is_over or game.pending is not None or game.question is not None or not session.human_to_decide:
        return False
    last = next((entry for entry in reversed(game.log) if entry.get("event") == "action"), None)
    return last is not None and last.get("player") == session.deciding_seat


def play_json(key: str, session: PlaySession) -> dict[str, Any]:
    """A game being played, as the person whose decision it is (or the first person) sees it."""
    game = session.game
    humans = [n for n, kind in enumerate(session.seats, start=1) if kind == "human"]
    viewer = session.deciding_seat if session.human_to_decide else (humans[0] if humans else None)
    view = {"kind": "play", "id": key, **position_json(game, session.seats, _session_board(session)),
            "seats": session.seats,
            "deciding": None if game.is_over else session.deciding_seat, "human_to_decide": session.human_to_decide,
            "viewer": viewer, "hand": hand_json(game, viewer) if viewer else [],
            "mat": mat_json(game, viewer) if viewer else [], "resources": resources_json(game.ruleset),
            "can_back_out": session.action_start is not None and game.can_take_back,
            "can_take_back": can_take_back(session), "thinking": _thinking(session),
            "log": log_json(game, notes=session.notes), "moves": len(game.moves), **table_json(game, viewer)}
    view.update(decisions_json(session) if session.human_to_decide else {"prompt": _waiting(session),
                                                                          "decisions": [], "blocked": []})
    return view


def _thinking(session: PlaySession) -> int | None:
    """The bot seat deciding now, whose *thinking…* the page shows while it asks the bots to go on."""
    if session.game.is_over or session.human_to_decide:
        return None
    return session.deciding_seat


def _session_board(session: PlaySession) -> str:
    """The board of the session's game, drawn again only when the state changed: the decisions in
    the middle of an action (its card, industry, location) change nothing the picture shows."""
    state = session.game.state_hash()
    if session.board is None or session.board[0] != state:
        session.board = (state, board_picture(session.game))
    return session.board[1]


def _waiting(session: PlaySession) -> str:
    if session.game.is_over:
        return "the game is over"
    return f"player {session.deciding_seat} ({session.seats[session.deciding_seat - 1]}) is deciding"


def decisions_json(session: PlaySession) -> dict[str, Any]:
    game = session.game
    slots = {slot.id for slot in game.ruleset.slots}
    decisions = []
    for decision in game.legal_actions():
        row: dict[str, Any] = {"decision": decision, "label": decision_name(game, decision)}
        if len(decision) == 1:
            (name, value), = decision.items()
            kind = param_type(game, name)
            if kind in BOARD_TYPES and isinstance(value, str):
                row["board"] = {"attribute": BOARD_TYPES[kind], "key": name, "value": value}
            elif name == "answer" and value in slots:  # a question about a tile (unpaid income …)
                row["board"] = {"attribute": "slot", "key": name, "value": value}
            if name == "action" and value in game.ruleset.actions:
                row["help"] = game.ruleset.actions[value].doc
        decisions.append(row)
    blocked = [{"action": action, "name": game.ruleset.actions[action].name,
                "failures": failures_json(game.ruleset, failures)}
               for action, failures in session.blocked_actions()]
    return {"prompt": prompt_text(game), "decisions": decisions, "blocked": blocked,
            "board_keys": [{"key": key, "attribute": attribute} for key, attribute in
                           sorted({(d["board"]["key"], d["board"]["attribute"]) for d in decisions if "board" in d})]}


def replay_json(key: str, replay: ReplaySession, index: int) -> dict[str, Any]:
    """Step `index` of a replay: the position after it, what was done and what it wrote to the log."""
    step = replay.steps[index]
    game = step.position
    last = index == len(replay.steps) - 1
    return {"kind": "replay", "id": key, "name": replay.name, "step": index, "steps": len(replay.steps),
            **position_json(game), "label": step.label, "seat": step.seat, "log": log_json(game, step.log),
            **table_json(game, None),
            "hands": {p.seat: hand_json(game, p.seat) for p in game.table.players},
            "note": replay.note if last else "",
            "expected_vp": replay.expected_vp if last and not replay.note else None}  # at the game's end only
