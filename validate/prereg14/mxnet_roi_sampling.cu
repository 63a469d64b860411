// Pre-registered public kernel (not written for memsim): apache/mxnet
// MXNet's region and sampling operators: ROIPooling (Fast R-CNN's max pooling of a region: a thread
// an output bin looping over its input window, argmax kept; launched as mshadow launches it, a
// 65535-wide grid of 1024-thread blocks whatever the output's size), PSROIPooling (R-FCN's
// position-sensitive average pooling, a thread a bin), the BilinearSampler (a thread an output
// element, four gathers at the sampling grid's point) and the CountSketch projection (a thread an
// input element: float atomics into its hashed output column, and the backward gather); copied for
// memsim's fourteenth pre-registered set (validate/prereg14_cases.py).
//
// Repository: apache/mxnet, commit b84609d3fc73d20929c114eab95faaa56e6c5ede
// Paths: src/operator/roi_pooling.cu, src/operator/contrib/psroi_pooling.cu, src/operator/bilinear_sampler.cu, src/operator/contrib/count_sketch.cu, src/operator/mxnet_op.h (CUDA_KERNEL_LOOP)
// Licence: Apache-2.0 (the repository's LICENSE; the files' header: Licensed to the Apache Software Foundation (ASF) under one or more contributor license agreements ... under the Apache License, Version 2.0; psroi_pooling.cu's: Copyright (c) 2017 Microsoft, Licensed under The Apache-2.0 License; text in validate/prereg14/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (the operators' -inl.h headers, mshadow, mxnet_op.h: host code);
//   mshadow's index_t (int64_t: MSHADOW_INT64_TENSOR_SIZE, on by default in MXNet's CMakeLists.txt)
//   and <cfloat>'s FLT_MAX defined as there; mxnet_op.h's CUDA_KERNEL_LOOP macro (lines 57-58)
//   copied; the namespaces mshadow::cuda are dropped;
// - count_sketch.cu's atomic_add overloads copied with its kernels; only the forward kernels (and
//   sketch_backward_kernel) are copied: the other backward kernels, BilinearSamplerBackwardKernel's
//   float atomics, and the host functions are left out (their launch shapes are in
//   validate/prereg14_cases.py); the templates are instantiated explicitly at the end for float.
typedef long long int64_t;   // <cstdint>'s
typedef int64_t index_t;     // mshadow/base.h (MSHADOW_INT64_TENSOR_SIZE == 1)
#define FLT_MAX 3.402823466e+38F   // <cfloat>'s

// --- src/operator/mxnet_op.h: lines 57-58
#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

// --- src/operator/roi_pooling.cu: lines 34-106
template <typename Dtype>
__global__ void ROIPoolForwardKernel(const int count,
                                     const Dtype* bottom_data,
                                     const float spatial_scale,
                                     const int batch_size,
                                     const int channels,
                                     const int height,
                                     const int width,
                                     const int pooled_height,
                                     const int pooled_width,
                                     const Dtype* bottom_rois,
                                     Dtype* top_data,
                                     index_t* argmax_data) {
  for (index_t index = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
       index < count;
       index += blockDim.x * gridDim.x * gridDim.y) {
    // (n, c, ph, pw) is an element in the pooled output
    int pw = index % pooled_width;
    int ph = (index / pooled_width) % pooled_height;
    int c  = (index / pooled_width / pooled_height) % channels;
    int n  = index / pooled_width / pooled_height / channels;

    bottom_rois += n * 5;
    int roi_batch_ind = static_cast<int>(bottom_rois[0]);

    if (roi_batch_ind < 0 || roi_batch_ind >= batch_size) {
      top_data[index]    = 0;
      argmax_data[index] = -1;
      continue;
    }

    int roi_start_w = round(bottom_rois[1] * spatial_scale);
    int roi_start_h = round(bottom_rois[2] * spatial_scale);
    int roi_end_w   = round(bottom_rois[3] * spatial_scale);
    int roi_end_h   = round(bottom_rois[4] * spatial_scale);

    // Force malformed ROIs to be 1x1
    int roi_width    = max(roi_end_w - roi_start_w + 1, 1);
    int roi_height   = max(roi_end_h - roi_start_h + 1, 1);
    Dtype bin_size_h = static_cast<Dtype>(roi_height) / static_cast<Dtype>(pooled_height);
    Dtype bin_size_w = static_cast<Dtype>(roi_width) / static_cast<Dtype>(pooled_width);

    int hstart = static_cast<int>(floor(static_cast<Dtype>(ph) * bin_size_h));
    int wstart = static_cast<int>(floor(static_cast<Dtype>(pw) * bin_size_w));
    int hend   = static_cast<int>(ceil(static_cast<Dtype>(ph + 1) * bin_size_h));
    int wend   = static_cast<int>(ceil(static_cast<Dtype>(pw + 1) * bin_size_w));

    // Add roi offsets and clip to input boundaries
    hstart        = min(max(hstart + roi_start_h, 0), height);
    hend          = min(max(hend + roi_start_h, 0), height);
    wstart        = min(max(wstart + roi_start_w, 0), width);
    wend          = min(max(wend + roi_start_w, 0), width);
    bool is_empty = (hend <= hstart) || (wend <= wstart);

    // Define an empty pooling region to be zero
    Dtype maxval = is_empty ? 0 : -FLT_MAX;
    // If nothing is pooled, argmax = -1 causes nothing to be backprop'd
    index_t maxidx             = -1;
    index_t offset_bottom_data = (roi_batch_ind * channels + c) * height * width;
    bottom_data += offset_bottom_data;
    for (int h = hstart; h < hend; ++h) {
      for (int w = wstart; w < wend; ++w) {
        index_t bottom_index = h * width + w;
        if (bottom_data[bottom_index] > maxval) {
          maxval = bottom_data[bottom_index];
          maxidx = offset_bottom_data + bottom_index;
        }
      }
    }
    top_data[index]    = maxval;
    argmax_data[index] = maxidx;
  }
}

// --- src/operator/contrib/psroi_pooling.cu: lines 26-91
template <typename DType>
__global__ void PSROIPoolForwardKernel(const int count,
                                       const DType* bottom_data,
                                       const DType spatial_scale,
                                       const int channels,
                                       const int height,
                                       const int width,
                                       const int pooled_height,
                                       const int pooled_width,
                                       const DType* bottom_rois,
                                       const int output_dim,
                                       const int group_size,
                                       DType* top_data) {
  CUDA_KERNEL_LOOP(index, count) {
    // The output is in order (n, ctop, ph, pw)
    int pw   = index % pooled_width;
    int ph   = (index / pooled_width) % pooled_height;
    int ctop = (index / pooled_width / pooled_height) % output_dim;
    int n    = index / pooled_width / pooled_height / output_dim;

    // [start, end) interval for spatial sampling
    const DType* offset_bottom_rois = bottom_rois + n * 5;
    int roi_batch_ind               = offset_bottom_rois[0];
    DType roi_start_w = static_cast<DType>(round(offset_bottom_rois[1])) * spatial_scale;
    DType roi_start_h = static_cast<DType>(round(offset_bottom_rois[2])) * spatial_scale;
    DType roi_end_w   = static_cast<DType>(round(offset_bottom_rois[3]) + 1.) * spatial_scale;
    DType roi_end_h   = static_cast<DType>(round(offset_bottom_rois[4]) + 1.) * spatial_scale;

    // Force too small ROIs to be 1x1
    DType roi_width  = max(roi_end_w - roi_start_w, 0.1);  // avoid 0
    DType roi_height = max(roi_end_h - roi_start_h, 0.1);

    // Compute w and h at bottom
    DType bin_size_h = roi_height / static_cast<DType>(pooled_height);
    DType bin_size_w = roi_width / static_cast<DType>(pooled_width);

    int hstart = floor(static_cast<DType>(ph) * bin_size_h + roi_start_h);
    int wstart = floor(static_cast<DType>(pw) * bin_size_w + roi_start_w);
    int hend   = ceil(static_cast<DType>(ph + 1) * bin_size_h + roi_start_h);
    int wend   = ceil(static_cast<DType>(pw + 1) * bin_size_w + roi_start_w);
    // Add roi offsets and clip to input boundaries
    hstart        = min(max(hstart, 0), height);
    hend          = min(max(hend, 0), height);
    wstart        = min(max(wstart, 0), width);
    wend          = min(max(wend, 0), width);
    bool is_empty = (hend <= hstart) || (wend <= wstart);

    int gw = floor(static_cast<DType>(pw) * group_size / pooled_width);
    int gh = floor(static_cast<DType>(ph) * group_size / pooled_height);
    gw     = min(max(gw, 0), group_size - 1);
    gh     = min(max(gh, 0), group_size - 1);
    int c  = (ctop * group_size + gh) * group_size + gw;

    const DType* offset_bottom_data = bottom_data + (roi_batch_ind * channels + c) * height * width;
    DType out_sum                   = 0;
    for (int h = hstart; h < hend; ++h) {
      for (int w = wstart; w < wend; ++w) {
        int bottom_index = h * width + w;
        out_sum += offset_bottom_data[bottom_index];
      }
    }

    DType bin_area  = (hend - hstart) * (wend - wstart);
    top_data[index] = is_empty ? (DType)0. : out_sum / bin_area;
  }
}

// --- src/operator/bilinear_sampler.cu: lines 35-38
template <typename DType>
__device__ bool between(DType value, int lowerBound, int upperBound) {
  return (value >= lowerBound && value <= upperBound);
}

// --- src/operator/bilinear_sampler.cu: lines 39-84
template <typename DType>
__global__ void BilinearSamplerForwardKernel(const int i_c,
                                             const int i_h,
                                             const int i_w,
                                             const DType* data,
                                             const DType* grid,
                                             const int o_n,
                                             const int o_c,
                                             const int o_h,
                                             const int o_w,
                                             DType* out) {
  for (int index = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
       index < o_n * o_c * o_h * o_w;
       index += blockDim.x * gridDim.x * gridDim.y) {
    // (n, c, h, w) is the element in out
    int w                = index % o_w;
    int h                = (index / o_w) % o_h;
    int c                = (index / o_w / o_h) % o_c;
    int n                = index / o_w / o_h / o_c;
    int out_index        = n * o_c * o_h * o_w + c * o_h * o_w + h * o_w + w;
    int grid_index       = n * o_h * o_w * 2 + h * o_w + w;
    DType y_real         = (*(grid + grid_index + o_h * o_w) + 1) * (i_h - 1) / 2;
    DType x_real         = (*(grid + grid_index) + 1) * (i_w - 1) / 2;
    int top_left_y       = static_cast<int>(floor(y_real));
    int top_left_x       = static_cast<int>(floor(x_real));
    DType top_left_y_w   = 1.0 - (y_real - top_left_y);
    DType top_left_x_w   = 1.0 - (x_real - top_left_x);
    int data_index       = n * i_c * i_h * i_w + c * i_h * i_w + top_left_y * i_w + top_left_x;
    DType top_left_v     = 0;
    DType top_right_v    = 0;
    DType bottom_left_v  = 0;
    DType bottom_right_v = 0;
    if (between(top_left_x, 0, i_w - 1) && between(top_left_y, 0, i_h - 1))
      top_left_v = *(data + data_index);
    if (between(top_left_x + 1, 0, i_w - 1) && between(top_left_y, 0, i_h - 1))
      top_right_v = *(data + data_index + 1);
    if (between(top_left_x, 0, i_w - 1) && between(top_left_y + 1, 0, i_h - 1))
      bottom_left_v = *(data + data_index + i_w);
    if (between(top_left_x + 1, 0, i_w - 1) && between(top_left_y + 1, 0, i_h - 1))
      bottom_right_v = *(data + data_index + i_w + 1);
    *(out + out_index) = top_left_v * top_left_y_w * top_left_x_w +
                         top_right_v * top_left_y_w * (1.0 - top_left_x_w) +
                         bottom_left_v * (1.0 - top_left_y_w) * top_left_x_w +
                         bottom_right_v * (1.0 - top_left_y_w) * (1.0 - top_left_x_w);
  }
}

// --- src/operator/contrib/count_sketch.cu: lines 37-39
__device__ void atomic_add(float* dst, float val) {
  atomicAdd(dst, val);
}

// --- src/operator/contrib/count_sketch.cu: lines 42-57
__device__ void atomic_add(double* address, double val) {
  // code example in the official document at:
  // http://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html
  // #atomic-functions

  // NOLINT_NEXT_LINE(runtime/int)
  unsigned long long int* address_as_ull = (unsigned long long int*)address;  // NOLINT(*)
  unsigned long long int old             = *address_as_ull, assumed;          // NOLINT(*)
  do {
    assumed = old;
    old     = atomicCAS(
        address_as_ull, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
    // Note: uses integer comparison to avoid hang in case of NaN
    // (since NaN != NaN)
  } while (assumed != old);
}

// --- src/operator/contrib/count_sketch.cu: lines 59-82
template <typename DType>
__global__ void sketch_forward_kernel(const int nthreads,
                                      DType* out,
                                      const DType* h,
                                      const DType* s,
                                      const DType* in,
                                      const int n_smaples,
                                      const int in_dim,
                                      const int out_dim) {
  // input: n_smaples * in_dim
  // output: n_smaples * out_dim
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= nthreads) {
    return;
  }
  // nthreads is the maximum of thread indices, should be equal to in_dim
  // index is point index
  const int i_indim  = index % in_dim;
  const int i_sample = index / in_dim;

  // get the target location in the output
  const int target = i_sample * out_dim + h[i_indim];
  atomic_add(out + target, s[i_indim] * in[index]);
}

// --- src/operator/contrib/count_sketch.cu: lines 84-103
template <typename DType>
__global__ void sketch_backward_kernel(const int nthreads,
                                       DType* in_grad,
                                       const DType* h,
                                       const DType* s,
                                       const DType* out_grad,
                                       const int n_smaples,
                                       const int in_dim,
                                       const int out_dim) {
  // only calculate gradient regarding x
  // can also calculate gradient regarding s if needed
  const int index    = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= nthreads) {
    return;
  }
  const int i_indim  = index % in_dim;
  const int i_sample = index / in_dim;
  const int i_outdim = i_sample * out_dim + h[i_indim];
  in_grad[index]     = out_grad[i_outdim] * s[i_indim];
}

// --- explicit instantiations (float)
template __global__ void ROIPoolForwardKernel<float>(const int, const float*, const float, const int, const int, const int, const int, const int, const int, const float*, float*, index_t*);
template __global__ void PSROIPoolForwardKernel<float>(const int, const float*, const float, const int, const int, const int, const int, const int, const float*, const int, const int, float*);
template __global__ void BilinearSamplerForwardKernel<float>(const int, const int, const int, const float*, const float*, const int, const int, const int, const int, float*);
template __global__ void sketch_forward_kernel<float>(const int, float*, const float*, const float*, const float*, const int, const int, const int);
template __global__ void sketch_backward_kernel<float>(const int, float*, const float*, const float*, const float*, const int, const int, const int);
