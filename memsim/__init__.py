"""memsim: predict Nsight Compute's memory counters of a CUDA kernel without a GPU."""
__version__ = "0.1.0"
