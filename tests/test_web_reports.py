"""`brass serve --reports DIR`: the balance report of a comparison's --out file, the same page
`brass report --from` writes (issue 24 item 4; web/reports.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="httpx2 (starlette's TestClient) is not installed (pip install '.[test]')")
from starlette.testclient import TestClient

from interpreter.tools.web.api import create_app
from interpreter.tools.web.sources import Folders

LOCAL = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two seeds of what-if against the full game, greedy bots, in an --out file; a loan-50 folder
    beside it, a single run and a file that is no run at all."""
    from interpreter.tools.cli.main import main

    folder = tmp_path_factory.mktemp("reports")
    out = folder / "what-if.jsonl"
    assert main(["simulate", "what-if", "--against", "birmingham", "--bot", "greedy", "--games", "2",
                 "--out", str(out)]) == 0
    assert main(["simulate", "birmingham", "--bot", "greedy", "--games", "1", "--out", str(folder / "one.jsonl")]) == 0
    (folder / "notes.jsonl").write_text("not a game\n", encoding="utf-8")
    return out


@pytest.fixture
def client(runs: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Folders.of([], [], [str(runs.parent)])), base_url=LOCAL) as test_client:
        yield test_client


def test_the_page_is_the_one_brass_report_writes(client: TestClient, runs: Path, tmp_path: Path) -> None:
    from interpreter.tools.cli.main import main

    page = tmp_path / "report.html"
    assert main(["report", "what-if", "--against", "birmingham", "--from", str(runs), "--html", str(page)]) == 0
    response = client.get("/reports", params={"path": str(runs)})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert response.text == page.read_text(encoding="utf-8")
    for section in ('compared', 'verdicts', 'vp-sources', 'win-rate', 'action-mix', 'game-length', 'money-income',
                    'tiles'):
        assert f'id="{section}"' in response.text


def test_the_list_says_what_each_file_compares(client: TestClient, runs: Path) -> None:
    listed = {Path(row["path"]).name: row for row in client.get("/api/reports").json()["reports"]}
    assert listed["what-if.jsonl"] == {"path": str(runs), "variant": "what-if", "base": "birmingham"}
    assert listed["one.jsonl"]["error"] == "a single run, not a comparison"
    assert "notes.jsonl" in listed and "error" in listed["notes.jsonl"]
    assert str(runs) in client.get("/api/options").json()["files"]["reports"]


def test_a_file_outside_the_reports_folders_or_not_a_comparison_is_refused(client: TestClient, runs: Path,
                                                                           tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text(runs.read_text(encoding="utf-8"), encoding="utf-8")
    refused = client.get("/reports", params={"path": str(outside)})
    assert refused.status_code == 403 and "is not below a folder this server opens report files from" in \
        refused.json()["error"]
    single = client.get("/reports", params={"path": str(runs.parent / "one.jsonl")})
    assert single.status_code == 422 and "not a comparison" in single.json()["error"]
    assert client.get("/reports").status_code == 400  # no path at all


def test_the_bases_other_games_below_the_folders_are_its_control(tmp_path: Path) -> None:
    """A run of the base alone beside the comparison: the page uses it as `brass report --base-from`
    does (the control's weight and the share of the variance removed), and names it in the command."""
    from interpreter.tools.cli.main import main

    folder = tmp_path / "reports"
    folder.mkdir()
    compared, base = folder / "what-if.jsonl", folder / "base.jsonl"
    assert main(["simulate", "what-if", "--against", "birmingham", "--bot", "greedy", "--games", "3",
                 "--out", str(compared)]) == 0
    assert main(["simulate", "birmingham", "--bot", "greedy", "--games", "4", "--seed", "1000",
                 "--out", str(base)]) == 0
    page = tmp_path / "report.html"
    assert main(["report", "what-if", "--against", "birmingham", "--from", str(compared), "--base-from", str(base),
                 "--html", str(page)]) == 0
    with TestClient(create_app(Folders.of([], [], [str(folder)])), base_url=LOCAL) as client:
        response = client.get("/reports", params={"path": str(compared)})
    assert response.status_code == 200 and response.text == page.read_text(encoding="utf-8")
    assert f"--base-from {base}" in response.text and "as a control" in response.text
