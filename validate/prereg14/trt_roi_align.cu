// Pre-registered public kernel (not written for memsim): NVIDIA/TensorRT
// TensorRT's RoIAlign plugin (ONNX RoiAlign): a thread an output element (roi, channel, ph, pw), a
// sampling grid of bilinear gathers from its roi's batch image, average or max mode, float and
// half; copied for memsim's fourteenth pre-registered set (validate/prereg14_cases.py). The source
// file says it is modified from PyTorch (Copyright (c) 2016-present, Facebook, Inc.) and from ONNX
// Runtime (Copyright (c) Microsoft Corporation); TensorRT distributes it under Apache-2.0.
//
// Repository: NVIDIA/TensorRT, commit a892d22267d9cd2dedc1a0893e6892ac901f6d3d
// Paths: plugin/roiAlignPlugin/roiAlignKernel.cu
// Licence: Apache-2.0 (the repository's LICENSE; each source file's header: SPDX-FileCopyrightText: Copyright (c) 1993-2025 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
// SPDX-License-Identifier: Apache-2.0; text in validate/prereg14/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (<cuda.h>, common.cuh, roiAlignKernel.h: nothing the kernel
//   uses) but <cuda_fp16.h>; int32_t defined as <cstdint>'s;
// - the file's `using half = __half;`, both floatMax overloads and bilinearInterpolate copied whole
//   with RoIAlignForward; RoiAlignImpl (the host launcher: maxThreadsPerBlock threads, the device's
//   property, 1024 on an H100, over ceil(outputSize / 1024) blocks) is left out; the template is
//   instantiated explicitly at the end for float and __half, as roiAlignPlugin.cpp calls it.
#include <cuda_fp16.h>
typedef int int32_t;   // <cstdint>'s

// --- plugin/roiAlignPlugin/roiAlignKernel.cu: lines 36-36
using half = __half;

// --- plugin/roiAlignPlugin/roiAlignKernel.cu: lines 38-45
__device__ half floatMax(half a, half b)
{
    #if __CUDA_ARCH__ >= 800
        return __hmax(a, b);
    #else
        return __float2half(max(__half2float(a), __half2float(b)));
    #endif
}

// --- plugin/roiAlignPlugin/roiAlignKernel.cu: lines 47-50
__device__ float floatMax(float a, float b)
{
    return max(a, b);
}

// --- plugin/roiAlignPlugin/roiAlignKernel.cu: lines 52-118
template <typename T>
__device__ T bilinearInterpolate(T const* bottomData, int32_t const height, int32_t const width, T y, T x,
    int32_t const isModeAvg, int32_t const index /* index for debug only*/)
{
    // deal with cases that inverse elements are out of feature map boundary
    if (y < static_cast<T>(-1.0) || y > static_cast<T>(height) || x < static_cast<T>(-1.0) || x > static_cast<T>(width))
    {
        // empty
        return 0;
    }

    if (y <= static_cast<T>(0))
    {
        y = 0;
    }
    if (x <= static_cast<T>(0))
    {
        x = 0;
    }

    int32_t yLow = static_cast<int32_t>(y);
    int32_t xLow = static_cast<int32_t>(x);
    int32_t yHigh;
    int32_t xHigh;

    if (yLow >= height - 1)
    {
        yHigh = yLow = height - 1;
        y = static_cast<T>(yLow);
    }
    else
    {
        yHigh = yLow + 1;
    }

    if (xLow >= width - 1)
    {
        xHigh = xLow = width - 1;
        x = static_cast<T>(xLow);
    }
    else
    {
        xHigh = xLow + 1;
    }

    T ly = y - static_cast<T>(yLow);
    T lx = x - static_cast<T>(xLow);
    T hy = static_cast<T>(1.) - ly, hx = static_cast<T>(1.) - lx;
    // do bilinear interpolation
    T v1 = bottomData[yLow * width + xLow];
    T v2 = bottomData[yLow * width + xHigh];
    T v3 = bottomData[yHigh * width + xLow];
    T v4 = bottomData[yHigh * width + xHigh];
    T w1 = hy * hx, w2 = hy * lx, w3 = ly * hx, w4 = ly * lx;

    T val;
    if (isModeAvg)
    {
        val = (w1 * v1 + w2 * v2 + w3 * v3 + w4 * v4); // mode Avg
    }
    else
    {
        val = floatMax(floatMax(floatMax(w1 * v1, w2 * v2), w3 * v3), w4 * v4); // mode Max
    }

    return val;
}

// --- plugin/roiAlignPlugin/roiAlignKernel.cu: lines 120-223
template <typename T>
__global__ void RoIAlignForward(int32_t const nthreads, T const* bottomData, T const spatialScale, int32_t const channels,
    int32_t const height, int32_t const width, int32_t const pooledHeight, int32_t const pooledWidth, int32_t const samplingRatio,
    T const* bottomRois, T* topData, int32_t const isModeAvg, int32_t const* batchIndicesPtr,
    int32_t const aligned)
{
    for (size_t index = blockIdx.x * blockDim.x + threadIdx.x; index < nthreads; index += blockDim.x * gridDim.x)
    {
        // (n, c, ph, pw) is an element in the pooled output
        int32_t pw = index % pooledWidth;
        int32_t ph = (index / pooledWidth) % pooledHeight;
        int32_t c = (index / pooledWidth / pooledHeight) % channels;
        int32_t n = index / pooledWidth / pooledHeight / channels;

        T const* offsetBottomRois = bottomRois + n * 4;
        auto const roiBatchInd = batchIndicesPtr[n];

        bool continuousCoordinate = aligned;
        // Do not using rounding; this implementation detail is critical
        T roiOffset = static_cast<T>(continuousCoordinate ? 0.5 : 0);
        T roiStartW = offsetBottomRois[0] * spatialScale - roiOffset;
        T roiStartH = offsetBottomRois[1] * spatialScale - roiOffset;
        T roiEndW = offsetBottomRois[2] * spatialScale - roiOffset;
        T roiEndH = offsetBottomRois[3] * spatialScale - roiOffset;

        T roiWidth = roiEndW - roiStartW;
        T roiHeight = roiEndH - roiStartH;
        if (!continuousCoordinate)
        { // backward compatibility
            // Force malformed ROIs to be 1x1
            roiWidth = floatMax(roiWidth, static_cast<T>(1.));
            roiHeight = floatMax(roiHeight, static_cast<T>(1.));
        }
        T binSizeH = static_cast<T>(roiHeight) / static_cast<T>(pooledHeight);
        T binSizeW = static_cast<T>(roiWidth) / static_cast<T>(pooledWidth);

        T const* offsetBottomData = bottomData + static_cast<int32_t>((roiBatchInd * channels + c) * height * width);

        // We use roiBinGrid to sample the grid and mimic integral
        int32_t roiBinGridH;
        if (samplingRatio > 0)
        {
            roiBinGridH = samplingRatio;
        }
        else
        {
            roiBinGridH = ceilf(roiHeight / static_cast<T>(pooledHeight));
        }

        int32_t roiBinGridW;
        if (samplingRatio > 0)
        {
            roiBinGridW = samplingRatio;
        }
        else
        {
            roiBinGridW = ceilf(roiWidth / static_cast<T>(pooledWidth));
        }
        // We do average (integral) pooling inside a bin
        T const count = roiBinGridH * roiBinGridW; // e.g. = 4

        T const yOff = roiStartH + static_cast<T>(ph) * binSizeH;
        T const yFac = binSizeH / static_cast<T>(roiBinGridH);

        T const xOff = roiStartW + static_cast<T>(pw) * binSizeW;
        T const xFac = binSizeW / static_cast<T>(roiBinGridW);

        T outputVal = 0.;
        bool maxFlag = false;
        for (int32_t iy = 0; iy < roiBinGridH; iy++) // e.g., iy = 0, 1
        {
            T const y = yOff + static_cast<T>(iy + .5F) * yFac; // e.g., 0.5, 1.5
            for (int32_t ix = 0; ix < roiBinGridW; ix++)
            {
                T const x = xOff + static_cast<T>(ix + .5F) * xFac;

                T val = bilinearInterpolate(offsetBottomData, height, width, y, x, isModeAvg, index);

                if (isModeAvg)
                {
                    outputVal += val;
                }
                else
                {
                    if (!maxFlag)
                    {
                        outputVal = val;
                        maxFlag = true;
                    }
                    else
                    {
                        outputVal = floatMax(outputVal, val);
                    }
                }
            }
        }
        if (isModeAvg)
        {
            outputVal = outputVal / count;
        }

        topData[index] = outputVal;
    }
}

// --- explicit instantiations (roiAlignPlugin.cpp's RoiAlignImpl<float> and RoiAlignImpl<__half>)
template __global__ void RoIAlignForward<float>(int32_t const, float const*, float const, int32_t const, int32_t const, int32_t const, int32_t const, int32_t const, int32_t const, float const*, float*, int32_t const, int32_t const*, int32_t const);
template __global__ void RoIAlignForward<half>(int32_t const, half const*, half const, int32_t const, int32_t const, int32_t const, int32_t const, int32_t const, int32_t const, half const*, half*, int32_t const, int32_t const*, int32_t const);
