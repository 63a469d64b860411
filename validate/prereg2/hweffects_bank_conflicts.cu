// Pre-registered public kernel (not written for memsim): Kobzol/hardware-effects-gpu
// files: bank-conflicts/bank-conflicts.cu
// commit 1b03fa9816002ba835132a2a34581a7481964e61 (https://github.com/Kobzol/hardware-effects-gpu)
// Licence: MIT (LICENSE.md of the repository, Copyright (c) 2018-2019 Jakub Beranek; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - bank-conflicts/bank-conflicts.cu: only lines 6-32 kept (licence header, the kernels and the device code they use); the rest is host code
// - added before the copied code: uint32_t, which the original takes from the host headers <cstdio>/common.h pulls in
// - #include lines (1-4: <cstdio>, device_launch_parameters.h, ../common.h: host helpers) left out


typedef unsigned int uint32_t;

// ---- from bank-conflicts/bank-conflicts.cu, lines 6-32
#define REPETITIONS 1000
#define MEMORY_SIZE 4096

using Type = uint32_t;

__global__ void kernel(int offset)
{
    __shared__ Type sharedMem[MEMORY_SIZE];

    int threadId = threadIdx.x;

    // init shared memory
    if (threadId == 0)
    {
        for (int i = 0; i < MEMORY_SIZE; i++) sharedMem[i] = 0;
    }
    __syncthreads();

    // repeatedly read and write to shared memory
    uint32_t index = threadId * offset;
    for (int i = 0; i < 10000; i++)
    {
        sharedMem[index] += index * i;
        index += 32;
        index %= MEMORY_SIZE;
    }
}
