// Pre-registered public kernel (not written for memsim): PacktPublishing/Learn-CUDA-Programming
// files: Chapter02/02_memory_overview/04_matrix_transpose/matrix_transpose.cu
// commit 10bd9b59bfcc680d608ea1417da5089f73d91b11 (https://github.com/PacktPublishing/Learn-CUDA-Programming)
// Licence: MIT (Copyright (c) 2018 Packt; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - Chapter02/02_memory_overview/04_matrix_transpose/matrix_transpose.cu: only lines 4-47 kept (the size macros N = 2048, BLOCK_SIZE = 32 and the two kernels); the stdio/stdlib includes and the host code left out

// ---- from Chapter02/02_memory_overview/04_matrix_transpose/matrix_transpose.cu, lines 4-47
#define N 2048
#define BLOCK_SIZE 32 

__global__ void matrix_transpose_naive(int *input, int *output) {

	int indexX = threadIdx.x + blockIdx.x * blockDim.x;
	int indexY = threadIdx.y + blockIdx.y * blockDim.y;
	int index = indexY * N + indexX;
	int transposedIndex = indexX * N + indexY;

    // this has discoalesced global memory store  
	output[transposedIndex] = input[index];

	// this has discoalesced global memore load
	// output[index] = input[transposedIndex];
}

__global__ void matrix_transpose_shared(int *input, int *output) {

	__shared__ int sharedMemory [BLOCK_SIZE] [BLOCK_SIZE];

	// global index	
	int indexX = threadIdx.x + blockIdx.x * blockDim.x;
	int indexY = threadIdx.y + blockIdx.y * blockDim.y;

	// transposed global memory index
	int tindexX = threadIdx.x + blockIdx.y * blockDim.x;
	int tindexY = threadIdx.y + blockIdx.x * blockDim.y;

	// local index
	int localIndexX = threadIdx.x;
	int localIndexY = threadIdx.y;

	int index = indexY * N + indexX;
	int transposedIndex = tindexY * N + tindexX;

	// reading from global memory in coalesed manner and performing tanspose in shared memory
	sharedMemory[localIndexX][localIndexY] = input[index];

	__syncthreads();

	// writing into global memory in coalesed fashion via transposed data in shared memory
	output[transposedIndex] = sharedMemory[localIndexY][localIndexX];
}
