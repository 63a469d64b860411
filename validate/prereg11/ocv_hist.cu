// Pre-registered public kernel (not written for memsim): opencv/opencv_contrib
// OpenCV's CUDA histograms (cv::cuda::calcHist's 256-bin histogram of 8-bit images, histEven's
// binned histogram, shared-memory atomics a block of 8 rows merged with global atomics) and
// equalizeHist's LUT build (one block: min reduction by shuffles, a work-efficient shared scan);
// copied for memsim's eleventh pre-registered set (validate/prereg11_cases.py).
//
// Repository: opencv/opencv_contrib, commit 2a5154a4479e841aa1282ef83d139c4870d17b8f
// Paths: modules/cudaimgproc/src/cuda/hist.cu
// Licence: BSD-3-Clause (the file's own "License Agreement For Open Source Computer Vision Library": Copyright (C) 2000-2008, Intel Corporation, Copyright (C) 2009, Willow Garage Inc.; the repository's LICENSE: Apache-2.0; texts in validate/prereg11/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel and helper copied whole,
// in the source's order, under `// --- path: lines`, inside its namespace hist):
// - the #include lines (opencv2/core/cuda/common.hpp, functional.hpp, emulation.hpp,
//   transform.hpp, of the opencv repository) and the using-directives are dropped; what the
//   kernels use of them is written in the prelude below: the uchar / uint typedefs,
//   Emulation::smem::atomicAdd (emulation.hpp: on sm_20 and later, ::atomicAdd) and
//   saturate_cast<unsigned char>(float) (saturate_cast.hpp: cvt.rni.sat.u8.f32);
// - histogram256Kernel's masked overload (the same name) and equalizeHist's transform functor
//   are left out, as is the host code; the instances the host code launches with aligned rows
//   (<true>) are instantiated explicitly at the end.

typedef unsigned char uchar;
typedef unsigned int uint;

namespace Emulation { namespace smem {   // opencv2/core/cuda/emulation.hpp (sm_20 and later)
    template<typename T> __device__ __forceinline__ T atomicAdd(T* address, T val) { return ::atomicAdd(address, val); }
}}

template<typename T> __device__ __forceinline__ T saturate_cast(float v);   // opencv2/core/cuda/saturate_cast.hpp
template<> __device__ __forceinline__ unsigned char saturate_cast<unsigned char>(float v)
{
    uint res = 0;
    asm("cvt.rni.sat.u8.f32 %0, %1;" : "=r"(res) : "f"(v));
    return res;
}

namespace hist
{
// --- modules/cudaimgproc/src/cuda/hist.cu: lines 55-98
    template<bool fourByteAligned>
    __global__ void histogram256Kernel(const uchar* src, int cols, int rows, size_t step, int* hist, const int offsetX = 0)
    {
        __shared__ int shist[256];

        const int y = blockIdx.x * blockDim.y + threadIdx.y;
        const int tid = threadIdx.y * blockDim.x + threadIdx.x;
        const int alignedOffset = fourByteAligned ? 0 : 4 - offsetX;
        shist[tid] = 0;
        __syncthreads();

        if (y < rows) {
            const uchar* rowPtr = &src[y * step];
            // load uncoalesced head
            if (!fourByteAligned && threadIdx.x == 0) {
                for (int x = 0; x < min(alignedOffset, cols); x++)
                    Emulation::smem::atomicAdd(&shist[static_cast<int>(rowPtr[x])], 1);
            }

            // coalesced loads
            const unsigned int* rowPtrIntAligned = (const unsigned int*)(fourByteAligned ? &src[y * step] : &src[alignedOffset + y * step]);
            const int cols_4 = fourByteAligned ? cols / 4 : (cols - alignedOffset) / 4;
            for (int x = threadIdx.x; x < cols_4; x += blockDim.x) {
                const unsigned int data = rowPtrIntAligned[x];
                Emulation::smem::atomicAdd(&shist[(data >> 0) & 0xFFU], 1);
                Emulation::smem::atomicAdd(&shist[(data >> 8) & 0xFFU], 1);
                Emulation::smem::atomicAdd(&shist[(data >> 16) & 0xFFU], 1);
                Emulation::smem::atomicAdd(&shist[(data >> 24) & 0xFFU], 1);
            }

            // load uncoalesced tail
            if (threadIdx.x == 0) {
                const int iTailStart = fourByteAligned ? cols_4 * 4 : cols_4 * 4 + alignedOffset;
                for (int x = iTailStart; x < cols; x++)
                    Emulation::smem::atomicAdd(&shist[static_cast<int>(rowPtr[x])], 1);
            }
        }

        __syncthreads();

        const int histVal = shist[tid];
        if (histVal > 0)
            ::atomicAdd(hist + tid, histVal);
    }
}

namespace hist
{
// --- modules/cudaimgproc/src/cuda/hist.cu: lines 195-254
    __device__ __forceinline__ void histEvenInc(int* shist, uint data, int binSize, int lowerLevel, int upperLevel)
    {
        if (data >= lowerLevel && data <= upperLevel)
        {
            const uint ind = (data - lowerLevel) / binSize;
            Emulation::smem::atomicAdd(shist + ind, 1);
        }
    }

    template<bool fourByteAligned>
    __global__ void histEven8u(const uchar* src, const size_t step, const int rows, const int cols, int* hist, const int binCount, const int binSize,
        const int lowerLevel, const int upperLevel, const int offsetX)
    {
        extern __shared__ int shist[];

        const int y = blockIdx.x * blockDim.y + threadIdx.y;
        const int tid = threadIdx.y * blockDim.x + threadIdx.x;
        const int alignedOffset = fourByteAligned ? 0 : 4 - offsetX;
        if (tid < binCount)
            shist[tid] = 0;
        __syncthreads();

        if (y < rows)
        {
            const uchar* rowPtr = &src[y * step];
            // load uncoalesced head
            if (!fourByteAligned && threadIdx.x == 0) {
                for (int x = 0; x < min(alignedOffset, cols); x++)
                    histEvenInc(shist, rowPtr[x], binSize, lowerLevel, upperLevel);
            }

            // coalesced loads
            const unsigned int* rowPtrIntAligned = (const unsigned int*)(fourByteAligned ? &src[y * step] : &src[alignedOffset + y * step]);
            const int cols_4 = fourByteAligned ? cols / 4 : (cols - alignedOffset) / 4;
            for (int x = threadIdx.x; x < cols_4; x += blockDim.x) {
                const unsigned int data = rowPtrIntAligned[x];
                histEvenInc(shist, (data >> 0) & 0xFFU, binSize, lowerLevel, upperLevel);
                histEvenInc(shist, (data >> 8) & 0xFFU, binSize, lowerLevel, upperLevel);
                histEvenInc(shist, (data >> 16) & 0xFFU, binSize, lowerLevel, upperLevel);
                histEvenInc(shist, (data >> 24) & 0xFFU, binSize, lowerLevel, upperLevel);
            }

            // load uncoalesced tail
            if (threadIdx.x == 0) {
                const int iTailStart = fourByteAligned ? cols_4 * 4 : cols_4 * 4 + alignedOffset;
                for (int x = iTailStart; x < cols; x++)
                    histEvenInc(shist, rowPtr[x], binSize, lowerLevel, upperLevel);
            }
        }

        __syncthreads();

        if (tid < binCount)
        {
            const int histVal = shist[tid];

            if (histVal > 0)
                ::atomicAdd(hist + tid, histVal);
        }
    }
}

namespace hist
{
// --- modules/cudaimgproc/src/cuda/hist.cu: lines 308-425
    __global__ void buildLutKernel(int* hist, unsigned char* lut, int size)
    {
        __shared__ int warp_smem[8];
        __shared__ int hist_smem[8][33];

#define HIST_SMEM_NO_BANK_CONFLICT(idx) hist_smem[(idx) >> 5][(idx) & 31]

        const int tId = threadIdx.x;
        const int warpId = threadIdx.x / 32;
        const int laneId = threadIdx.x % 32;

        // Step1 - Find minimum non-zero value in hist and make it zero
        HIST_SMEM_NO_BANK_CONFLICT(tId) = hist[tId];
        int nonZeroIdx = HIST_SMEM_NO_BANK_CONFLICT(tId) > 0 ? tId : 256;

        __syncthreads();

        for (int delta = 16; delta > 0; delta /= 2)
        {
#if __CUDACC_VER_MAJOR__ >= 9
            int shflVal = __shfl_down_sync(0xFFFFFFFF, nonZeroIdx, delta);
#else
            int shflVal = __shfl_down(nonZeroIdx, delta);
#endif
            if (laneId < delta)
                nonZeroIdx = min(nonZeroIdx, shflVal);
        }

        if (laneId == 0)
            warp_smem[warpId] = nonZeroIdx;

        __syncthreads();

        if (tId < 8)
        {
            int warpVal = warp_smem[tId];
            for (int delta = 4; delta > 0; delta /= 2)
            {
#if __CUDACC_VER_MAJOR__ >= 9
                int shflVal = __shfl_down_sync(0x000000FF, warpVal, delta);
#else
                int shflVal = __shfl_down(warpVal, delta);
#endif
                if (tId < delta)
                    warpVal = min(warpVal, shflVal);
            }
            if (tId == 0)
            {
                warp_smem[0] = warpVal; // warpVal - minimum index
            }
        }

        __syncthreads();

        const int minNonZeroIdx = warp_smem[0];
        const int minNonZeroVal = HIST_SMEM_NO_BANK_CONFLICT(minNonZeroIdx);
        if (minNonZeroVal == size)
        {
            // This is a special case: the whole image has the same color

            lut[tId] = 0;
            if (tId == minNonZeroIdx)
                lut[tId] = minNonZeroIdx;
            return;
        }

        if (tId == 0)
            HIST_SMEM_NO_BANK_CONFLICT(minNonZeroIdx) = 0;

        __syncthreads();

        // Step2 - Inclusive sum
        // Algorithm from GPU Gems 3 (A Work-Efficient Parallel Scan)
        // https://developer.nvidia.com/gpugems/gpugems3/part-vi-gpu-computing/chapter-39-parallel-prefix-sum-scan-cuda

        // Step2 Phase1 - The Up-Sweep Phase
        for (int delta = 1; delta < 256; delta *= 2)
        {
            if (tId < 128 / delta)
            {
                int idx = 255 - 2 * tId * delta;
                HIST_SMEM_NO_BANK_CONFLICT(idx) += HIST_SMEM_NO_BANK_CONFLICT(idx - delta);
            }
            __syncthreads();
        }

        // Step2 Phase2 - The Down-Sweep Phase
        if (tId == 0)
            HIST_SMEM_NO_BANK_CONFLICT(255) = 0;

        for (int delta = 128; delta >= 1; delta /= 2)
        {
            if (tId < 128 / delta)
            {
                int rootIdx = 255 - tId * delta * 2;
                int leftIdx = rootIdx - delta;
                int tmp = HIST_SMEM_NO_BANK_CONFLICT(leftIdx);
                HIST_SMEM_NO_BANK_CONFLICT(leftIdx) = HIST_SMEM_NO_BANK_CONFLICT(rootIdx);
                HIST_SMEM_NO_BANK_CONFLICT(rootIdx) += tmp;
            }
            __syncthreads();
        }

        // Step2 Phase3 - Convert exclusive sum to inclusive sum
        int tmp = HIST_SMEM_NO_BANK_CONFLICT(tId);
        __syncthreads();
        if (tId >= 1)
            HIST_SMEM_NO_BANK_CONFLICT(tId - 1) = tmp;
        if (tId == 255)
            HIST_SMEM_NO_BANK_CONFLICT(tId) = tmp + hist[tId];
        __syncthreads();

        // Step3 - Scale values to build lut

        lut[tId] = saturate_cast<unsigned char>(HIST_SMEM_NO_BANK_CONFLICT(tId) * (255.0f / (size - minNonZeroVal)));

#undef HIST_SMEM_NO_BANK_CONFLICT
    }
}

// --- explicit instances (the host code's aligned-row launches)
template __global__ void hist::histogram256Kernel<true>(const uchar*, int, int, size_t, int*, const int);
template __global__ void hist::histEven8u<true>(const uchar*, const size_t, const int, const int, int*, const int, const int, const int, const int, const int);
