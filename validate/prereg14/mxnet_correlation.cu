// Pre-registered public kernel (not written for memsim): apache/mxnet
// MXNet's Correlation operator (FlowNet's correlation layer): the NCHW -> padded NHWC rearrangement
// (16-thread blocks, a thread a pixel of a channel plane storing at a stride of the channel count),
// the multiplicative correlation (a 32-thread block an output pixel: its 3-D patch staged in dynamic
// shared memory, then for each of the displacement channels a strided dot product with the second
// image over the channels, a shared sum and lane 0 summing the 32 partials serially, over
// __syncthreads rounds) and the subtractive one (a thread an output element, 1024-thread blocks);
// copied for memsim's fourteenth pre-registered set (validate/prereg14_cases.py).
//
// Repository: apache/mxnet, commit b84609d3fc73d20929c114eab95faaa56e6c5ede
// Paths: src/operator/correlation.cu, src/operator/mxnet_op.h (CUDA_KERNEL_LOOP)
// Licence: Apache-2.0 (the repository's LICENSE; the files' header: Licensed to the Apache Software Foundation (ASF) under one or more contributor license agreements ... under the Apache License, Version 2.0; text in validate/prereg14/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (correlation-inl.h, mshadow: host code); mxnet_op.h's
//   CUDA_KERNEL_LOOP macro (src/operator/mxnet_op.h, lines 57-58) copied; the file's ROUND_OFF,
//   WARPS_PER_BLOCK and THREADS_PER_WARP macros copied; the namespaces mshadow::cuda are dropped;
// - only these three kernels are copied (the backward kernels and the host functions
//   CorrelationForward / CorrelationBackward are left out: their launch shapes and the shapes of
//   correlation-inl.h are in validate/prereg14_cases.py); the templates are instantiated explicitly
//   at the end for float (MSHADOW_REAL_TYPE_SWITCH's float32).
// --- src/operator/mxnet_op.h: lines 57-58
#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

// --- src/operator/correlation.cu: lines 32-34
#define ROUND_OFF        50000
#define WARPS_PER_BLOCK  1
#define THREADS_PER_WARP 32

// --- src/operator/correlation.cu: lines 45-116
template <typename Dtype>
__global__ void CorrelateData(const int nthreads,
                              int num,
                              int topwidth,
                              int topheight,
                              int topchannels,
                              int topcount,
                              int max_displacement,
                              int neighborhood_grid_radius,
                              int neighborhood_grid_width,
                              int kernel_radius,
                              int kernel_size,
                              int stride1,
                              int stride2,
                              int bottomwidth,
                              int bottomheight,
                              int bottomchannels,
                              const Dtype* bottom0,
                              const Dtype* bottom1,
                              Dtype* top) {
  extern __shared__ char patch_data_char[];
  Dtype* patch_data = reinterpret_cast<Dtype*>(patch_data_char);
  //  First (upper left) position of kernel upper-left corner
  //  in current center position of neighborhood in image 1
  int x1     = blockIdx.x * stride1 + max_displacement;
  int y1     = blockIdx.y * stride1 + max_displacement;
  int item   = blockIdx.z;
  int ch_off = threadIdx.x;
  //  Load 3D patch into shared shared memory
  for (int j = 0; j < kernel_size; j++) {    //  HEIGHT
    for (int i = 0; i < kernel_size; i++) {  //  WIDTH
      int ji_off = ((j * kernel_size) + i) * bottomchannels;
      for (int ch = ch_off; ch < bottomchannels; ch += (THREADS_PER_WARP * WARPS_PER_BLOCK)) {
        //  CHANNELS
        int idx1 = ((item * bottomheight + y1 + j) * bottomwidth + x1 + i) * bottomchannels + ch;
        int idxPatchData         = ji_off + ch;
        patch_data[idxPatchData] = bottom0[idx1];
      }
    }
  }
  __syncthreads();
  __shared__ Dtype sum[THREADS_PER_WARP * WARPS_PER_BLOCK];
  //  Compute correlation
  for (int top_channel = 0; top_channel < topchannels; top_channel++) {
    sum[ch_off] = 0;
    int s2o     = (top_channel % neighborhood_grid_width - neighborhood_grid_radius) * stride2;
    int s2p     = (top_channel / neighborhood_grid_width - neighborhood_grid_radius) * stride2;
    for (int j = 0; j < kernel_size; j++) {    //  HEIGHT
      for (int i = 0; i < kernel_size; i++) {  //  WIDTH
        int ji_off = ((j * kernel_size) + i) * bottomchannels;
        for (int ch = ch_off; ch < bottomchannels; ch += (THREADS_PER_WARP * WARPS_PER_BLOCK)) {
          //  CHANNELS
          int x2           = x1 + s2o;
          int y2           = y1 + s2p;
          int idxPatchData = ji_off + ch;
          int idx2 = ((item * bottomheight + y2 + j) * bottomwidth + x2 + i) * bottomchannels + ch;
          sum[ch_off] += patch_data[idxPatchData] * bottom1[idx2];
        }
      }
    }
    __syncthreads();
    if (ch_off == 0) {
      Dtype total_sum = 0;
      for (int idx = 0; idx < THREADS_PER_WARP * WARPS_PER_BLOCK; idx++) {
        total_sum += sum[idx];
      }
      const int sumelems = kernel_size * kernel_size * bottomchannels;
      const int index    = ((top_channel * topheight + blockIdx.y) * topwidth) + blockIdx.x;
      top[index + item * topcount] = total_sum / static_cast<float>(sumelems);
    }  //  Aggregate result of  different threads
  }
}

// --- src/operator/correlation.cu: lines 275-324
template <typename Dtype>
__global__ void CorrelateDataSubtract(const int nthreads,
                                      int num,
                                      int item,
                                      int topwidth,
                                      int topheight,
                                      int topchannels,
                                      int topcount,
                                      int max_displacement,
                                      int neighborhood_grid_radius,
                                      int neighborhood_grid_width,
                                      int kernel_radius,
                                      int stride1,
                                      int stride2,
                                      int bottomwidth,
                                      int bottomheight,
                                      int bottomchannels,
                                      const Dtype* bottom0,
                                      const Dtype* bottom1,
                                      Dtype* top) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    int x = index % topwidth;                              //  w-pos
    int y = (index / topwidth) % topheight;                //  h-pos
    int c = (index / topwidth / topheight) % topchannels;  //  channels
    //  Offset of patch in image 2
    int s2o = (c % neighborhood_grid_width - neighborhood_grid_radius) * stride2;
    int s2p = (c / neighborhood_grid_width - neighborhood_grid_radius) * stride2;
    //  First (upper left) position of kernel center in current neighborhood in image 1
    int x1 = x * stride1 + kernel_radius + max_displacement;
    int y1 = y * stride1 + kernel_radius + max_displacement;
    //  Iterate through 3D patch
    Dtype sum = 0;
    for (int j = -kernel_radius; j <= kernel_radius; j++) {    //  HEIGHT
      for (int i = -kernel_radius; i <= kernel_radius; i++) {  //  WIDTH
        for (int l = 0; l < bottomchannels; l++) {             //  CHANNELS
          //  Calculate position in image 2
          int x2 = x1 + s2o;
          int y2 = y1 + s2p;
          //  Indices in bottom data: (CH=l,W=x2,H=y2,N)
          int idx1 = ((item * bottomheight + y1 + j) * bottomwidth + x1 + i) * bottomchannels + l;
          int idx2 = ((item * bottomheight + y2 + j) * bottomwidth + x2 + i) * bottomchannels + l;
          //  Do the correlation:
          sum += fabsf(bottom0[idx1] - bottom1[idx2]);
        }
      }
    }
    const int sumelems = (kernel_radius * 2 + 1) * (kernel_radius * 2 + 1) * bottomchannels;
    top[index + item * topcount] = sum / static_cast<float>(sumelems);
  }
}

// --- src/operator/correlation.cu: lines 493-515
template <typename Dtype>
__global__ void blob_rearrange_kernel2(const Dtype* in,
                                       Dtype* out,
                                       int num,
                                       int channels,
                                       int width,
                                       int height,
                                       int widthheight,
                                       int padding,
                                       int pwidthheight) {
  //  change shape from [batchsize,channel,y,x] to [batchsize,y,x,channel]
  int xy = blockIdx.x * blockDim.x + threadIdx.x;
  if (xy >= widthheight)
    return;
  int ch      = blockIdx.y;
  int n       = blockIdx.z;
  Dtype value = in[(n * channels + ch) * widthheight + xy];
  __syncthreads();
  int xpad                                        = (xy % width + padding);
  int ypad                                        = (xy / width + padding);
  int xypad                                       = ypad * (width + 2 * padding) + xpad;
  out[(n * pwidthheight + xypad) * channels + ch] = value;
}

// --- explicit instantiations (float)
template __global__ void CorrelateData<float>(const int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, const float*, const float*, float*);
template __global__ void CorrelateDataSubtract<float>(const int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, const float*, const float*, float*);
template __global__ void blob_rearrange_kernel2<float>(const float*, float*, int, int, int, int, int, int, int);
