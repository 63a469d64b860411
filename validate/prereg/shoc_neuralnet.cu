// Pre-registered public kernel (not written for memsim): vetter/shoc
// files: src/cuda/level1/neuralnet/NeuralNet.cu
// commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0 (https://github.com/vetter/shoc)
// Licence: BSD-3-Clause (Copyright (c) 2011, UT-Battelle, LLC; LICENSE.md of the repository).
//
// Edits (no kernel body changed):
// - src/cuda/level1/neuralnet/NeuralNet.cu: only lines 76-167 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from src/cuda/level1/neuralnet/NeuralNet.cu, lines 76-167
__global__ void kernelUpdateBiases(float *nabla_b,float *biases,float eta,float mini_batch_size) {

  float rate=eta/mini_batch_size;

  biases[threadIdx.x]-=rate*nabla_b[threadIdx.x];
}

__global__ void kernelUpdateWeights(float *nabla_w,float *weights,int tws,float eta,float mini_batch_size) {

  float rate=eta/mini_batch_size;

  if ((blockIdx.x*blockDim.x+threadIdx.x)<tws) {
    weights[blockIdx.x*blockDim.x+threadIdx.x]-=rate*nabla_w[blockIdx.x*blockDim.x+threadIdx.x];
  }
}

__global__ void kernelUpdateNablaB(float *nabla_b,float *delta_nabla_b) {
  nabla_b[threadIdx.x]+=delta_nabla_b[threadIdx.x];
}

__global__ void kernelUpdateNablaW(float *nabla_w,float *delta_nabla_w,int tws) {
  if ((blockIdx.x*blockDim.x+threadIdx.x)<tws) {
    nabla_w[blockIdx.x*blockDim.x+threadIdx.x]+=delta_nabla_w[blockIdx.x*blockDim.x+threadIdx.x];
  }
}

__global__ void kernelInitNablaB(float *nabla_b) {
  nabla_b[threadIdx.x]=0.0;
}

__global__ void kernelInitNablaW(float *nabla_w,int tws) {
  if ((blockIdx.x*blockDim.x+threadIdx.x)<tws) {
    nabla_w[blockIdx.x*blockDim.x+threadIdx.x]=0.0;
  }
}

__global__ void kernelBackprop3a(float *delta_nabla_b,int b_off,int bound,int b_off_old,float *weights,int w_off_old) {

  int j;

  delta_nabla_b[b_off+threadIdx.x]=0.0;
  for (j=0; j<bound; j++) {
    delta_nabla_b[b_off+threadIdx.x]+=delta_nabla_b[b_off_old+j]*weights[w_off_old+(j*blockDim.x)+threadIdx.x];
  }
}

__global__ void kernelBackprop3b(float *delta_nabla_b,int b_off,float *zs) {
  delta_nabla_b[b_off+threadIdx.x]*=(1.0/(1.0+expf(-zs[threadIdx.x])))*(1.0-(1.0/(1.0+expf(-zs[threadIdx.x]))));
}

__global__ void kernelBackprop1(float *delta_nabla_w,int w_off,float *activations,float *delta_nabla_b,int b_off) {
  delta_nabla_w[w_off+(blockIdx.x*blockDim.x)+threadIdx.x]=activations[threadIdx.x]*delta_nabla_b[b_off+blockIdx.x];
  //delta_nabla_w[w_off+(threadIdx.x*gridDim.x)+blockIdx.x]=activations[threadIdx.x]*delta_nabla_b[b_off+blockIdx.x];
}

__global__ void kernelBackprop2(float *delta_nabla_b,int b_off,float *activations,float *zs,float y) {

  int y_[10]={0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0};

  y_[(int)(y+0.1)]=1.0;
  delta_nabla_b[b_off+threadIdx.x]=(activations[threadIdx.x]-y_[threadIdx.x])*(1.0/(1.0+expf(-zs[threadIdx.x])))*(1.0-(1.0/(1.0+expf(-zs[threadIdx.x]))));
}

__global__ void kernelFeedForward1(float *zs,int bound2,float *weights,int w_off,float *activations1) {

  int i;

  zs[threadIdx.x]=0.0;
  for (i=0; i<bound2; i++) {
    zs[threadIdx.x]+=weights[w_off+(threadIdx.x*bound2)+i]*activations1[i];
  }
}

__global__ void kernelFeedForward1b(float *zs,int bound,float *weights,int w_off,float *activations) {

  int i;

  zs[(blockIdx.x*blockDim.x)+threadIdx.x]=0.0;
  for (i=0; i<bound; i++) {
    zs[(blockIdx.x*blockDim.x)+threadIdx.x]+=weights[w_off+(threadIdx.x*bound)+i]*activations[(blockIdx.x*bound)+i];
  }
}

__global__ void kernelFeedForward3(float *zs,float *biases,int b_off,float *activations) {
  zs[(blockIdx.x*blockDim.x)+threadIdx.x]+=biases[b_off+threadIdx.x];
  activations[(blockIdx.x*blockDim.x)+threadIdx.x]=1.0/(1.0+expf(-zs[(blockIdx.x*blockDim.x)+threadIdx.x]));
}

__global__ void kernelFeedForward2(float *zs,float *biases,int b_off,float *activations) {
  zs[threadIdx.x]+=biases[b_off+threadIdx.x];
  activations[threadIdx.x]=1.0/(1.0+expf(-zs[threadIdx.x]));
}

