// Pre-registered public kernel (not written for memsim): viennacl/viennacl-dev
// ViennaCL's CUDA backend: a matrix transpose, row-major GEMV and transposed GEMV, the 16 x 16
// tiled GEMM, inner product, norms and arg-max reductions, the three-kernel scan and ELL sparse
// matrix-vector product; copied for memsim's tenth pre-registered set (validate/prereg10_cases.py).
//
// Repository: viennacl/viennacl-dev, commit dc552a8d4bba2bb028a346dc611deea0c67e3eed
// Paths: viennacl/linalg/cuda/matrix_operations_row.hpp, viennacl/linalg/cuda/matrix_operations_prod.hpp, viennacl/linalg/cuda/vector_operations.hpp, viennacl/linalg/cuda/sparse_matrix_operations.hpp
// Licence: MIT (Copyright (c) 2010-2016 Institute for Microelectronics, Institute for Analysis and Scientific Computing, TU Wien; text in validate/prereg10/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's template line,
// signature and body copied whole, in the source's order, under `// --- path: name`):
// - the #include lines are dropped; vcl_size_t (viennacl/forwards.h: std::size_t) is typedef'd;
// - only these kernels are copied, with the device helpers they call: cuda_abs
//   (vector_operations.hpp, for index_norm_inf_kernel) and detail::spmv_pure
//   (sparse_matrix_operations.hpp, the ELL product's `result = Ax` handler), in ViennaCL's
//   namespaces (viennacl::linalg::cuda);
// - the host code that launches them is left out; the float instances it launches are
//   instantiated explicitly at the end (each signature with NumericT = float).

typedef decltype(sizeof(0)) vcl_size_t;   // viennacl/forwards.h: std::size_t

namespace viennacl {
namespace linalg {
namespace cuda {
namespace detail {
  struct spmv_pure
  {
    template<typename NumericT>
    __device__ static void apply(NumericT & result, NumericT alpha, NumericT Ax, NumericT beta) { result = Ax; }
  };
}  // namespace detail

template<typename NumericT>
__device__ NumericT              cuda_abs(NumericT val) { return (val < 0) ? -val : val; }
__device__ inline unsigned long  cuda_abs(unsigned long  val) { return val; }
__device__ inline unsigned int   cuda_abs(unsigned int   val) { return val; }
__device__ inline unsigned short cuda_abs(unsigned short val) { return val; }
__device__ inline unsigned char  cuda_abs(unsigned char  val) { return val; }


// --- viennacl/linalg/cuda/matrix_operations_row.hpp: trans_kernel
template<typename NumericT>
__global__ void trans_kernel(
          const NumericT * A,
          unsigned int A_start1,          unsigned int A_start2,
          unsigned int A_internal_size1,  unsigned int A_internal_size2,
          unsigned int A_size1,           unsigned int A_size2,
          unsigned int A_stride1,         unsigned int A_stride2,

          NumericT * B,
          unsigned int B_start1,          unsigned int B_start2,
          unsigned int B_internal_size1,  unsigned int B_internal_size2,
          unsigned int B_stride1,         unsigned int B_stride2,
          bool data_major)
{
  for(unsigned int row = blockIdx.x; row<A_size1; row+=gridDim.x)
  {
    for(unsigned int col = threadIdx.x; col<A_size2; col+=blockDim.x)
    {
      if(data_major)
        B[(B_start1 + B_stride1 * col) * B_internal_size2 + (B_start2 + B_stride2 * row)] = A[(A_start1 + A_stride1 * row) * A_internal_size2 + (A_start2 + A_stride2 * col)];
      else
        B[(B_start1 + B_stride1 * col) + (B_start2 + B_stride2 * row) * B_internal_size1] = A[(A_start1 + A_stride1 * row) + (A_start2 + A_stride2 * col) * A_internal_size1];
     }
  }
}

// --- viennacl/linalg/cuda/matrix_operations_row.hpp: vec_mul_row_kernel
template<typename NumericT>
__global__ void vec_mul_row_kernel(
          const NumericT * A,
          unsigned int A_row_start,
          unsigned int A_col_start,
          unsigned int A_row_inc,
          unsigned int A_col_inc,
          unsigned int A_row_size,
          unsigned int A_col_size,
          unsigned int A_internal_rows,
          unsigned int A_internal_cols,
          const NumericT * v,
          unsigned int v_start,
          unsigned int v_inc,
          unsigned int v_size,
          NumericT * result,
          unsigned int result_start,
          unsigned int result_inc,
          unsigned int result_size)
{
  __shared__ NumericT work[128];

  unsigned int row_gid = (blockIdx.x * blockDim.x + threadIdx.x) / blockDim.x;
  unsigned int col_gid = (blockIdx.x * blockDim.x + threadIdx.x) % blockDim.x;
  unsigned int lid = threadIdx.x;

  for (unsigned int row = row_gid; row < A_row_size; row += gridDim.x)
  {
    NumericT dot_prod = 0;
    for (unsigned int col = col_gid; col < A_col_size; col += blockDim.x)
      dot_prod += A[(row * A_row_inc + A_row_start) * A_internal_cols + col * A_col_inc + A_col_start] * v[v_start + v_inc * col];
    work[lid] = dot_prod;

    for (unsigned int stride = blockDim.x/2; stride>0; stride>>=1){
      __syncthreads();
      if (lid < stride)
        work[lid] += work[lid+stride];
    }

    if (lid == 0)
      result[row * result_inc + result_start] = work[0];
  }
}

// --- viennacl/linalg/cuda/matrix_operations_row.hpp: trans_vec_mul_row_kernel
template<typename NumericT>
__global__ void trans_vec_mul_row_kernel(
          const NumericT * A,
          unsigned int A_row_start,
          unsigned int A_col_start,
          unsigned int A_row_inc,
          unsigned int A_col_inc,
          unsigned int A_row_size,
          unsigned int A_col_size,
          unsigned int A_internal_rows,
          unsigned int A_internal_cols,
          const NumericT * v,
          unsigned int v_start,
          unsigned int v_inc,
          unsigned int v_size,
          NumericT * result,
          unsigned int result_start,
          unsigned int result_inc,
          unsigned int result_size)
{
  for (unsigned int row = blockIdx.x * blockDim.x + threadIdx.x; row < A_col_size; row += gridDim.x * blockDim.x)
  {
    NumericT dot_prod = 0;
    for (unsigned int col = 0; col < A_row_size; ++col)
      dot_prod += A[(row * A_col_inc + A_col_start) + (col * A_row_inc + A_row_start) * A_internal_cols] * v[v_start + v_inc * col];
    result[row * result_inc + result_start] = dot_prod;
  }
}

// --- viennacl/linalg/cuda/matrix_operations_prod.hpp: matrix_matrix_row_row_row_prod_AA_kernel
template<typename NumericT>
__global__ void matrix_matrix_row_row_row_prod_AA_kernel(
          NumericT alpha,
          const NumericT * A,
          unsigned int A_row_start,
          unsigned int A_col_start,
          unsigned int A_row_inc,
          unsigned int A_col_inc,
          unsigned int A_row_size,
          unsigned int A_col_size,
          unsigned int A_internal_rows,
          unsigned int A_internal_cols,
          const NumericT * B,
          unsigned int B_row_start,
          unsigned int B_col_start,
          unsigned int B_row_inc,
          unsigned int B_col_inc,
          unsigned int B_row_size,
          unsigned int B_col_size,
          unsigned int B_internal_rows,
          unsigned int B_internal_cols,
          NumericT beta,
          NumericT * C,
          unsigned int C_row_start,
          unsigned int C_col_start,
          unsigned int C_row_inc,
          unsigned int C_col_inc,
          unsigned int C_row_size,
          unsigned int C_col_size,
          unsigned int C_internal_rows,
          unsigned int C_internal_cols)
{

  __shared__ NumericT bufA[272];
  __shared__ NumericT bufB[272];

  vcl_size_t block_size = 16;//get_local_size(0);
  vcl_size_t row_block_id = blockIdx.x;
  vcl_size_t col_block_id = blockIdx.y;
  vcl_size_t row_thread_id = threadIdx.x;
  vcl_size_t col_thread_id = threadIdx.y;
  vcl_size_t aBegin = (row_block_id * block_size * A_row_inc + A_row_start) * A_internal_cols + A_col_start;
  vcl_size_t aStep = block_size * A_col_inc;
  vcl_size_t bBegin = (col_block_id * block_size * B_col_inc + B_col_start) + B_row_start * B_internal_cols;
  vcl_size_t bStep = block_size * B_internal_cols * B_row_inc;
  vcl_size_t block_num = (A_col_size + block_size - 1) / block_size;
  NumericT Csub = 0;
  vcl_size_t aOffset = row_thread_id * A_col_inc + col_thread_id * A_row_inc * A_internal_cols;
  vcl_size_t bOffset = row_thread_id * B_col_inc + col_thread_id * B_row_inc * B_internal_cols;

  vcl_size_t row_thread_id_times_block_size = row_thread_id * (block_size + 1);
  vcl_size_t col_thread_id_times_block_size = col_thread_id * (block_size + 1);
  for (vcl_size_t block = 0;
          block < block_num;
          ++block)
  {
    bufA[col_thread_id_times_block_size + row_thread_id] = ((block * block_size + row_thread_id < A_col_size) && (row_block_id * block_size + col_thread_id < A_row_size)) ? A[aBegin + aOffset] : 0;
    bufB[row_thread_id_times_block_size + col_thread_id] = ((block * block_size + col_thread_id < B_row_size) && (col_block_id * block_size + row_thread_id < B_col_size)) ? B[bBegin + bOffset] : 0;
    __syncthreads();
    NumericT * bufAptr = bufA + row_thread_id_times_block_size;
    NumericT * bufBptr = bufB + col_thread_id_times_block_size;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
      Csub += (*bufAptr) * (*bufBptr); ++bufAptr; ++bufBptr;
    __syncthreads();
    aBegin += aStep;
    bBegin += bStep;
  }
  if ((blockIdx.x * blockDim.x + threadIdx.x) < A_row_size && (blockIdx.y * blockDim.y + threadIdx.y) < B_col_size)
    C[((blockIdx.x * blockDim.x + threadIdx.x) * C_row_inc + C_row_start) * C_internal_cols + (blockIdx.y * blockDim.y + threadIdx.y) * C_col_inc + C_col_start] = (beta == 0) ? alpha * Csub : alpha * Csub + beta * C[((blockIdx.x * blockDim.x + threadIdx.x) * C_row_inc + C_row_start) * C_internal_cols + (blockIdx.y * blockDim.y + threadIdx.y) * C_col_inc + C_col_start];
}

// --- viennacl/linalg/cuda/vector_operations.hpp: inner_prod_kernel
template<typename NumericT>
__global__ void inner_prod_kernel(const NumericT * vec1,
                                  unsigned int start1,
                                  unsigned int inc1,
                                  unsigned int size1,
                                  const NumericT * vec2,
                                  unsigned int start2,
                                  unsigned int inc2,
                                  unsigned int size2,
                                  NumericT * group_buffer)
{
  __shared__ NumericT tmp_buffer[128];
  unsigned int group_start1 = (blockIdx.x * size1) / (gridDim.x) * inc1 + start1;
  unsigned int group_start2 = (blockIdx.x * size2) / (gridDim.x) * inc2 + start2;

  unsigned int group_size1 = ((blockIdx.x + 1) * size1) / (gridDim.x)
                               - (  blockIdx.x * size1) / (gridDim.x);


  NumericT tmp = 0;
  for (unsigned int i = threadIdx.x; i < group_size1; i += blockDim.x)
    tmp += vec1[i*inc1+group_start1] * vec2[i*inc2+group_start2];
  tmp_buffer[threadIdx.x] = tmp;

  // parallel reduction
  for (unsigned int stride = blockDim.x/2; stride > 0; stride /= 2)
  {
    __syncthreads();
    if (threadIdx.x < stride)
      tmp_buffer[threadIdx.x] += tmp_buffer[threadIdx.x+stride];
  }

  if (threadIdx.x == 0)
    group_buffer[blockIdx.x] = tmp_buffer[0];

}

// --- viennacl/linalg/cuda/vector_operations.hpp: norm_kernel_floats
template<typename NumericT>
__global__ void norm_kernel_floats(
           const NumericT * vec,
          unsigned int start1,
          unsigned int inc1,
          unsigned int size1,
          unsigned int norm_selector,
          NumericT * group_buffer)
{
  __shared__ NumericT tmp_buffer[128];

  NumericT tmp = (norm_selector > 2) ? vec[start1] : 0;
  unsigned int work_per_thread = (size1 - 1) / (gridDim.x * blockDim.x) + 1;
  unsigned int group_start = blockIdx.x * work_per_thread * blockDim.x;
  unsigned int group_stop  = (blockIdx.x + 1) * work_per_thread * blockDim.x;
  group_stop = (group_stop > size1) ? size1 : group_stop;

  if (norm_selector == 1) //norm_1
  {
    for (unsigned int i = group_start + threadIdx.x; i < group_stop; i += blockDim.x)
      tmp += fabs(vec[i*inc1 + start1]);
  }
  else if (norm_selector == 2) //norm_2
  {
    NumericT vec_entry = 0;
    for (unsigned int i = group_start + threadIdx.x; i < group_stop; i += blockDim.x)
    {
      vec_entry = vec[i*inc1 + start1];
      tmp += vec_entry * vec_entry;
    }
  }
  else if (norm_selector == 0) //norm_inf
  {
    for (unsigned int i = group_start + threadIdx.x; i < group_stop; i += blockDim.x)
      tmp = fmax(fabs(vec[i*inc1 + start1]), tmp);
  }
  else if (norm_selector == 3) //min
  {
    for (unsigned int i = group_start + threadIdx.x; i < group_stop; i += blockDim.x)
      tmp = (vec[i*inc1 + start1] < tmp) ? vec[i*inc1 + start1] : tmp;
  }
  else if (norm_selector == 4) //max
  {
    for (unsigned int i = group_start + threadIdx.x; i < group_stop; i += blockDim.x)
      tmp = (vec[i*inc1 + start1] > tmp) ? vec[i*inc1 + start1] : tmp;
  }

  tmp_buffer[threadIdx.x] = tmp;

  if (norm_selector == 1 || norm_selector == 2) //parallel reduction for norm_1 or norm_2:
  {
    for (unsigned int stride = blockDim.x/2; stride > 0; stride /= 2)
    {
      __syncthreads();
      if (threadIdx.x < stride)
        tmp_buffer[threadIdx.x] += tmp_buffer[threadIdx.x+stride];
    }
  }
  else if (norm_selector == 3)
  {
    //min:
    for (unsigned int stride = blockDim.x/2; stride > 0; stride /= 2)
    {
      __syncthreads();
      if (threadIdx.x < stride)
        tmp_buffer[threadIdx.x] = (tmp_buffer[threadIdx.x+stride] < tmp_buffer[threadIdx.x]) ? tmp_buffer[threadIdx.x+stride] : tmp_buffer[threadIdx.x];
    }
  }
  else if (norm_selector == 4)
  {
    //max:
    for (unsigned int stride = blockDim.x/2; stride > 0; stride /= 2)
    {
      __syncthreads();
      if (threadIdx.x < stride)
        tmp_buffer[threadIdx.x] = (tmp_buffer[threadIdx.x+stride] > tmp_buffer[threadIdx.x]) ? tmp_buffer[threadIdx.x+stride] : tmp_buffer[threadIdx.x];
    }
  }
  else
  {
    //norm_inf:
    for (unsigned int stride = blockDim.x/2; stride > 0; stride /= 2)
    {
      __syncthreads();
      if (threadIdx.x < stride)
        tmp_buffer[threadIdx.x] = fmax(tmp_buffer[threadIdx.x], tmp_buffer[threadIdx.x+stride]);
    }
  }

  if (threadIdx.x == 0)
    group_buffer[blockIdx.x] = tmp_buffer[0];
}

// --- viennacl/linalg/cuda/vector_operations.hpp: index_norm_inf_kernel
template<typename NumericT>
__global__ void index_norm_inf_kernel(const NumericT * vec,
                                      unsigned int start1,
                                      unsigned int inc1,
                                      unsigned int size1,
                                      unsigned int * result)
{
  __shared__ NumericT float_buffer[128];
  __shared__ unsigned int index_buffer[128];

  float_buffer[threadIdx.x] = 0;
  index_buffer[threadIdx.x] = 0;

  //step 1: fill buffer:
  NumericT cur_max = NumericT(0);
  NumericT tmp;
  for (unsigned int i = threadIdx.x; i < size1; i += blockDim.x)
  {
    tmp = vec[i*inc1+start1];
    tmp = cuda_abs(tmp);
    if (cur_max < tmp)
    {
      float_buffer[threadIdx.x] = tmp;
      index_buffer[threadIdx.x] = i;
      cur_max = tmp;
    }
  }

  //step 2: parallel reduction:
  for (unsigned int stride = blockDim.x/2; stride > 0; stride /= 2)
  {
    __syncthreads();
    if (threadIdx.x < stride)
    {
      //find the first occurring index
      if (float_buffer[threadIdx.x] < float_buffer[threadIdx.x+stride])
      {
        index_buffer[threadIdx.x] = index_buffer[threadIdx.x+stride];
        float_buffer[threadIdx.x] = float_buffer[threadIdx.x+stride];
      }
    }
  }

  if (threadIdx.x == 0)
    *result = index_buffer[0];
}

// --- viennacl/linalg/cuda/vector_operations.hpp: scan_kernel_1
template<typename NumericT>
__global__ void scan_kernel_1(NumericT const *X,
                              unsigned int startX,
                              unsigned int incX,
                              unsigned int sizeX,

                              NumericT *Y,
                              unsigned int startY,
                              unsigned int incY,

                              unsigned int scan_offset,
                              NumericT *carries) // 0 for inclusive scan, 1 for exclusive
{
  __shared__ NumericT shared_buffer[256];
  NumericT my_value;

  unsigned int work_per_thread = (sizeX - 1) / (gridDim.x * blockDim.x) + 1;
  unsigned int block_start = work_per_thread * blockDim.x *  blockIdx.x;
  unsigned int block_stop  = work_per_thread * blockDim.x * (blockIdx.x + 1);
  unsigned int block_offset = 0;

  // run scan on each section
  for (unsigned int i = block_start + threadIdx.x; i < block_stop; i += blockDim.x)
  {
    // load data:
    my_value = (i < sizeX) ? X[i * incX + startX] : 0;

    // inclusive scan in shared buffer:
    for(unsigned int stride = 1; stride < blockDim.x; stride *= 2)
    {
      __syncthreads();
      shared_buffer[threadIdx.x] = my_value;
      __syncthreads();
      if (threadIdx.x >= stride)
        my_value += shared_buffer[threadIdx.x - stride];
    }
    __syncthreads();
    shared_buffer[threadIdx.x] = my_value;
    __syncthreads();

    // exclusive scan requires us to write a zero value at the beginning of each block
    if (scan_offset > 0)
      my_value = (threadIdx.x > 0) ? shared_buffer[threadIdx.x - 1] : 0;

    // write to output array
    if (i < sizeX)
      Y[i * incY + startY] = block_offset + my_value;

    block_offset += shared_buffer[blockDim.x-1];
  }

  // write carry:
  if (threadIdx.x == 0)
    carries[blockIdx.x] = block_offset;

}

// --- viennacl/linalg/cuda/vector_operations.hpp: scan_kernel_2
template<typename NumericT>
__global__ void scan_kernel_2(NumericT *carries)
{
  __shared__ NumericT shared_buffer[256];

  // load data:
  NumericT my_carry = carries[threadIdx.x];

  // exclusive scan in shared buffer:

  for(unsigned int stride = 1; stride < blockDim.x; stride *= 2)
  {
    __syncthreads();
    shared_buffer[threadIdx.x] = my_carry;
    __syncthreads();
    if (threadIdx.x >= stride)
      my_carry += shared_buffer[threadIdx.x - stride];
  }
  __syncthreads();
  shared_buffer[threadIdx.x] = my_carry;
  __syncthreads();

  // write to output array
  carries[threadIdx.x] = (threadIdx.x > 0) ? shared_buffer[threadIdx.x - 1] : 0;
}

// --- viennacl/linalg/cuda/vector_operations.hpp: scan_kernel_3
template<typename NumericT>
__global__ void scan_kernel_3(NumericT *Y,
                              unsigned int startY,
                              unsigned int incY,
                              unsigned int sizeY,

                              NumericT const *carries)
{
  unsigned int work_per_thread = (sizeY - 1) / (gridDim.x * blockDim.x) + 1;
  unsigned int block_start = work_per_thread * blockDim.x *  blockIdx.x;
  unsigned int block_stop  = work_per_thread * blockDim.x * (blockIdx.x + 1);

  __shared__ NumericT shared_offset;

  if (threadIdx.x == 0)
    shared_offset = carries[blockIdx.x];

  __syncthreads();

  // add offset to each element in the block:
  for (unsigned int i = block_start + threadIdx.x; i < block_stop; i += blockDim.x)
    if (i < sizeY)
      Y[i * incY + startY] += shared_offset;
}

// --- viennacl/linalg/cuda/sparse_matrix_operations.hpp: ell_matrix_vec_mul_kernel
template<typename AlphaBetaHandlerT, typename NumericT>
__global__ void ell_matrix_vec_mul_kernel(const unsigned int * coords,
                                          const NumericT * elements,
                                          const NumericT * x,
                                          unsigned int start_x,
                                          unsigned int inc_x,
                                          NumericT alpha,
                                                NumericT * result,
                                          unsigned int start_result,
                                          unsigned int inc_result,
                                          NumericT beta,
                                          unsigned int row_num,
                                          unsigned int col_num,
                                          unsigned int internal_row_num,
                                          unsigned int items_per_row,
                                          unsigned int aligned_items_per_row
                                         )
{
  unsigned int glb_id = blockDim.x * blockIdx.x + threadIdx.x;
  unsigned int glb_sz = gridDim.x * blockDim.x;

  for (unsigned int row_id = glb_id; row_id < row_num; row_id += glb_sz)
  {
    NumericT sum = 0;

    unsigned int offset = row_id;
    for (unsigned int item_id = 0; item_id < items_per_row; item_id++, offset += internal_row_num)
    {
      NumericT val = elements[offset];

      if (val != NumericT(0))
      {
        int col = coords[offset];
        sum += x[col * inc_x + start_x] * val;
      }
    }

    AlphaBetaHandlerT::apply(result[row_id * inc_result + start_result], alpha, sum, beta);
  }
}

// The float instances ViennaCL's host code launches.
template __global__ void trans_kernel<float>( const float * A, unsigned int A_start1, unsigned int A_start2, unsigned int A_internal_size1, unsigned int A_internal_size2, unsigned int A_size1, unsigned int A_size2, unsigned int A_stride1, unsigned int A_stride2, float * B, unsigned int B_start1, unsigned int B_start2, unsigned int B_internal_size1, unsigned int B_internal_size2, unsigned int B_stride1, unsigned int B_stride2, bool data_major);
template __global__ void vec_mul_row_kernel<float>( const float * A, unsigned int A_row_start, unsigned int A_col_start, unsigned int A_row_inc, unsigned int A_col_inc, unsigned int A_row_size, unsigned int A_col_size, unsigned int A_internal_rows, unsigned int A_internal_cols, const float * v, unsigned int v_start, unsigned int v_inc, unsigned int v_size, float * result, unsigned int result_start, unsigned int result_inc, unsigned int result_size);
template __global__ void trans_vec_mul_row_kernel<float>( const float * A, unsigned int A_row_start, unsigned int A_col_start, unsigned int A_row_inc, unsigned int A_col_inc, unsigned int A_row_size, unsigned int A_col_size, unsigned int A_internal_rows, unsigned int A_internal_cols, const float * v, unsigned int v_start, unsigned int v_inc, unsigned int v_size, float * result, unsigned int result_start, unsigned int result_inc, unsigned int result_size);
template __global__ void matrix_matrix_row_row_row_prod_AA_kernel<float>( float alpha, const float * A, unsigned int A_row_start, unsigned int A_col_start, unsigned int A_row_inc, unsigned int A_col_inc, unsigned int A_row_size, unsigned int A_col_size, unsigned int A_internal_rows, unsigned int A_internal_cols, const float * B, unsigned int B_row_start, unsigned int B_col_start, unsigned int B_row_inc, unsigned int B_col_inc, unsigned int B_row_size, unsigned int B_col_size, unsigned int B_internal_rows, unsigned int B_internal_cols, float beta, float * C, unsigned int C_row_start, unsigned int C_col_start, unsigned int C_row_inc, unsigned int C_col_inc, unsigned int C_row_size, unsigned int C_col_size, unsigned int C_internal_rows, unsigned int C_internal_cols);
template __global__ void inner_prod_kernel<float>(const float * vec1, unsigned int start1, unsigned int inc1, unsigned int size1, const float * vec2, unsigned int start2, unsigned int inc2, unsigned int size2, float * group_buffer);
template __global__ void norm_kernel_floats<float>( const float * vec, unsigned int start1, unsigned int inc1, unsigned int size1, unsigned int norm_selector, float * group_buffer);
template __global__ void index_norm_inf_kernel<float>(const float * vec, unsigned int start1, unsigned int inc1, unsigned int size1, unsigned int * result);
template __global__ void scan_kernel_1<float>(float const *X, unsigned int startX, unsigned int incX, unsigned int sizeX, float *Y, unsigned int startY, unsigned int incY, unsigned int scan_offset, float *carries);
template __global__ void scan_kernel_2<float>(float *carries);
template __global__ void scan_kernel_3<float>(float *Y, unsigned int startY, unsigned int incY, unsigned int sizeY, float const *carries);
template __global__ void ell_matrix_vec_mul_kernel<detail::spmv_pure, float>(const unsigned int * coords, const float * elements, const float * x, unsigned int start_x, unsigned int inc_x, float alpha, float * result, unsigned int start_result, unsigned int inc_result, float beta, unsigned int row_num, unsigned int col_num, unsigned int internal_row_num, unsigned int items_per_row, unsigned int aligned_items_per_row );

}  // namespace cuda
}  // namespace linalg
}  // namespace viennacl
