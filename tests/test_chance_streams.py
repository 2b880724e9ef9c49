"""Each purpose of chance has a stream of its own (engine/rng.py `stream`, setup.py, Table.chance).

A comparison (`brass simulate VARIANT --against BASE`) plays both rulesets from the same seeds; it
is only a comparison of rules if a variant that leaves a part of the game alone gets that part
exactly as its base deals it. Before the streams, one generator served every purpose, so a
variant with one merchant tile more dealt every hand differently (issue 24).
"""

from __future__ import annotations

from pathlib import Path

from interpreter.engine.game import Game
from interpreter.engine.rng import stream
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.model import Ruleset

SEEDS = range(1, 21)


def variant(tmp_path: Path, name: str, body: str) -> Ruleset:
    folder = tmp_path / name
    folder.mkdir()
    header = f'name: {name}\ntitle: "{name}"\nversion: "0.1"\nextends: birmingham\n'
    (folder / "ruleset.yaml").write_text(header + body, encoding="utf-8")
    return load_ruleset(str(folder))


def hands(game: Game) -> list[list[str]]:
    return [[card.face for card in player.hand] for player in game.state.players]


def test_a_stream_is_fixed_by_its_seed_and_purpose_alone() -> None:
    assert stream(1, "deck").next_u64() == stream(1, "deck").next_u64()
    assert len({stream(seed, purpose).next_u64() for seed in (1, 2) for purpose in ("deck", "merchants")}) == 4
    assert stream(1, "deck").state == 0x96F66654A3323EAF  # BLAKE2's output is fixed by its specification


def test_more_merchant_tiles_leave_the_deal_and_the_turn_order_alone(tmp_path: Path) -> None:
    """Warrington's two spaces in play at 2 players, with two more blank tiles: 7 merchant tiles
    are shuffled, not 5, from the merchants' stream only. Every hand, face-down discard, the draw
    deck and the turn order are those of the full game for every seed (R-SETUP-03, R-SETUP-11);
    with one generator for everything, the longer shuffle moved the turn order's draws."""
    base = load_ruleset("birmingham")
    more = variant(tmp_path, "more-merchants", "merchants:\n  warrington:\n    spaces: {2: 2, 3: 2, 4: 2}\n"
                                               "merchant_tiles:\n  blank:\n    count: {2: 4, 3: 3, 4: 3}\n")
    for seed in SEEDS:
        one, other = Game.new(base, 2, seed), Game.new(more, 2, seed)
        assert (len(one.state.merchants), len(other.state.merchants)) == (5, 7)
        assert hands(other) == hands(one) and [c.id for c in other.state.deck] == [c.id for c in one.state.deck]
        assert [[c.id for c in p.discard] for p in other.state.players] == \
            [[c.id for c in p.discard] for p in one.state.players]
        assert other.state.turn_order == one.state.turn_order


def test_other_merchant_tiles_leave_the_deal_alone(tmp_path: Path) -> None:
    """A Pottery merchant tile in place of the Cotton one at 2 players: every hand, face-down discard
    and the draw deck are those of the full game (R-SETUP-03)."""
    base = load_ruleset("birmingham")
    pottery = variant(tmp_path, "pottery-merchant", "merchant_tiles:\n  cotton:\n    count: {2: 0, 3: 1, 4: 2}\n"
                                                    "  pottery:\n    count: {2: 1, 3: 1, 4: 1}\n")
    for seed in SEEDS:
        one, other = Game.new(base, 2, seed), Game.new(pottery, 2, seed)
        assert hands(other) == hands(one) and [c.id for c in other.state.deck] == [c.id for c in one.state.deck]
        assert [[c.id for c in p.discard] for p in other.state.players] == \
            [[c.id for c in p.discard] for p in one.state.players]
    assert any("pottery" in [m.tile for m in Game.new(pottery, 2, seed).state.merchants] for seed in SEEDS)


def test_the_rail_eras_deck_is_the_same_however_the_canal_era_was_played() -> None:
    """At the Canal Era's end every card is back in one pile (R-ERA-05); it is put in the ruleset's
    order before the shuffle, so two games of one seed played differently start the Rail Era with
    the same deck, and the same hands."""
    ruleset = load_ruleset("birmingham")
    decks = []
    for pick in (0, -1):  # the first legal decision every time, or the last
        game = Game.new(ruleset, 2, 7)
        while game.state.era_index == 0:
            game.apply(game.legal_actions()[pick])
        decks.append(([c.id for c in game.state.deck], hands(game)))
    assert decks[0] == decks[1] and len(decks[0][0]) == 40 - 2 * 8  # 2 players: 40 cards, 8 in each hand
