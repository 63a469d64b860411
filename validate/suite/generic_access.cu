// Generic-address loads and stores (LD.E / ST.E, not LDG/LDS): what ncu counts for them.
// A pointer that passed through an integer has lost its address space, so ptxas must issue the
// generic form; `sel` picks per launch whether the generic pointer lands in global memory, in
// shared memory (the shared window: S2R SR_SWINHI), or in either by lane parity.
#define N_SHARED 2048

extern "C" __global__ void k_generic_ld(float* out, const float* in, unsigned long long zero, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = reinterpret_cast<const float*>(reinterpret_cast<unsigned long long>(in) + zero);
    out[i] = p[i * stride];
}

extern "C" __global__ void k_generic_st(float* out, const float* in, unsigned long long zero, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* p = reinterpret_cast<float*>(reinterpret_cast<unsigned long long>(out) + zero);
    p[i * stride] = in[i];
}

extern "C" __global__ void k_generic_shared(float* out, float* g, int sel, int stride) {
    __shared__ float s[N_SHARED];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    for (int k = t; k < N_SHARED; k += blockDim.x) s[k] = g[k];
    __syncthreads();
    float* p = sel == 0 ? s : sel == 1 ? g : ((t & 1) ? s : g);
    int k = (t * stride) % N_SHARED;
    float v = p[k];
    __syncthreads();
    p[(k + 1) % N_SHARED] = v + 1.0f;
    __syncthreads();
    out[i] = v + s[t];
}
