// Planted out-of-bounds and misaligned accesses for `memsim check --tool memcheck`.

// The grid has more threads than the buffer elements and there is no bounds check.
extern "C" __global__ void mem_oob_global_write(float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = (float)t;
}

// Reading one element past the end (the next allocation starts 512 bytes on: this one's
// padding, which compute-sanitizer knows is not the buffer's).
extern "C" __global__ void mem_oob_global_read(const float* in, float* out, int n) {
    int t = threadIdx.x;
    out[t] = in[t] + in[t + (t == n - 1 ? 1 : 0)];
}

// A float4 load from an address `offset` floats past a 16-byte boundary.
extern "C" __global__ void mem_misaligned_vector(const float* in, float* out, int offset) {
    int t = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in + offset)[t];
    out[t] = v.x + v.w;
}

// A shared array indexed past its end by an offset that only the launch knows.
extern "C" __global__ void mem_oob_shared(const float* in, float* out, int offset) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[t + offset];
}

// An int read from a shared address 2 bytes into a word.
extern "C" __global__ void mem_misaligned_shared(const int* in, float* out) {
    __shared__ int s[65];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    const int* p = reinterpret_cast<const int*>(reinterpret_cast<const char*>(s) + 2);
    out[t] = (float)p[t];
}

// Thread 0 reads the element before the buffer.
extern "C" __global__ void mem_oob_negative_index(const float* in, float* out) {
    int t = threadIdx.x;
    out[t] = in[t - 1];
}

// A shared array written past its end by an offset that only the launch knows.
extern "C" __global__ void mem_oob_shared_write(const float* in, float* out, int offset) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t + offset] = in[t];
    __syncthreads();
    out[t] = s[t];
}
