"""`kind: external`: a plain node of the network where nothing is built (Brass: Lancashire's six
edge locations, L-CONN-03): no slots, no cards, no merchant spaces; links end there and score its
printed link icons (L-ERA-02)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.ruleset.errors import RulesetError
from interpreter.ruleset.loader import load_ruleset

HEADER = "name: edges\ntitle: Edges\nversion: '1'\nextends: lancashire\n"


def errors(tmp_path: Path, text: str) -> list[str]:
    folder = tmp_path / "edges"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(HEADER + text, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(folder)
    return [str(d).splitlines()[0] for d in caught.value.diagnostics]


def test_lancashire_has_six_external_locations_worth_two_link_icons() -> None:
    rs = load_ruleset("lancashire")
    external = {lid: loc for lid, loc in rs.locations.items() if loc.kind == "external"}
    assert sorted(external) == ["blackpool", "northwich", "scotland", "southport", "the_midlands", "yorkshire"]
    assert all(loc.link_icons == 2 and not loc.slots for loc in external.values())
    assert not any(loc.kind == "merchant" for loc in rs.locations.values())


def test_an_external_location_with_a_slot_is_refused_where_it_is_written(tmp_path: Path) -> None:
    found = errors(tmp_path, "locations:\n  scotland: {slots: [[port]]}\n")
    assert len(found) == 1 and found[0].endswith("external location 'scotland' cannot have industry slots"), found
    assert found[0].startswith(str(tmp_path / "edges" / "ruleset.yaml") + ":6:")


def test_a_card_naming_an_external_location_is_refused(tmp_path: Path) -> None:
    found = errors(tmp_path, "cards:\n  scotland: {location: scotland, count: {2: 1, 3: 1, 4: 1}}\n")
    assert any("card 'scotland' names external location 'scotland', where nothing can be built" in e
               for e in found), found
