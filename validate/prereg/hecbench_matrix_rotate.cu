// Pre-registered public kernel (not written for memsim): zjin-lcf/HeCBench
// files: src/matrix-rotate-cuda/main.cu
// commit f27000a5188f8ac79bd43fc95a1b3f890c18823d (https://github.com/zjin-lcf/HeCBench)
// Licence: BSD-3-Clause (HeCBench's LICENSE, Copyright (c) 2020 Argonne National Laboratory, 2020- Oak Ridge National Laboratory (Zheming Jin)).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <chrono>, <cmath>, <cstdio>, <cstdlib>, <cuda.h>
// - src/matrix-rotate-cuda/main.cu: only lines 1-29 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from src/matrix-rotate-cuda/main.cu, lines 1-29
// removed: #include <cmath>
// removed: #include <cstdlib>
// removed: #include <cstdio>
// removed: #include <chrono>
// removed: #include <cuda.h>

__global__ void rotate_matrix_parallel (float *matrix, const int n) {
  int layer = blockIdx.x * blockDim.x + threadIdx.x;
  if (layer < n/2) {
    int first = layer;
    int last = n - 1 - layer;
    for(int i = first; i < last; ++i) {
      int offset = i - first;

      float top = matrix[first*n+i]; // save top
      // left -> top
      matrix[first*n+i] = matrix[(last-offset)*n+first];

      // bottom -> left
      matrix[(last-offset)*n+first] = matrix[last*n+(last-offset)];

      // right -> bottom
      matrix[last*n+(last-offset)] = matrix[i*n+last];

      // top -> right
      matrix[i*n+last] = top; // right <- saved top
    }
  }
}

