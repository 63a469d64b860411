// Pre-registered public kernel (not written for memsim): open-mmlab/mmcv
// mmcv's masked im2col (a thread a (channel, masked pixel), a serial loop over the kernel window,
// gathering the image around mask positions into columns); copied for memsim's twelfth pre-registered set (validate/prereg12_cases.py).
//
// Repository: open-mmlab/mmcv, commit a8073c74bf83d62ec36a103f835faa4837fb6585
// Paths: mmcv/ops/csrc/common/cuda/masked_conv2d_cuda_kernel.cuh
// Licence: Apache-2.0 (Copyright (c) OpenMMLab; text in validate/prereg12/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body
// copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines of the copied headers are dropped (int64_t defined); the macros of common_cuda_helper.hpp the kernels use are defined as there;
// - MaskedCol2imForward (a scatter whose duplicate mask positions would race) and the host launchers
//   (masked_conv2d_cuda.cu) are left out; the kernel is instantiated explicitly at the end for float.

typedef long long int64_t;
#define CUDA_1D_KERNEL_LOOP(i, n)                              \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += blockDim.x * gridDim.x)   // mmcv/ops/csrc/common/cuda/common_cuda_helper.hpp

// --- mmcv/ops/csrc/common/cuda/masked_conv2d_cuda_kernel.cuh: lines 11-43
template <typename scalar_t>
__global__ void MaskedIm2colForward(const int n, const scalar_t *data_im,
                                    const int height, const int width,
                                    const int kernel_h, const int kernel_w,
                                    const int pad_h, const int pad_w,
                                    const int64_t *mask_h_idx,
                                    const int64_t *mask_w_idx,
                                    const int mask_cnt, scalar_t *data_col) {
  // mask_cnt * channels
  CUDA_1D_KERNEL_LOOP(index, n) {
    const int m_index = index % mask_cnt;
    const int h_col = mask_h_idx[m_index];
    const int w_col = mask_w_idx[m_index];
    const int c_im = index / mask_cnt;
    const int c_col = c_im * kernel_h * kernel_w;
    const int h_offset = h_col - pad_h;
    const int w_offset = w_col - pad_w;
    scalar_t *data_col_ptr = data_col + c_col * mask_cnt + m_index;
    for (int i = 0; i < kernel_h; ++i) {
      int h_im = h_offset + i;
      for (int j = 0; j < kernel_w; ++j) {
        int w_im = w_offset + j;
        if (h_im >= 0 && w_im >= 0 && h_im < height && w_im < width) {
          *data_col_ptr =
              (scalar_t)data_im[(c_im * height + h_im) * width + w_im];
        } else {
          *data_col_ptr = 0.0;
        }
        data_col_ptr += mask_cnt;
      }
    }
  }
}

template __global__ void MaskedIm2colForward<float>(const int, const float *, const int, const int, const int, const int, const int, const int, const int64_t *, const int64_t *, const int, float *);
