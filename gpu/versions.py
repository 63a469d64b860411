"""What a measurement was taken with: GPU, driver, CUDA runtime, CuPy, NVRTC, Nsight Compute, date.

Counts such as loop trip counts depend on the NVRTC release, so every recorded measurement
carries these and `validate` shows them next to its verdict.
"""
from __future__ import annotations

import datetime as dt
import re
import subprocess

from pydantic import BaseModel

from .launch import require_cupy

KNOWN_GPUS = re.compile(r"\b([A-Z]?\d{2,4}[A-Z]?)\b")


class Versions(BaseModel):
    gpu: str
    compute_capability: str = ""
    sm_count: int = 0
    l2_bytes: int = 0
    driver: str = ""
    cuda_runtime: str = ""
    cupy: str = ""
    nvrtc: str = ""
    ncu: str = ""
    date: str = ""

    @property
    def slug(self) -> str:
        return gpu_slug(self.gpu)


def gpu_slug(name: str) -> str:
    """A short folder name for a GPU: 'NVIDIA H100 80GB HBM3' -> 'h100'."""
    words = name.replace("NVIDIA", "").replace("GeForce", "").split()
    for word in words:
        if KNOWN_GPUS.fullmatch(word) and not word.endswith("GB"):
            return word.lower()
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "unknown-gpu"


def collect(ncu_version: str = "") -> Versions:
    """Read the versions of the GPU in use (device 0) and of the software around it."""
    cupy = require_cupy()
    runtime = cupy.cuda.runtime
    props = runtime.getDeviceProperties(0)
    nvrtc_major, nvrtc_minor = cupy.cuda.nvrtc.getVersion()
    return Versions(
        gpu=_text(props["name"]),
        compute_capability=f"{props['major']}.{props['minor']}",
        sm_count=int(props["multiProcessorCount"]),
        l2_bytes=int(props["l2CacheSize"]),
        driver=_driver_version() or _cuda_version(runtime.driverGetVersion()),
        cuda_runtime=_cuda_version(runtime.runtimeGetVersion()),
        cupy=cupy.__version__,
        nvrtc=f"{nvrtc_major}.{nvrtc_minor}",
        ncu=ncu_version,
        date=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
    )


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _cuda_version(number: int) -> str:
    """CUDA's integer versions: 13000 -> '13.0'."""
    return f"{number // 1000}.{number % 1000 // 10}"


def _driver_version() -> str:
    """The kernel driver's version (580.159.04) from nvidia-smi; '' where it cannot be read."""
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = done.stdout.strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else ""
