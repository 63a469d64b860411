// Planted barrier misuse for `memsim check --tool synccheck` (written for memsim).

// __syncthreads inside a branch half of a warp takes.
extern "C" __global__ void sync_divergent_if(const float* in, float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t < 16) __syncthreads();
    out[t] = s[63 - t];
}

// Two different __syncthreads on the two sides of a branch inside each warp.
extern "C" __global__ void sync_if_else_barriers(const float* in, float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t & 1) {
        __syncthreads();
        out[t] = s[63 - t];
    } else {
        __syncthreads();
        out[t] = -s[63 - t];
    }
}

// A data-dependent trip count around a barrier: lanes of one warp loop different times.
extern "C" __global__ void sync_loop_trip_count(const int* trips, float* out) {
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = 0; i < trips[t]; ++i) {
        acc += 1.0f;
        __syncthreads();
    }
    out[t] = acc;
}

// A barrier only warp 0's first lane reaches, the rest of the block skips it.
extern "C" __global__ void sync_single_thread_barrier(float* out) {
    int t = threadIdx.x;
    if (t == 0) __syncthreads();
    out[t] = (float)t;
}

// Divergence that depends on the data: each lane decides from its own input.
extern "C" __global__ void sync_data_dependent_branch(const int* flags, float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = (float)t;
    if (flags[t] > 0) __syncthreads();
    out[t] = s[63 - t];
}

// __syncwarp with a mask that leaves out half of the lanes that call it.
extern "C" __global__ void sync_syncwarp_bad_mask(float* out) {
    int t = threadIdx.x;
    __syncwarp(0x0000ffffu);
    out[t] = (float)t;
}

// __syncthreads_count reached by part of the second warp only.
extern "C" __global__ void sync_count_divergent(float* out) {
    int t = threadIdx.x, n = 0;
    if (t < 40) n = __syncthreads_count(t & 1);
    out[t] = (float)n;
}
