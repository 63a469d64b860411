// Pre-registered public kernel (not written for memsim): open-mmlab/mmcv
// mmcv's sigmoid focal loss (forward and backward, a thread an element) and softmax focal loss
// (a thread a sample, a gather of its label's probability); copied for memsim's twelfth pre-registered set (validate/prereg12_cases.py).
//
// Repository: open-mmlab/mmcv, commit a8073c74bf83d62ec36a103f835faa4837fb6585
// Paths: mmcv/ops/csrc/common/cuda/sigmoid_focal_loss_cuda_kernel.cuh, mmcv/ops/csrc/common/cuda/softmax_focal_loss_cuda_kernel.cuh
// Licence: Apache-2.0 (Copyright (c) OpenMMLab; text in validate/prereg12/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body
// copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines of the copied headers are dropped (FLT_MIN, float.h's, and int64_t defined); the macros of common_cuda_helper.hpp the kernels use are defined as there;
// - the softmax backward kernels are left out; the host launchers (focal_loss_cuda.cu) too; the kernels
//   are instantiated explicitly at the end for float.

#define FLT_MIN 1.175494351e-38F   // float.h
typedef long long int64_t;
#define CUDA_1D_KERNEL_LOOP(i, n)                              \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += blockDim.x * gridDim.x)   // mmcv/ops/csrc/common/cuda/common_cuda_helper.hpp

// --- mmcv/ops/csrc/common/cuda/sigmoid_focal_loss_cuda_kernel.cuh: lines 11-69
template <typename T>
__global__ void sigmoid_focal_loss_forward_cuda_kernel(
    const int nthreads, const T* input, const int64_t* target, const T* weight,
    T* output, const T gamma, const T alpha, const int num_classes) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    int n = index / num_classes;
    int c = index % num_classes;

    int64_t t = target[n];
    T flag_p = (t == c);
    T flag_n = (t != c);

    // p = sigmoid(x) = 1. / 1. + expf(-x)
    T p = (T)1. / ((T)1. + expf(-input[index]));

    // (1 - p)**gamma * log(p)
    T term_p = pow(((T)1. - p), gamma) * log(max(p, (T)FLT_MIN));
    // p**gamma * log(1 - p)
    T term_n = pow(p, gamma) * log(max((T)1. - p, (T)FLT_MIN));

    output[index] = (T)0.;
    output[index] += -flag_p * alpha * term_p;
    output[index] += -flag_n * ((T)1. - alpha) * term_n;
    if (weight != NULL) {
      output[index] *= weight[t];
    }
  }
}

template <typename T>
__global__ void sigmoid_focal_loss_backward_cuda_kernel(
    const int nthreads, const T* input, const int64_t* target, const T* weight,
    T* grad_input, const T gamma, const T alpha, const int num_classes) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    int n = index / num_classes;
    int c = index % num_classes;

    int64_t t = target[n];
    T flag_p = (t == c);
    T flag_n = (t != c);

    // p = sigmoid(x) = 1. / 1. + expf(-x)
    T p = (T)1. / ((T)1. + exp(-input[index]));

    // (1 - p)**gamma * (1 - p - gamma*p*log(p))
    T term_p = pow(((T)1. - p), gamma) *
               ((T)1. - p - (gamma * p * log(max(p, (T)FLT_MIN))));
    // p**gamma * (gamma * (1 - p) * log(1 - p) - p)
    T term_n = pow(p, gamma) *
               (gamma * ((T)1. - p) * log(max((T)1. - p, (T)FLT_MIN)) - p);

    grad_input[index] = (T)0.;
    grad_input[index] += -flag_p * alpha * term_p;
    grad_input[index] += -flag_n * ((T)1. - alpha) * term_n;
    if (weight != NULL) {
      grad_input[index] *= weight[t];
    }
  }
}

// --- mmcv/ops/csrc/common/cuda/softmax_focal_loss_cuda_kernel.cuh: lines 11-30
template <typename T>
__global__ void softmax_focal_loss_forward_cuda_kernel(
    const int nthreads, const T* softmax, const int64_t* target,
    const T* weight, T* output, const T gamma, const T alpha,
    const int num_classes) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    int64_t label = target[index];
    T pred = softmax[index * num_classes + label];

    if (label >= 0) {
      output[index] =
          -alpha * pow((T)1. - pred, gamma) * log(max(pred, (T)FLT_MIN));
    } else {
      output[index] = 0;
    }
    if (weight != NULL) {
      output[index] *= weight[label];
    }
  }
}

template __global__ void sigmoid_focal_loss_forward_cuda_kernel<float>(const int, const float *, const int64_t *, const float *, float *, const float, const float, const int);
template __global__ void sigmoid_focal_loss_backward_cuda_kernel<float>(const int, const float *, const int64_t *, const float *, float *, const float, const float, const int);
template __global__ void softmax_focal_loss_forward_cuda_kernel<float>(const int, const float *, const int64_t *, const float *, float *, const float, const float, const int);
