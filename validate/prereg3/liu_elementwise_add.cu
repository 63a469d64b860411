// Pre-registered public kernel (not written for memsim): Liu-xiandong/How_to_optimize_in_GPU
// files: elementwise/elementwise_add.cu
// commit 5d2def3e082c4e1364c3ade54451b7b9d1d6f044 (https://github.com/Liu-xiandong/How_to_optimize_in_GPU)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg3/LICENSES.md).
//
// Edits (no kernel body changed):
// - elementwise/elementwise_add.cu: only lines 8-43 kept (the kernels and the device code and macros they use); the rest is host code

// ---- from elementwise/elementwise_add.cu, lines 8-43
#define THREAD_PER_BLOCK 256

// transfer vector
#define FETCH_FLOAT2(pointer) (reinterpret_cast<float2*>(&(pointer))[0])
#define FETCH_FLOAT4(pointer) (reinterpret_cast<float4*>(&(pointer))[0])

__global__ void add(float* a, float* b, float* c)
{
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    c[idx] = a[idx] + b[idx];
}
__global__ void vec2_add(float* a, float* b, float* c)
{
    int idx = (threadIdx.x + blockIdx.x * blockDim.x)*2;
    //c[idx] = a[idx] + b[idx];
    float2 reg_a = FETCH_FLOAT2(a[idx]);
    float2 reg_b = FETCH_FLOAT2(b[idx]);
    float2 reg_c;
    reg_c.x = reg_a.x + reg_b.x;
    reg_c.y = reg_a.y + reg_b.y;
    FETCH_FLOAT2(c[idx]) = reg_c;
}

__global__ void vec4_add(float* a, float* b, float* c)
{
    int idx = (threadIdx.x + blockIdx.x * blockDim.x)*4;
    //c[idx] = a[idx] + b[idx];
    float4 reg_a = FETCH_FLOAT4(a[idx]);
    float4 reg_b = FETCH_FLOAT4(b[idx]);
    float4 reg_c;
    reg_c.x = reg_a.x + reg_b.x;
    reg_c.y = reg_a.y + reg_b.y;
    reg_c.z = reg_a.z + reg_b.z;
    reg_c.w = reg_a.w + reg_b.w;
    FETCH_FLOAT4(c[idx]) = reg_c;
}
