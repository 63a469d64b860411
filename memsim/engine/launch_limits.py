"""The launches a GPU refuses, refused as its CUDA driver refuses them: one line naming the
driver's error, the limit and where the limit comes from (the GPU's profile, never this code).

A GPU runs nothing of a launch it refuses, so neither does memsim: the geometry, the dynamic
shared memory and the buffers are checked before anything is compiled or allocated; the
registers and the static shared memory, which only the compiled kernel knows, before it runs.
"""
from __future__ import annotations

from ..errors import LaunchError
from ..gpus import GpuProfile

INVALID_CONFIGURATION = "cudaErrorInvalidConfiguration"
OUT_OF_RESOURCES = "cudaErrorLaunchOutOfResources"
INVALID_VALUE = "cudaErrorInvalidValue"
OUT_OF_MEMORY = "cudaErrorMemoryAllocation"
AXES = "xyz"


def _refuse(error: str, what: str, profile: GpuProfile) -> LaunchError:
    return LaunchError(f"{error}: {what} on the {profile.name} (as its CUDA driver refuses the launch)")


def check_geometry(grid: tuple[int, int, int], block: tuple[int, int, int], profile: GpuProfile) -> None:
    """Grid and block dimensions and threads per block within the GPU's limits."""
    limits = profile.limits
    for name, shape, most in (("grid", grid, limits.max_grid_dims), ("block", block, limits.max_block_dims)):
        for axis, size, limit in zip(AXES, shape, most):
            if size > limit:
                raise _refuse(INVALID_CONFIGURATION, f"{name}.{axis} = {size:,} is over the limit of {limit:,}",
                              profile)
    threads = block[0] * block[1] * block[2]
    if threads > profile.occupancy.max_threads_per_block:
        raise _refuse(INVALID_CONFIGURATION, f"a block of {threads:,} threads is over the limit of "
                      f"{profile.occupancy.max_threads_per_block:,} threads per block", profile)


def check_shared(static_bytes: int, dynamic_bytes: int, profile: GpuProfile) -> None:
    """Static plus dynamic shared memory within what one block may opt in to."""
    if dynamic_bytes < 0:
        raise LaunchError("shared_mem (--shared-mem) must be >= 0")
    most = profile.occupancy.shared_per_block_bytes
    if static_bytes + dynamic_bytes > most:
        raise _refuse(INVALID_VALUE, f"{static_bytes:,} bytes of static and {dynamic_bytes:,} of dynamic "
                      f"shared memory are over the {most:,} bytes one block may use", profile)


def check_registers(registers: int | None, threads: int, profile: GpuProfile) -> None:
    """The block's registers (allocated per warp, in the GPU's allocation unit) within the
    register file one block may use. `registers` per thread: the cubin's; None: unknown."""
    if not registers:
        return
    unit = profile.occupancy.register_allocation_unit
    per_warp = -(-registers * profile.warp_size // unit) * unit
    needed = per_warp * -(-threads // profile.warp_size)
    if needed > profile.limits.registers_per_block:
        raise _refuse(OUT_OF_RESOURCES, f"{threads:,} threads of {registers} registers each need {needed:,} "
                      f"registers, over the {profile.limits.registers_per_block:,} of one block "
                      f"(fewer threads per block, or __launch_bounds__ / -maxrregcount)", profile)


def check_launch_bounds(max_threads: int | None, block_shape: tuple[int, ...] | None,
                        block: tuple[int, int, int], profile: GpuProfile) -> None:
    """The block within the kernel's own bounds: __launch_bounds__' most threads (PTX .maxntid)
    and a required shape (.reqntid), which ptxas compiled the kernel for."""
    threads = block[0] * block[1] * block[2]
    if max_threads is not None and threads > max_threads:
        raise _refuse(INVALID_VALUE, f"a block of {threads:,} threads is over the kernel's __launch_bounds__ "
                      f"of {max_threads:,} threads", profile)
    if block_shape is not None and tuple(block[:len(block_shape)]) != tuple(block_shape):
        raise _refuse(INVALID_VALUE, f"block {block} is not the {tuple(block_shape)} the kernel requires (.reqntid)",
                      profile)


def check_buffer_bytes(nbytes: int, profile: GpuProfile) -> None:
    """The launch's buffers within the GPU's memory (a cudaMalloc beyond it fails)."""
    if nbytes > profile.dram.size_bytes:
        raise _refuse(OUT_OF_MEMORY, f"{nbytes / 2**30:,.1f} GiB of buffers do not fit in its "
                      f"{profile.dram.size_bytes / 2**30:,.1f} GiB of memory", profile)
