"""The Triton release memsim compiles with, checked once, and the target it compiles for.

Triton is pinned to the GPU machine's release (3.6.0): its compiler and the ptxas it bundles
decide the cubin, so the same release on both sides gives the same SASS (as NVRTC is pinned for
CUDA C). Triton compiles for a GPUTarget without a GPU: sm_90, the H100's.
"""
from __future__ import annotations

import functools
import importlib.metadata
from types import ModuleType

from ..errors import MemsimError

TRITON_RELEASE = "3.6.0"
INSTALL_HINT = "pip install -e '.[triton]' (or pip install triton==3.6.0)"
ARCH = 90
WARP_SIZE = 32


class TritonMissing(MemsimError, ImportError):
    """Triton is not installed, or not the pinned release (an ImportError too, so that
    pytest.importorskip and `except ImportError` see it)."""


@functools.cache
def require_triton() -> ModuleType:
    """The triton package, if it is the pinned release; TritonMissing (one line) otherwise."""
    try:
        installed = importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        raise TritonMissing(f"memsim.triton needs Triton {TRITON_RELEASE}, which is not installed: "
                            f"{INSTALL_HINT}") from None
    if installed != TRITON_RELEASE:
        raise TritonMissing(f"memsim.triton needs Triton {TRITON_RELEASE} (the GPU side's release: the "
                            f"compiler decides the SASS), found {installed}: {INSTALL_HINT}")
    import triton

    return triton


def target():
    """Triton's GPUTarget for the H100 (sm_90, 32-lane warps)."""
    from triton.backends.compiler import GPUTarget

    return GPUTarget("cuda", ARCH, WARP_SIZE)
