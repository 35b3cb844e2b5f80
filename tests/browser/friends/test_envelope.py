"""The relay links' envelope decoder (web/friends/envelope.js) against 10,000 malformed, altered, replayed,
misdirected and foreign inputs, in Node (tests/browser/friends/fuzz_envelope.mjs): none opens, none throws,
and every genuine envelope opens exactly once."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FUZZ = ROOT / "tests" / "browser" / "friends" / "fuzz_envelope.mjs"


def test_no_malformed_envelope_opens_and_none_throws() -> None:
    done = subprocess.run(["node", "--no-warnings", str(FUZZ), "10000", "20261205"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.stdout, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"malformed": 10000, "accepted": 0, "threw": 0, "genuine": 40, "failures": []}, result
    assert done.returncode == 0
