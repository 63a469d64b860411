// Pre-registered public kernel (not written for memsim): facebookresearch/detectron2
// Detectron2's rotated RoIAlign forward (ROIAlignRotated, used by rotated-box detectors): a thread
// an output bin (n, c, ph, pw) over a grid-stride loop of min(ceil(out / 512), 4096) blocks of 512,
// each bin averaging roi_bin_grid_h x roi_bin_grid_w bilinear samples of its rotated box (a fixed
// sampling ratio, or ceil(roi side / pooled side) when it is 0: data-dependent loops), float;
// copied for memsim's fifteenth pre-registered set (validate/prereg15_cases.py).
//
// Repository: facebookresearch/detectron2, commit 02b5c4e295e990042a714712c21dc79b731e8833
// Paths: detectron2/layers/csrc/ROIAlignRotated/ROIAlignRotated_cuda.cu (lines 7-76, 141-222)
// Licence: Apache-2.0 (the repository's LICENSE; the file's header: "Copyright (c) Facebook, Inc.
// and its affiliates."; text in validate/prereg15/LICENSES.md)
//
// Edits, all outside the kernel body, which is unchanged (the kernel's signature and body, and
// its helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (ATen, c10: host code); M_PI defined as <cmath>'s;
// - only the forward kernel and its bilinear_interpolate are copied (RoIAlignRotatedBackwardFeature
//   and its bilinear_interpolate_gradient are left out: float atomics of bilinear weights, whose
//   sums depend on their order; the host functions are left out: the forward's launch shape is in
//   validate/prereg15_cases.py); the template is instantiated explicitly at the end for float
//   (AT_DISPATCH_FLOATING_TYPES' float).
#define M_PI 3.14159265358979323846   // <cmath>'s

// --- detectron2/layers/csrc/ROIAlignRotated/ROIAlignRotated_cuda.cu: lines 7-76
// TODO make it in a common file
#define CUDA_1D_KERNEL_LOOP(i, n)                            \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; \
       i += blockDim.x * gridDim.x)

// Note: this implementation originates from the Caffe2 ROIAlignRotated Op
// and PyTorch ROIAlign (non-rotated) Op implementations.
// The key difference between this implementation and those ones is
// we don't do "legacy offset" in this version, as there aren't many previous
// works, if any, using the "legacy" ROIAlignRotated Op.
// This would make the interface a bit cleaner.

namespace detectron2 {

namespace {

template <typename T>
__device__ T bilinear_interpolate(
    const T* input,
    const int height,
    const int width,
    T y,
    T x) {
  // deal with cases that inverse elements are out of feature map boundary
  if (y < -1.0 || y > height || x < -1.0 || x > width) {
    // empty
    return 0;
  }

  if (y < 0) {
    y = 0;
  }

  if (x < 0) {
    x = 0;
  }

  int y_low = (int)y;
  int x_low = (int)x;
  int y_high;
  int x_high;

  if (y_low >= height - 1) {
    y_high = y_low = height - 1;
    y = (T)y_low;
  } else {
    y_high = y_low + 1;
  }

  if (x_low >= width - 1) {
    x_high = x_low = width - 1;
    x = (T)x_low;
  } else {
    x_high = x_low + 1;
  }

  T ly = y - y_low;
  T lx = x - x_low;
  T hy = 1. - ly, hx = 1. - lx;
  // do bilinear interpolation
  T v1 = input[y_low * width + x_low];
  T v2 = input[y_low * width + x_high];
  T v3 = input[y_high * width + x_low];
  T v4 = input[y_high * width + x_high];
  T w1 = hy * hx, w2 = hy * lx, w3 = ly * hx, w4 = ly * lx;

  T val = (w1 * v1 + w2 * v2 + w3 * v3 + w4 * v4);

  return val;
}

// --- detectron2/layers/csrc/ROIAlignRotated/ROIAlignRotated_cuda.cu: lines 141-222
} // namespace

template <typename T>
__global__ void RoIAlignRotatedForward(
    const int nthreads,
    const T* input,
    const T spatial_scale,
    const int channels,
    const int height,
    const int width,
    const int pooled_height,
    const int pooled_width,
    const int sampling_ratio,
    const T* rois,
    T* top_data) {
  CUDA_1D_KERNEL_LOOP(index, nthreads) {
    // (n, c, ph, pw) is an element in the pooled output
    int pw = index % pooled_width;
    int ph = (index / pooled_width) % pooled_height;
    int c = (index / pooled_width / pooled_height) % channels;
    int n = index / pooled_width / pooled_height / channels;

    const T* current_roi = rois + n * 6;
    int roi_batch_ind = current_roi[0];

    // Do not use rounding; this implementation detail is critical
    // ROIAlignRotated supports align == true, i.e., continuous coordinate
    // by default, thus the 0.5 offset
    T offset = (T)0.5;
    T roi_center_w = current_roi[1] * spatial_scale - offset;
    T roi_center_h = current_roi[2] * spatial_scale - offset;
    T roi_width = current_roi[3] * spatial_scale;
    T roi_height = current_roi[4] * spatial_scale;
    T theta = current_roi[5] * M_PI / 180.0;
    T cos_theta = cos(theta);
    T sin_theta = sin(theta);

    T bin_size_h = static_cast<T>(roi_height) / static_cast<T>(pooled_height);
    T bin_size_w = static_cast<T>(roi_width) / static_cast<T>(pooled_width);

    const T* offset_input =
        input + (roi_batch_ind * channels + c) * height * width;

    // We use roi_bin_grid to sample the grid and mimic integral
    int roi_bin_grid_h = (sampling_ratio > 0)
        ? sampling_ratio
        : ceil(roi_height / pooled_height); // e.g., = 2
    int roi_bin_grid_w =
        (sampling_ratio > 0) ? sampling_ratio : ceil(roi_width / pooled_width);

    // roi_start_h and roi_start_w are computed wrt the center of RoI (x, y).
    // Appropriate translation needs to be applied after.
    T roi_start_h = -roi_height / 2.0;
    T roi_start_w = -roi_width / 2.0;

    // We do average (inte  gral) pooling inside a bin
    const T count = max(roi_bin_grid_h * roi_bin_grid_w, 1); // e.g. = 4

    T output_val = 0.;
    for (int iy = 0; iy < roi_bin_grid_h; iy++) // e.g., iy = 0, 1
    {
      const T yy = roi_start_h + ph * bin_size_h +
          static_cast<T>(iy + .5f) * bin_size_h /
              static_cast<T>(roi_bin_grid_h); // e.g., 0.5, 1.5
      for (int ix = 0; ix < roi_bin_grid_w; ix++) {
        const T xx = roi_start_w + pw * bin_size_w +
            static_cast<T>(ix + .5f) * bin_size_w /
                static_cast<T>(roi_bin_grid_w);

        // Rotate by theta around the center and translate
        T y = yy * cos_theta - xx * sin_theta + roi_center_h;
        T x = yy * sin_theta + xx * cos_theta + roi_center_w;

        T val = bilinear_interpolate(offset_input, height, width, y, x);
        output_val += val;
      }
    }
    output_val /= count;

    top_data[index] = output_val;
  }
}

} // namespace detectron2 (the file's, line 445)

// Explicit instance (AT_DISPATCH_FLOATING_TYPES' float)
template __global__ void detectron2::RoIAlignRotatedForward<float>(const int, const float*, const float, const int, const int,
    const int, const int, const int, const int, const float*, float*);
