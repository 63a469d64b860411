"""Write-back by access width and loop shape (run like writeback_probe.py; results in
h100_writeback_results.json, probe "width"): k_gs1/k_gs4 copy floats/float4s in a grid-stride
loop of 1056 blocks, k_one1/k_one4 one element per thread; N = 16 to 96 MB."""
import cupy as cp,sys,json
S=r'''
extern "C" __global__ void k_gs1(const float*s,float*d,long n){for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x)d[i]=s[i];}
extern "C" __global__ void k_gs4(const float4*s,float4*d,long n){for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x)d[i]=s[i];}
extern "C" __global__ void k_one1(const float*s,float*d,long n){long i=blockIdx.x*(long)blockDim.x+threadIdx.x;if(i<n)d[i]=s[i];}
extern "C" __global__ void k_one4(const float4*s,float4*d,long n){long i=blockIdx.x*(long)blockDim.x+threadIdx.x;if(i<n)d[i]=s[i];}
'''
M=cp.RawModule(code=S)
Z=(16,24,32,48,96)
L=[(k,n) for k in ("gs1","gs4","one1","one4") for n in Z]
s=cp.ones(24<<20,cp.float32);d=cp.zeros(24<<20,cp.float32)
for k,n in L:
 e=(n<<20)//(16 if k[-1]=="4" else 4)
 g=1056 if k[:2]=="gs" else (e+255)//256
 M.get_function("k_"+k)((g,),(256,),(s,d,cp.int64(e)));cp.cuda.Device().synchronize()
json.dump(L,sys.stdout)
