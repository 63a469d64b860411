"""cupy.cuda and cupy.random, as far as a kernel script uses them.

Launches run to completion when called, so synchronizing is a no-op; random numbers come from
numpy (the same distributions, not CuPy's stream of numbers).
"""
from __future__ import annotations

import numpy as np

from ._array import numpy_fallback
from ._mirror import MirrorNamespace, not_mirrored


class Device:
    """cupy.cuda.Device: the one emulated H100; `with Device(0):` and synchronize() work."""

    def __init__(self, device: int | None = None) -> None:
        self.id = device or 0

    def use(self) -> None:
        """Nothing to select: memsim emulates one device."""

    def synchronize(self) -> None:
        """Launches finish before they return, so there is nothing to wait for."""

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc) -> None:
        return None


class Stream(Device):
    """cupy.cuda.Stream: launches on any stream run in order, at once."""

    null: "Stream"

    def __init__(self, null: bool = False, non_blocking: bool = False, ptds: bool = False) -> None:
        super().__init__(0)


Stream.null = Stream(null=True)


def _event(*args, **kwargs):
    raise not_mirrored("cuda.Event", "memsim counts memory traffic, it does not time launches: "
                                     "`memsim predict ... --gpu H100` models the time")


runtime = MirrorNamespace("cuda.runtime", {
    "deviceSynchronize": lambda: None,
    "getDeviceCount": lambda: 1,
    "getDevice": lambda: 0,
})

cuda = MirrorNamespace("cuda", {
    "Device": Device, "Stream": Stream, "Event": _event, "runtime": runtime,
    "get_current_stream": lambda device_id=-1: Stream.null,
})

_RANDOM = ("rand", "randn", "random", "randint", "seed", "permutation", "shuffle", "uniform",
           "normal", "standard_normal", "choice")
random = MirrorNamespace("random", {name: numpy_fallback(getattr(np.random, name))
                                    for name in _RANDOM})
