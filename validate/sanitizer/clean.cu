// Correct kernels that every tool must pass with 0 errors (written for memsim).
#define N 256

// Tiled transpose with its barrier (block 32x8).
extern "C" __global__ void ok_transpose_tiled(const float* in, float* out, int n) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Tree reduction with a barrier after every step.
extern "C" __global__ void ok_reduce_synced(const float* in, float* out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * N + t];
    __syncthreads();
    for (int stride = N / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// Warp-synchronous tail made correct with __syncwarp between the steps.
extern "C" __global__ void ok_warp_tail_syncwarp(const float* in, float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t] + in[t + 64];
    __syncthreads();
    if (t < 32) {
        float v = s[t];
        for (int off = 32; off > 0; off >>= 1) {
            v += s[t + off < 64 ? t + off : t] * (t + off < 64 ? 1.0f : 0.0f);
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0) out[0] = s[0];
}

// Warp shuffles: no shared memory at all.
extern "C" __global__ void ok_shfl_reduce(const float* in, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[t];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) out[t / 32] = v;
}

// A shared histogram built with atomics, barriers around it.
extern "C" __global__ void ok_histogram_atomics(const int* keys, int* hist) {
    __shared__ int bins[16];
    int t = threadIdx.x;
    if (t < 16) bins[t] = 0;
    __syncthreads();
    atomicAdd(&bins[keys[blockIdx.x * blockDim.x + t] & 15], 1);
    __syncthreads();
    if (t < 16) atomicAdd(&hist[t], bins[t]);
}

// A tile reused by a loop with both barriers.
extern "C" __global__ void ok_loop_two_syncs(const float* in, float* out) {
    __shared__ float s[N];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < 4; ++k) {
        s[t] = in[k * N + t];
        __syncthreads();
        acc += s[N - 1 - t];
        __syncthreads();
    }
    out[t] = acc;
}

// A 1-D stencil with halo cells loaded by the edge threads.
extern "C" __global__ void ok_stencil_halo(const float* in, float* out, int n) {
    __shared__ float s[N + 2];
    int g = blockIdx.x * N + threadIdx.x, t = threadIdx.x + 1;
    s[t] = in[g];
    if (threadIdx.x == 0) s[0] = g > 0 ? in[g - 1] : 0.0f;
    if (threadIdx.x == N - 1) s[N + 1] = g + 1 < n ? in[g + 1] : 0.0f;
    __syncthreads();
    out[g] = s[t - 1] + s[t] + s[t + 1];
}

// Hillis-Steele scan, double-buffered, a barrier per step.
extern "C" __global__ void ok_scan_double_buffer(const float* in, float* out) {
    __shared__ float s[2][N];
    int t = threadIdx.x, cur = 0;
    s[0][t] = in[t];
    __syncthreads();
    for (int off = 1; off < N; off <<= 1) {
        float v = s[cur][t];
        if (t >= off) v += s[cur][t - off];
        s[1 - cur][t] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    out[t] = s[cur][t];
}

// A value broadcast from thread 0 through shared memory, with the barrier.
extern "C" __global__ void ok_broadcast(const float* in, float* out) {
    __shared__ float total;
    int t = threadIdx.x;
    if (t == 0) total = in[0];
    __syncthreads();
    out[t] = in[t] / total;
}

// Scratch written by each thread, then read by the same thread (initialised before its read).
extern "C" __global__ void ok_scratch_own_element(const float* in, float* scratch, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    scratch[t] = in[t] * 3.0f;
    out[t] = scratch[t] + 1.0f;
}

// Tiled matrix multiply, 16x16 tiles, both barriers.
extern "C" __global__ void ok_matmul_tiled(const float* a, const float* b, float* c, int n) {
    __shared__ float as[16][16], bs[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < n; k += 16) {
        as[threadIdx.y][threadIdx.x] = a[row * n + k + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(k + threadIdx.y) * n + col];
        __syncthreads();
        for (int j = 0; j < 16; ++j) acc += as[threadIdx.y][j] * bs[j][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

// Early exit of whole threads before a barrier the remaining ones all reach: legal (exited
// threads do not count), with a grid-stride guard.
extern "C" __global__ void ok_guarded_vector_add(const float* a, const float* b, float* c, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}
