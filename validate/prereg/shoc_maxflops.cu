// Pre-registered public kernel (not written for memsim): vetter/shoc
// files: src/cuda/level0/MaxFlops.cu
// commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0 (https://github.com/vetter/shoc)
// Licence: BSD-3-Clause (Copyright (c) 2011, UT-Battelle, LLC; LICENSE.md of the repository).
//
// Edits (no kernel body changed):
// - src/cuda/level0/MaxFlops.cu: only lines 1395-1605, 1606-1906 kept (the kernels and the device code and macros they use); the rest is host code
// - prelude added before the copied code (below): #define register  // C++17 (NVRTC's default) removed the `register` storage class; it was only a hint
// - added after the copied code: explicit instantiations of the templates launched

#define register  // C++17 (NVRTC's default) removed the `register` storage class; it was only a hint

// ---- from src/cuda/level0/MaxFlops.cu, lines 1395-1605, 1606-1906

// Macros used to construct MaxFlops kernels
// Each mad OP is 32*2 = 64 FLOPS
#define OP {                                    \
        s0 = s6*s5 + s28;                       \
        s1 = s7*s6 + s29;                       \
        s2 = s8*s7 + s30;                       \
        s3 = s9*s8 + s31;                       \
        s4 = s10*s9 + s0;                       \
        s5 = s11*s10 + s1;                      \
        s6 = s12*s11 + s2;                      \
        s7 = s13*s12 + s3;                      \
        s8 = s14*s13 + s4;                      \
        s9 = s15*s14 + s5;                      \
        s10 = s16*s15 + s6;                     \
        s11 = s17*s16 + s7;                     \
        s12 = s18*s17 + s8;                     \
        s13 = s19*s18 + s9;                     \
        s14 = s20*s19 + s10;                    \
        s15 = s21*s20 + s11;                    \
        s16 = s22*s21 + s12;                    \
        s17 = s23*s22 + s13;                    \
        s18 = s24*s23 + s14;                    \
        s19 = s25*s24 + s15;                    \
        s20 = s26*s25 + s16;                    \
        s21 = s27*s26 + s17;                    \
        s22 = s28*s27 + s18;                    \
        s23 = s29*s28 + s19;                    \
        s24 = s30*s29 + s20;                    \
        s25 = s31*s30 + s21;                    \
        s26 = s0*s31 + s22;                     \
        s27 = s1*s0 + s23;                      \
        s28 = s2*s1 + s24;                      \
        s29 = s3*s2 + s25;                      \
        s30 = s4*s3 + s26;                      \
        s31 = s5*s4 + s27;                      \
    }

// so Each OP10 is 640 FLOPS
#define OP10 { OP OP OP OP OP OP OP OP OP OP }


// Each mad+mul MMOP is 8*3 = 24 FLOPS
#define MMOP {                                  \
        s0 = s4*s4 + s4;                        \
        s6 = s0*s5;                             \
        s1 = s5*s5 + s5;                        \
        s7 = s1*s6;                             \
        s2 = s6*s6 + s6;                        \
        s0 = s2*s7;                             \
        s3 = s7*s7 + s7;                        \
        s1 = s3*s0;                             \
        s4 = s0*s0 + s0;                        \
        s2 = s4*s1;                             \
        s5 = s1*s1 + s1;                        \
        s3 = s5*s2;                             \
        s6 = s2*s2 + s2;                        \
        s4 = s6*s3;                             \
        s7 = s3*s3 + s3;                        \
        s5 = s7*s4;                             \
    }

// So each OP10 is 240 FLOPS
#define MMOP10 { MMOP MMOP MMOP MMOP MMOP MMOP MMOP MMOP MMOP MMOP }



// Benchmark Kernels
__global__ void MAddU(float *target, float val1, float val2)
{
    int index = blockIdx.x*blockDim.x + threadIdx.x;

    // Create a bunch of local variables we can use up to 32 steps..
    register float v0=val1,     v1=val2,     v2=v0+v1,    v3=v0+v2;
    register float v4=v0+v3,    v5=v0+v4,    v6=v0+v5,    v7=v0+v6;
    register float v8=v0+v7,    v9=v0+v8,    v10=v0+v9,   v11=v0+v10;
    register float v12=v0+v11,  v13=v0+v12,  v14=v0+v13,  v15=v0+v14;
    register float v16=v0+v15,  v17=v16+v0,  v18=v16+v1,  v19=v16+v2;
    register float v20=v16+v3,  v21=v16+v4,  v22=v16+v5,  v23=v16+v6;
    register float v24=v16+v7,  v25=v16+v8,  v26=v16+v9,  v27=v16+v10;
    register float v28=v16+v11, v29=v16+v12, v30=v16+v13, v31=v16+v14;
    register float s0=v0,   s1=v1,   s2=v2,   s3=v3;
    register float s4=v4,   s5=v5,   s6=v6,   s7=v7;
    register float s8=v8,   s9=v9,   s10=v10, s11=v11;
    register float s12=v12, s13=v13, s14=v14, s15=v15;
    register float s16=v16, s17=v17, s18=v18, s19=v19;
    register float s20=v20, s21=v21, s22=v22, s23=v23;
    register float s24=v24, s25=v25, s26=v26, s27=v27;
    register float s28=v28, s29=v29, s30=v30, s31=v31;

    // 10 OP10s inside the loop = 6400 FLOPS in the .ptx code
    // and 5 loops of 10 OP10s = 32000 FLOPS per pixel total
    for (int i=0; i<5; i++)
    {
        OP10; OP10; OP10; OP10; OP10;
        OP10; OP10; OP10; OP10; OP10;
    }

    float result = (s0+s1+s2+s3+s4+s5+s6+s7+
                    s8+s9+s10+s11+s12+s13+s14+s15 +
                    s16+s17+s18+s19+s20+s21+s22+s23+
                    s24+s25+s26+s27+s28+s29+s30+s31);

    target[index] = result;
}

__global__ void MAddU_DP(double *target, double val1, double val2)
{
    int index = blockIdx.x*blockDim.x + threadIdx.x;
    register double v0=val1,     v1=val2,     v2=v0+v1,    v3=v0+v2;
    register double v4=v0+v3,    v5=v0+v4,    v6=v0+v5,    v7=v0+v6;
    register double v8=v0+v7,    v9=v0+v8,    v10=v0+v9,   v11=v0+v10;
    register double v12=v0+v11,  v13=v0+v12,  v14=v0+v13,  v15=v0+v14;
    register double v16=v0+v15,  v17=v16+v0,  v18=v16+v1,  v19=v16+v2;
    register double v20=v16+v3,  v21=v16+v4,  v22=v16+v5,  v23=v16+v6;
    register double v24=v16+v7,  v25=v16+v8,  v26=v16+v9,  v27=v16+v10;
    register double v28=v16+v11, v29=v16+v12, v30=v16+v13, v31=v16+v14;
    register double s0=v0,   s1=v1,   s2=v2,   s3=v3;
    register double s4=v4,   s5=v5,   s6=v6,   s7=v7;
    register double s8=v8,   s9=v9,   s10=v10, s11=v11;
    register double s12=v12, s13=v13, s14=v14, s15=v15;
    register double s16=v16, s17=v17, s18=v18, s19=v19;
    register double s20=v20, s21=v21, s22=v22, s23=v23;
    register double s24=v24, s25=v25, s26=v26, s27=v27;
    register double s28=v28, s29=v29, s30=v30, s31=v31;


    // 10 OP10s inside the loop = 6400 FLOPS in the .ptx code
    // and 5 loops of 10 OP10s = 32000 FLOPS per pixel total
    for (int i=0; i<5; i++)
    {
        OP10; OP10; OP10; OP10; OP10;
        OP10; OP10; OP10; OP10; OP10;
    }
    double result = (s0+s1+s2+s3+s4+s5+s6+s7+
                    s8+s9+s10+s11+s12+s13+s14+s15 +
                    s16+s17+s18+s19+s20+s21+s22+s23+
                    s24+s25+s26+s27+s28+s29+s30+s31);
    target[index] = result;
}


__global__ void MulMAddU(float *target, float val1, float val2)
{
    int index = blockIdx.x*blockDim.x + threadIdx.x;

    register float v0=val1,     v1=val2,     v2=v0+v1,    v3=v0+v2;
    register float v4=v0+v3,    v5=v0+v4,    v6=v0+v5,    v7=v0+v6;
    register float v8=v0+v7,    v9=v0+v8,    v10=v0+v9,   v11=v0+v10;
    register float v12=v0+v11,  v13=v0+v12,  v14=v0+v13,  v15=v0+v14;
    register float v16=v0+v15,  v17=v16+v0,  v18=v16+v1,  v19=v16+v2;
    register float v20=v16+v3,  v21=v16+v4,  v22=v16+v5,  v23=v16+v6;
    register float v24=v16+v7,  v25=v16+v8,  v26=v16+v9,  v27=v16+v10;
    register float v28=v16+v11, v29=v16+v12, v30=v16+v13, v31=v16+v14;
    register float s0=v0,   s1=v1,   s2=v2,   s3=v3;
    register float s4=v4,   s5=v5,   s6=v6,   s7=v7;
    register float s8=v8,   s9=v9,   s10=v10, s11=v11;
    register float s12=v12, s13=v13, s14=v14, s15=v15;
    register float s16=v16, s17=v17, s18=v18, s19=v19;
    register float s20=v20, s21=v21, s22=v22, s23=v23;
    register float s24=v24, s25=v25, s26=v26, s27=v27;
    register float s28=v28, s29=v29, s30=v30, s31=v31;

    // 10 OP10s inside the loop = 2400 FLOPS in the .ptx code
    // and 5 loops of 10 OP10s = 12000 FLOPS per pixel total
    for (int i=0; i<5; i++)
    {
        MMOP10; MMOP10; MMOP10; MMOP10; MMOP10;
        MMOP10; MMOP10; MMOP10; MMOP10; MMOP10;
    }
    float result = (s0+s1+s2+s3+s4+s5+s6+s7+
                    s8+s9+s10+s11+s12+s13+s14+s15 +
                    s16+s17+s18+s19+s20+s21+s22+s23+
                    s24+s25+s26+s27+s28+s29+s30+s31);

    target[index] = result;
}

__global__ void MulMAddU_DP(double *target, double val1, double val2)
{
    int index = blockIdx.x*blockDim.x + threadIdx.x;
    register double v0=val1,     v1=val2,     v2=v0+v1,    v3=v0+v2;
    register double v4=v0+v3,    v5=v0+v4,    v6=v0+v5,    v7=v0+v6;
    register double v8=v0+v7,    v9=v0+v8,    v10=v0+v9,   v11=v0+v10;
    register double v12=v0+v11,  v13=v0+v12,  v14=v0+v13,  v15=v0+v14;
    register double v16=v0+v15,  v17=v16+v0,  v18=v16+v1,  v19=v16+v2;
    register double v20=v16+v3,  v21=v16+v4,  v22=v16+v5,  v23=v16+v6;
    register double v24=v16+v7,  v25=v16+v8,  v26=v16+v9,  v27=v16+v10;
    register double v28=v16+v11, v29=v16+v12, v30=v16+v13, v31=v16+v14;
    register double s0=v0,   s1=v1,   s2=v2,   s3=v3;
    register double s4=v4,   s5=v5,   s6=v6,   s7=v7;
    register double s8=v8,   s9=v9,   s10=v10, s11=v11;
    register double s12=v12, s13=v13, s14=v14, s15=v15;
    register double s16=v16, s17=v17, s18=v18, s19=v19;
    register double s20=v20, s21=v21, s22=v22, s23=v23;
    register double s24=v24, s25=v25, s26=v26, s27=v27;
    register double s28=v28, s29=v29, s30=v30, s31=v31;

    // 10 OP10s inside the loop = 2400 FLOPS in the .ptx code
    // and 5 loops of 10 OP10s = 12000 FLOPS per pixel total
    for (int i=0; i<5; i++)
    {
        MMOP10; MMOP10; MMOP10; MMOP10; MMOP10;
        MMOP10; MMOP10; MMOP10; MMOP10; MMOP10;
    }
    double result = (s0+s1+s2+s3+s4+s5+s6+s7+
                    s8+s9+s10+s11+s12+s13+s14+s15 +
                    s16+s17+s18+s19+s20+s21+s22+s23+
                    s24+s25+s26+s27+s28+s29+s30+s31);
    target[index] = result;
}

// v = 10.0
#define ADD1_OP   s=v-s;
#define ADD2_OP   ADD1_OP s2=v-s2;
#define ADD4_OP   ADD2_OP s3=v-s3; s4=v-s4;
#define ADD8_OP   ADD4_OP s5=v-s5; s6=v-s6; s7=v-s7; s8=v-s8;

// v = 1.01
#define MUL1_OP   s=s*s*v;
#define MUL2_OP   MUL1_OP s2=s2*s2*v;
#define MUL4_OP   MUL2_OP s3=s3*s3*v; s4=s4*s4*v;
#define MUL8_OP   MUL4_OP s5=s5*s5*v; s6=s6*s6*v; s7=s7*s7*v; s8=s8*s8*v;

// v1 = 10.0, v2 = 0.9899
#define MADD1_OP  s=v1-s*v2;
#define MADD2_OP  MADD1_OP s2=v1-s2*v2;
#define MADD4_OP  MADD2_OP s3=v1-s3*v2; s4=v1-s4*v2;
#define MADD8_OP  MADD4_OP s5=v1-s5*v2; s6=v1-s6*v2; s7=v1-s7*v2; s8=v1-s8*v2;

// v1 = 3.75, v2 = 0.355
#define MULMADD1_OP  s=(v1-v2*s)*s;
#define MULMADD2_OP  MULMADD1_OP s2=(v1-v2*s2)*s2;
#define MULMADD4_OP  MULMADD2_OP s3=(v1-v2*s3)*s3; s4=(v1-v2*s4)*s4;
#define MULMADD8_OP  MULMADD4_OP s5=(v1-v2*s5)*s5; s6=(v1-v2*s6)*s6; s7=(v1-v2*s7)*s7; s8=(v1-v2*s8)*s8;

#define ADD1_MOP20  \
     ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP \
     ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP ADD1_OP
#define ADD2_MOP20  \
     ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP \
     ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP ADD2_OP
#define ADD4_MOP10  \
     ADD4_OP ADD4_OP ADD4_OP ADD4_OP ADD4_OP \
     ADD4_OP ADD4_OP ADD4_OP ADD4_OP ADD4_OP
#define ADD8_MOP5  \
     ADD8_OP ADD8_OP ADD8_OP ADD8_OP ADD8_OP

#define MUL1_MOP20  \
     MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP \
     MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP MUL1_OP
#define MUL2_MOP20  \
     MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP \
     MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP MUL2_OP
#define MUL4_MOP10  \
     MUL4_OP MUL4_OP MUL4_OP MUL4_OP MUL4_OP \
     MUL4_OP MUL4_OP MUL4_OP MUL4_OP MUL4_OP
#define MUL8_MOP5  \
     MUL8_OP MUL8_OP MUL8_OP MUL8_OP MUL8_OP

#define MADD1_MOP20  \
     MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP \
     MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP MADD1_OP
#define MADD2_MOP20  \
     MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP \
     MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP MADD2_OP
#define MADD4_MOP10  \
     MADD4_OP MADD4_OP MADD4_OP MADD4_OP MADD4_OP \
     MADD4_OP MADD4_OP MADD4_OP MADD4_OP MADD4_OP
#define MADD8_MOP5  \
     MADD8_OP MADD8_OP MADD8_OP MADD8_OP MADD8_OP

#define MULMADD1_MOP20  \
     MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP \
     MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP MULMADD1_OP
#define MULMADD2_MOP20  \
     MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP \
     MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP MULMADD2_OP
#define MULMADD4_MOP10  \
     MULMADD4_OP MULMADD4_OP MULMADD4_OP MULMADD4_OP MULMADD4_OP \
     MULMADD4_OP MULMADD4_OP MULMADD4_OP MULMADD4_OP MULMADD4_OP
#define MULMADD8_MOP5  \
     MULMADD8_OP MULMADD8_OP MULMADD8_OP MULMADD8_OP MULMADD8_OP


template <class T>
__global__ void Add1(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid];
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 12 more times for 240 operations total.
      */
     ADD1_MOP20 ADD1_MOP20 ADD1_MOP20 ADD1_MOP20 ADD1_MOP20 ADD1_MOP20
     ADD1_MOP20 ADD1_MOP20 ADD1_MOP20 ADD1_MOP20 ADD1_MOP20 ADD1_MOP20
  }
  data[gid] = s;
}

template <class T>
__global__ void Add2(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 6 more times for 120 operations total.
      */
     ADD2_MOP20 ADD2_MOP20 ADD2_MOP20
     ADD2_MOP20 ADD2_MOP20 ADD2_MOP20
  }
  data[gid] = s+s2;
}

template <class T>
__global__ void Add4(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s, s3=9.0f-s, s4=9.0f-s2;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 10 operations.
        Unroll 6 more times for 60 operations total.
      */
     ADD4_MOP10 ADD4_MOP10 ADD4_MOP10
     ADD4_MOP10 ADD4_MOP10 ADD4_MOP10
  }
  data[gid] = (s+s2)+(s3+s4);
}

template <class T>
__global__ void Add8(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s, s3=9.0f-s, s4=9.0f-s2, s5=8.0f-s, s6=8.0f-s2, s7=7.0f-s, s8=7.0f-s2;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 5 operations.
        Unroll 6 more times for 30 operations total.
      */
     ADD8_MOP5 ADD8_MOP5 ADD8_MOP5
     ADD8_MOP5 ADD8_MOP5 ADD8_MOP5
  }
  data[gid] = ((s+s2)+(s3+s4))+((s5+s6)+(s7+s8));
}


template <class T>
__global__ void Mul1(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid]-data[gid]+0.999f;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 10 more times for 200 operations total.
      */
     MUL1_MOP20 MUL1_MOP20 MUL1_MOP20 MUL1_MOP20 MUL1_MOP20
     MUL1_MOP20 MUL1_MOP20 MUL1_MOP20 MUL1_MOP20 MUL1_MOP20
  }
  data[gid] = s;
}

template <class T>
__global__ void Mul2(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid]-data[gid]+0.999f, s2=s-0.0001f;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 5 more times for 100 operations total.
      */
     MUL2_MOP20 MUL2_MOP20 MUL2_MOP20
     MUL2_MOP20 MUL2_MOP20
  }
  data[gid] = s+s2;
}

template <class T>
__global__ void Mul4(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid]-data[gid]+0.999f, s2=s-0.0001f, s3=s-0.0002f, s4=s-0.0003f;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 10 operations.
        Unroll 5 more times for 50 operations total.
      */
     MUL4_MOP10 MUL4_MOP10 MUL4_MOP10
     MUL4_MOP10 MUL4_MOP10
  }
  data[gid] = (s+s2)+(s3+s4);
}

template <class T>
__global__ void Mul8(T *data, int nIters, T v) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid]-data[gid]+0.999f, s2=s-0.0001f, s3=s-0.0002f, s4=s-0.0003f, s5=s-0.0004f, s6=s-0.0005f, s7=s-0.0006f, s8=s-0.0007f;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 5 operations.
        Unroll 5 more times for 25 operations total.
      */
     MUL8_MOP5 MUL8_MOP5 MUL8_MOP5
     MUL8_MOP5 MUL8_MOP5
  }
  data[gid] = ((s+s2)+(s3+s4))+((s5+s6)+(s7+s8));
}


template <class T>
__global__ void MAdd1(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid];
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 12 more times for 240 operations total.
      */
     MADD1_MOP20 MADD1_MOP20 MADD1_MOP20 MADD1_MOP20 MADD1_MOP20 MADD1_MOP20
     MADD1_MOP20 MADD1_MOP20 MADD1_MOP20 MADD1_MOP20 MADD1_MOP20 MADD1_MOP20
  }
  data[gid] = s;
}

template <class T>
__global__ void MAdd2(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 6 more times for 120 operations total.
      */
     MADD2_MOP20 MADD2_MOP20 MADD2_MOP20
     MADD2_MOP20 MADD2_MOP20 MADD2_MOP20
  }
  data[gid] = s+s2;
}

template <class T>
__global__ void MAdd4(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s, s3=9.0f-s, s4=9.0f-s2;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 10 operations.
        Unroll 6 more times for 60 operations total.
      */
     MADD4_MOP10 MADD4_MOP10 MADD4_MOP10
     MADD4_MOP10 MADD4_MOP10 MADD4_MOP10
  }
  data[gid] = (s+s2)+(s3+s4);
}

template <class T>
__global__ void MAdd8(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s, s3=9.0f-s, s4=9.0f-s2, s5=8.0f-s, s6=8.0f-s2, s7=7.0f-s, s8=7.0f-s2;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 5 operations.
        Unroll 6 more times for 30 operations total.
      */
     MADD8_MOP5 MADD8_MOP5 MADD8_MOP5
     MADD8_MOP5 MADD8_MOP5 MADD8_MOP5
  }
  data[gid] = ((s+s2)+(s3+s4))+((s5+s6)+(s7+s8));
}


template <class T>
__global__ void MulMAdd1(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid];
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 8 more times for 160 operations total.
      */
     MULMADD1_MOP20 MULMADD1_MOP20 MULMADD1_MOP20 MULMADD1_MOP20
     MULMADD1_MOP20 MULMADD1_MOP20 MULMADD1_MOP20 MULMADD1_MOP20
  }
  data[gid] = s;
}

template <class T>
__global__ void MulMAdd2(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 20 operations.
        Unroll 4 more times for 80 operations total.
      */
     MULMADD2_MOP20 MULMADD2_MOP20
     MULMADD2_MOP20 MULMADD2_MOP20
  }
  data[gid] = s+s2;
}

template <class T>
__global__ void MulMAdd4(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s, s3=9.0f-s, s4=9.0f-s2;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 10 operations.
        Unroll 4 more times for 40 operations total.
      */
     MULMADD4_MOP10 MULMADD4_MOP10
     MULMADD4_MOP10 MULMADD4_MOP10
  }
  data[gid] = (s+s2)+(s3+s4);
}

template <class T>
__global__ void MulMAdd8(T *data, int nIters, T v1, T v2) {
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  register T s = data[gid], s2=10.0f-s, s3=9.0f-s, s4=9.0f-s2, s5=8.0f-s, s6=8.0f-s2, s7=7.0f-s, s8=7.0f-s2;
  for (int j=0 ; j<nIters ; ++j) {
     /* Each macro op has 5 operations.
        Unroll 4 more times for 20 operations total.
      */
     MULMADD8_MOP5 MULMADD8_MOP5
     MULMADD8_MOP5 MULMADD8_MOP5
  }
  data[gid] = ((s+s2)+(s3+s4))+((s5+s6)+(s7+s8));
}


template __global__ void Add1<float>(float *, int, float);
template __global__ void Add8<float>(float *, int, float);
template __global__ void Mul4<float>(float *, int, float);
template __global__ void MAdd1<float>(float *, int, float, float);
template __global__ void MAdd8<float>(float *, int, float, float);
template __global__ void MulMAdd4<float>(float *, int, float, float);
template __global__ void MAdd2<double>(double *, int, double, double);
