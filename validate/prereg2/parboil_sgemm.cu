// Pre-registered public kernel (not written for memsim): abduld/Parboil
// files: benchmarks/sgemm/src/cuda/sgemm_kernel.cu
// commit a4c63da28f45699e9a274cbc49af3e067162aa2b (https://github.com/abduld/Parboil)
// Licence: NCSA (University of Illinois/NCSA Open Source License) (LICENSE of the repository, (C) Copyright 2007-2012 The Board of Trustees of the University of Illinois; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - benchmarks/sgemm/src/cuda/sgemm_kernel.cu: only lines 1-13, 45-76 kept (licence header, the kernels and the device code they use); the rest is host code
// - CHECK_ERROR (a host macro, lines 16-23) left out with the other host code


// ---- from benchmarks/sgemm/src/cuda/sgemm_kernel.cu, lines 1-13
/***************************************************************************
 *cr
 *cr            (C) Copyright 2010 The Board of Trustees of the
 *cr                        University of Illinois
 *cr                         All Rights Reserved
 *cr
 ***************************************************************************/

/* 
 * Kernel of dense matrix-matrix multiplication kernel.
 * The algorithm is based on CUDA sgemm code from Vasily Volkov
 * at UC Berkeley.
 */

// ---- from benchmarks/sgemm/src/cuda/sgemm_kernel.cu, lines 45-76
// Parameters of tile sizes
#define TILE_N 16 
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N*TILE_TB_HEIGHT)

__global__ void mysgemmNT( const float *A, int lda, const float *B, int ldb, float* C, int ldc, int k, float alpha, float beta )
{
    // Partial results 
    float c[TILE_N];
    for (int i=0; i < TILE_N; i++)
	c[i] = 0.0f;
    int mid = threadIdx.y * blockDim.x + threadIdx.x; //flattened id
    int m = blockIdx.x * TILE_M + mid;
    int n = blockIdx.y * TILE_N + threadIdx.x;
    __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
    for (int i = 0; i < k; i+=TILE_TB_HEIGHT) {
	float a; 
	b_s[threadIdx.y][threadIdx.x]=B[n + (i+threadIdx.y)*ldb];
	__syncthreads();
	for (int j = 0; j < TILE_TB_HEIGHT; j++) {
	    a = A[m + (i+j)*lda];
	    for (int kk = 0; kk < TILE_N; kk++)
		c[kk] += a * b_s[j][kk];

	}
	__syncthreads();
    }
    int t = ldc*blockIdx.y * TILE_N + m;
    for (int i = 0; i < TILE_N; i++) {
	C[t+i*ldc] = C[t+i*ldc] * beta + alpha * c[i];
    }
}
