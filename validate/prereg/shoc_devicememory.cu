// Pre-registered public kernel (not written for memsim): vetter/shoc
// files: src/cuda/level0/DeviceMemory.cu
// commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0 (https://github.com/vetter/shoc)
// Licence: BSD-3-Clause (Copyright (c) 2011, UT-Battelle, LLC; LICENSE.md of the repository).
//
// Edits (no kernel body changed):
// - src/cuda/level0/DeviceMemory.cu: only lines 455-639 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from src/cuda/level0/DeviceMemory.cu, lines 455-639
// Begin benchmark kernels
__global__ void
readGlobalMemoryCoalesced(float *data, float *output, int size, int repeat)
{
    int gid = threadIdx.x + (blockDim.x * blockIdx.x), j = 0;
    float sum = 0;
    int s = gid;
    for (j=0 ; j<repeat ; ++j)
    {
       float a0 = data[(s+0)&(size-1)];
       float a1 = data[(s+32768)&(size-1)];
       float a2 = data[(s+65536)&(size-1)];
       float a3 = data[(s+98304)&(size-1)];
       float a4 = data[(s+131072)&(size-1)];
       float a5 = data[(s+163840)&(size-1)];
       float a6 = data[(s+196608)&(size-1)];
       float a7 = data[(s+229376)&(size-1)];
       float a8 = data[(s+262144)&(size-1)];
       float a9 = data[(s+294912)&(size-1)];
       float a10 = data[(s+327680)&(size-1)];
       float a11 = data[(s+360448)&(size-1)];
       float a12 = data[(s+393216)&(size-1)];
       float a13 = data[(s+425984)&(size-1)];
       float a14 = data[(s+458752)&(size-1)];
       float a15 = data[(s+491520)&(size-1)];
       sum += a0+a1+a2+a3+a4+a5+a6+a7+a8+a9+a10+a11+a12+a13+a14+a15;
       s = (s+524288)&(size-1);
    }
    output[gid] = sum;
}

__global__ void
readGlobalMemoryUnit(float *data, float *output, int size, int repeat)
{
    int gid = threadIdx.x + (blockDim.x * blockIdx.x), j = 0;
    float sum = 0;
    int s = gid*512;
    for (j=0 ; j<repeat ; ++j)
    {
       float a0 = data[(s+0)&(size-1)];
       float a1 = data[(s+1)&(size-1)];
       float a2 = data[(s+2)&(size-1)];
       float a3 = data[(s+3)&(size-1)];
       float a4 = data[(s+4)&(size-1)];
       float a5 = data[(s+5)&(size-1)];
       float a6 = data[(s+6)&(size-1)];
       float a7 = data[(s+7)&(size-1)];
       float a8 = data[(s+8)&(size-1)];
       float a9 = data[(s+9)&(size-1)];
       float a10 = data[(s+10)&(size-1)];
       float a11 = data[(s+11)&(size-1)];
       float a12 = data[(s+12)&(size-1)];
       float a13 = data[(s+13)&(size-1)];
       float a14 = data[(s+14)&(size-1)];
       float a15 = data[(s+15)&(size-1)];
       sum += a0+a1+a2+a3+a4+a5+a6+a7+a8+a9+a10+a11+a12+a13+a14+a15;
       s = (s+16)&(size-1);
    }
    output[gid] = sum;
}

__global__ void
readLocalMemory(const float *data, float *output, int size, int repeat)
{
    int gid = threadIdx.x + (blockDim.x * blockIdx.x), j = 0;
    float sum = 0;
    int tid=threadIdx.x, localSize=blockDim.x, grpid=blockIdx.x,
            litems=2048/localSize, goffset=localSize*grpid+tid*litems;
    int s = tid;
    __shared__ float lbuf[2048];
    for ( ; j<litems && j<(size-goffset) ; ++j)
       lbuf[tid*litems+j] = data[goffset+j];
    for (int i=0 ; j<litems ; ++j,++i)
       lbuf[tid*litems+j] = data[i];
    __syncthreads();
    for (j=0 ; j<repeat ; ++j)
    {
       float a0 = lbuf[(s+0)&(2047)];
       float a1 = lbuf[(s+1)&(2047)];
       float a2 = lbuf[(s+2)&(2047)];
       float a3 = lbuf[(s+3)&(2047)];
       float a4 = lbuf[(s+4)&(2047)];
       float a5 = lbuf[(s+5)&(2047)];
       float a6 = lbuf[(s+6)&(2047)];
       float a7 = lbuf[(s+7)&(2047)];
       float a8 = lbuf[(s+8)&(2047)];
       float a9 = lbuf[(s+9)&(2047)];
       float a10 = lbuf[(s+10)&(2047)];
       float a11 = lbuf[(s+11)&(2047)];
       float a12 = lbuf[(s+12)&(2047)];
       float a13 = lbuf[(s+13)&(2047)];
       float a14 = lbuf[(s+14)&(2047)];
       float a15 = lbuf[(s+15)&(2047)];
       sum += a0+a1+a2+a3+a4+a5+a6+a7+a8+a9+a10+a11+a12+a13+a14+a15;
       s = (s+16)&(2047);
    }
    output[gid] = sum;
}

__global__ void
writeGlobalMemoryCoalesced(float *output, int size, int repeat)
{
    int gid = threadIdx.x + (blockDim.x * blockIdx.x), j = 0;
    int s = gid;
    for (j=0 ; j<repeat ; ++j)
    {
       output[(s+0)&(size-1)] = gid;
       output[(s+32768)&(size-1)] = gid;
       output[(s+65536)&(size-1)] = gid;
       output[(s+98304)&(size-1)] = gid;
       output[(s+131072)&(size-1)] = gid;
       output[(s+163840)&(size-1)] = gid;
       output[(s+196608)&(size-1)] = gid;
       output[(s+229376)&(size-1)] = gid;
       output[(s+262144)&(size-1)] = gid;
       output[(s+294912)&(size-1)] = gid;
       output[(s+327680)&(size-1)] = gid;
       output[(s+360448)&(size-1)] = gid;
       output[(s+393216)&(size-1)] = gid;
       output[(s+425984)&(size-1)] = gid;
       output[(s+458752)&(size-1)] = gid;
       output[(s+491520)&(size-1)] = gid;
       s = (s+524288)&(size-1);
    }
}

__global__ void
writeGlobalMemoryUnit(float *output, int size, int repeat)
{
    int gid = threadIdx.x + (blockDim.x * blockIdx.x), j = 0;
    int s = gid*512;
    for (j=0 ; j<repeat ; ++j)
    {
       output[(s+0)&(size-1)] = gid;
       output[(s+1)&(size-1)] = gid;
       output[(s+2)&(size-1)] = gid;
       output[(s+3)&(size-1)] = gid;
       output[(s+4)&(size-1)] = gid;
       output[(s+5)&(size-1)] = gid;
       output[(s+6)&(size-1)] = gid;
       output[(s+7)&(size-1)] = gid;
       output[(s+8)&(size-1)] = gid;
       output[(s+9)&(size-1)] = gid;
       output[(s+10)&(size-1)] = gid;
       output[(s+11)&(size-1)] = gid;
       output[(s+12)&(size-1)] = gid;
       output[(s+13)&(size-1)] = gid;
       output[(s+14)&(size-1)] = gid;
       output[(s+15)&(size-1)] = gid;
       s = (s+16)&(size-1);
    }
}

__global__ void
writeLocalMemory(float *output, int size, int repeat)
{
    int gid = threadIdx.x + (blockDim.x * blockIdx.x), j = 0;
    int tid=threadIdx.x, localSize=blockDim.x, litems=2048/localSize;
    int s = tid;
    __shared__ float lbuf[2048];
    for (j=0 ; j<repeat ; ++j)
    {
       lbuf[(s+0)&(2047)] = gid;
       lbuf[(s+1)&(2047)] = gid;
       lbuf[(s+2)&(2047)] = gid;
       lbuf[(s+3)&(2047)] = gid;
       lbuf[(s+4)&(2047)] = gid;
       lbuf[(s+5)&(2047)] = gid;
       lbuf[(s+6)&(2047)] = gid;
       lbuf[(s+7)&(2047)] = gid;
       lbuf[(s+8)&(2047)] = gid;
       lbuf[(s+9)&(2047)] = gid;
       lbuf[(s+10)&(2047)] = gid;
       lbuf[(s+11)&(2047)] = gid;
       lbuf[(s+12)&(2047)] = gid;
       lbuf[(s+13)&(2047)] = gid;
       lbuf[(s+14)&(2047)] = gid;
       lbuf[(s+15)&(2047)] = gid;
       s = (s+16)&(2047);
    }
    __syncthreads();
    for (j=0 ; j<litems ; ++j)
       output[gid] = lbuf[tid];
}


