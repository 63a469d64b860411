// Pre-registered public kernel (not written for memsim): BVLC/caffe
// Caffe's CUDA kernels: embedding lookup, tile, concat, slice, batch reindex, eltwise max, PReLU, ELU, scale + bias, bias, dropout and the LSTM unit; copied for memsim's tenth pre-registered set (validate/prereg10_cases.py).
//
// Repository: BVLC/caffe, commit 9b891540183ddc834a02b2bd81b31afae71b2153
// Paths: src/caffe/layers/embed_layer.cu, src/caffe/layers/tile_layer.cu, src/caffe/layers/concat_layer.cu, src/caffe/layers/slice_layer.cu, src/caffe/layers/batch_reindex_layer.cu, src/caffe/layers/eltwise_layer.cu, src/caffe/layers/prelu_layer.cu, src/caffe/layers/elu_layer.cu, src/caffe/layers/scale_layer.cu, src/caffe/layers/bias_layer.cu, src/caffe/layers/dropout_layer.cu, src/caffe/layers/lstm_unit_layer.cu
// Licence: BSD-2-Clause (Copyright (c) 2014-2017 The Regents of the University of California and the respective contributors; text in validate/prereg10/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's template, signature
// and body are copied whole, in the source's order, under `// --- path: name`):
// - the #include lines are dropped; CUDA_KERNEL_LOOP (include/caffe/util/device_alternate.hpp,
//   the grid-stride loop every kernel uses) is defined below as Caffe defines it, and FLT_MAX / FLT_MIN as <cfloat> does;
// - only the __global__ kernels are copied: Caffe's host launchers (blocks of
//   CAFFE_CUDA_NUM_THREADS = 512 threads, CAFFE_GET_BLOCKS(n) = cdiv(n, 512) blocks) and explicit
//   instantiations are left out; each kernel's float instance is instantiated explicitly at the
//   end of the file (its signature with Dtype = float) and a launch names it (`caffe::Kernel<float>`).
// - lstm_unit_layer.cu's device helpers sigmoid and tanh (above its kernels there) are copied too.

#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)
#define FLT_MAX 3.402823466e+38F   // <cfloat>
#define FLT_MIN 1.175494351e-38F

namespace caffe {

template <typename Dtype>
__device__ Dtype sigmoid(const Dtype x) {
  return Dtype(1) / (Dtype(1) + exp(-x));
}

template <typename Dtype>
__device__ Dtype tanh(const Dtype x) {
  return Dtype(2) * sigmoid(Dtype(2) * x) - Dtype(1);
}

// --- src/caffe/layers/embed_layer.cu: EmbedForward
template <typename Dtype>
__global__ void EmbedForward(const int nthreads, const Dtype* bottom_data,
    const Dtype* weight, const int M, const int N, const int K,
    Dtype* top_data) {
  CUDA_KERNEL_LOOP(top_index, nthreads) {
    const int n = top_index / N;
    const int d = top_index % N;
    const int index = static_cast<int>(bottom_data[n]);
    #ifdef DEBUG
        assert(index >= 0);
        assert(index < K);
        assert(static_cast<Dtype>(index) == bottom_data[n]);
    #endif
    const int weight_index = index * N + d;
    top_data[top_index] = weight[weight_index];
  }
}

// --- src/caffe/layers/tile_layer.cu: Tile
template <typename Dtype>
__global__ void Tile(const int nthreads, const Dtype* bottom_data,
    const int tile_size, const int num_tiles, const int bottom_tile_axis,
    Dtype* top_data) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int d = index % tile_size;
    const int b = (index / tile_size / num_tiles) % bottom_tile_axis;
    const int n = index / tile_size / num_tiles / bottom_tile_axis;
    const int bottom_index = (n * bottom_tile_axis + b) * tile_size + d;
    top_data[index] = bottom_data[bottom_index];
  }
}

// --- src/caffe/layers/tile_layer.cu: TileBackward
template <typename Dtype>
__global__ void TileBackward(const int nthreads, const Dtype* top_diff,
    const int tile_size, const int num_tiles, const int bottom_tile_axis,
    Dtype* bottom_diff) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int d = index % tile_size;
    const int b = (index / tile_size) % bottom_tile_axis;
    const int n = index / tile_size / bottom_tile_axis;
    bottom_diff[index] = 0;
    int top_index = (n * num_tiles * bottom_tile_axis + b) * tile_size + d;
    for (int t = 0; t < num_tiles; ++t) {
      bottom_diff[index] += top_diff[top_index];
      top_index += bottom_tile_axis * tile_size;
    }
  }
}

// --- src/caffe/layers/concat_layer.cu: Concat
template <typename Dtype>
__global__ void Concat(const int nthreads, const Dtype* in_data,
    const bool forward, const int num_concats, const int concat_size,
    const int top_concat_axis, const int bottom_concat_axis,
    const int offset_concat_axis, Dtype* out_data) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int total_concat_size = concat_size * bottom_concat_axis;
    const int concat_num = index / total_concat_size;
    const int concat_index = index % total_concat_size;
    const int top_index = concat_index +
        (concat_num * top_concat_axis + offset_concat_axis) * concat_size;
    if (forward) {
      out_data[top_index] = in_data[index];
    } else {
      out_data[index] = in_data[top_index];
    }
  }
}

// --- src/caffe/layers/slice_layer.cu: Slice
template <typename Dtype>
__global__ void Slice(const int nthreads, const Dtype* in_data,
    const bool forward, const int num_slices, const int slice_size,
    const int bottom_slice_axis, const int top_slice_axis,
    const int offset_slice_axis, Dtype* out_data) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int total_slice_size = slice_size * top_slice_axis;
    const int slice_num = index / total_slice_size;
    const int slice_index = index % total_slice_size;
    const int bottom_index = slice_index +
        (slice_num * bottom_slice_axis + offset_slice_axis) * slice_size;
    if (forward) {
      out_data[index] = in_data[bottom_index];
    } else {
      out_data[bottom_index] = in_data[index];
    }
  }
}

// --- src/caffe/layers/batch_reindex_layer.cu: BRForward
template<typename Dtype>
__global__ void BRForward(const int count, const int inner_dim, const Dtype* in,
                          const Dtype* permut, Dtype* out) {
  CUDA_KERNEL_LOOP(index, count) {
    int n = index / (inner_dim);
    int in_n = static_cast<int>(permut[n]);
    out[index] = in[in_n * (inner_dim) + index % (inner_dim)];
  }
}

// --- src/caffe/layers/eltwise_layer.cu: MaxForward
template <typename Dtype>
__global__ void MaxForward(const int nthreads, const Dtype* bottom_data_a,
    const Dtype* bottom_data_b, const int blob_idx, Dtype* top_data,
    int* mask) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    Dtype maxval = -FLT_MAX;
    int maxidx = -1;
    if (bottom_data_a[index] > bottom_data_b[index]) {
      // only update for very first bottom_data blob (blob_idx == 0)
      if (blob_idx == 0) {
        maxval = bottom_data_a[index];
        top_data[index] = maxval;
        maxidx = blob_idx;
        mask[index] = maxidx;
      }
    } else {
      maxval = bottom_data_b[index];
      top_data[index] = maxval;
      maxidx = blob_idx + 1;
      mask[index] = maxidx;
    }
  }
}

// --- src/caffe/layers/prelu_layer.cu: PReLUForward
template <typename Dtype>
__global__ void PReLUForward(const int n, const int channels, const int dim,
    const Dtype* in, Dtype* out, const Dtype* slope_data,
    const int div_factor) {
  CUDA_KERNEL_LOOP(index, n) {
    int c = (index / dim) % channels / div_factor;
    out[index] = in[index] > 0 ? in[index] : in[index] * slope_data[c];
  }
}

// --- src/caffe/layers/prelu_layer.cu: PReLUParamBackward
template <typename Dtype>
__global__ void PReLUParamBackward(const int n,
    const int rows, const int rowPitch, const Dtype* in_diff,
    const Dtype* in_data, Dtype* out_diff) {
  CUDA_KERNEL_LOOP(index, n) {
    out_diff[index] = in_diff[index] * in_data[index] * (in_data[index] <= 0);
    for ( int k = 1; k < rows; k++ ) {
        out_diff[index] += in_diff[index + k*rowPitch]
           * in_data[index + k*rowPitch] * (in_data[index + k*rowPitch] <= 0);
    }
  }
}

// --- src/caffe/layers/elu_layer.cu: ELUForward
template <typename Dtype>
__global__ void ELUForward(const int n, const Dtype* in, Dtype* out,
    Dtype alpha) {
  CUDA_KERNEL_LOOP(index, n) {
    out[index] = in[index] > 0 ? in[index] :
        alpha * (exp(in[index]) - 1);
  }
}

// --- src/caffe/layers/scale_layer.cu: ScaleBiasForward
template <typename Dtype>
__global__ void ScaleBiasForward(const int n, const Dtype* in,
    const Dtype* scale, const Dtype* bias,
    const int scale_dim, const int inner_dim, Dtype* out) {
  CUDA_KERNEL_LOOP(index, n) {
    const int scale_index = (index / inner_dim) % scale_dim;
    out[index] = in[index] * scale[scale_index] + bias[scale_index];
  }
}

// --- src/caffe/layers/bias_layer.cu: BiasForward
template <typename Dtype>
__global__ void BiasForward(const int n, const Dtype* in,
    const Dtype* bias, const int bias_dim, const int inner_dim,
    Dtype* out) {
  CUDA_KERNEL_LOOP(index, n) {
    const int bias_index = (index / inner_dim) % bias_dim;
    out[index] = in[index] + bias[bias_index];
  }
}

// --- src/caffe/layers/dropout_layer.cu: DropoutForward
template <typename Dtype>
__global__ void DropoutForward(const int n, const Dtype* in,
    const unsigned int* mask, const unsigned int threshold, const float scale,
    Dtype* out) {
  CUDA_KERNEL_LOOP(index, n) {
    out[index] = in[index] * (mask[index] > threshold) * scale;
  }
}

// --- src/caffe/layers/lstm_unit_layer.cu: LSTMActsForward
template <typename Dtype>
__global__ void LSTMActsForward(const int nthreads, const int dim,
                                const Dtype* X, Dtype* X_acts) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int x_dim = 4 * dim;
    const int d = index % x_dim;
    if (d < 3 * dim) {
      X_acts[index] = sigmoid(X[index]);
    } else {
      X_acts[index] = tanh(X[index]);
    }
  }
}

// --- src/caffe/layers/lstm_unit_layer.cu: LSTMUnitForward
template <typename Dtype>
__global__ void LSTMUnitForward(const int nthreads, const int dim,
    const Dtype* C_prev, const Dtype* X, const Dtype* cont,
    Dtype* C, Dtype* H) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int n = index / dim;
    const int d = index % dim;
    const Dtype* X_offset = X + 4 * dim * n;
    const Dtype i = X_offset[d];
    const Dtype f = X_offset[1 * dim + d];
    const Dtype o = X_offset[2 * dim + d];
    const Dtype g = X_offset[3 * dim + d];
    const Dtype c_prev = C_prev[index];
    const Dtype c = cont[n] * f * c_prev + i * g;
    C[index] = c;
    const Dtype tanh_c = tanh(c);
    H[index] = o * tanh_c;
  }
}

// --- src/caffe/layers/lstm_unit_layer.cu: LSTMUnitBackward
template <typename Dtype>
__global__ void LSTMUnitBackward(const int nthreads, const int dim,
    const Dtype* C_prev, const Dtype* X, const Dtype* C, const Dtype* H,
    const Dtype* cont, const Dtype* C_diff, const Dtype* H_diff,
    Dtype* C_prev_diff, Dtype* X_diff) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int n = index / dim;
    const int d = index % dim;
    const Dtype* X_offset = X + 4 * dim * n;
    const Dtype i = X_offset[d];
    const Dtype f = X_offset[1 * dim + d];
    const Dtype o = X_offset[2 * dim + d];
    const Dtype g = X_offset[3 * dim + d];
    const Dtype c_prev = C_prev[index];
    const Dtype c = C[index];
    const Dtype tanh_c = tanh(c);
    Dtype* c_prev_diff = C_prev_diff + index;
    Dtype* X_diff_offset = X_diff + 4 * dim * n;
    Dtype* i_diff = X_diff_offset + d;
    Dtype* f_diff = X_diff_offset + 1 * dim + d;
    Dtype* o_diff = X_diff_offset + 2 * dim + d;
    Dtype* g_diff = X_diff_offset + 3 * dim + d;
    const Dtype c_term_diff =
        C_diff[index] + H_diff[index] * o * (1 - tanh_c * tanh_c);
    const Dtype cont_n = cont[n];
    *c_prev_diff = cont_n * c_term_diff * f;
    *i_diff = c_term_diff * g;
    *f_diff = cont_n * c_term_diff * c_prev;
    *o_diff = H_diff[index] * tanh_c;
    *g_diff = c_term_diff * i;
  }
}

// The float instances a launch names (Caffe instantiates them through its host launchers).
template __global__ void EmbedForward<float>(const int nthreads, const float* bottom_data, const float* weight, const int M, const int N, const int K, float* top_data);
template __global__ void Tile<float>(const int nthreads, const float* bottom_data, const int tile_size, const int num_tiles, const int bottom_tile_axis, float* top_data);
template __global__ void TileBackward<float>(const int nthreads, const float* top_diff, const int tile_size, const int num_tiles, const int bottom_tile_axis, float* bottom_diff);
template __global__ void Concat<float>(const int nthreads, const float* in_data, const bool forward, const int num_concats, const int concat_size, const int top_concat_axis, const int bottom_concat_axis, const int offset_concat_axis, float* out_data);
template __global__ void Slice<float>(const int nthreads, const float* in_data, const bool forward, const int num_slices, const int slice_size, const int bottom_slice_axis, const int top_slice_axis, const int offset_slice_axis, float* out_data);
template __global__ void BRForward<float>(const int count, const int inner_dim, const float* in, const float* permut, float* out);
template __global__ void MaxForward<float>(const int nthreads, const float* bottom_data_a, const float* bottom_data_b, const int blob_idx, float* top_data, int* mask);
template __global__ void PReLUForward<float>(const int n, const int channels, const int dim, const float* in, float* out, const float* slope_data, const int div_factor);
template __global__ void PReLUParamBackward<float>(const int n, const int rows, const int rowPitch, const float* in_diff, const float* in_data, float* out_diff);
template __global__ void ELUForward<float>(const int n, const float* in, float* out, float alpha);
template __global__ void ScaleBiasForward<float>(const int n, const float* in, const float* scale, const float* bias, const int scale_dim, const int inner_dim, float* out);
template __global__ void BiasForward<float>(const int n, const float* in, const float* bias, const int bias_dim, const int inner_dim, float* out);
template __global__ void DropoutForward<float>(const int n, const float* in, const unsigned int* mask, const unsigned int threshold, const float scale, float* out);
template __global__ void LSTMActsForward<float>(const int nthreads, const int dim, const float* X, float* X_acts);
template __global__ void LSTMUnitForward<float>(const int nthreads, const int dim, const float* C_prev, const float* X, const float* cont, float* C, float* H);
template __global__ void LSTMUnitBackward<float>(const int nthreads, const int dim, const float* C_prev, const float* X, const float* C, const float* H, const float* cont, const float* C_diff, const float* H_diff, float* C_prev_diff, float* X_diff);

}  // namespace caffe
