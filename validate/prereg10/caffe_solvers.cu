// Pre-registered public kernel (not written for memsim): BVLC/caffe
// Caffe's CUDA kernels: the solvers' parameter updates (Adam, RMSProp, AdaGrad, Nesterov) and math_functions' element-wise kernels; copied for memsim's tenth pre-registered set (validate/prereg10_cases.py).
//
// Repository: BVLC/caffe, commit 9b891540183ddc834a02b2bd81b31afae71b2153
// Paths: src/caffe/solvers/adam_solver.cu, src/caffe/solvers/rmsprop_solver.cu, src/caffe/solvers/adagrad_solver.cu, src/caffe/solvers/nesterov_solver.cu, src/caffe/util/math_functions.cu
// Licence: BSD-2-Clause (Copyright (c) 2014-2017 The Regents of the University of California and the respective contributors; text in validate/prereg10/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's template, signature
// and body are copied whole, in the source's order, under `// --- path: name`):
// - the #include lines are dropped; CUDA_KERNEL_LOOP (include/caffe/util/device_alternate.hpp,
//   the grid-stride loop every kernel uses) is defined below as Caffe defines it;
// - only the __global__ kernels are copied: Caffe's host launchers (blocks of
//   CAFFE_CUDA_NUM_THREADS = 512 threads, CAFFE_GET_BLOCKS(n) = cdiv(n, 512) blocks) and explicit
//   instantiations are left out; each kernel's float instance is instantiated explicitly at the
//   end of the file (its signature with Dtype = float) and a launch names it (`caffe::Kernel<float>`).

#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)

namespace caffe {

// --- src/caffe/solvers/adam_solver.cu: AdamUpdate
template <typename Dtype>
__global__ void AdamUpdate(int N, Dtype* g, Dtype* m, Dtype* v,
    Dtype beta1, Dtype beta2, Dtype eps_hat, Dtype corrected_local_rate) {
  CUDA_KERNEL_LOOP(i, N) {
    float gi = g[i];
    float mi = m[i] = m[i]*beta1 + gi*(1-beta1);
    float vi = v[i] = v[i]*beta2 + gi*gi*(1-beta2);
    g[i] = corrected_local_rate * mi / (sqrt(vi) + eps_hat);
  }
}

// --- src/caffe/solvers/rmsprop_solver.cu: RMSPropUpdate
template <typename Dtype>
__global__ void RMSPropUpdate(int N, Dtype* g, Dtype* h,
    Dtype rms_decay, Dtype delta, Dtype local_rate) {
  CUDA_KERNEL_LOOP(i, N) {
    float gi = g[i];
    float hi = h[i] = rms_decay*h[i] + (1-rms_decay)*gi*gi;
    g[i] = local_rate * g[i] / (sqrt(hi) + delta);
  }
}

// --- src/caffe/solvers/adagrad_solver.cu: AdaGradUpdate
template <typename Dtype>
__global__ void AdaGradUpdate(int N, Dtype* g, Dtype* h, Dtype delta,
    Dtype local_rate) {
  CUDA_KERNEL_LOOP(i, N) {
    float gi = g[i];
    float hi = h[i] = h[i] + gi*gi;
    g[i] = local_rate * gi / (sqrt(hi) + delta);
  }
}

// --- src/caffe/solvers/nesterov_solver.cu: NesterovUpdate
template <typename Dtype>
__global__ void NesterovUpdate(int N, Dtype* g, Dtype* h,
    Dtype momentum, Dtype local_rate) {
  CUDA_KERNEL_LOOP(i, N) {
    float hi = h[i];
    float hi_new = h[i] = momentum * hi + local_rate * g[i];
    g[i] = (1+momentum) * hi_new - momentum * hi;
  }
}

// --- src/caffe/util/math_functions.cu: set_kernel
template <typename Dtype>
__global__ void set_kernel(const int n, const Dtype alpha, Dtype* y) {
  CUDA_KERNEL_LOOP(index, n) {
    y[index] = alpha;
  }
}

// --- src/caffe/util/math_functions.cu: add_kernel
template <typename Dtype>
__global__ void add_kernel(const int n, const Dtype* a,
    const Dtype* b, Dtype* y) {
  CUDA_KERNEL_LOOP(index, n) {
    y[index] = a[index] + b[index];
  }
}

// --- src/caffe/util/math_functions.cu: mul_kernel
template <typename Dtype>
__global__ void mul_kernel(const int n, const Dtype* a,
    const Dtype* b, Dtype* y) {
  CUDA_KERNEL_LOOP(index, n) {
    y[index] = a[index] * b[index];
  }
}

// --- src/caffe/util/math_functions.cu: div_kernel
template <typename Dtype>
__global__ void div_kernel(const int n, const Dtype* a,
    const Dtype* b, Dtype* y) {
  CUDA_KERNEL_LOOP(index, n) {
    y[index] = a[index] / b[index];
  }
}

// --- src/caffe/util/math_functions.cu: exp_kernel
template <typename Dtype>
__global__ void exp_kernel(const int n, const Dtype* a, Dtype* y) {
  CUDA_KERNEL_LOOP(index, n) {
    y[index] = exp(a[index]);
  }
}

// --- src/caffe/util/math_functions.cu: powx_kernel
template <typename Dtype>
__global__ void powx_kernel(const int n, const Dtype* a,
    const Dtype alpha, Dtype* y) {
  CUDA_KERNEL_LOOP(index, n) {
    y[index] = pow(a[index], alpha);
  }
}

// --- src/caffe/util/math_functions.cu: sqrt_kernel
template <typename Dtype>
__global__ void sqrt_kernel(const int n, const Dtype* a, Dtype* y) {
  CUDA_KERNEL_LOOP(index, n) {
    y[index] = sqrt(a[index]);
  }
}

// The float instances a launch names (Caffe instantiates them through its host launchers).
template __global__ void AdamUpdate<float>(int N, float* g, float* m, float* v, float beta1, float beta2, float eps_hat, float corrected_local_rate);
template __global__ void RMSPropUpdate<float>(int N, float* g, float* h, float rms_decay, float delta, float local_rate);
template __global__ void AdaGradUpdate<float>(int N, float* g, float* h, float delta, float local_rate);
template __global__ void NesterovUpdate<float>(int N, float* g, float* h, float momentum, float local_rate);
template __global__ void set_kernel<float>(const int n, const float alpha, float* y);
template __global__ void add_kernel<float>(const int n, const float* a, const float* b, float* y);
template __global__ void mul_kernel<float>(const int n, const float* a, const float* b, float* y);
template __global__ void div_kernel<float>(const int n, const float* a, const float* b, float* y);
template __global__ void exp_kernel<float>(const int n, const float* a, float* y);
template __global__ void powx_kernel<float>(const int n, const float* a, const float alpha, float* y);
template __global__ void sqrt_kernel<float>(const int n, const float* a, float* y);

}  // namespace caffe
