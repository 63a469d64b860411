"""Errors a user can cause. Each carries a one-line message; the CLI prints it and exits 2."""


class MemsimError(Exception):
    """Base of every error memsim reports to a user (never shown as a traceback)."""


class CompileError(MemsimError):
    """NVRTC rejected the source; the message holds its log (file:line: error)."""


class PTXError(MemsimError):
    """The PTX text could not be parsed."""


class UnsupportedInstruction(MemsimError):
    """The emulator has no semantics for an instruction (names the opcode and source line)."""


class LaunchError(MemsimError):
    """Bad launch: unknown kernel, wrong argument count or type, bad geometry."""


class MemoryFault(MemsimError):
    """Out-of-bounds or misaligned access, reported like compute-sanitizer. `site` holds what
    `memsim check --tool memcheck` prints (memsim.engine.faults.describe fills it): kind
    ("out_of_bounds", "misaligned", "read_only"), access ("read"/"write"), space, size, address,
    thread and block (x, y, z), line, pc, and `nearest` (the allocation's wording)."""

    def __init__(self, message: str, site: dict | None = None):
        super().__init__(message)
        self.site = site or {}


class BudgetExceeded(MemsimError):
    """The kernel ran past the instruction budget (an endless loop, or a launch far too large)."""


class CatalogError(MemsimError):
    """Unknown catalog kernel or bad catalog parameter."""
