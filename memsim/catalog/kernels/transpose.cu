// Seed 001: copy bounds and naive / unrolled / diagonal transposes of an ny x nx matrix.
// The catalog prepends `typedef <element type> T;`. A is ny rows of nx (row-major);
// the *Row kernels read A by rows, the *Col kernels read it by columns.
extern "C" __global__ void k_copyRow(const T* A, T* B, int nx, int ny) {
  int ix = threadIdx.x + blockDim.x * blockIdx.x, iy = threadIdx.y + blockDim.y * blockIdx.y;
  int idx = ix + iy * nx;
  if (ix < nx && iy < ny) B[idx] = A[idx];
}
extern "C" __global__ void k_copyCol(const T* A, T* B, int nx, int ny) {
  int ix = threadIdx.x + blockDim.x * blockIdx.x, iy = threadIdx.y + blockDim.y * blockIdx.y;
  int idx = ix * ny + iy;
  if (ix < nx && iy < ny) B[idx] = A[idx];
}
extern "C" __global__ void k_naiveRow(const T* A, T* B, int nx, int ny) {
  int ix = threadIdx.x + blockDim.x * blockIdx.x, iy = threadIdx.y + blockDim.y * blockIdx.y;
  if (ix < nx && iy < ny) B[ix * ny + iy] = A[ix + iy * nx];
}
extern "C" __global__ void k_naiveCol(const T* A, T* B, int nx, int ny) {
  int ix = threadIdx.x + blockDim.x * blockIdx.x, iy = threadIdx.y + blockDim.y * blockIdx.y;
  if (ix < nx && iy < ny) B[ix + iy * nx] = A[ix * ny + iy];
}
// Each thread moves four elements blockDim.x apart: launch with grid.x = nx / (blockDim.x * 4).
extern "C" __global__ void k_naiveRowUnroll4(const T* A, T* B, int nx, int ny) {
  int ix = threadIdx.x + blockDim.x * blockIdx.x * 4, iy = threadIdx.y + blockDim.y * blockIdx.y;
  int ir = ix + iy * nx, ic = ix * ny + iy;
  if (ix < nx && iy < ny) {
    B[ic] = A[ir];
    B[ic + ny * 1 * blockDim.x] = A[ir + 1 * blockDim.x];
    B[ic + ny * 2 * blockDim.x] = A[ir + 2 * blockDim.x];
    B[ic + ny * 3 * blockDim.x] = A[ir + 3 * blockDim.x];
  }
}
extern "C" __global__ void k_naiveColUnroll4(const T* A, T* B, int nx, int ny) {
  int ix = threadIdx.x + blockDim.x * blockIdx.x * 4, iy = threadIdx.y + blockDim.y * blockIdx.y;
  int ir = ix + iy * nx, ic = ix * ny + iy;
  if (ix < nx && iy < ny) {
    B[ir] = A[ic];
    B[ir + 1 * blockDim.x] = A[ic + ny * 1 * blockDim.x];
    B[ir + 2 * blockDim.x] = A[ic + ny * 2 * blockDim.x];
    B[ir + 3 * blockDim.x] = A[ic + ny * 3 * blockDim.x];
  }
}
// Diagonal block order (spreads DRAM partitions); covers the matrix only on a square grid.
extern "C" __global__ void k_naiveRowDiagonal(const T* A, T* B, int nx, int ny) {
  int block_y = blockIdx.x, block_x = (blockIdx.x + blockIdx.y) % gridDim.x;
  int ix = threadIdx.x + blockDim.x * block_x, iy = threadIdx.y + blockDim.y * block_y;
  if (ix < nx && iy < ny) B[ix * ny + iy] = A[ix + iy * nx];
}
extern "C" __global__ void k_naiveColDiagonal(const T* A, T* B, int nx, int ny) {
  int block_y = blockIdx.x, block_x = (blockIdx.x + blockIdx.y) % gridDim.x;
  int ix = threadIdx.x + blockDim.x * block_x, iy = threadIdx.y + blockDim.y * block_y;
  if (ix < nx && iy < ny) B[ix + iy * nx] = A[ix * ny + iy];
}
