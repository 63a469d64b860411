// Seed 003: row and column sums of a ds x ds matrix, one thread per row / column.
// The catalog prepends `typedef <element type> T;`.
extern "C" __global__ void k_row_sums(const T* A, T* sums, size_t ds) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  if (idx < ds) { T s = 0; for (size_t i = 0; i < ds; i++) s += A[idx * ds + i]; sums[idx] = s; }
}
extern "C" __global__ void k_col_sums(const T* A, T* sums, size_t ds) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  if (idx < ds) { T s = 0; for (size_t i = 0; i < ds; i++) s += A[i * ds + idx]; sums[idx] = s; }
}
