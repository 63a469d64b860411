// The book's transposeSmemPad (seed 000) with two columns of padding instead of one.
// With a 32x16 block the read tile[icol][irow] has lanes 0-15 on rows 0-15 of column 0 and
// lanes 16-31 on rows 0-15 of column 1. A row of 33 words puts them in banks 0-15 and 1-16:
// fifteen banks serve two words. A row of 34 words puts them in banks 0,2,..,30 and 1,3,..,31.
#define BDIMX 32
#define BDIMY 16
extern "C" __global__ void k_transposeSmemPad2(float* out, const float* in, int nx, int ny) {
  __shared__ float tile[BDIMY][BDIMX + 2];
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
