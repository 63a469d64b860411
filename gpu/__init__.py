"""The real-hardware side of memsim: run LaunchSpecs on a CUDA GPU with CuPy, time them with CUDA
events and read their Nsight Compute counters, so `validate` can hold the simulator to the
hardware. Every module imports CuPy lazily: without a GPU they load and raise GPUUnavailable.
"""
