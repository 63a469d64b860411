"""The docs' commands and code: every `$ memsim ...` line of a ```console block (with the
output lines shown after it) and every fenced block of a language, for tests/test_docs.py and
tests/test_no_nvrtc.py."""
from __future__ import annotations

import re
from pathlib import Path

from . import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
MAX_NX = 1024
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(language: str) -> list[tuple[str, str]]:
    """(file name, block text) of every fenced block in that language."""
    return [(doc.name, match.group(2)) for doc in DOCS for match in FENCE.finditer(doc.read_text())
            if match.group(1) == language]


def commands() -> list[tuple[str, str, list[str]]]:
    """(file, command, expected output lines) of every `$ memsim` line in console blocks."""
    found = []
    for name, text in blocks("console"):
        for chunk in re.split(r"^\$ ", text, flags=re.M)[1:]:
            command, *output = chunk.rstrip("\n").split("\n")
            if command.startswith("memsim "):
                found.append((name, command, [o.strip() for o in output if o.strip() not in ("", "...")]))
    return found


COMMANDS = commands()


def runnable(argv: list[str], tmp_path: Path, shows_output: bool) -> list[str]:
    """The command as the test runs it: figures to tmp_path, big sizes capped."""
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg in ("--png", "--svg"):
            out[i + 1] = str(tmp_path / Path(out[i + 1]).name)
        if arg in ("--nx", "--ny") and int(out[i + 1]) > MAX_NX:
            assert not shows_output, "a command whose output is shown must run as written"
            out[i + 1] = str(MAX_NX)
    return out
