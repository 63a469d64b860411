// Pre-registered public kernel (not written for memsim): cupy/cupy
// cupyx.scipy.signal.upfirdn's polyphase FIR resampler (upsample, filter, downsample):
// the 1-D kernel (a grid-stride loop, a thread an output) and the 2-D one (8 x 8 threads, rows); copied for memsim's eleventh pre-registered set (validate/prereg11_cases.py).
//
// Repository: cupy/cupy, commit 6b6d9563c4f7410cd1866a11b2f71a60dd45a68c
// Paths: cupyx/scipy/signal/_upfirdn.py (CUDA source in a Python string, compiled by CuPy with NVRTC)
// Licence: MIT (CuPy: Copyright (c) 2015 Preferred Infrastructure, Inc., Copyright (c) 2015 Preferred Networks, Inc.; these kernels, per the module's docstring, "ported directly from cuSignal under terms of the MIT license": Copyright (c) 2019-2023 NVIDIA CORPORATION & AFFILIATES; texts in validate/prereg11/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel and helper copied whole,
// in the source's order, under `// --- path: lines`):
// - the string's #include <cupy/complex.cuh> is dropped: only the float32 and float64 entry
//   points are copied (the complex ones need thrust::complex); the host code is left out.



// --- cupyx/scipy/signal/_upfirdn.py: lines 46-116
template<typename T>
__device__ void _cupy_upfirdn1D( const T *__restrict__ inp,
                                 const long long inp_stride,
                                 const T *__restrict__ h_trans_flip,
                                 const int up,
                                 const int down,
                                 const int axis,
                                 const int x_shape_a,
                                 const int h_per_phase,
                                 const int padded_len,
                                 T *__restrict__ out,
                                 const int outW ) {

    const int t { static_cast<int>( blockIdx.x * blockDim.x + threadIdx.x ) };
    const int stride { static_cast<int>( blockDim.x * gridDim.x ) };

    for ( size_t tid = t; tid < outW; tid += stride ) {

        __builtin_assume( padded_len > 0 );
        __builtin_assume( up > 0 );
        __builtin_assume( down > 0 );
        __builtin_assume( tid > 0 );

        const int x_idx { static_cast<int>( ( tid * down ) / up ) % padded_len };
        int       h_idx { static_cast<int>( ( tid * down ) % up * h_per_phase ) };
        int       x_conv_idx { x_idx - h_per_phase + 1 };

        if ( x_conv_idx < 0 ) {
            h_idx -= x_conv_idx;
            x_conv_idx = 0;
        }

        T temp {};

        int stop = ( x_shape_a < ( x_idx + 1 ) ) ? x_shape_a : ( x_idx + 1 );

        for ( int x_c = x_conv_idx; x_c < stop; x_c++ ) {
            temp += inp[x_c * inp_stride] * h_trans_flip[h_idx];
            h_idx += 1;
        }
        out[tid] = temp;
    }
}

extern "C" __global__ void __launch_bounds__( 512 ) _cupy_upfirdn1D_float32( const float *__restrict__ inp,
                                                                             const long long inp_stride,
                                                                             const float *__restrict__ h_trans_flip,
                                                                             const int up,
                                                                             const int down,
                                                                             const int axis,
                                                                             const int x_shape_a,
                                                                             const int h_per_phase,
                                                                             const int padded_len,
                                                                             float *__restrict__ out,
                                                                             const int outW ) {
    _cupy_upfirdn1D<float>( inp, inp_stride, h_trans_flip, up, down, axis, x_shape_a, h_per_phase, padded_len, out, outW );
}

extern "C" __global__ void __launch_bounds__( 512 ) _cupy_upfirdn1D_float64( const double *__restrict__ inp,
                                                                             const long long inp_stride,
                                                                             const double *__restrict__ h_trans_flip,
                                                                             const int up,
                                                                             const int down,
                                                                             const int axis,
                                                                             const int x_shape_a,
                                                                             const int h_per_phase,
                                                                             const int padded_len,
                                                                             double *__restrict__ out,
                                                                             const int outW ) {
    _cupy_upfirdn1D<double>( inp, inp_stride, h_trans_flip, up, down, axis, x_shape_a, h_per_phase, padded_len, out, outW );
}

// --- cupyx/scipy/signal/_upfirdn.py: lines 154-232
template<typename T>
__device__ void _cupy_upfirdn2D( const T *__restrict__ inp,
                                 const long long inp_strideW,
                                 const long long inp_strideH,
                                 const T *__restrict__ h_trans_flip,
                                 const int up,
                                 const int down,
                                 const int axis,
                                 const int x_shape_a,
                                 const int h_per_phase,
                                 const int padded_len,
                                 T *__restrict__ out,
                                 const int outW,
                                 const int outH ) {

    const int ty { static_cast<int>( blockIdx.x * blockDim.x + threadIdx.x ) };
    const int tx { static_cast<int>( blockIdx.y * blockDim.y + threadIdx.y ) };

    const int stride_y { static_cast<int>( blockDim.x * gridDim.x ) };
    const int stride_x { static_cast<int>( blockDim.y * gridDim.y ) };

    for ( int x = tx; x < outH; x += stride_x ) {
        for ( int y = ty; y < outW; y += stride_y ) {
            int x_idx {};
            int h_idx {};

            __builtin_assume( padded_len > 0 );
            __builtin_assume( up > 0 );
            __builtin_assume( down > 0 );

            if ( axis == 1 ) {
                __builtin_assume( x > 0 );
                x_idx = ( static_cast<int>( x * down ) / up ) % padded_len;
                h_idx = ( x * down ) % up * h_per_phase;
            } else {
                __builtin_assume( y > 0 );
                x_idx = ( static_cast<int>( y * down ) / up ) % padded_len;
                h_idx = ( y * down ) % up * h_per_phase;
            }

            int x_conv_idx { x_idx - h_per_phase + 1 };
            if ( x_conv_idx < 0 ) {
                h_idx -= x_conv_idx;
                x_conv_idx = 0;
            }

            T temp {};

            int stop = ( x_shape_a < ( x_idx + 1 ) ) ? x_shape_a : ( x_idx + 1 );

            for ( int x_c = x_conv_idx; x_c < stop; x_c++ ) {
                if ( axis == 1 ) {
                    temp += inp[y * inp_strideH + x_c * inp_strideW] * h_trans_flip[h_idx];
                } else {
                    temp += inp[x_c * inp_strideH + x * inp_strideW] * h_trans_flip[h_idx];
                }
                h_idx += 1;
            }
            out[y * outH + x] = temp;
        }
    }
}

extern "C" __global__ void __launch_bounds__( 64 ) _cupy_upfirdn2D_float32( const float *__restrict__ inp,
                                                                            const long long inp_strideW,
                                                                            const long long inp_strideH,
                                                                            const float *__restrict__ h_trans_flip,
                                                                            const int up,
                                                                            const int down,
                                                                            const int axis,
                                                                            const int x_shape_a,
                                                                            const int h_per_phase,
                                                                            const int padded_len,
                                                                            float *__restrict__ out,
                                                                            const int outW,
                                                                            const int outH ) {
    _cupy_upfirdn2D<float>(
        inp, inp_strideW, inp_strideH, h_trans_flip, up, down, axis, x_shape_a, h_per_phase, padded_len, out, outW, outH );
}
