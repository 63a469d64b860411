// Pre-registered public kernel (not written for memsim): Kobzol/hardware-effects-gpu
// files: memory-coalescing/memory-coalescing.cu
// commit 1b03fa9816002ba835132a2a34581a7481964e61 (https://github.com/Kobzol/hardware-effects-gpu)
// Licence: MIT (LICENSE.md of the repository, Copyright (c) 2018-2019 Jakub Beranek; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - memory-coalescing/memory-coalescing.cu: only lines 6-23 kept (licence header, the kernels and the device code they use); the rest is host code
// - added before the copied code: uint32_t, which the original takes from the host headers <cstdio>/common.h pulls in
// - #include lines (1-4: <cstdio>, device_launch_parameters.h, ../common.h: host helpers) left out


typedef unsigned int uint32_t;

// ---- from memory-coalescing/memory-coalescing.cu, lines 6-23
#define REPETITIONS 1000
#define MEMORY_SIZE 4096

using Type = uint32_t;

__global__ void kernel(Type* memory, int startOffset, int moveOffset)
{
    int threadId = threadIdx.x;

    // repeatedly read and write to global memory
    uint32_t index = threadId * startOffset;
    for (int i = 0; i < 4000; i++)
    {
        memory[index] += index * i;
        index += moveOffset;
        index %= MEMORY_SIZE;
    }
}
