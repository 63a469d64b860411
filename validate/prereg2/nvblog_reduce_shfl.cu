// Pre-registered public kernel (not written for memsim): NVIDIA-developer-blog/code-samples
// files: posts/parallel_reduction_with_shfl/block_reduce.h, posts/parallel_reduction_with_shfl/device_reduce_atomic.h, posts/parallel_reduction_with_shfl/device_reduce_block_atomic.h, posts/parallel_reduction_with_shfl/device_reduce_stable.h, posts/parallel_reduction_with_shfl/device_reduce_warp_atomic.h, posts/parallel_reduction_with_shfl/main.cu, posts/parallel_reduction_with_shfl/warp_reduce.h
// commit 72d62ec464442786a36754508bcb1094d197d6a5 (https://github.com/NVIDIA-developer-blog/code-samples)
// Licence: BSD-3-Clause (license.txt of the repository, Copyright (c) 1993-2015 NVIDIA CORPORATION; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - posts/parallel_reduction_with_shfl/main.cu: only lines 1-26 kept (licence header, the kernels and the device code they use); the rest is host code
// - posts/parallel_reduction_with_shfl/warp_reduce.h: only lines 31-36 kept (licence header, the kernels and the device code they use); the rest is host code
// - posts/parallel_reduction_with_shfl/block_reduce.h: only lines 32-48 kept (licence header, the kernels and the device code they use); the rest is host code
// - posts/parallel_reduction_with_shfl/device_reduce_atomic.h: only lines 33-39, 49-61, 71-83 kept (licence header, the kernels and the device code they use); the rest is host code
// - posts/parallel_reduction_with_shfl/device_reduce_warp_atomic.h: only lines 33-41, 74-88 kept (licence header, the kernels and the device code they use); the rest is host code
// - posts/parallel_reduction_with_shfl/device_reduce_block_atomic.h: only lines 33-41, 74-88 kept (licence header, the kernels and the device code they use); the rest is host code
// - posts/parallel_reduction_with_shfl/device_reduce_stable.h: only lines 32-40, 73-87 kept (licence header, the kernels and the device code they use); the rest is host code
// - added before the copied code: __shfl_down (removed for sm_70 and later) as its documented replacement __shfl_down_sync over the full warp: every call here is made by whole warps (blocks of multiples of 32 threads)
// - fake_atomic.h and fake_shfl.h left out: their code is disabled (#if 0, a commented #define)
// - the #include lines and #pragma once of the headers left out (their code is copied here in include order)


#define __shfl_down(var, delta) __shfl_down_sync(0xffffffffu, var, delta)

// ---- from posts/parallel_reduction_with_shfl/main.cu, lines 1-26
/* Copyright (c) 1993-2015, NVIDIA CORPORATION. All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 *  * Redistributions of source code must retain the above copyright
 *    notice, this list of conditions and the following disclaimer.
 *  * Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in the
 *    documentation and/or other materials provided with the distribution.
 *  * Neither the name of NVIDIA CORPORATION nor the names of its
 *    contributors may be used to endorse or promote products derived
 *    from this software without specific prior written permission.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ``AS IS'' AND ANY
 * EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
 * IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
 * PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE COPYRIGHT OWNER OR
 * CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
 * EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
 * PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
 * PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY
 * OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 */

// ---- from posts/parallel_reduction_with_shfl/warp_reduce.h, lines 31-36
__inline__ __device__
int warpReduceSum(int val) {
  for (int offset = warpSize/2; offset > 0; offset /= 2)
    val += __shfl_down(val,offset);
  return val;
}

// ---- from posts/parallel_reduction_with_shfl/block_reduce.h, lines 32-48
__inline__ __device__
int blockReduceSum(int val) {
  static __shared__ int shared[32];
  int lane=threadIdx.x%warpSize;
  int wid=threadIdx.x/warpSize;
  val=warpReduceSum(val);

  //write reduced value to shared memory
  if(lane==0) shared[wid]=val;
  __syncthreads();

  //ensure we only grab a value from shared memory if that warp existed
  val = (threadIdx.x<blockDim.x/warpSize) ? shared[lane] : int(0);
  if(wid==0) val=warpReduceSum(val);

  return val;
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_atomic.h, lines 33-39
__global__ void device_reduce_atomic_kernel(int *in, int* out, int N) {
  int sum=int(0);
  for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<N;i+=blockDim.x*gridDim.x) {
    sum+=in[i];
  }
  atomicAdd(out,sum);
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_atomic.h, lines 49-61
__global__ void device_reduce_atomic_kernel_vector2(int *in, int* out, int N) {
  int sum=0;
  int idx=blockIdx.x*blockDim.x+threadIdx.x;
  for(int i=idx;i<N/2;i+=blockDim.x*gridDim.x) {
    int2 val=reinterpret_cast<int2*>(in)[i];
    sum+=val.x+val.y;
  }
  int i=idx+N/2*2;
  if(i<N) 
    sum+=in[i];
  
  atomicAdd(out,sum);
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_atomic.h, lines 71-83
__global__ void device_reduce_atomic_kernel_vector4(int *in, int* out, int N) {
  int sum=0;
  int idx=blockIdx.x*blockDim.x+threadIdx.x;
  for(int i=idx;i<N/4;i+=blockDim.x*gridDim.x) {
    int4 val=reinterpret_cast<int4*>(in)[i];
    sum+=(val.x+val.y)+(val.z+val.w);
  }
  int i=idx+N/4*4;
  if(i<N) 
    sum+=in[i];
  
  atomicAdd(out,sum);
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_warp_atomic.h, lines 33-41
__global__ void device_reduce_warp_atomic_kernel(int *in, int* out, int N) {
  int sum=int(0);
  for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<N;i+=blockDim.x*gridDim.x) {
    sum+=in[i];
  }
  sum=warpReduceSum(sum);
  if(threadIdx.x%warpSize==0)
    atomicAdd(out,sum);
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_warp_atomic.h, lines 74-88
__global__ void device_reduce_warp_atomic_kernel_vector4(int *in, int* out, int N) {
  int sum=0;
  int idx=blockIdx.x*blockDim.x+threadIdx.x;
  for(int i=idx;i<N/4;i+=blockDim.x*gridDim.x) {
    int4 val=reinterpret_cast<int4*>(in)[i];
    sum+=(val.x+val.y)+(val.z+val.w);
  }
  int i=idx+N/4*4;
  if(i<N) 
    sum+=in[i];
  
  sum=warpReduceSum(sum);
  if(threadIdx.x%warpSize==0)
    atomicAdd(out,sum);
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_block_atomic.h, lines 33-41
__global__ void device_reduce_block_atomic_kernel(int *in, int* out, int N) {
  int sum=int(0);
  for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<N;i+=blockDim.x*gridDim.x) {
    sum+=in[i];
  }
  sum=blockReduceSum(sum);
  if(threadIdx.x==0)
    atomicAdd(out,sum);
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_block_atomic.h, lines 74-88
__global__ void device_reduce_block_atomic_kernel_vector4(int *in, int* out, int N) {
  int sum=0;
  int idx=blockIdx.x*blockDim.x+threadIdx.x;
  for(int i=idx;i<N/4;i+=blockDim.x*gridDim.x) {
    int4 val=reinterpret_cast<int4*>(in)[i];
    sum+=(val.x+val.y)+(val.z+val.w);
  }
  int i=idx+N/4*4;
  if(i<N) 
    sum+=in[i];
  
  sum=blockReduceSum(sum);
  if(threadIdx.x==0)
    atomicAdd(out,sum);
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_stable.h, lines 32-40
__global__ void device_reduce_stable_kernel(int *in, int* out, int N) {
  int sum=int(0);
  for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<N;i+=blockDim.x*gridDim.x) {
    sum+=in[i];
  }
  sum=blockReduceSum(sum);
  if(threadIdx.x==0)
    out[blockIdx.x]=sum;
}

// ---- from posts/parallel_reduction_with_shfl/device_reduce_stable.h, lines 73-87
__global__ void device_reduce_stable_kernel_vector4(int *in, int* out, int N) {
  int sum=0;
  int idx=blockIdx.x*blockDim.x+threadIdx.x;
  for(int i=idx;i<N/4;i+=blockDim.x*gridDim.x) {
    int4 val=reinterpret_cast<int4*>(in)[i];
    sum+=(val.x+val.y)+(val.z+val.w);
  }
  int i=idx+N/4*4;
  if(i<N) 
    sum+=in[i];
  
  sum=blockReduceSum(sum);
  if(threadIdx.x==0)
    out[blockIdx.x]=sum;
}
