// Pre-registered public kernel (not written for memsim): vetter/shoc
// files: src/cuda/level1/bfs/bfs_kernel.cu
// commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0 (https://github.com/vetter/shoc)
// Licence: BSD-3-Clause (Copyright (c) 2011, UT-Battelle, LLC; LICENSE.md of the repository).
//
// Edits (no kernel body changed):
// - src/cuda/level1/bfs/bfs_kernel.cu: only lines 37-79 kept (the kernels and the device code and macros they use); the rest is host code
// - prelude added before the copied code (below): #define UINT_MAX 0xffffffffu  // <climits>'s, for NVRTC

#define UINT_MAX 0xffffffffu  // <climits>'s, for NVRTC

// ---- from src/cuda/level1/bfs/bfs_kernel.cu, lines 37-79
__global__ void BFS_kernel_warp(
        unsigned int *levels,
        unsigned int *edgeArray,
        unsigned int *edgeArrayAux,
        int W_SZ,
        int CHUNK_SZ,
        unsigned int numVertices,
        int curr,
        int *flag)
{
    int tid = threadIdx.x + blockDim.x * blockIdx.x;
    int W_OFF = tid % W_SZ;
    int W_ID = tid / W_SZ;
    int NUM_WARPS = blockDim.x * gridDim.x/W_SZ;
    int v1= W_ID * CHUNK_SZ;
    int chk_sz=CHUNK_SZ+1;

    if((v1+CHUNK_SZ)>=numVertices)
    {
        chk_sz =  numVertices-v1+1;
        if(chk_sz<0)
            chk_sz=0;
    }

    for(int v=v1; v< chk_sz-1+v1; v++)
    {
        if(levels[v] == curr)
        {
            unsigned int num_nbr = edgeArray[v+1]-edgeArray[v];
            unsigned int nbr_off = edgeArray[v];
            for(int i=W_OFF; i<num_nbr; i+=W_SZ)
            {
               int v = edgeArrayAux[i + nbr_off];
               if(levels[v]==UINT_MAX)
               {
                    levels[v] = curr + 1;
                    *flag = 1;
               }
            }
        }
    }
}


