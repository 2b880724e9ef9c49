"""The engine with the condition language's closures only (`BRASS_NO_CODEGEN=1`, no expression
written out as one function: brass_dsl/codegen.py) plays a fingerprinted game byte-identically, as
the default path does in tests/test_behaviour_fingerprint.py: both paths stay tested."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDED = json.loads((ROOT / "tests" / "data" / "behaviour_fingerprint.json").read_text(encoding="utf-8"))
SCRIPT = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("legal_lists", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(module.fingerprint("birmingham", 2, "greedy", 1)))
"""


def test_closures_only_give_the_same_game() -> None:
    game = ("birmingham", 2, "greedy", 1)
    recorded = next(r for r in RECORDED if (r["ruleset"], r["players"], r["bot"], r["seed"]) == game)
    env = {**os.environ, "BRASS_NO_CODEGEN": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "bench" / "legal_lists.py")], env=env,
                          capture_output=True, text=True, check=True, timeout=300)
    assert json.loads(done.stdout) == recorded
