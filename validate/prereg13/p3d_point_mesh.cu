// Pre-registered public kernel (not written for memsim): facebookresearch/pytorch3d
// PyTorch3D's point-to-mesh distances: DistanceForwardKernel (a block an object, its threads
// striding over the targets, then a shared-memory argmin over __syncthreads rounds and a warp tail)
// between points and triangles or segments, and the all-pairs point-triangle and point-segment
// distance arrays (a thread a pair, grid-stride); copied for memsim's thirteenth pre-registered set
// (validate/prereg13_cases.py).
//
// Repository: facebookresearch/pytorch3d, commit 9381c4016376345bb795b97c45a6c2de66db354a
// Paths: pytorch3d/csrc/point_mesh/point_mesh_cuda.cu, pytorch3d/csrc/utils/float_math.cuh, pytorch3d/csrc/utils/geometry_utils.cuh, pytorch3d/csrc/utils/warp_reduce.cuh
// Licence: BSD-3-Clause (the repository's LICENSE, "BSD License For PyTorch3D software", Copyright (c) Meta Platforms, Inc. and affiliates; text in validate/prereg13/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (ATen/torch headers, whose host code is not copied); int64_t and FLT_MAX (float.h's) defined;
// - of float_math.cuh only vEpsilon and the float3 operators and functions the distances call; of
//   geometry_utils.cuh kEpsilon, AreaOfTriangle, BarycentricCoords3Forward, IsInsideTriangle,
//   PointLine3DistanceForward and PointTriangle3DistanceForward; of warp_reduce.cuh WarpReduceMin;
//   each copied whole; the backward kernels (float atomics) and the host code are left out.

typedef long long int64_t;   // <cstdint>'s, which the dropped includes bring
#define FLT_MAX 3.402823466e+38F   // float.h

// --- pytorch3d/csrc/utils/float_math.cuh: lines 13-17
#ifdef _MSC_VER
#define vEpsilon 1e-8f
#else
const auto vEpsilon = 1e-8;
#endif

// --- pytorch3d/csrc/utils/float_math.cuh: lines 80-82
__device__ inline float3 operator-(const float3& a, const float3& b) {
  return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 84-86
__device__ inline float3 operator+(const float3& a, const float3& b) {
  return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 88-90
__device__ inline float3 operator/(const float3& a, const float3& b) {
  return make_float3(a.x / b.x, a.y / b.y, a.z / b.z);
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 92-94
__device__ inline float3 operator/(const float3& a, const float b) {
  return make_float3(a.x / b, a.y / b, a.z / b);
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 96-98
__device__ inline float3 operator*(const float3& a, const float3& b) {
  return make_float3(a.x * b.x, a.y * b.y, a.z * b.z);
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 100-102
__device__ inline float3 operator*(const float a, const float3& b) {
  return make_float3(a * b.x, a * b.y, a * b.z);
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 104-106
__device__ inline float dot(const float3& a, const float3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 112-115
__device__ inline float3 cross(const float3& a, const float3& b) {
  return make_float3(
      a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 132-134
__device__ inline float norm(const float3& a) {
  return sqrt(dot(a, a));
}

// --- pytorch3d/csrc/utils/float_math.cuh: lines 136-138
__device__ inline float3 normalize(const float3& a) {
  return a / (norm(a) + vEpsilon);
}

// --- pytorch3d/csrc/utils/geometry_utils.cuh: lines 15-19
#ifdef _MSC_VER
#define kEpsilon 1e-8f
#else
const auto kEpsilon = 1e-8;
#endif

// --- pytorch3d/csrc/utils/geometry_utils.cuh: lines 476-487
__device__ inline float
AreaOfTriangle(const float3& v0, const float3& v1, const float3& v2) {
  float3 p0 = v1 - v0;
  float3 p1 = v2 - v0;

  // compute the hypotenus of the scross product (p0 x p1)
  float dd = hypot(
      p0.y * p1.z - p0.z * p1.y,
      hypot(p0.z * p1.x - p0.x * p1.z, p0.x * p1.y - p0.y * p1.x));

  return dd / 2.0;
}

// --- pytorch3d/csrc/utils/geometry_utils.cuh: lines 505-526
__device__ inline float3 BarycentricCoords3Forward(
    const float3& p,
    const float3& v0,
    const float3& v1,
    const float3& v2) {
  float3 p0 = v1 - v0;
  float3 p1 = v2 - v0;
  float3 p2 = p - v0;

  const float d00 = dot(p0, p0);
  const float d01 = dot(p0, p1);
  const float d11 = dot(p1, p1);
  const float d20 = dot(p2, p0);
  const float d21 = dot(p2, p1);

  const float denom = d00 * d11 - d01 * d01 + kEpsilon;
  const float w1 = (d11 * d20 - d01 * d21) / denom;
  const float w2 = (d00 * d21 - d01 * d20) / denom;
  const float w0 = 1.0f - w1 - w2;

  return make_float3(w0, w1, w2);
}

// --- pytorch3d/csrc/utils/geometry_utils.cuh: lines 547-564
__device__ inline bool IsInsideTriangle(
    const float3& p,
    const float3& v0,
    const float3& v1,
    const float3& v2,
    const double min_triangle_area) {
  bool inside;
  if (AreaOfTriangle(v0, v1, v2) < min_triangle_area) {
    inside = 0;
  } else {
    float3 bary = BarycentricCoords3Forward(p, v0, v1, v2);
    bool x_in = 0.0f <= bary.x && bary.x <= 1.0f;
    bool y_in = 0.0f <= bary.y && bary.y <= 1.0f;
    bool z_in = 0.0f <= bary.z && bary.z <= 1.0f;
    inside = x_in && y_in && z_in;
  }
  return inside;
}

// --- pytorch3d/csrc/utils/geometry_utils.cuh: lines 580-595
__device__ inline float
PointLine3DistanceForward(const float3& p, const float3& v0, const float3& v1) {
  const float3 v1v0 = v1 - v0;
  const float3 pv0 = p - v0;
  const float t_bot = dot(v1v0, v1v0);
  const float t_top = dot(pv0, v1v0);
  // if t_bot small, then v0 == v1, set tt to 0.
  float tt = (t_bot < kEpsilon) ? 0.0f : (t_top / t_bot);

  tt = __saturatef(tt); // clamps to [0, 1]

  const float3 p_proj = v0 + tt * v1v0;
  const float3 diff = p - p_proj;
  const float dist = dot(diff, diff);
  return dist;
}

// --- pytorch3d/csrc/utils/geometry_utils.cuh: lines 671-703
__device__ inline float PointTriangle3DistanceForward(
    const float3& p,
    const float3& v0,
    const float3& v1,
    const float3& v2,
    const double min_triangle_area) {
  float3 normal = cross(v2 - v0, v1 - v0);
  const float norm_normal = norm(normal);
  normal = normalize(normal);

  // p0 is the projection of p on the plane spanned by (v0, v1, v2)
  // i.e. p0 = p + t * normal, s.t. (p0 - v0) is orthogonal to normal
  const float t = dot(v0 - p, normal);
  const float3 p0 = p + t * normal;

  bool is_inside = IsInsideTriangle(p0, v0, v1, v2, min_triangle_area);
  float dist = 0.0f;

  if ((is_inside) && (norm_normal > kEpsilon)) {
    // if projection p0 is inside triangle spanned by (v0, v1, v2)
    // then distance is equal to norm(p0 - p)^2
    dist = t * t;
  } else {
    const float e01 = PointLine3DistanceForward(p, v0, v1);
    const float e02 = PointLine3DistanceForward(p, v0, v2);
    const float e12 = PointLine3DistanceForward(p, v1, v2);

    dist = (e01 > e02) ? e02 : e01;
    dist = (dist > e12) ? e12 : dist;
  }

  return dist;
}

// --- pytorch3d/csrc/utils/warp_reduce.cuh: lines 27-79

template <typename scalar_t>
__device__ void
WarpReduceMin(scalar_t* min_dists, int64_t* min_idxs, const size_t tid) {
  // s = 32
  if (min_dists[tid] > min_dists[tid + 32]) {
    min_idxs[tid] = min_idxs[tid + 32];
    min_dists[tid] = min_dists[tid + 32];
  }
#if !defined(USE_ROCM)
  __syncwarp();
#endif
  // s = 16
  if (min_dists[tid] > min_dists[tid + 16]) {
    min_idxs[tid] = min_idxs[tid + 16];
    min_dists[tid] = min_dists[tid + 16];
  }
#if !defined(USE_ROCM)
  __syncwarp();
#endif
  // s = 8
  if (min_dists[tid] > min_dists[tid + 8]) {
    min_idxs[tid] = min_idxs[tid + 8];
    min_dists[tid] = min_dists[tid + 8];
  }
#if !defined(USE_ROCM)
  __syncwarp();
#endif
  // s = 4
  if (min_dists[tid] > min_dists[tid + 4]) {
    min_idxs[tid] = min_idxs[tid + 4];
    min_dists[tid] = min_dists[tid + 4];
  }
#if !defined(USE_ROCM)
  __syncwarp();
#endif
  // s = 2
  if (min_dists[tid] > min_dists[tid + 2]) {
    min_idxs[tid] = min_idxs[tid + 2];
    min_dists[tid] = min_dists[tid + 2];
  }
#if !defined(USE_ROCM)
  __syncwarp();
#endif
  // s = 1
  if (min_dists[tid] > min_dists[tid + 1]) {
    min_idxs[tid] = min_idxs[tid + 1];
    min_dists[tid] = min_dists[tid + 1];
  }
#if !defined(USE_ROCM)
  __syncwarp();
#endif
}

// --- pytorch3d/csrc/point_mesh/point_mesh_cuda.cu: lines 24-134
__global__ void DistanceForwardKernel(
    const float* __restrict__ objects, // (O * oD * 3)
    const size_t objects_size, // O
    const size_t objects_dim, // oD
    const float* __restrict__ targets, // (T * tD * 3)
    const size_t targets_size, // T
    const size_t targets_dim, // tD
    const int64_t* __restrict__ objects_first_idx, // (B,)
    const int64_t* __restrict__ targets_first_idx, // (B,)
    const size_t batch_size, // B
    float* __restrict__ dist_objects, // (O,)
    int64_t* __restrict__ idx_objects, // (O,)
    const double min_triangle_area) {
  // This kernel is used interchangeably to compute bi-directional distances
  // between points and triangles/lines. The direction of the distance computed,
  // i.e. point to triangle/line or triangle/line to point, depends on the order
  // of the input arguments and is inferred based on their shape. The shape is
  // used to distinguish between triangles and lines

  // Single shared memory buffer which is split and cast to different types.
  extern __shared__ char shared_buf[];
  float* min_dists = (float*)shared_buf; // float[NUM_THREADS]
  int64_t* min_idxs = (int64_t*)&min_dists[blockDim.x]; // int64_t[NUM_THREADS]

  const size_t batch_idx = blockIdx.y; // index of batch element.

  // start and end for objects in batch_idx
  const int64_t starto = objects_first_idx[batch_idx];
  const int64_t endo = batch_idx + 1 < batch_size
      ? objects_first_idx[batch_idx + 1]
      : objects_size;

  // start and end for targets in batch_idx
  const int64_t startt = targets_first_idx[batch_idx];
  const int64_t endt = batch_idx + 1 < batch_size
      ? targets_first_idx[batch_idx + 1]
      : targets_size;

  const size_t i = blockIdx.x; // index within batch element.
  const size_t tid = threadIdx.x; // thread index

  // Set references to points/face based on which of objects/targets refer to
  // points/faces
  float3* points_f3 = objects_dim == 1 ? (float3*)objects : (float3*)targets;
  float3* face_f3 = objects_dim == 1 ? (float3*)targets : (float3*)objects;
  // Distinguishes whether we're computing distance against triangle vs edge
  bool isTriangle = objects_dim == 3 || targets_dim == 3;

  // Each block will compute one element of the output idx_objects[starto + i],
  // dist_objects[starto + i]. Within the block we will use threads to compute
  // the distances between objects[starto + i] and targets[j] for all j
  // belonging in the same batch as i, i.e. j in [startt, endt]. Then use a
  // block reduction to take an argmin of the distances.

  // If i exceeds the number of objects in batch_idx, then do nothing
  if (i < (endo - starto)) {
    // Compute the distances between objects[starto + i] and targets[j] for
    // all j belonging in the same batch as i, i.e. j in [startt, endt].
    // Here each thread will reduce over (endt-startt) / blockDim.x in serial,
    // and store its result to shared memory
    float min_dist = FLT_MAX;
    size_t min_idx = 0;
    for (size_t j = tid; j < (endt - startt); j += blockDim.x) {
      size_t point_idx = objects_dim == 1 ? starto + i : startt + j;
      size_t face_idx = objects_dim == 1 ? (startt + j) * targets_dim
                                         : (starto + i) * objects_dim;

      float dist;
      if (isTriangle) {
        dist = PointTriangle3DistanceForward(
            points_f3[point_idx],
            face_f3[face_idx],
            face_f3[face_idx + 1],
            face_f3[face_idx + 2],
            min_triangle_area);
      } else {
        dist = PointLine3DistanceForward(
            points_f3[point_idx], face_f3[face_idx], face_f3[face_idx + 1]);
      }

      min_dist = (j == tid) ? dist : min_dist;
      min_idx = (dist <= min_dist) ? (startt + j) : min_idx;
      min_dist = (dist <= min_dist) ? dist : min_dist;
    }
    min_dists[tid] = min_dist;
    min_idxs[tid] = min_idx;
    __syncthreads();

    // Perform reduction in shared memory.
    for (auto s = blockDim.x / 2; s > 32; s >>= 1) {
      if (tid < s) {
        if (min_dists[tid] > min_dists[tid + s]) {
          min_dists[tid] = min_dists[tid + s];
          min_idxs[tid] = min_idxs[tid + s];
        }
      }
      __syncthreads();
    }

    // Unroll the last 6 iterations of the loop since they will happen
    // synchronized within a single warp.
    if (tid < 32)
      WarpReduceMin<float>(min_dists, min_idxs, tid);

    // Finally thread 0 writes the result to the output buffer.
    if (tid == 0) {
      idx_objects[starto + i] = min_idxs[0];
      dist_objects[starto + i] = min_dists[0];
    }
  }
}

// --- pytorch3d/csrc/point_mesh/point_mesh_cuda.cu: lines 494-520
__global__ void PointFaceArrayForwardKernel(
    const float* __restrict__ points, // (P, 3)
    const float* __restrict__ tris, // (T, 3, 3)
    float* __restrict__ dists, // (P, T)
    const size_t P,
    const size_t T,
    const double min_triangle_area) {
  const float3* points_f3 = (float3*)points;
  const float3* tris_f3 = (float3*)tris;

  // Parallelize over P * S computations
  const auto num_threads = gridDim.x * blockDim.x;
  const auto tid = blockIdx.x * blockDim.x + threadIdx.x;

  for (int t_i = tid; t_i < P * T; t_i += num_threads) {
    const int t = t_i / P; // segment index.
    const int p = t_i % P; // point index
    const float3 v0 = tris_f3[t * 3 + 0];
    const float3 v1 = tris_f3[t * 3 + 1];
    const float3 v2 = tris_f3[t * 3 + 2];

    const float3 point = points_f3[p];
    float dist =
        PointTriangle3DistanceForward(point, v0, v1, v2, min_triangle_area);
    dists[p * T + t] = dist;
  }
}

// --- pytorch3d/csrc/point_mesh/point_mesh_cuda.cu: lines 676-699
__global__ void PointEdgeArrayForwardKernel(
    const float* __restrict__ points, // (P, 3)
    const float* __restrict__ segms, // (S, 2, 3)
    float* __restrict__ dists, // (P, S)
    const size_t P,
    const size_t S) {
  float3* points_f3 = (float3*)points;
  float3* segms_f3 = (float3*)segms;

  // Parallelize over P * S computations
  const auto num_threads = gridDim.x * blockDim.x;
  const auto tid = blockIdx.x * blockDim.x + threadIdx.x;

  for (int t_i = tid; t_i < P * S; t_i += num_threads) {
    const int s = t_i / P; // segment index.
    const int p = t_i % P; // point index
    float3 a = segms_f3[s * 2 + 0];
    float3 b = segms_f3[s * 2 + 1];

    float3 point = points_f3[p];
    float dist = PointLine3DistanceForward(point, a, b);
    dists[p * S + s] = dist;
  }
}
