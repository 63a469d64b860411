"""Triton kernels on memsim, without a GPU: `import memsim.triton`, then launch an unchanged
@triton.jit kernel as usual, `kernel[grid](x, y, out, n, BLOCK=1024)`, with numpy arrays (or
torch CPU tensors).

Importing this module checks for the pinned Triton release (3.6.0; TritonMissing, one line,
otherwise) and routes every JITFunction launch to memsim (install(); uninstall() restores
Triton's launcher). Each launch compiles the kernel as Triton's launcher would for the H100
(sm_90, the same specialization, num_warps, num_stages, constexprs), runs its cubin on the SASS
engine (exact counters, per line of the Python source), writes the results back into the arrays
and keeps its KernelReport: reports(). `memsim predict kernels.py --kernel NAME ...` runs one
from the command line (memsim.triton._spec); run_output_code(path) runs the output code
Inductor writes for a torch.compile'd graph (memsim.triton._inductor).
"""
from ._toolchain import TRITON_RELEASE, TritonMissing, require_triton

require_triton()

from ._compile import TritonKernel, compile_kernel  # noqa: E402
from ._launcher import clear_reports, install, launch, reports, uninstall  # noqa: E402
from ._spec import triton_spec  # noqa: E402
from ._inductor import InductorLaunch, InductorRun, run_output_code  # noqa: E402

install()

__all__ = ["TRITON_RELEASE", "TritonMissing", "TritonKernel", "compile_kernel", "launch", "install",
           "uninstall", "reports", "clear_reports", "triton_spec", "run_output_code", "InductorLaunch", "InductorRun"]
