// Pre-registered public kernel (not written for memsim): turboderp-org/exllamav2
// what: rotary embeddings in place (NeoX and GPT-J layouts, f16) from sin/cos tables
// files: exllamav2/exllamav2_ext/cuda/quant/qdq_util.cuh, exllamav2/exllamav2_ext/cuda/matrix_view.cuh, exllamav2/exllamav2_ext/cuda/rope.cu
// commit da07facd10b5c7f35b03664c41a3090c9f093de5 (https://github.com/turboderp-org/exllamav2)
// Licence: MIT (the repository's LICENSE; full text in validate/prereg7/LICENSES.md).
//
// Edits (no kernel body changed):
// - only these lines kept: exllamav2/exllamav2_ext/cuda/quant/qdq_util.cuh: lines 4-11; exllamav2/exllamav2_ext/cuda/matrix_view.cuh: lines 9-56, 58-83; exllamav2/exllamav2_ext/cuda/rope.cu: lines 5-144; the includes, the host code and the other kernels left out
// - `#include <cuda_fp16.h>` written first in place of the files' includes; of matrix_view.cuh only the two half views rope.cu uses, of quant/qdq_util.cuh only half2_uint32

#include <cuda_fp16.h>
// ---- written for memsim: <cstdint>'s fixed-width types (NVRTC lacks the header here)
typedef int int32_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;

// ---- from exllamav2/exllamav2_ext/cuda/quant/qdq_util.cuh, lines 4-11
union half2_uint32
{
    uint32_t as_uint32;
    half2 as_half2;
    __device__ half2_uint32(uint32_t val) : as_uint32(val) {}
    __device__ half2_uint32(half2 val) : as_half2(val) {}
    __device__ half2_uint32() : as_uint32(0) {}
};

// ---- from exllamav2/exllamav2_ext/cuda/matrix_view.cuh, lines 9-56
class MatrixView_half
{
public:
    const half* data;
    const int height;
    const int width;

    __device__ __forceinline__ MatrixView_half(const half* data, const int height, const int width)
        : data(data), height(height), width(width)
    { }

    __device__ __forceinline__ half item(int row, int column) const { return data[row * width + column]; }
    __device__ __forceinline__ half2 item_half2(int row, int column) const { return ((half2*)data)[(row * width + column) / 2]; }
    __device__ __forceinline__ half2 item_half2half2(int row, int column) const { return __half2half2(data[row * width + column]); }
    __device__ __forceinline__ const half* item_ptr(int row, int column) const { return &data[row * width + column]; }

    __device__ __forceinline__ void item4(half (&items)[4], int row, int column) const
    {
        half2* ptr = (half2*) item_ptr(row, column);
        half2 i01 = ptr[0];
        half2 i23 = ptr[1];
        items[0] = __low2half(i01);
        items[1] = __high2half(i01);
        items[2] = __low2half(i23);
        items[3] = __high2half(i23);
    }
    __device__ __forceinline__ void item4_f(float (&items)[4], int row, int column) const
    {
        half2* ptr = (half2*)item_ptr(row, column);
        half2 i01 = ptr[0];
        half2 i23 = ptr[1];
        items[0] = __half2float(__low2half(i01));
        items[1] = __half2float(__high2half(i01));
        items[2] = __half2float(__low2half(i23));
        items[3] = __half2float(__high2half(i23));
    }

    __device__ __forceinline__ void item4_h2(half2 (&items)[4], int row, int column) const
    {
        half2* ptr = (half2*)item_ptr(row, column);
        half2 i01 = ptr[0];
        half2 i23 = ptr[1];
        items[0] = __half2half2(__low2half(i01));
        items[1] = __half2half2(__high2half(i01));
        items[2] = __half2half2(__low2half(i23));
        items[3] = __half2half2(__high2half(i23));
    }
};

// ---- from exllamav2/exllamav2_ext/cuda/matrix_view.cuh, lines 58-83
class MatrixView_half_rw
{
public:
    half* data;
    const int height;
    const int width;

    __device__ __forceinline__ MatrixView_half_rw(half* data, const int height, const int width)
        : data(data), height(height), width(width)
    { }

    __device__ __forceinline__ half item(int row, int column) const { return data[row * width + column]; }
    __device__ __forceinline__ half2 item_half2(int row, int column) const { return ((half2*)data)[(row * width + column) / 2]; }
    __device__ __forceinline__ half* item_ptr(int row, int column) { return &data[row * width + column]; }
    __device__ __forceinline__ void set(int row, int column, half value) { data[row * width + column] = value; }
    __device__ __forceinline__ void set_half2(int row, int column, half2 value) { ((half2*)data)[(row * width + column) / 2] = value; }

    __device__ __forceinline__ void set4(int row, int column, half v0, half v1, half v2, half v3)
    {
        half2 v01 = __halves2half2(v0, v1);
        half2 v23 = __halves2half2(v2, v3);
        half2* ptr = (half2*) item_ptr(row, column);
        ptr[0] = v01;
        ptr[1] = v23;
    }
};

// ---- from exllamav2/exllamav2_ext/cuda/rope.cu, lines 5-144
const int THREADS_X = 32;
const int THREADS_Y = 4;
const int MAX_POS_EMBEDDINGS = 32768;   // Actual number doesn't matter
const int MAX_ROWS = 32768;             // Actual number doesn't matter

__forceinline__ __device__ void rope_cuda_arr_neox
(
    half* __restrict__ x,
    const half* __restrict__ sin,
    const half* __restrict__ cos,
    int rows_per_batch,
    int head_dim,
    int num_heads,
    int past_len,
    const int32_t* __restrict__ past_lens,
    int threads_y,
    int sincos_size
)
{
    MatrixView_half_rw x_(x, MAX_ROWS, head_dim);
    MatrixView_half sin_(sin, MAX_POS_EMBEDDINGS, sincos_size);
    MatrixView_half cos_(cos, MAX_POS_EMBEDDINGS, sincos_size);

    int column = (blockIdx.x * THREADS_X + threadIdx.x) * 2;
    int half_dim = sincos_size / 2;
    if (column >= half_dim) return;

    int row = blockIdx.y * threads_y + threadIdx.y;
    if (row >= rows_per_batch) return;
    int batch_offset = blockIdx.z * rows_per_batch;
    int row_offset = batch_offset + row;

    // Get sin and cos

    if (past_len == -1)
    {
        past_len = past_lens[blockIdx.z];
        past_len = max(past_len, 0);
    }
    else if (past_lens)
    {
        past_len += past_lens[blockIdx.z];
    }

    int sincos_row = past_len + row / num_heads;
    sincos_row = max(sincos_row, 0);

    half2 cos2_l = cos_.item_half2(sincos_row, column);
    half2 cos2_r = cos2_l; //cos_.item_half2(sincos_row, column + half_dim);
    half2 sin2_l = sin_.item_half2(sincos_row, column);
    half2 sin2_r = sin2_l; // sin_.item_half2(sincos_row, column + half_dim);
    sin2_l = __hneg2(sin2_l);

    // Apply embedding to row

    half2 item2_l = x_.item_half2(row_offset, column);
    half2 item2_r = x_.item_half2(row_offset, column + half_dim);
    half2 item2_ls = __hmul2(item2_r, sin2_l);
    half2 item2_rs = __hmul2(item2_l, sin2_r);
    item2_l = __hfma2(item2_l, cos2_l, item2_ls);
    item2_r = __hfma2(item2_r, cos2_r, item2_rs);
    x_.set_half2(row_offset, column, item2_l);
    x_.set_half2(row_offset, column + half_dim, item2_r);
}

__forceinline__ __device__ void rope_cuda_arr_gptj
(
    half* __restrict__ x,
    const half* __restrict__ sin,
    const half* __restrict__ cos,
    int rows_per_batch,
    int head_dim,
    int num_heads,
    int past_len,
    const int32_t* __restrict__ past_lens,
    int threads_y,
    int sincos_size
)
{
    MatrixView_half_rw x_(x, MAX_ROWS, head_dim);
    MatrixView_half sin_(sin, MAX_POS_EMBEDDINGS, sincos_size);
    MatrixView_half cos_(cos, MAX_POS_EMBEDDINGS, sincos_size);

    int column = (blockIdx.x * THREADS_X + threadIdx.x) * 2;
    if (column >= sincos_size) return;

    int row = blockIdx.y * threads_y + threadIdx.y;
    if (row >= rows_per_batch) return;
    int batch_offset = blockIdx.z * rows_per_batch;
    int row_offset = batch_offset + row;

    // Get sin and cos

    if (past_len == -1)
    {
        past_len = past_lens[blockIdx.z];
        past_len = max(past_len, 0);
    }
    else if (past_lens)
    {
        past_len += past_lens[blockIdx.z];
    }

    int sincos_row = past_len + row / num_heads;
    sincos_row = max(sincos_row, 0);

    half2 cos_01 = cos_.item_half2(sincos_row, column);   // cos[i], cos[i+1]
    half2_uint32 sin_01_ = half2_uint32(sin_.item_half2(sincos_row, column));
    sin_01_.as_uint32 ^= (1<<15);
    half2 sin_01 = sin_01_.as_half2;  // -sin[i], sin[i + 1]

    // Apply embedding to row

    half2 x_01 = x_.item_half2(row_offset, column);  // x[i], x[i+1]
    half2 x_10 = __lowhigh2highlow(x_01);  // x[i+1], x[i]
    half2 r = __hmul2(x_01, cos_01);
    r = __hfma2(x_10, sin_01, r);
    x_.set_half2(row_offset, column, r);
}

__global__ void rope_cuda_kernel
(
    half* __restrict__ x,
    const half* __restrict__ sin,
    const half* __restrict__ cos,
    int rows_per_batch,
    int head_dim,
    int num_heads,
    int past_len,
    const int32_t* __restrict__ past_lens,
    int threads_y,
    const bool neox_style,
    int sincos_size
)
{
    if (neox_style)
        rope_cuda_arr_neox(x, sin, cos, rows_per_batch, head_dim, num_heads, past_len, past_lens, threads_y, sincos_size);
    else
        rope_cuda_arr_gptj(x, sin, cos, rows_per_batch, head_dim, num_heads, past_len, past_lens, threads_y, sincos_size);
}
