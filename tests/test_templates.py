"""Texts that follow the data (interpreter/ruleset/templates.py): a `{…}` part of a rule text or a
message that reads only the ruleset is worked out when the ruleset loads, so a variant that changes
the data changes the texts with it; the shipped rulesets use such parts where a text repeats a
number or a list of the data.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import clear_cache, load_ruleset
from interpreter.ruleset.model import Ruleset

GLASSWORKS = """
industries:
  glassworks: {name: Glassworks, flips: sold}
tiles:
  glassworks:
    - {level: 1, count: 1, cost: 10, coal: 0, iron: 0, beer: 1, vp: 3, link_icons: 1, income: 2, develop: true,
       eras: [canal, rail]}
"""


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


def variant(folder: Path, text: str) -> Ruleset:
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(f'name: v\ntitle: V\nversion: "1"\nextends: birmingham\n{text}',
                                         encoding="utf-8")
    return load_ruleset(folder)


def sell_refusal(ruleset: Ruleset) -> str:
    """The message a player reads when the tile sold is not one of the sold industries (R-SELL-02)."""
    assert ruleset.actions["sell"].repeat is not None
    (text, compiled), = ruleset.actions["sell"].repeat.part.requires[0].message
    assert compiled is None  # worked out when the ruleset loaded: it reads only the ruleset
    return text


def test_the_shipped_texts_say_what_the_data_says() -> None:
    birmingham = load_ruleset("birmingham")
    assert sell_refusal(birmingham) == ("You can sell only an unflipped Cotton Mill, Manufacturer or Pottery of "
                                        "your own.")
    assert birmingham.rules["R-MERCH-04"].text == "The Warrington bonus is £5 from the bank."
    assert birmingham.rules["R-MERCH-03"].text == "The Nottingham bonus is +3 VP and the Shrewsbury bonus +4 VP " \
                                                  "(printed values)."
    assert birmingham.rules["R-SETUP-08"].text.startswith("Each player takes a player mat, £17, a character tile, "
                                                          "the 14 link tiles of their colour and the 45 industry")
    assert birmingham.rules["R-LOAN-02"].text == ("A loan is illegal if it would take the income level below -10, "
                                                  "so it needs a current level of at least -7.")
    assert birmingham.rules["R-SETUP-02"].text.endswith("the deck then has 40/54/64 cards for 2/3/4 players.")


def test_a_new_sold_industry_appears_in_the_sell_refusal_and_the_rules(tmp_path: Path) -> None:
    ruleset = variant(tmp_path / "glass", GLASSWORKS)
    assert sell_refusal(ruleset) == ("You can sell only an unflipped Cotton Mill, Manufacturer, Pottery or "
                                     "Glassworks of your own.")
    assert ruleset.rules["R-SELL-02"].text.startswith("Choose an unflipped Cotton Mill, Manufacturer, Pottery or "
                                                      "Glassworks of yours")
    assert "all-goods tiles accept all 4," in ruleset.rules["R-SELL-02"].text
    assert ruleset.rules["R-FLIP-01"].text == "Cotton Mill, Manufacturer, Pottery and Glassworks tiles flip when sold."


def test_a_changed_bonus_or_amount_changes_the_rule_texts(tmp_path: Path) -> None:
    ruleset = variant(tmp_path / "rich", "economy:\n  loan: {amount: 40}\nsetup: {money: 20}\nmerchants:\n"
                                         "  warrington:\n    beer_bonus: [{gain_money: 7}]\n")
    assert ruleset.rules["R-MERCH-04"].text == "The Warrington bonus is £7 from the bank."
    assert ruleset.rules["R-LOAN-01"].text.startswith("Discard any card, take £40 from the bank")
    assert ruleset.rules["R-LOAN-03"].text.endswith("the £40 is not money spent.")
    assert ruleset.rules["R-SETUP-08"].text.startswith("Each player takes a player mat, £20,")
    assert load_ruleset("birmingham").rules["R-MERCH-04"].text == "The Warrington bonus is £5 from the bank."


def test_a_part_reading_the_game_is_shown_when_the_message_is() -> None:
    build = load_ruleset("birmingham").actions["build"]
    message = next(r.message for r in build.part.requires if "tile costs" in "".join(t for t, _ in r.message))
    assert [text if compiled is None else f"{{{compiled.text}}}" for text, compiled in message] == [
        "Your ", "{industry.name}", " tile costs £", "{tile.cost}", " but you have £", "{me.money}", "."]


def test_a_rule_text_cannot_read_the_game(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as refused:
        variant(tmp_path / "bad", "rules:\n  R-LOAN-01:\n    text: You have £{me.money}.\n")
    assert "bad/ruleset.yaml:7:22" in str(refused.value)
    assert "'me' is not available here" in str(refused.value)


def test_a_misspelt_part_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as refused:
        variant(tmp_path / "typo", "rules:\n  R-LOAN-01:\n    text: Take £{loan.amout}.\n")
    assert "typo/ruleset.yaml:7:23" in str(refused.value) and "amout" in str(refused.value)
