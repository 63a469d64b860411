// Seed 002: add two matrices with a 2-D grid, indexing rows by tidx (strided: neighbouring
// threads are WIDTH elements apart) or by tidy (coalesced). WIDTH is the row length the catalog
// prepends (1024 in the seed), with `typedef <element type> T;`.
#ifndef WIDTH
#define WIDTH 1024
#endif
extern "C" __global__ void k_addVec(const T* ad, const T* bd, T* cd) {
  int tidx = threadIdx.x + blockIdx.x * blockDim.x, tidy = threadIdx.y + blockIdx.y * blockDim.y;
  cd[tidx * WIDTH + tidy] = ad[tidx * WIDTH + tidy] + bd[tidx * WIDTH + tidy];
}
extern "C" __global__ void k_addVec1(const T* ad, const T* bd, T* cd) {
  int tidx = threadIdx.x + blockIdx.x * blockDim.x, tidy = threadIdx.y + blockIdx.y * blockDim.y;
  cd[tidy * WIDTH + tidx] = ad[tidy * WIDTH + tidx] + bd[tidy * WIDTH + tidx];
}
