// Pre-registered public kernel (not written for memsim): b0nes164/GPUPrefixSums
// GPUPrefixSums' reduce-then-scan device prefix sum (three kernels: per-block reductions, a
// one-block spine scan, per-block scan and propagation); copied for memsim's tenth pre-registered set.
//
// Repository: b0nes164/GPUPrefixSums, commit 98d93a4e9ed2f3c8353119515bf9be90a2e137ad
// Paths: GPUPrefixSumsCUDA/Utils.cuh, GPUPrefixSumsCUDA/ScanCommon.cuh, GPUPrefixSumsCUDA/ReduceThenScan.cuh
// Licence: MIT (Copyright (c) 2024 Thomas Smith; text in validate/prereg10/LICENSES.md)
//
// Edits, none in a function body: the three headers are concatenated in include order, their
// #include and #pragma once lines dropped (uint32_t, from <stdint.h>, is typedef'd below);
// the instances the dispatcher (ReduceThenScanDispatcher.cuh) launches are instantiated
// explicitly at the end (RTS_WARPS = 8, UINT4_PER_THREAD = 4; the spine <32, 4>).

typedef unsigned int uint32_t;   // <stdint.h>

/******************************************************************************
 * GPUPrefixSums
 *
 * SPDX-License-Identifier: MIT
 * Copyright Thomas Smith 11/30/2024
 * https://github.com/b0nes164/GPUPrefixSums
 *
 ******************************************************************************/

//General macros
#define LANE_COUNT 32                         //Threads in a warp
#define LANE_MASK 31                          //Mask of the lane count
#define LANE_LOG 5                            //log2(LANE_COUNT)
#define WARP_INDEX (threadIdx.x >> LANE_LOG)  //Warp of a thread

//PTX functions
__device__ __forceinline__ uint32_t getLaneId() {
    uint32_t laneId;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneId));
    return laneId;
}

//Warp scans
__device__ __forceinline__ uint32_t InclusiveWarpScan(uint32_t val) {
    #pragma unroll
    for (int i = 1; i <= 16; i <<= 1)  // 16 = LANE_COUNT >> 1
    {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, LANE_COUNT);
        if (getLaneId() >= i)
            val += t;
    }

    return val;
}

__device__ __forceinline__ uint32_t InclusiveWarpScanCircularShift(uint32_t val) {
    #pragma unroll
    for (int i = 1; i <= 16; i <<= 1)  // 16 = LANE_COUNT >> 1
    {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, LANE_COUNT);
        if (getLaneId() >= i)
            val += t;
    }

    return __shfl_sync(0xffffffff, val, getLaneId() + LANE_MASK & LANE_MASK);
}

__device__ __forceinline__ uint32_t WarpReduceSum(uint32_t val) {
    #pragma unroll
    for (int mask = 16; mask; mask >>= 1)  // 16 = LANE_COUNT >> 1
        val += __shfl_xor_sync(0xffffffff, val, mask, LANE_COUNT);

    return val;
}

__device__ __forceinline__ uint4 SetXAddYZW(uint32_t valToAdd, uint4 val) {
    return make_uint4(valToAdd, val.y + valToAdd, val.z + valToAdd, val.w + valToAdd);
}

__device__ __forceinline__ uint4 AddUintToUint4(uint32_t valToAdd, uint4 val) {
    return make_uint4(val.x + valToAdd, val.y + valToAdd, val.z + valToAdd, val.w + valToAdd);
}

__device__ __forceinline__ uint32_t ReduceUint4(uint4 val) {
    return val.x + val.y + val.z + val.w;
}
/******************************************************************************
 * GPUPrefixSums
 *
 * SPDX-License-Identifier: MIT
 * Copyright Thomas Smith 11/30/2024
 * https://github.com/b0nes164/GPUPrefixSums
 *
 ******************************************************************************/

template <uint32_t PER_THREAD>
__device__ __forceinline__ void ScanExclusiveFull(uint4* tScan, uint32_t* scan,
                                                  uint32_t* s_warpReduction,
                                                  const uint32_t offset) {
    uint32_t warpReduction = 0;
    #pragma unroll
    for (uint32_t i = getLaneId() + offset, k = 0; k < PER_THREAD; i += LANE_COUNT, ++k) {
        tScan[k] = reinterpret_cast<uint4*>(scan)[i];

        uint32_t t0 = tScan[k].x;
        tScan[k].x += tScan[k].y;
        tScan[k].y = t0;

        t0 = tScan[k].x;
        tScan[k].x += tScan[k].z;
        tScan[k].z = t0;

        t0 = tScan[k].x;
        tScan[k].x += tScan[k].w;
        tScan[k].w = t0;

        const uint32_t t1 = InclusiveWarpScanCircularShift(tScan[k].x);
        tScan[k] = SetXAddYZW((getLaneId() ? t1 : 0) + warpReduction, tScan[k]);
        warpReduction += __shfl_sync(0xffffffff, t1, 0);
    }

    if (!getLaneId())
        s_warpReduction[WARP_INDEX] = warpReduction;
}

template <uint32_t PER_THREAD>
__device__ __forceinline__ void ScanExclusivePartial(uint4* tScan, uint32_t* scan,
                                                     uint32_t* s_warpReduction,
                                                     const uint32_t offset,
                                                     const uint32_t vecSize) {
    uint32_t warpReduction = 0;
    #pragma unroll
    for (uint32_t i = getLaneId() + offset, k = 0; k < PER_THREAD; i += LANE_COUNT, ++k) {
        tScan[k] = i < vecSize ? reinterpret_cast<uint4*>(scan)[i] : make_uint4(0, 0, 0, 0);

        uint32_t t0 = tScan[k].x;
        tScan[k].x += tScan[k].y;
        tScan[k].y = t0;

        t0 = tScan[k].x;
        tScan[k].x += tScan[k].z;
        tScan[k].z = t0;

        t0 = tScan[k].x;
        tScan[k].x += tScan[k].w;
        tScan[k].w = t0;

        const uint32_t t1 = InclusiveWarpScanCircularShift(tScan[k].x);
        tScan[k] = SetXAddYZW((getLaneId() ? t1 : 0) + warpReduction, tScan[k]);
        warpReduction += __shfl_sync(0xffffffff, t1, 0);
    }

    if (!getLaneId())
        s_warpReduction[WARP_INDEX] = warpReduction;
}

template <uint32_t PER_THREAD>
__device__ __forceinline__ void ScanInclusiveFull(uint4* tScan, uint32_t* scan,
                                                  uint32_t* s_warpReduction,
                                                  const uint32_t offset) {
    uint32_t warpReduction = 0;
    #pragma unroll
    for (uint32_t i = getLaneId() + offset, k = 0; k < PER_THREAD; i += LANE_COUNT, ++k) {
        tScan[k] = reinterpret_cast<uint4*>(scan)[i];
        tScan[k].y += tScan[k].x;
        tScan[k].z += tScan[k].y;
        tScan[k].w += tScan[k].z;

        const uint32_t t = InclusiveWarpScanCircularShift(tScan[k].w);
        tScan[k] = AddUintToUint4((getLaneId() ? t : 0) + warpReduction, tScan[k]);
        warpReduction += __shfl_sync(0xffffffff, t, 0);
    }

    if (!getLaneId())
        s_warpReduction[WARP_INDEX] = warpReduction;
}

template <uint32_t PER_THREAD>
__device__ __forceinline__ void ScanInclusivePartial(uint4* tScan, uint32_t* scan,
                                                     uint32_t* s_warpReduction,
                                                     const uint32_t offset,
                                                     const uint32_t vecSize) {
    uint32_t warpReduction = 0;
    #pragma unroll
    for (uint32_t i = getLaneId() + offset, k = 0; k < PER_THREAD; i += LANE_COUNT, ++k) {
        tScan[k] = i < vecSize ? reinterpret_cast<uint4*>(scan)[i] : make_uint4(0, 0, 0, 0);
        tScan[k].y += tScan[k].x;
        tScan[k].z += tScan[k].y;
        tScan[k].w += tScan[k].z;

        const uint32_t t = InclusiveWarpScanCircularShift(tScan[k].w);
        tScan[k] = AddUintToUint4((getLaneId() ? t : 0) + warpReduction, tScan[k]);
        warpReduction += __shfl_sync(0xffffffff, t, 0);
    }

    if (!getLaneId())
        s_warpReduction[WARP_INDEX] = warpReduction;
}

template <uint32_t PER_THREAD>
__device__ __forceinline__ void PropagateFull(uint4* tScan, uint32_t* scan,
                                              const uint32_t prevReduction, const uint32_t offset) {
    #pragma unroll
    for (uint32_t i = getLaneId() + offset, k = 0; k < PER_THREAD; i += LANE_COUNT, ++k) {
        reinterpret_cast<uint4*>(scan)[i] = AddUintToUint4(prevReduction, tScan[k]);
    }
}

template <uint32_t PER_THREAD>
__device__ __forceinline__ void PropagatePartial(uint4* tScan, uint32_t* scan,
                                                 const uint32_t prevReduction,
                                                 const uint32_t offset, const uint32_t vecSize) {
    #pragma unroll
    for (uint32_t i = getLaneId() + offset, k = 0; k < PER_THREAD; i += LANE_COUNT, ++k) {
        if (i < vecSize) {
            reinterpret_cast<uint4*>(scan)[i] = AddUintToUint4(prevReduction, tScan[k]);
        }
    }
}
/******************************************************************************
 * GPUPrefixSums
 * Reduce then Scan 
 *
 * SPDX-License-Identifier: MIT
 * Copyright Thomas Smith 11/30/2024
 * https://github.com/b0nes164/GPUPrefixSums
 *
 ******************************************************************************/

namespace ReduceThenScan {
    template <uint32_t WARPS, uint32_t PER_THREAD>
    __global__ void Reduce(uint32_t* scan, uint32_t* threadBlockReductions,
                           const uint32_t vectorizedSize) {
        constexpr uint32_t PART_VEC_SIZE = WARPS * LANE_COUNT * PER_THREAD;
        __shared__ uint32_t s_red[WARPS];

        uint32_t warpReduction = 0;
        //full
        if (blockIdx.x < gridDim.x - 1) {
            #pragma unroll
            for (uint32_t i = threadIdx.x + PART_VEC_SIZE * blockIdx.x, k = 0; k < PER_THREAD;
                 i += blockDim.x, ++k) {
                warpReduction += WarpReduceSum(ReduceUint4(reinterpret_cast<uint4*>(scan)[i]));
            }
        }

        //partial
        if (blockIdx.x == gridDim.x - 1) {
            #pragma unroll
            for (uint32_t i = threadIdx.x + PART_VEC_SIZE * blockIdx.x, k = 0; k < PER_THREAD;
                 i += blockDim.x, ++k) {
                warpReduction += WarpReduceSum(
                    i < vectorizedSize ? 0 : ReduceUint4(reinterpret_cast<uint4*>(scan)[i]));
            }
        }

        if (!getLaneId()) {
            s_red[WARP_INDEX] = warpReduction;
        }
        __syncthreads();

        if (threadIdx.x < LANE_COUNT) {
            const bool pred = threadIdx.x < WARPS;
            const uint32_t blockReduction = WarpReduceSum(pred ? s_red[threadIdx.x] : 0);
            if (!threadIdx.x) {
                threadBlockReductions[blockIdx.x] = blockReduction;
            }
        }
    }

    // Unvectorized
    template <uint32_t WARPS, uint32_t PER_THREAD>
    __global__ void SpineScan(uint32_t* threadBlockReductions, const uint32_t threadBlocks) {
        constexpr uint32_t PART_SIZE = WARPS * PER_THREAD * LANE_COUNT;
        __shared__ uint32_t s_red[WARPS];

        const uint32_t alignedSize = (threadBlocks + PART_SIZE - 1) / PART_SIZE * PART_SIZE;
        const uint32_t threadStart = getLaneId() + WARP_INDEX * PER_THREAD * LANE_COUNT;

        uint32_t prevReduction = 0;
        uint32_t tScan[PER_THREAD];
        for (uint32_t i = 0; i < alignedSize; i += PART_SIZE) {
            uint32_t prev = 0;
            #pragma unroll
            for (uint32_t j = threadStart + i, k = 0; k < PER_THREAD; j += LANE_COUNT, ++k) {
                if (j < threadBlocks) {
                    tScan[k] = threadBlockReductions[j];
                }
                tScan[k] = InclusiveWarpScan(tScan[k]) + prev;
                prev = __shfl_sync(0xffffffff, tScan[k], LANE_MASK);
            }

            if (!getLaneId()) {
                s_red[WARP_INDEX] = prev;
            }
            __syncthreads();

            if (threadIdx.x < LANE_COUNT) {
                const bool pred = threadIdx.x < WARPS;
                const uint32_t t = InclusiveWarpScan(pred ? s_red[threadIdx.x] : 0);
                if (pred) {
                    s_red[threadIdx.x] = t;
                }
            }
            __syncthreads();

            const uint32_t combinedReduction =
                (threadIdx.x >= LANE_COUNT ? s_red[WARPS - 1] : 0) + prevReduction;

            #pragma unroll
            for (uint32_t j = threadStart + i, k = 0; k < PER_THREAD; j += LANE_COUNT, ++k) {
                if (j < threadBlocks) {
                    threadBlockReductions[j] = tScan[k] + combinedReduction;
                }
            }

            prevReduction += s_red[WARPS - 1];
            __syncthreads();
        }
    }

    template <uint32_t WARPS, uint32_t PER_THREAD>
    __device__ __forceinline__ void Propagate(
        uint32_t* scan, uint32_t* threadBlockReductions, const uint32_t vectorizedSize,
        void (*ScanVariantFull)(uint4*, uint32_t*, uint32_t*, const uint32_t),
        void (*ScanVariantPartial)(uint4*, uint32_t*, uint32_t*, const uint32_t, const uint32_t)) {
        constexpr uint32_t PART_VEC_SIZE = WARPS * LANE_COUNT * PER_THREAD;
        __shared__ uint32_t s_warpReduction[WARPS];

        uint4 tScan[PER_THREAD];
        const uint32_t offset = WARP_INDEX * LANE_COUNT * PER_THREAD + blockIdx.x * PART_VEC_SIZE;
        if (blockIdx.x < gridDim.x - 1) {
            (*ScanVariantFull)(tScan, scan, s_warpReduction, offset);
        }

        if (blockIdx.x == gridDim.x - 1) {
            (*ScanVariantPartial)(tScan, scan, s_warpReduction, offset, vectorizedSize);
        }
        __syncthreads();

        if (threadIdx.x < LANE_COUNT) {
            const bool pred = threadIdx.x < WARPS;
            const uint32_t t = InclusiveWarpScan(pred ? s_warpReduction[threadIdx.x] : 0);
            if (pred) {
                s_warpReduction[threadIdx.x] = t;
            }
        }
        __syncthreads();

        const uint32_t prevReduction =
            (blockIdx.x ? threadBlockReductions[blockIdx.x - 1] : 0) +
            (threadIdx.x >= LANE_COUNT ? s_warpReduction[WARP_INDEX - 1] : 0);

        if (blockIdx.x < gridDim.x - 1) {
            PropagateFull<PER_THREAD>(tScan, scan, prevReduction, offset);
        }

        if (blockIdx.x == gridDim.x - 1) {
            PropagatePartial<PER_THREAD>(tScan, scan, prevReduction, offset, vectorizedSize);
        }
    }

    template <uint32_t WARPS, uint32_t PER_THREAD>
    __global__ void PropagateInclusive(uint32_t* scan, uint32_t* threadBlockReductions,
                                       const uint32_t vectorizedSize) {
        Propagate<WARPS, PER_THREAD>(scan, threadBlockReductions, vectorizedSize,
                                     ScanInclusiveFull<PER_THREAD>,
                                     ScanInclusivePartial<PER_THREAD>);
    }

    template <uint32_t WARPS, uint32_t PER_THREAD>
    __global__ void PropagateExclusive(uint32_t* scan, uint32_t* threadBlockReductions,
                                       const uint32_t vectorizedSize) {
        Propagate<WARPS, PER_THREAD>(scan, threadBlockReductions, vectorizedSize,
                                     ScanExclusiveFull<PER_THREAD>,
                                     ScanExclusivePartial<PER_THREAD>);
    }
}  // namespace ReduceThenScan

// The instances ReduceThenScanDispatcher.cuh launches.
template __global__ void ReduceThenScan::Reduce<8, 4>(uint32_t*, uint32_t*, const uint32_t);
template __global__ void ReduceThenScan::SpineScan<32, 4>(uint32_t*, const uint32_t);
template __global__ void ReduceThenScan::PropagateInclusive<8, 4>(uint32_t*, uint32_t*, const uint32_t);
template __global__ void ReduceThenScan::PropagateExclusive<8, 4>(uint32_t*, uint32_t*, const uint32_t);
