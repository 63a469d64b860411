// Planted reads of memory never written, for `memsim check --tool initcheck` (written for
// memsim). Buffers given as `:empty` are allocated and never written before the launch.

// Every thread reads an element of a buffer nobody wrote.
extern "C" __global__ void init_read_empty(const float* in, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[t] * 2.0f;
}

// Half of a scratch buffer is written, then all of it is read.
extern "C" __global__ void init_half_written(float* scratch, float* out) {
    int t = threadIdx.x;
    if (t < 128) scratch[t] = (float)t;
    __syncthreads();
    out[t] = scratch[t];
}

// Only one thread of each warp reads the unwritten buffer.
extern "C" __global__ void init_sparse_reads(const float* in, float* out) {
    int t = threadIdx.x;
    if (t % 32 == 0) out[t / 32] = in[t];
}

// Accumulating into an output that was never set: out[t] += ...
extern "C" __global__ void init_accumulate_into_empty(const float* in, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] += in[t];
}

// A 16-byte vector load of an unwritten buffer.
extern "C" __global__ void init_vector_load(const float4* in, float* out) {
    int t = threadIdx.x;
    float4 v = in[t];
    out[t] = v.x + v.y + v.z + v.w;
}

// A one-byte load of an unwritten buffer.
extern "C" __global__ void init_byte_load(const unsigned char* in, float* out) {
    int t = threadIdx.x;
    out[t] = (float)in[t];
}

// An atomic add to a counter nobody initialised.
extern "C" __global__ void init_atomic_counter(int* counter, float* out) {
    int t = threadIdx.x;
    int old = atomicAdd(counter, 1);
    out[t] = (float)old;
}

// A stencil whose halo element was never written (the last thread reads one past what was set).
extern "C" __global__ void init_stencil_halo(float* scratch, float* out) {
    int t = threadIdx.x;
    scratch[t] = (float)t;
    __syncthreads();
    out[t] = scratch[t] + scratch[t + 1];
}

// A shared tile read before any thread wrote it (compute-sanitizer's initcheck watches global
// memory only; memsim reports it with --initcheck-shared).
extern "C" __global__ void init_shared_tile_unwritten(float* out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    out[t] = s[t];
}

// A shared tile only half filled, then read whole.
extern "C" __global__ void init_shared_half_filled(const float* in, float* out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    if (t < 64) s[t] = in[t];
    __syncthreads();
    out[t] = s[127 - t];
}

// Only the even elements of a scratch buffer are written; each thread reads an odd one.
extern "C" __global__ void init_strided_write(float* scratch, float* out) {
    int t = threadIdx.x;
    scratch[2 * t] = (float)t;
    __syncthreads();
    out[t] = scratch[2 * t + 1];
}

// A float2 whose .x is written and whose .y is read.
extern "C" __global__ void init_struct_half(float2* pairs, float* out) {
    int t = threadIdx.x;
    pairs[t].x = (float)t;
    __syncthreads();
    out[t] = pairs[t].y;
}
