// Pre-registered public kernel (not written for memsim): b0nes164/GPUSorting
// GPUSorting's device-level 8-bit LSD radix sort (reduce then scan): the upsweep (per-block digit
// histograms in shared memory, their pass histogram and the global histogram) and the scan of
// the pass histogram; copied for memsim's tenth pre-registered set.
//
// Repository: b0nes164/GPUSorting, commit 09a6081d964b682bbb58838b83ab75aebe7f4e05
// Paths: GPUSortingCUDA/Utils.cuh, GPUSortingCUDA/Sort/DeviceRadixSort.cuh, GPUSortingCUDA/Sort/DeviceRadixSort.cu
// Licence: MIT (Copyright (c) 2024 Thomas Smith; text in validate/prereg10/LICENSES.md)
//
// Edits, none in a function body: Utils.cuh (only the five helpers these kernels call, each
// whole: getLaneId and four warp scans), then DeviceRadixSort.cuh's namespace with the
// declarations of the two kernels copied (the downsweeps' declarations left out with their
// kernels: their scatter needs the scanned histograms as input, see STATUS.md), then
// DeviceRadixSort.cu's defines and its Upsweep and Scan as written; #include and #pragma once
// lines dropped (uint32_t, from <stdint.h>, is typedef'd below). Neither kernel is a template:
// a launch names it (`DeviceRadixSort::Upsweep`).

typedef unsigned int uint32_t;   // <stdint.h>

/******************************************************************************
 * GPUSorting
 *
 * SPDX-License-Identifier: MIT
 * Copyright Thomas Smith 2/21/2024
 * https://github.com/b0nes164/GPUSorting
 *
 ******************************************************************************/

//General macros
#define LANE_COUNT          32							//Threads in a warp
#define LANE_MASK           31							//Mask of the lane count
#define LANE_LOG            5							//log2(LANE_COUNT)
#define WARP_INDEX          (threadIdx.x >> LANE_LOG)	//Warp of a thread

//PTX functions
__device__ __forceinline__ uint32_t getLaneId() 
{
    uint32_t laneId;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneId));
    return laneId;
}

__device__ __forceinline__ uint32_t InclusiveWarpScan(uint32_t val)
{
    #pragma unroll
    for (int i = 1; i <= 16; i <<= 1) // 16 = LANE_COUNT >> 1
    {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, 32);
        if (getLaneId() >= i) val += t;
    }

    return val;
}

__device__ __forceinline__ uint32_t ActiveInclusiveWarpScan(uint32_t val)
{
    const uint32_t mask = __activemask();
    #pragma unroll
    for (int i = 1; i <= 16; i <<= 1)
    {
        const uint32_t t = __shfl_up_sync(mask, val, i, 32);
        if (getLaneId() >= i) val += t;
    }

    return val;
}

__device__ __forceinline__ uint32_t InclusiveWarpScanCircularShift(uint32_t val)
{
    #pragma unroll
    for (int i = 1; i <= 16; i <<= 1) // 16 = LANE_COUNT >> 1
    {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, 32);
        if (getLaneId() >= i) val += t;
    }

    return __shfl_sync(0xffffffff, val, getLaneId() + LANE_MASK & LANE_MASK);
}

__device__ __forceinline__ uint32_t ActiveExclusiveWarpScan(uint32_t val)
{
    const uint32_t mask = __activemask();
    #pragma unroll
    for (int i = 1; i <= 16; i <<= 1) // 16 = LANE_COUNT >> 1
    {
        const uint32_t t = __shfl_up_sync(mask, val, i, 32);
        if (getLaneId() >= i) val += t;
    }

    const uint32_t t = __shfl_up_sync(mask, val, 1, 32);
    return getLaneId() ? t : 0;
}


namespace DeviceRadixSort
{
    __global__ void Upsweep(
        uint32_t* sort,
        uint32_t* globalHist,
        uint32_t* passHist,
        uint32_t size,
        uint32_t radixShift);

    __global__ void Scan(
        uint32_t* passHist,
        uint32_t threadBlocks);
}

#define RADIX               256     //Number of digit bins
#define RADIX_MASK          255     //Mask of digit bins, to extract digits
#define RADIX_LOG           8       //log2(RADIX)

#define SEC_RADIX_START     256     //Offset for retrieving value from global histogram buffer
#define THIRD_RADIX_START   512     //Offset for retrieving value from global histogram buffer
#define FOURTH_RADIX_START  768     //Offset for retrieving value from global histogram buffer

//For the upfront global histogram kernel
#define PART_SIZE			7680
#define VEC_PART_SIZE		1920

//For the digit binning
#define BIN_PART_SIZE       7680                                    //Partition tile size in k_DigitBinning
#define BIN_HISTS_SIZE      4096                                    //Total size of warp histograms in shared memory in k_DigitBinning
#define BIN_SUB_PART_SIZE   480                                     //Subpartition tile size of a single warp in k_DigitBinning
#define BIN_WARPS           16                                      //Warps per threadblock in k_DigitBinning
#define BIN_KEYS_PER_THREAD 15                                      //Keys per thread in k_DigitBinning
#define BIN_SUB_PART_START  (WARP_INDEX * BIN_SUB_PART_SIZE)        //Starting offset of a subpartition tile
#define BIN_PART_START      (blockIdx.x * BIN_PART_SIZE)			//Starting offset of a partition tile

//for the chained scan with decoupled lookback
#define FLAG_NOT_READY      0                                       //Flag value inidicating neither inclusive sum, nor reduction of a partition tile is ready
#define FLAG_REDUCTION      1                                       //Flag value indicating reduction of a partition tile is ready
#define FLAG_INCLUSIVE      2                                       //Flag value indicating inclusive sum of a partition tile is ready
#define FLAG_MASK           3                                       //Mask used to retrieve flag values

__global__ void DeviceRadixSort::Upsweep(
    uint32_t* sort,
    uint32_t* globalHist,
    uint32_t* passHist,
    uint32_t size,
    uint32_t radixShift)
{
    __shared__ uint32_t s_globalHist[RADIX * 2];

    //clear shared memory
    for (uint32_t i = threadIdx.x; i < RADIX * 2; i += blockDim.x)
        s_globalHist[i] = 0;
    __syncthreads();
    
    //histogram
    {
        //64 threads : 1 histogram in shared memory
        uint32_t* s_wavesHist = &s_globalHist[threadIdx.x / 64 * RADIX];

        if (blockIdx.x < gridDim.x - 1)
        {
            const uint32_t partEnd = (blockIdx.x + 1) * VEC_PART_SIZE;
            for (uint32_t i = threadIdx.x + (blockIdx.x * VEC_PART_SIZE); i < partEnd; i += blockDim.x)
            {
                const uint4 t = reinterpret_cast<uint4*>(sort)[i];
                atomicAdd(&s_wavesHist[t.x >> radixShift & RADIX_MASK], 1);
                atomicAdd(&s_wavesHist[t.y >> radixShift & RADIX_MASK], 1);
                atomicAdd(&s_wavesHist[t.z >> radixShift & RADIX_MASK], 1);
                atomicAdd(&s_wavesHist[t.w >> radixShift & RADIX_MASK], 1);
            }
        }

        if (blockIdx.x == gridDim.x - 1)
        {
            for (uint32_t i = threadIdx.x + (blockIdx.x * PART_SIZE); i < size; i += blockDim.x)
            {
                const uint32_t t = sort[i];
                atomicAdd(&s_wavesHist[t >> radixShift & RADIX_MASK], 1);
            }
        }
    }
    __syncthreads();

    //reduce to the first hist, pass out, begin prefix sum
    for (uint32_t i = threadIdx.x; i < RADIX; i += blockDim.x)
    {
        s_globalHist[i] += s_globalHist[i + RADIX];
        passHist[i * gridDim.x + blockIdx.x] = s_globalHist[i];
        s_globalHist[i] = InclusiveWarpScanCircularShift(s_globalHist[i]);
    }	
    __syncthreads();

    if (threadIdx.x < (RADIX >> LANE_LOG))
        s_globalHist[threadIdx.x << LANE_LOG] = ActiveExclusiveWarpScan(s_globalHist[threadIdx.x << LANE_LOG]);
    __syncthreads();
    
    //Atomically add to device memory
    for (uint32_t i = threadIdx.x; i < RADIX; i += blockDim.x)
        atomicAdd(&globalHist[i + (radixShift << 5)], s_globalHist[i] + (getLaneId() ? __shfl_sync(0xfffffffe, s_globalHist[i - 1], 1) : 0));
}

__global__ void DeviceRadixSort::Scan(
    uint32_t* passHist,
    uint32_t threadBlocks)
{
    __shared__ uint32_t s_scan[128];

    uint32_t reduction = 0;
    const uint32_t circularLaneShift = getLaneId() + 1 & LANE_MASK;
    const uint32_t partitionsEnd = threadBlocks / blockDim.x * blockDim.x;
    const uint32_t digitOffset = blockIdx.x * threadBlocks;

    uint32_t i = threadIdx.x;
    for (; i < partitionsEnd; i += blockDim.x)
    {
        s_scan[threadIdx.x] = passHist[i + digitOffset];
        s_scan[threadIdx.x] = InclusiveWarpScan(s_scan[threadIdx.x]);
        __syncthreads();

        if (threadIdx.x < (blockDim.x >> LANE_LOG))
        {
            s_scan[(threadIdx.x + 1 << LANE_LOG) - 1] = 
                ActiveInclusiveWarpScan(s_scan[(threadIdx.x + 1 << LANE_LOG) - 1]);
        }
        __syncthreads();

        passHist[circularLaneShift + (i & ~LANE_MASK) + digitOffset] =
            (getLaneId() != LANE_MASK ? s_scan[threadIdx.x] : 0) +
            (threadIdx.x >= LANE_COUNT ? __shfl_sync(0xffffffff, s_scan[threadIdx.x - 1], 0) : 0) +
            reduction;

        reduction += s_scan[blockDim.x - 1];
        __syncthreads();
    }

    if(i < threadBlocks)
        s_scan[threadIdx.x] = passHist[i + digitOffset];
    s_scan[threadIdx.x] = InclusiveWarpScan(s_scan[threadIdx.x]);
    __syncthreads();

    if (threadIdx.x < (blockDim.x >> LANE_LOG))
    {
        s_scan[(threadIdx.x + 1 << LANE_LOG) - 1] =
            ActiveInclusiveWarpScan(s_scan[(threadIdx.x + 1 << LANE_LOG) - 1]);
    }
    __syncthreads();

    const uint32_t index = circularLaneShift + (i & ~LANE_MASK);
    if (index < threadBlocks)
    {
        passHist[index + digitOffset] =
            (getLaneId() != LANE_MASK ? s_scan[threadIdx.x] : 0) +
            (threadIdx.x >= LANE_COUNT ?
            s_scan[(threadIdx.x & ~LANE_MASK) - 1] : 0) +
            reduction;
    }
}
