"""Progress bars and Ctrl-C for long runs (`memsim sweep`, `validate run`, big launches).

A bar is drawn only for a person at a terminal: when stdout is a pipe or carries JSON, nothing
is drawn, so machine-readable output stays clean. Ctrl-C ends a command with one line,
"interrupted", and exit status 130 (the shell's 128 + SIGINT), never a traceback.

The emulator holds its worker threads in Numba code for as long as a launch takes, and a
Python thread cannot be stopped from outside; `call_interruptibly` therefore runs work in a
daemon thread that the main thread waits on in short, interruptible steps, and `interrupted`
leaves the process at once when such threads are still busy.
"""
from __future__ import annotations

import os
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

EXIT_INTERRUPTED = 130
WORK_THREAD = "memsim-work"
WAIT_STEP_S = 0.1  # how long the main thread sleeps between looks at the worker: Ctrl-C latency

T = TypeVar("T")
Advance = Callable[[int], None]


def wanted(machine_output: bool = False) -> bool:
    """Whether to draw progress: only for a terminal, never under --json/--csv."""
    return not machine_output and sys.stdout.isatty()


@contextmanager
def bar(total: int, description: str, show: bool) -> Iterator[Advance]:
    """A bar of `total` steps on stderr (so stdout stays the result); yields advance(n=1)."""
    if not show:
        yield lambda n=1: None
        return
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(description, total=total)
        yield lambda n=1: progress.advance(task, n)


@contextmanager
def spinner(description: str, show: bool) -> Iterator[None]:
    """An elapsed-time spinner for one long step whose progress cannot be measured."""
    if not show:
        yield
        return
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        progress.add_task(description, total=None)
        yield


def call_interruptibly(function: Callable[..., T], *args) -> T:
    """function(*args) in a daemon thread, so that Ctrl-C reaches the main thread at once even
    while Numba code holds the interpreter's attention; its exception is re-raised here."""
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=work, name=WORK_THREAD, daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(WAIT_STEP_S)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def interrupted() -> int:
    """Say "interrupted" and give the shell's status for SIGINT. When emulator threads are still
    running (they cannot be stopped from Python), leave the process now instead of waiting."""
    print("interrupted", file=sys.stderr)
    if any(t.name == WORK_THREAD and t.is_alive() for t in threading.enumerate()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)
    return EXIT_INTERRUPTED
