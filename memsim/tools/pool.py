"""Independent launches on every core: `memsim sweep` and `validate run` share this runner.

    results = run_all(simulate_one, [(spec_a,), (spec_b,)], jobs=8, advance=bar_advance)

Why these choices:
- multiprocessing.Pool with the "spawn" context: a parent that already ran Numba's threads
  cannot fork safely, and Pool (unlike concurrent.futures) has a public terminate(), which
  Ctrl-C needs to stop workers that are deep in a launch.
- The first call runs alone: the emulator is Numba code cached in files (__pycache__), so one
  worker compiles it (about a minute) and writes the cache, and the others load it instead of
  each compiling the same code at once.
- Workers ignore SIGINT (the parent alone answers Ctrl-C, with one line), ask Linux to send
  them SIGTERM when the parent dies (no orphans after a kill -9), and split the cores between
  them: each launch runs its blocks on cores // jobs Numba threads.
- Results come back in the order of the calls, whatever order they finish in, so a run on
  one core, on eight, or on a cluster gives the same list.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from typing import Callable, Sequence, TypeVar

from .progress import Advance, WAIT_STEP_S, call_interruptibly

T = TypeVar("T")
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def run_all(function: Callable[..., T], calls: Sequence[tuple], jobs: int,
            advance: Advance = lambda n=1: None) -> list[T]:
    """[function(*call) for call in calls] on `jobs` processes (in this one when jobs <= 1 or
    there is one call); advance(1) as each finishes; the first worker error is raised here."""
    if jobs <= 1 or len(calls) <= 1:
        return [_done(call_interruptibly(function, *call), advance) for call in calls]
    workers = min(jobs, len(calls))
    pool = multiprocessing.get_context("spawn").Pool(
        workers, initializer=_start_worker, initargs=(max(1, (os.cpu_count() or 1) // workers),))
    try:
        first = _wait(pool.apply_async(_call, (function, calls[0])))
        advance(1)
        pending = [pool.apply_async(_call, (function, call), callback=lambda _: advance(1))
                   for call in calls[1:]]
        results = [first] + [_wait(result) for result in pending]
        pool.close()
        return results
    finally:
        pool.terminate()  # after close(): a no-op join; after Ctrl-C or an error: stop every worker
        pool.join()


def _done(result: T, advance: Advance) -> T:
    advance(1)
    return result


def _call(function: Callable[..., T], call: tuple) -> T:
    return function(*call)


def _wait(result) -> object:
    """The result of an apply_async, waited for in short steps so that Ctrl-C lands at once."""
    while not result.ready():
        result.wait(WAIT_STEP_S)
    return result.get()


def _start_worker(numba_threads: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    import numba

    numba.set_num_threads(min(numba_threads, numba.config.NUMBA_NUM_THREADS))


def _die_with_parent() -> None:
    """Linux: SIGTERM this process when its parent dies, however it dies (elsewhere: the pool's
    daemon processes still end when the parent exits normally or is interrupted)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
