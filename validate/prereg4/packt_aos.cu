// Pre-registered public kernel (not written for memsim): PacktPublishing/Learn-CUDA-Programming
// files: Chapter02/02_memory_overview/03_aos_soa/aos.cu
// commit 10bd9b59bfcc680d608ea1417da5089f73d91b11 (https://github.com/PacktPublishing/Learn-CUDA-Programming)
// Licence: MIT (Copyright (c) 2018 Packt; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - Chapter02/02_memory_overview/03_aos_soa/aos.cu: only lines 7-33 kept (the size macros, the structure and the kernel); the includes and the host code left out

// ---- from Chapter02/02_memory_overview/03_aos_soa/aos.cu, lines 7-33
#define NUM_THREADS 256

#define IMG_SIZE 1048576

// Coefficients with Array of Structure
struct Coefficients_AOS {
  int r;
  int b;
  int g;
  int hue;
  int saturation;
  int maxVal;
  int minVal;
  int finalVal; 
};


__global__
void complicatedCalculation(Coefficients_AOS*  data)
{
  int i = blockIdx.x*blockDim.x + threadIdx.x;


  int grayscale = (data[i].r + data[i].g + data[i].b)/data[i].maxVal;
  int hue_sat = data[i].hue * data[i].saturation / data[i].minVal;
  data[i].finalVal = grayscale*hue_sat; 
}
