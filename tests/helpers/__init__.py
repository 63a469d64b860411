"""What several test modules share: the repository's paths, the seed launches, small catalog
launches, hand-written SASS run on one warp, fake validate records, the docs' commands.
Imported as tests.helpers.* (tests/ is a package), never as top-level modules."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
