// Pre-registered public kernel (not written for memsim): kaldi-asr/kaldi
// Kaldi's CUDA matrix kernels: the LSTM nonlinearity (a block of CU1DBLOCK = 256 threads a row, sigmoid
// and tanh elementwise), its backward pass (32 x 8 threads, a thread a column looping down the rows,
// then column sums in shared memory over __syncthreads rounds; a 5-entry per-thread bool array
// indexed by the row), and five vector kernels: v .*= a, v = alpha x.*y + beta v, exp in place, the
// copy of one element a row (or column) by index, and the diagonal of a packed triangular matrix;
// copied for memsim's thirteenth pre-registered set (validate/prereg13_cases.py).
//
// Repository: kaldi-asr/kaldi, commit f4007661023b98b8081fd875029f0dee62242fd1
// Paths: src/cudamatrix/cu-kernels.cu, src/cudamatrix/cu-matrixdim.h (int32_cuda, MatrixIndexT_cuda, CU1DBLOCK)
// Licence: Apache-2.0 (the repository's COPYING: "all the code in this repository is released under the Apache License v 2.0"; cu-kernels.cu's header: Licensed under the Apache License, Version 2.0; text in validate/prereg13/LICENSES.md)
// cu-kernels.cu's copyright notice (its lines 3-11):
// Copyright 2009-2012  Karel Vesely
//                2013  Ehsan Variani
//                2013  Johns Hopkins University (author: Daniel Povey)
//                2013  Hainan Xu
//                2013  Xiaohui Zhang
//           2013-2015  Guoguo Chen
//           2016-2018  Shiyin Kang
//                2017  Hossein Hadian, Daniel Galvez
//                2019  Yiwen Shao
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body
// copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped; cu-matrixdim.h's typedefs and CU1DBLOCK the kernels use are
//   defined as there (int32_t as <cstdint>'s);
// - only these seven kernels are copied (the ANSI-C wrappers, e.g. cudaF_lstm_nonlinearity, are left
//   out); the templates are instantiated explicitly at the end for float, as the cudaF_ wrappers do.

typedef int int32_t;   // <cstdint>'s
typedef int32_t          int32_cuda;          // src/cudamatrix/cu-matrixdim.h
typedef int32_t          MatrixIndexT_cuda;   // src/cudamatrix/cu-matrixdim.h
#define CU1DBLOCK 256   // src/cudamatrix/cu-matrixdim.h

// --- src/cudamatrix/cu-kernels.cu: lines 514-521

template<typename Real>
__global__
static void _vec_mul_elements(Real* v, const Real* a, int dim) {
  int32_cuda i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < dim)
    v[i] = v[i] * a[i];
}

// --- src/cudamatrix/cu-kernels.cu: lines 1372-1381
template<typename Real>
__global__
static void _add_vec_vec(Real alpha, Real* v, const Real* x, const Real* y,
                         Real beta, int dim) {
  int32_cuda i = blockIdx.x * blockDim.x + threadIdx.x;
  // if (blockIdx.y > 0) return;

  if (i < dim)
    v[i] = alpha * x[i] * y[i] + beta * v[i];
}

// --- src/cudamatrix/cu-kernels.cu: lines 1407-1416
template<typename Real>
__global__
static void _vec_apply_exp(Real* v, int dim) {
  int32_cuda i = blockIdx.x * blockDim.x + threadIdx.x;
  // if (blockIdx.y > 0) return;

  if (i < dim) {
    v[i] = exp(v[i]);
  }
}

// --- src/cudamatrix/cu-kernels.cu: lines 1478-1494
template<typename Real>
__global__
static void _cuda_vector_copy_elements(Real *data, int dim,
                                       const Real *src_mat, int mat_stride,
                                       bool transpose,
                                       const MatrixIndexT_cuda* elements) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= dim)
    return;
  int j = elements[i];
  int mat_index;
  if (transpose)
    mat_index = i + j * mat_stride;
  else
    mat_index = j + i * mat_stride;
  data[i] = src_mat[mat_index];
}

// --- src/cudamatrix/cu-kernels.cu: lines 3143-3151
template<typename Real>
__global__
static void _vec_copy_diag_from_packed(Real* y, const Real* x, int dim) {
  int32_cuda i = blockIdx.x * blockDim.x + threadIdx.x;
  int32_cuda index = ((i + 1) * (i + 2) / 2) - 1;
  if (i < dim) {
    y[i] = x[index];
  }
}

// --- src/cudamatrix/cu-kernels.cu: lines 3423-3455
template<typename Real>
__global__
static void _lstm_nonlinearity(const Real* in, const int in_stride,
                               const Real* params, const int params_stride,
                               const int out_stride, const int cell_dim,
                               const int have_dropout_mask, const int num_rows,
                               Real* out) {
  const int tid = threadIdx.x;
  const int i = blockIdx.x;
  const Real* i_part = in + i * in_stride;
  const Real* f_part = in + i * in_stride + cell_dim;
  const Real* c_part = in + i * in_stride + cell_dim * 2;
  const Real* o_part = in + i * in_stride + cell_dim * 3;
  const Real* c_tm1 = in + i * in_stride + cell_dim * 4;
  const Real* w_ic = params;
  const Real* w_fc = params + params_stride;
  const Real* w_oc = params + params_stride * 2;
  Real* c_t = out + i * out_stride;
  Real* m_t = out + i * out_stride + cell_dim;
  Real i_scale = (have_dropout_mask ? in[i * in_stride + cell_dim * 5] : 1),
       f_scale = (have_dropout_mask ? in[i * in_stride + cell_dim * 5 + 1] : 1),
       o_scale = (have_dropout_mask ? in[i * in_stride + cell_dim * 5 + 2] : 1);

  for (int j = tid; j < cell_dim; j += CU1DBLOCK) {
    Real c_tm1_j = c_tm1[j];
    Real i_t_j = Real(1) / (Real(1) + exp(-i_part[j] - w_ic[j] * c_tm1_j));
    Real f_t_j = Real(1) / (Real(1) + exp(-f_part[j] - w_fc[j] * c_tm1_j));
    Real c_t_j = f_t_j * f_scale * c_tm1_j + i_t_j * i_scale * tanh(c_part[j]);
    Real o_t_j = Real(1) / (Real(1) + exp(-o_part[j] - w_oc[j] * c_t_j));
    c_t[j] = c_t_j;
    m_t[j] = o_t_j * o_scale * tanh(c_t_j);
  }
}

// --- src/cudamatrix/cu-kernels.cu: lines 3551-3873
template<typename Real>
__global__
static void _diff_lstm_nonlinearity(const int cell_dim, const int have_dropout_mask,
                                    const int num_rows,
                                    const Real* input, const int input_stride,
                                    const Real* params, const int params_stride,
                                    const Real* output_deriv,
                                    const int output_deriv_stride,
                                    const double* deriv_sum_in,
                                    const int deriv_sum_in_stride,
                                    const Real* self_repair_config,
                                    double count, Real* input_deriv,
                                    const int input_deriv_stride,
                                    Real* params_deriv,
                                    const int params_deriv_stride,
                                    double* value_sum_out,
                                    const int value_sum_out_stride,
                                    double* deriv_sum_out,
                                    const int deriv_sum_out_stride,
                                    Real* self_repair_sum_out,
                                    const int self_repair_sum_out_stride) {
  __shared__ Real smem[CU1DBLOCK];

  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int grid_stride = gridDim.y * blockDim.y;
  const int i0 = blockIdx.y * blockDim.y + threadIdx.y;

  Real w_ic_deriv_sum = 0;
  Real w_fc_deriv_sum = 0;
  Real w_oc_deriv_sum = 0;

  Real i_t_value_sum = 0, i_t_deriv_sum = 0;
  Real f_t_value_sum = 0, f_t_deriv_sum = 0;
  Real c_part_value_sum = 0, c_part_deriv_sum = 0;
  Real o_t_value_sum = 0, o_t_deriv_sum = 0;
  Real c_t_value_sum = 0, c_t_deriv_sum = 0;

  bool update_sr[5];

  if (j < cell_dim) {
    const Real w_ic = params[j];
    const Real w_fc = params[params_stride + j];
    const Real w_oc = params[2 * params_stride + j];

    const Real* sr_config = self_repair_config;
#   pragma unroll
    for (int i = 0; i < 5; i++) {
      update_sr[i] =
          deriv_sum_in[i * deriv_sum_in_stride + j] < sr_config[i] * count;
    }
    const Real i_t_self_repair = (update_sr[0] ? sr_config[5] : 0);
    const Real f_t_self_repair = (update_sr[1] ? sr_config[6] : 0);
    const Real c_part_self_repair = (update_sr[2] ? sr_config[7] : 0);
    const Real o_t_self_repair = (update_sr[3] ? sr_config[8] : 0);
    const Real c_t_self_repair = (update_sr[4] ? sr_config[9] : 0);


    for (int i = i0; i < num_rows; i += grid_stride) {
      const Real i_part = input[i * input_stride + j];
      const Real f_part = input[i * input_stride + j + cell_dim];
      const Real c_part = input[i * input_stride + j + 2 * cell_dim];
      const Real o_part = input[i * input_stride + j + 3 * cell_dim];
      const Real c_prev = input[i * input_stride + j + 4 * cell_dim];


      const Real i_scale = (have_dropout_mask ?
                            input[i * input_stride + cell_dim * 5] : 1),
                 f_scale = (have_dropout_mask ?
                            input[i * input_stride + cell_dim * 5 + 1] :1),
                 o_scale = (have_dropout_mask ?
                            input[i * input_stride + cell_dim * 5 + 2] :1);


      const Real i_t = Real(1) / (1 + exp(-i_part - w_ic * c_prev));
      const Real f_t = Real(1) / (1 + exp(-f_part - w_fc * c_prev));
      const Real tanh_c_part = tanh(c_part);
      const Real c_t = f_t * f_scale * c_prev + i_t * i_scale * tanh_c_part;
      const Real o_t = 1 / (1 + exp(-o_part - w_oc * c_t));
      const Real tanh_c_t = tanh(c_t);

      const Real i_t_deriv = i_t * (1 - i_t);
      const Real f_t_deriv = f_t * (1 - f_t);
      const Real c_part_deriv = 1 - tanh_c_part * tanh_c_part;
      const Real o_t_deriv = o_t * (1 - o_t);
      const Real c_t_deriv = 1 - tanh_c_t * tanh_c_t;

      if (params_deriv) {
        i_t_value_sum += i_t;
        f_t_value_sum += f_t;
        c_part_value_sum += tanh_c_part;
        o_t_value_sum += o_t;
        c_t_value_sum += tanh_c_t;

        i_t_deriv_sum += i_t_deriv;
        f_t_deriv_sum += f_t_deriv;
        c_part_deriv_sum += c_part_deriv;
        o_t_deriv_sum += o_t_deriv;
        c_t_deriv_sum += c_t_deriv;
      }

      const Real dc_t_out = output_deriv[i * output_deriv_stride + j];
      const Real dm_t = output_deriv[i * output_deriv_stride + j + cell_dim];

      const Real dtanh_c_t = o_t * o_scale * dm_t;
      const Real do_t = o_scale * tanh_c_t * dm_t;
      const Real do_t_input = (o_t_deriv * do_t
          - (2 * o_t - 1) * o_t_self_repair);

      const Real dc_t = (c_t_deriv * dtanh_c_t + dc_t_out + do_t_input * w_oc)
          - tanh_c_t * c_t_self_repair;
      const Real dtanh_c_part = i_t * i_scale * dc_t;
      const Real df_t = dc_t * f_scale * c_prev;
      const Real df_t_input = (df_t * f_t_deriv
                               - (2 * f_t - 1) * f_t_self_repair);
      const Real di_t = dc_t * i_scale * tanh_c_part;
      const Real di_t_input = (di_t * i_t_deriv
                               - (2 * i_t - 1) * i_t_self_repair);

      if (params_deriv) {
        w_ic_deriv_sum += c_prev * di_t_input;
        w_fc_deriv_sum += c_prev * df_t_input;
        w_oc_deriv_sum += c_t * do_t_input;
      }

      const Real dc_prev = w_ic * di_t_input + w_fc * df_t_input + f_t * f_scale * dc_t;
      const Real do_part = do_t_input;
      const Real dc_part = (c_part_deriv * dtanh_c_part
          - tanh_c_part * c_part_self_repair);
      const Real df_part = df_t_input;
      const Real di_part = di_t_input;

      if (input_deriv) {
        input_deriv[i * input_deriv_stride + j] = di_part;
        input_deriv[i * input_deriv_stride + j + cell_dim] = df_part;
        input_deriv[i * input_deriv_stride + j + cell_dim * 2] = dc_part;
        input_deriv[i * input_deriv_stride + j + cell_dim * 3] = do_part;
        input_deriv[i * input_deriv_stride + j + cell_dim * 4] = dc_prev;
      }
    }
  }

  if (params_deriv) {
    // compute params_deriv
    smem[tid] = w_ic_deriv_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      params_deriv[j] = smem[tid];
    }

    __syncthreads();
    smem[tid] = w_fc_deriv_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      params_deriv[params_deriv_stride + j] = smem[tid];
    }

    __syncthreads();
    smem[tid] = w_oc_deriv_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      params_deriv[2 * params_deriv_stride + j] = smem[tid];
    }

    // compute value_sum_out
    __syncthreads();
    smem[tid] = i_t_value_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      value_sum_out[j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = f_t_value_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      value_sum_out[value_sum_out_stride + j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = c_part_value_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      value_sum_out[2 * value_sum_out_stride + j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = o_t_value_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      value_sum_out[3 * value_sum_out_stride + j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = c_t_value_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      value_sum_out[4 * value_sum_out_stride + j] += smem[tid];
    }

    // need to update self_repair_sum_out before deriv_sum_out, because
    // deriv_sum_out and deriv_sum_in might point to the same memory.
    if (i0 < 5 && j < cell_dim) {
      self_repair_sum_out[i0 * self_repair_sum_out_stride + j] =
          update_sr[i0] ? num_rows : 0;
    }

    // compute derive_sum_out
    __syncthreads();
    smem[tid] = i_t_deriv_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      deriv_sum_out[j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = f_t_deriv_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      deriv_sum_out[deriv_sum_out_stride + j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = c_part_deriv_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      deriv_sum_out[2 * deriv_sum_out_stride + j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = o_t_deriv_sum;
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      deriv_sum_out[3 * deriv_sum_out_stride + j] += smem[tid];
    }

    __syncthreads();
    smem[tid] = c_t_deriv_sum;
    __syncthreads();
#   pragma unroll
    for (int shift = CU1DBLOCK / 2; shift >= warpSize; shift >>= 1) {
      __syncthreads();
      if (tid < shift) {
        smem[tid] += smem[tid + shift];
      }
    }
    if (tid < warpSize && j < cell_dim) {
      deriv_sum_out[4 * deriv_sum_out_stride + j] += smem[tid];
    }
  }
}

template __global__ void _vec_mul_elements<float>(float *, const float *, int);
template __global__ void _add_vec_vec<float>(float, float *, const float *, const float *, float, int);
template __global__ void _vec_apply_exp<float>(float *, int);
template __global__ void _cuda_vector_copy_elements<float>(float *, int, const float *, int, bool, const MatrixIndexT_cuda *);
template __global__ void _vec_copy_diag_from_packed<float>(float *, const float *, int);
template __global__ void _lstm_nonlinearity<float>(const float *, const int, const float *, const int, const int, const int, const int, const int, float *);
template __global__ void _diff_lstm_nonlinearity<float>(const int, const int, const int, const float *, const int, const float *, const int, const float *, const int, const double *, const int, const float *, double, float *, const int, float *, const int, double *, const int, double *, const int, float *, const int);
