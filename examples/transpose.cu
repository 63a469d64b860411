// Two ways to transpose an n x n float matrix (n a multiple of 32; block 32 x 8).
#define TILE 32

// Reads rows, writes columns: every warp's store touches 32 sectors.
extern "C" __global__ void transpose_naive(const float* in, float* out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

// Through a shared tile: both global accesses coalesced; the padding column keeps the
// tile's column reads free of bank conflicts.
extern "C" __global__ void transpose_tiled(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
