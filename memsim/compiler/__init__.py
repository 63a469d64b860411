"""Stage 2, compiling: CUDA C++ -> PTX with NVRTC, C++ kernel names, the shipped compiles."""
