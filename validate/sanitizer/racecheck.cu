// Planted shared-memory races for `memsim check --tool racecheck` (written for memsim; the
// verdicts are compute-sanitizer's on an H100: validate/data/h100/sanitizer.json).
#define N 256

// RAW across and within warps: each thread reads its neighbour's element, no barrier.
extern "C" __global__ void race_raw_neighbour(const float* in, float* out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[(t + 1) % N];
}

// WAR: every thread reads a far element, then overwrites its own without a barrier.
extern "C" __global__ void race_war_overwrite(const float* in, float* out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    float v = s[(t + 64) % N];
    s[t] = v * 2.0f;
    __syncthreads();
    out[t] = s[t];
}

// WAW: every thread writes its id to one word.
extern "C" __global__ void race_waw_one_word(float* out) {
    __shared__ int s[1];
    int t = threadIdx.x;
    s[0] = t;
    __syncthreads();
    out[t] = s[0];
}

// RAW between two warps only: lane t reads lane t of the other warp.
extern "C" __global__ void race_cross_warp(const float* in, float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[t ^ 32];
}

// RAW inside one warp (a block of 32 threads), no __syncwarp.
extern "C" __global__ void race_intra_warp(const float* in, float* out) {
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[31 - t];
}

// A tile reused by a loop without the barrier at the end of each step: WAR between steps.
extern "C" __global__ void race_loop_missing_second_sync(const float* in, float* out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < 4; ++k) {
        s[t] = in[k * N + t];
        __syncthreads();
        acc += s[N - 1 - t];
    }
    out[t] = acc;
}

// A tree reduction with no barrier between its steps.
extern "C" __global__ void race_reduction_no_sync(const float* in, float* out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = N / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
    }
    if (t == 0) out[0] = s[0];
}

// The old warp-synchronous tail without volatile or __syncwarp.
extern "C" __global__ void race_warp_tail_no_syncwarp(const float* in, float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t] + in[t + 64];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0) out[0] = s[0];
}

// A 32x32 tiled transpose with its barrier left out (block 32x8, 4 rows a thread).
extern "C" __global__ void race_transpose_no_sync(const float* in, float* out, int n) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// One writer, one reader in another warp: a single hazard.
extern "C" __global__ void race_single_pair(float* out) {
    __shared__ float s[1];
    int t = threadIdx.x;
    if (t == 0) s[0] = 1.0f;
    if (t == 64) out[0] = s[0];
}

// Shared atomics, then a plain read of their word without a barrier.
extern "C" __global__ void race_atomic_then_read(float* out) {
    __shared__ int s[1];
    int t = threadIdx.x;
    if (t == 0) s[0] = 0;
    __syncthreads();
    atomicAdd(&s[0], 1);
    if (t == 200) out[0] = (float)s[0];
}

// Every thread reads a broadcast word, then thread 0 overwrites it without a barrier.
extern "C" __global__ void race_broadcast_then_overwrite(const float* in, float* out) {
    __shared__ float s[1];
    int t = threadIdx.x;
    if (t == 0) s[0] = in[0];
    __syncthreads();
    out[t] = s[0] * (float)t;
    if (t == 0) s[0] = 0.0f;
    __syncthreads();
    if (t == 1) out[0] = s[0];
}

// An in-place Hillis-Steele scan: each step reads a neighbour that another thread updates in
// the same step (barriers only between the steps).
extern "C" __global__ void race_scan_in_place(const float* in, float* out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int off = 1; off < N; off <<= 1) {
        if (t >= off) s[t] += s[t - off];
        __syncthreads();
    }
    out[t] = s[t];
}
