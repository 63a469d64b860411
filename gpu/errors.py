"""Errors of the hardware side, each a one-line MemsimError so CLIs print it without a traceback."""
from memsim.errors import MemsimError


class GPUUnavailable(MemsimError):
    """No usable GPU, CuPy or Nsight Compute here (or no permission to read the counters)."""


class ProfilerError(MemsimError):
    """Nsight Compute ran but its output could not be read or matched to the launched cases."""


def one_line(exc: BaseException) -> str:
    """The first line of an exception's message (CuPy's compile errors carry the whole log)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
