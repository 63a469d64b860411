// Pre-registered public kernel (not written for memsim): zjin-lcf/HeCBench
// files: src/mriQ-cuda/computeQ.cu
// commit f27000a5188f8ac79bd43fc95a1b3f890c18823d (https://github.com/zjin-lcf/HeCBench)
// Licence: BSD-3-Clause (HeCBench's LICENSE, Copyright (c) 2020 Argonne National Laboratory, 2020- Oak Ridge National Laboratory (Zheming Jin)); the file's own notice: (C) Copyright 2007 The Board of Trustees of the University of Illinois (Parboil's MRI-Q; University of Illinois/NCSA Open Source License).
//
// Edits (no kernel body changed):
// - src/mriQ-cuda/computeQ.cu: only lines 1-17, 27-103 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from src/mriQ-cuda/computeQ.cu, lines 1-17, 27-103
/***************************************************************************
 *
 *            (C) Copyright 2007 The Board of Trustees of the
 *                        University of Illinois
 *                         All Rights Reserved
 *
 ***************************************************************************/

#define PI   3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f

#define MIN(X,Y) ((X) < (Y) ? (X) : (Y))
#define K_ELEMS_PER_GRID 2048

#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 256
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024
struct kValues {
  float Kx;
  float Ky;
  float Kz;
  float PhiMag;
};

/* Values in the k-space coordinate system are stored in constant memory
 * on the GPU */
__constant__ __device__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID];

__global__ void
ComputePhiMag_GPU(
  const float* __restrict__ phiR,
  const float* __restrict__ phiI,
        float* __restrict__ phiMag,
  const int numK)
{
  int indexK = blockIdx.x*KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
  if (indexK < numK) {
    float real = phiR[indexK];
    float imag = phiI[indexK];
    phiMag[indexK] = real*real + imag*imag;
  }
}

__global__ void
ComputeQ_GPU(
  const int numK,
        int kGlobalIndex,
  const float* __restrict__ x,
  const float* __restrict__ y,
  const float* __restrict__ z,
        float* __restrict__ Qr,
        float* __restrict__ Qi)
{
  // Determine the element of the X arrays computed by this thread
  int xIndex = blockIdx.x*KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;

  // Read block's X values from global mem to shared mem
  float sX = x[xIndex];
  float sY = y[xIndex];
  float sZ = z[xIndex];
  float sQr = Qr[xIndex];
  float sQi = Qi[xIndex];

  // Loop over all elements of K in constant mem to compute a partial value
  // for X.
  int kIndex = 0;
  if (numK % 2) {
    float expArg = PIx2 * (ck[0].Kx * sX + ck[0].Ky * sY + ck[0].Kz * sZ);
    sQr += ck[0].PhiMag * cosf(expArg);
    sQi += ck[0].PhiMag * sinf(expArg);
    kIndex++;
    kGlobalIndex++;
  }

  for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex < numK);
       kIndex += 2, kGlobalIndex += 2) {
    float expArg = PIx2 * (ck[kIndex].Kx * sX +
			   ck[kIndex].Ky * sY +
			   ck[kIndex].Kz * sZ);
    sQr += ck[kIndex].PhiMag * cosf(expArg);
    sQi += ck[kIndex].PhiMag * sinf(expArg);

    int kIndex1 = kIndex + 1;
    float expArg1 = PIx2 * (ck[kIndex1].Kx * sX +
			    ck[kIndex1].Ky * sY +
			    ck[kIndex1].Kz * sZ);
    sQr += ck[kIndex1].PhiMag * cosf(expArg1);
    sQi += ck[kIndex1].PhiMag * sinf(expArg1);
  }

  Qr[xIndex] = sQr;
  Qi[xIndex] = sQi;
}


