"""A monotonic clock that compiled emulator code can read: the wall-clock timeout of a launch.

Numba has no clock of its own in nopython code, and a ctypes function would keep its address in
the compiled code (not cacheable). So the emulators call the C library's clock_gettime by name;
the symbol is resolved when the code is loaded, as Numba resolves its own runtime calls.
`now_ns()` in Python reads the same clock, so a deadline computed here means the same thing
inside the emulator.
"""
from __future__ import annotations

import time

from llvmlite import ir
from numba.core import cgutils, types
from numba import njit
from numba.extending import intrinsic

CLOCK = time.CLOCK_MONOTONIC     # the same constant inside and outside the emulator
NO_DEADLINE = 0                  # a deadline of 0: no timeout
CHECK_EVERY = 1 << 16            # warp instructions between two readings of the clock (~5 ms)


def now_ns() -> int:
    """The clock the emulators read, in nanoseconds."""
    return time.clock_gettime_ns(CLOCK)


def deadline_ns(timeout: float | None) -> int:
    """What an emulator is handed for a launch given `timeout` seconds: minus the timeout in ns,
    turned into a clock reading by `start_deadline` when the emulator starts (NO_DEADLINE:
    never). The clock starts there, not here, so that compiling the emulator (Numba's JIT on a
    first run, half a minute) does not count against the launch."""
    return NO_DEADLINE if not timeout else -int(timeout * 1e9)


@intrinsic
def clock_ns(typingctx):
    """now_ns() inside compiled code: clock_gettime(CLOCK, &ts); ts.tv_sec * 1e9 + ts.tv_nsec."""
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        spec = ir.LiteralStructType([i64, i64])
        call = ir.FunctionType(ir.IntType(32), [ir.IntType(32), spec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, call, "clock_gettime")
        slot = cgutils.alloca_once(builder, spec)
        builder.call(clock_gettime, [ir.Constant(ir.IntType(32), CLOCK), slot])
        seconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 0))
        nanos = builder.load(cgutils.gep_inbounds(builder, slot, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanos)
    return types.int64(), codegen


@njit(cache=True)
def start_deadline(limits, k):
    """limits[k]: minus a timeout (deadline_ns) becomes the clock reading at which to stop, the
    first time an emulator of the launch runs (later calls and other workers keep it)."""
    if limits[k] < 0:
        limits[k] = clock_ns() - limits[k]
