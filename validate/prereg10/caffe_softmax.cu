// Pre-registered public kernel (not written for memsim): BVLC/caffe
// Caffe's CUDA kernels: softmax over channels in five passes (max, subtract, exp, sum, divide), its backward dot, the softmax loss and top-k accuracy; copied for memsim's tenth pre-registered set (validate/prereg10_cases.py).
//
// Repository: BVLC/caffe, commit 9b891540183ddc834a02b2bd81b31afae71b2153
// Paths: src/caffe/layers/softmax_layer.cu, src/caffe/layers/softmax_loss_layer.cu, src/caffe/layers/accuracy_layer.cu
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

#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)
#define FLT_MAX 3.402823466e+38F   // <cfloat>
#define FLT_MIN 1.175494351e-38F

namespace caffe {

// --- src/caffe/layers/softmax_layer.cu: kernel_channel_max
template <typename Dtype>
__global__ void kernel_channel_max(const int num, const int channels,
    const int spatial_dim, const Dtype* data, Dtype* out) {
  CUDA_KERNEL_LOOP(index, num * spatial_dim) {
    int n = index / spatial_dim;
    int s = index % spatial_dim;
    Dtype maxval = -FLT_MAX;
    for (int c = 0; c < channels; ++c) {
      maxval = max(data[(n * channels + c) * spatial_dim + s], maxval);
    }
    out[index] = maxval;
  }
}

// --- src/caffe/layers/softmax_layer.cu: kernel_channel_subtract
template <typename Dtype>
__global__ void kernel_channel_subtract(const int count,
    const int num, const int channels,
    const int spatial_dim, const Dtype* channel_max, Dtype* data) {
  CUDA_KERNEL_LOOP(index, count) {
    int n = index / channels / spatial_dim;
    int s = index % spatial_dim;
    data[index] -= channel_max[n * spatial_dim + s];
  }
}

// --- src/caffe/layers/softmax_layer.cu: kernel_exp
template <typename Dtype>
__global__ void kernel_exp(const int count, const Dtype* data, Dtype* out) {
  CUDA_KERNEL_LOOP(index, count) {
    out[index] = exp(data[index]);
  }
}

// --- src/caffe/layers/softmax_layer.cu: kernel_channel_sum
template <typename Dtype>
__global__ void kernel_channel_sum(const int num, const int channels,
    const int spatial_dim, const Dtype* data, Dtype* channel_sum) {
  CUDA_KERNEL_LOOP(index, num * spatial_dim) {
    int n = index / spatial_dim;
    int s = index % spatial_dim;
    Dtype sum = 0;
    for (int c = 0; c < channels; ++c) {
      sum += data[(n * channels + c) * spatial_dim + s];
    }
    channel_sum[index] = sum;
  }
}

// --- src/caffe/layers/softmax_layer.cu: kernel_channel_div
template <typename Dtype>
__global__ void kernel_channel_div(const int count,
    const int num, const int channels,
    const int spatial_dim, const Dtype* channel_sum, Dtype* data) {
  CUDA_KERNEL_LOOP(index, count) {
    int n = index / channels / spatial_dim;
    int s = index % spatial_dim;
    data[index] /= channel_sum[n * spatial_dim + s];
  }
}

// --- src/caffe/layers/softmax_layer.cu: kernel_channel_dot
template <typename Dtype>
__global__ void kernel_channel_dot(const int num, const int channels,
    const int spatial_dim, const Dtype* data_1, const Dtype* data_2,
    Dtype* channel_dot) {
  CUDA_KERNEL_LOOP(index, num * spatial_dim) {
    int n = index / spatial_dim;
    int s = index % spatial_dim;
    Dtype dot = 0;
    for (int c = 0; c < channels; ++c) {
      dot += (data_1[(n * channels + c) * spatial_dim + s]
          * data_2[(n * channels + c) * spatial_dim + s]);
    }
    channel_dot[index] = dot;
  }
}

// --- src/caffe/layers/softmax_loss_layer.cu: SoftmaxLossForwardGPU
template <typename Dtype>
__global__ void SoftmaxLossForwardGPU(const int nthreads,
          const Dtype* prob_data, const Dtype* label, Dtype* loss,
          const int num, const int dim, const int spatial_dim,
          const bool has_ignore_label_, const int ignore_label_,
          Dtype* counts) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int n = index / spatial_dim;
    const int s = index % spatial_dim;
    const int label_value = static_cast<int>(label[n * spatial_dim + s]);
    if (has_ignore_label_ && label_value == ignore_label_) {
      loss[index] = 0;
      counts[index] = 0;
    } else {
      loss[index] = -log(max(prob_data[n * dim + label_value * spatial_dim + s],
                      Dtype(FLT_MIN)));
      counts[index] = 1;
    }
  }
}

// --- src/caffe/layers/accuracy_layer.cu: AccuracyForwardGPU
template <typename Dtype>
__global__ void AccuracyForwardGPU(const int nthreads,
          const Dtype* bottom_data, const Dtype* label, Dtype* acc,
          const int num, const int dim, const int spatial_dim,
          const int num_labels, const int top_k,
          const bool has_ignore_label_, const int ignore_label_,
          Dtype* counts) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int n = index / spatial_dim;
    const int s = index % spatial_dim;
    const int label_value = static_cast<int>(label[n * spatial_dim + s]);
    const Dtype prob_of_true_class = bottom_data[n * dim
                                                 + label_value * spatial_dim
                                                 + s];
    int num_better_predictions = -1;  // true_class also counts as "better"
    if (has_ignore_label_ && label_value == ignore_label_) {
      acc[index] = 0;
      counts[index] = 0;
    } else {
      for (int k = 0; k < num_labels & num_better_predictions < top_k; k++) {
        num_better_predictions +=
          (bottom_data[n * dim + k * spatial_dim + s] >= prob_of_true_class);
      }
      acc[index] = (num_better_predictions < top_k);
      counts[index] = 1;
    }
  }
}

// The float instances a launch names (Caffe instantiates them through its host launchers).
template __global__ void kernel_channel_max<float>(const int num, const int channels, const int spatial_dim, const float* data, float* out);
template __global__ void kernel_channel_subtract<float>(const int count, const int num, const int channels, const int spatial_dim, const float* channel_max, float* data);
template __global__ void kernel_exp<float>(const int count, const float* data, float* out);
template __global__ void kernel_channel_sum<float>(const int num, const int channels, const int spatial_dim, const float* data, float* channel_sum);
template __global__ void kernel_channel_div<float>(const int count, const int num, const int channels, const int spatial_dim, const float* channel_sum, float* data);
template __global__ void kernel_channel_dot<float>(const int num, const int channels, const int spatial_dim, const float* data_1, const float* data_2, float* channel_dot);
template __global__ void SoftmaxLossForwardGPU<float>(const int nthreads, const float* prob_data, const float* label, float* loss, const int num, const int dim, const int spatial_dim, const bool has_ignore_label_, const int ignore_label_, float* counts);
template __global__ void AccuracyForwardGPU<float>(const int nthreads, const float* bottom_data, const float* label, float* acc, const int num, const int dim, const int spatial_dim, const int num_labels, const int top_k, const bool has_ignore_label_, const int ignore_label_, float* counts);

}  // namespace caffe
