"""memsim: predict Nsight Compute's memory counters of a CUDA kernel without a GPU."""
from .engine import shipped_code as _shipped_code

_shipped_code.select_cpu()   # before any module below makes Numba create its code generator
from .errors import MemsimError
from .launch import LaunchSpec
from .report import KernelReport
from .prediction import predict, predict_spec
from .engine.simulation import register_python_kernels as _register_python_kernels, simulate, simulate_spec
from .numba_cuda import simulate_kernel as _simulate_numba_kernel
from .warp_trace import trace_pictures
from .sanitizer import check, check_spec
from .views import notebook as _notebook

_register_python_kernels(_simulate_numba_kernel)   # simulate(@cuda.jit kernel, ...): the engine imports no front end
_notebook.register()   # in IPython: reports and findings display as HTML tables

__version__ = "0.1.0"
__all__ = ["simulate", "simulate_spec", "predict", "predict_spec", "check", "check_spec", "trace_pictures", "KernelReport",
           "LaunchSpec", "MemsimError"]
