// Seed 000: the book's transposeSmem of an ny x nx matrix with a BDIMX x BDIMY block
// (32 x 16 in the book) and a tile[BDIMY][BDIMX] shared tile, without and with padding.
// The catalog prepends `typedef <element type> T;` and BDIMX / BDIMY from the block.
#ifndef BDIMX
#define BDIMX 32
#endif
#ifndef BDIMY
#define BDIMY 16
#endif
extern "C" __global__ void k_transposeSmem(T* out, const T* in, int nx, int ny) {
  __shared__ T tile[BDIMY][BDIMX];
  unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int ti = iy * nx + ix;
  unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = bidx / blockDim.y, icol = bidx % blockDim.y;
  ix = blockIdx.y * blockDim.y + icol;
  iy = blockIdx.x * blockDim.x + irow;
  unsigned int to = iy * ny + ix;
  tile[threadIdx.y][threadIdx.x] = in[ti];
  __syncthreads();
  out[to] = tile[icol][irow];
}
extern "C" __global__ void k_transposeSmemPad(T* out, const T* in, int nx, int ny) {
  __shared__ T tile[BDIMY][BDIMX + 1];
  unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int ti = iy * nx + ix;
  unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = bidx / blockDim.y, icol = bidx % blockDim.y;
  ix = blockIdx.y * blockDim.y + icol;
  iy = blockIdx.x * blockDim.x + irow;
  unsigned int to = iy * ny + ix;
  tile[threadIdx.y][threadIdx.x] = in[ti];
  __syncthreads();
  out[to] = tile[icol][irow];
}
