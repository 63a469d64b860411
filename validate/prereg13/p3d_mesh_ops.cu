// Pre-registered public kernel (not written for memsim): facebookresearch/pytorch3d
// PyTorch3D's mesh and sampling kernels: face areas and normals (a thread a face, gathers of its
// three vertices), face-attribute interpolation (a thread a (pixel, channel), a gather of its face's
// three vertex attributes), the graph-convolution gather-scatter (a block an edge, its threads over
// the features, float atomics), the inverse-CDF sampler of NeRF-style PDFs (32-thread blocks, a
// per-thread walk along the bins) and the triangle and point bounding boxes of the coarse rasteriser;
// copied for memsim's thirteenth pre-registered set (validate/prereg13_cases.py).
//
// Repository: facebookresearch/pytorch3d, commit 9381c4016376345bb795b97c45a6c2de66db354a
// Paths: pytorch3d/csrc/face_areas_normals/face_areas_normals.cu, pytorch3d/csrc/interp_face_attrs/interp_face_attrs.cu, pytorch3d/csrc/gather_scatter/gather_scatter.cu, pytorch3d/csrc/sample_pdf/sample_pdf.cu, pytorch3d/csrc/rasterize_coarse/rasterize_coarse.cu, pytorch3d/csrc/utils/float_math.cuh (FloatMin3, FloatMax3), pytorch3d/csrc/utils/geometry_utils.cuh (kEpsilon)
// Licence: BSD-3-Clause (the repository's LICENSE, "BSD License For PyTorch3D software", Copyright (c) Meta Platforms, Inc. and affiliates; text in validate/prereg13/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (ATen/torch headers, whose host code is not copied); int64_t defined;
// - float_math.cuh's FloatMin3 and FloatMax3 and geometry_utils.cuh's kEpsilon, which the bounding
//   boxes use, copied whole; only the forward kernels are copied (the backward ones and the coarse
//   rasteriser itself are left out) and no host code; the templates are instantiated explicitly at
//   the end for float, as the host code's AT_DISPATCH_FLOATING_TYPES does.

typedef long long int64_t;   // <cstdint>'s, which the dropped includes bring

// --- pytorch3d/csrc/utils/float_math.cuh: lines 48-50
__device__ inline float FloatMin3(const float a, const float b, const float c) {
  return fminf(a, fminf(b, c));
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 52-54
__device__ inline float FloatMax3(const float a, const float b, const float c) {
  return fmaxf(a, fmaxf(b, c));
}

// --- pytorch3d/csrc/utils/geometry_utils.cuh: lines 15-19
#ifdef _MSC_VER
#define kEpsilon 1e-8f
#else
const auto kEpsilon = 1e-8;
#endif

// --- pytorch3d/csrc/face_areas_normals/face_areas_normals.cu: lines 14-64
template <typename scalar_t>
__global__ void FaceAreasNormalsForwardKernel(
    const scalar_t* __restrict__ verts,
    const int64_t* __restrict__ faces,
    scalar_t* __restrict__ face_areas,
    scalar_t* __restrict__ face_normals,
    const size_t V,
    const size_t F) {
  const size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t stride = gridDim.x * blockDim.x;

  // Faces split evenly over the number of threads in the grid.
  // Each thread computes the area & normal of its respective faces and adds it
  // to the global face_areas tensor.
  for (size_t f = tid; f < F; f += stride) {
    const int64_t i0 = faces[3 * f + 0];
    const int64_t i1 = faces[3 * f + 1];
    const int64_t i2 = faces[3 * f + 2];

    const scalar_t v0_x = verts[3 * i0 + 0];
    const scalar_t v0_y = verts[3 * i0 + 1];
    const scalar_t v0_z = verts[3 * i0 + 2];

    const scalar_t v1_x = verts[3 * i1 + 0];
    const scalar_t v1_y = verts[3 * i1 + 1];
    const scalar_t v1_z = verts[3 * i1 + 2];

    const scalar_t v2_x = verts[3 * i2 + 0];
    const scalar_t v2_y = verts[3 * i2 + 1];
    const scalar_t v2_z = verts[3 * i2 + 2];

    const scalar_t ax = v1_x - v0_x;
    const scalar_t ay = v1_y - v0_y;
    const scalar_t az = v1_z - v0_z;

    const scalar_t bx = v2_x - v0_x;
    const scalar_t by = v2_y - v0_y;
    const scalar_t bz = v2_z - v0_z;

    const scalar_t cx = ay * bz - az * by;
    const scalar_t cy = az * bx - ax * bz;
    const scalar_t cz = ax * by - ay * bx;

    scalar_t norm = sqrt(cx * cx + cy * cy + cz * cz);
    face_areas[f] = norm / 2.0;
    norm = (norm < 1e-6) ? 1e-6 : norm; // max(norm, 1e-6)
    face_normals[3 * f + 0] = cx / norm;
    face_normals[3 * f + 1] = cy / norm;
    face_normals[3 * f + 2] = cz / norm;
  }
}

// --- pytorch3d/csrc/interp_face_attrs/interp_face_attrs.cu: lines 14-40
template <typename scalar_t>
__global__ void InterpFaceAttrsForwardKernel(
    const int64_t* __restrict__ pix_to_face, // (P,)
    const scalar_t* __restrict__ barycentric_coords, // (P, 3)
    const scalar_t* __restrict__ face_attrs, // (F, 3, D)
    scalar_t* pix_attrs, // (P, D)
    const size_t P,
    const size_t F,
    const size_t D) {
  const auto tid = threadIdx.x + blockIdx.x * blockDim.x;
  const auto num_threads = blockDim.x * gridDim.x;
  for (int pd = tid; pd < P * D; pd += num_threads) {
    const int p = pd / D;
    const int d = pd % D;
    const int64_t f = pix_to_face[p];
    if (f < 0) {
      continue;
    }
    scalar_t pix_attr = 0.0;
    for (int i = 0; i < 3; ++i) {
      scalar_t weight = barycentric_coords[p * 3 + i];
      scalar_t vert_attr = face_attrs[f * 3 * D + i * D + d];
      pix_attr += weight * vert_attr;
    }
    pix_attrs[p * D + d] = pix_attr;
  }
}

// --- pytorch3d/csrc/gather_scatter/gather_scatter.cu: lines 14-50
__global__ void GatherScatterCudaKernel(
    const float* __restrict__ input,
    const int64_t* __restrict__ edges,
    float* __restrict__ output,
    bool directed,
    bool backward,
    const size_t V,
    const size_t D,
    const size_t E) {
  const auto tid = threadIdx.x;

  // Reverse the vertex order if backward.
  const int v0_idx = backward ? 1 : 0;
  const int v1_idx = backward ? 0 : 1;

  // Edges are split evenly across the blocks.
  for (auto e = blockIdx.x; e < E; e += gridDim.x) {
    // Get indices of vertices which form the edge.
    const int64_t v0 = edges[2 * e + v0_idx];
    const int64_t v1 = edges[2 * e + v1_idx];

    // Split vertex features evenly across threads.
    // This implementation will be quite wasteful when D<128 since there will be
    // a lot of threads doing nothing.
    for (auto d = tid; d < D; d += blockDim.x) {
      const float val = input[v1 * D + d];
      float* address = output + v0 * D + d;
      atomicAdd(address, val);
      if (!directed) {
        const float val = input[v0 * D + d];
        float* address = output + v1 * D + d;
        atomicAdd(address, val);
      }
    }
    __syncthreads();
  }
}

// --- pytorch3d/csrc/sample_pdf/sample_pdf.cu: lines 45-112
__global__ void SamplePdfCudaKernel(
    const float* __restrict__ bins,
    const float* __restrict__ weights,
    float* __restrict__ outputs,
    float eps,
    const int T,
    const int64_t batch_size,
    const int64_t n_bins,
    const int64_t n_samples) {
  const int64_t chunks_per_batch = 1 + (n_samples - 1) / (T * blockDim.x);
  const int64_t n_chunks = chunks_per_batch * batch_size;

  for (int64_t i_chunk = blockIdx.x; i_chunk < n_chunks; i_chunk += gridDim.x) {
    // Loop over the chunks.
    int64_t i_batch_element = i_chunk / chunks_per_batch;
    int64_t sample_start = (i_chunk % chunks_per_batch) * (T * blockDim.x);
    const float* const weight_startp = weights + n_bins * i_batch_element;
    const float* const bin_startp = bins + (1 + n_bins) * i_batch_element;

    // Each chunk looks at a single batch element, so we do the preprocessing
    // which depends on the batch element, namely finding the total weight.
    // Idenntical work is being done in sync here by every thread of the block.
    float total_weight = eps;
    for (int64_t i_bin = 0; i_bin < n_bins; ++i_bin) {
      total_weight += weight_startp[i_bin];
    }

    float* const output_startp =
        outputs + n_samples * i_batch_element + sample_start;

    for (int t = 0; t < T; ++t) {
      // Loop over T, which is the number of samples each thread makes within
      // the chunk.
      const int64_t i_sample_within_chunk = threadIdx.x + t * blockDim.x;
      if (sample_start + i_sample_within_chunk >= n_samples) {
        // Some threads need to exit early because the sample they would
        // make is unwanted.
        continue;
      }
      // output_startp[i_sample_within_chunk] contains the quantile we (i.e.
      // this thread) are calcvulating.
      float uniform = total_weight * output_startp[i_sample_within_chunk];
      int64_t i_bin = 0;
      // We find the bin containing the quantile by walking along the weights.
      // This loop must be thread dependent. I.e. the whole warp will wait until
      // every thread has found the bin for its quantile.
      // It may be best to write it differently.
      while (i_bin + 1 < n_bins && uniform > weight_startp[i_bin]) {
        uniform -= weight_startp[i_bin];
        ++i_bin;
      }

      // Now we know which bin to look in, we use linear interpolation
      // to find the location of the quantile within the bin, and
      // write the answer back.
      float bin_start = bin_startp[i_bin];
      float bin_end = bin_startp[i_bin + 1];
      float bin_weight = weight_startp[i_bin];
      float output_value = bin_start;
      if (uniform > bin_weight) {
        output_value = bin_end;
      } else if (bin_weight > eps) {
        output_value += (uniform / bin_weight) * (bin_end - bin_start);
      }
      output_startp[i_sample_within_chunk] = output_value;
    }
  }
}

// --- pytorch3d/csrc/rasterize_coarse/rasterize_coarse.cu: lines 20-51
__global__ void TriangleBoundingBoxKernel(
    const float* face_verts, // (F, 3, 3)
    const int F,
    const float blur_radius,
    float* bboxes, // (4, F)
    bool* skip_face) { // (F,)
  const auto tid = blockIdx.x * blockDim.x + threadIdx.x;
  const auto num_threads = blockDim.x * gridDim.x;
  const float sqrt_radius = sqrt(blur_radius);
  for (int f = tid; f < F; f += num_threads) {
    const float v0x = face_verts[f * 9 + 0 * 3 + 0];
    const float v0y = face_verts[f * 9 + 0 * 3 + 1];
    const float v0z = face_verts[f * 9 + 0 * 3 + 2];
    const float v1x = face_verts[f * 9 + 1 * 3 + 0];
    const float v1y = face_verts[f * 9 + 1 * 3 + 1];
    const float v1z = face_verts[f * 9 + 1 * 3 + 2];
    const float v2x = face_verts[f * 9 + 2 * 3 + 0];
    const float v2y = face_verts[f * 9 + 2 * 3 + 1];
    const float v2z = face_verts[f * 9 + 2 * 3 + 2];
    const float xmin = FloatMin3(v0x, v1x, v2x) - sqrt_radius;
    const float xmax = FloatMax3(v0x, v1x, v2x) + sqrt_radius;
    const float ymin = FloatMin3(v0y, v1y, v2y) - sqrt_radius;
    const float ymax = FloatMax3(v0y, v1y, v2y) + sqrt_radius;
    const float zmin = FloatMin3(v0z, v1z, v2z);
    const bool skip = zmin < kEpsilon;
    bboxes[0 * F + f] = xmin;
    bboxes[1 * F + f] = xmax;
    bboxes[2 * F + f] = ymin;
    bboxes[3 * F + f] = ymax;
    skip_face[f] = skip;
  }
}

// --- pytorch3d/csrc/rasterize_coarse/rasterize_coarse.cu: lines 53-74
__global__ void PointBoundingBoxKernel(
    const float* points, // (P, 3)
    const float* radius, // (P,)
    const int P,
    float* bboxes, // (4, P)
    bool* skip_points) {
  const auto tid = blockIdx.x * blockDim.x + threadIdx.x;
  const auto num_threads = blockDim.x * gridDim.x;
  for (int p = tid; p < P; p += num_threads) {
    const float x = points[p * 3 + 0];
    const float y = points[p * 3 + 1];
    const float z = points[p * 3 + 2];
    const float r = radius[p];
    // TODO: change to kEpsilon to match triangles?
    const bool skip = z < 0;
    bboxes[0 * P + p] = x - r;
    bboxes[1 * P + p] = x + r;
    bboxes[2 * P + p] = y - r;
    bboxes[3 * P + p] = y + r;
    skip_points[p] = skip;
  }
}

template __global__ void FaceAreasNormalsForwardKernel<float>(const float *, const int64_t *, float *, float *, const size_t, const size_t);
template __global__ void InterpFaceAttrsForwardKernel<float>(const int64_t *, const float *, const float *, float *, const size_t, const size_t, const size_t);
