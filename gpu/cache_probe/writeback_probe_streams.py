"""Write-back by number of streams (probe "streams" in h100_writeback_results.json): k_add1/k_add4
d = a + b over N MB each (floats, float4s), k_two1 two reads and two writes of N MB (floats),
one element per thread, N = 8 to 32 MB."""
import cupy as cp,sys,json
S=r'''
extern "C" __global__ void k_add1(const float*a,const float*b,float*d,long n){long i=blockIdx.x*(long)blockDim.x+threadIdx.x;if(i<n)d[i]=a[i]+b[i];}
extern "C" __global__ void k_add4(const float4*a,const float4*b,float4*d,long n){long i=blockIdx.x*(long)blockDim.x+threadIdx.x;if(i<n){float4 x=a[i],y=b[i];d[i]=make_float4(x.x+y.x,x.y+y.y,x.z+y.z,x.w+y.w);}}
extern "C" __global__ void k_two1(const float*a,const float*b,float*d,long n){long i=blockIdx.x*(long)blockDim.x+threadIdx.x;if(i<n){d[i]=a[i];d[i+n]=b[i];}}
'''
M=cp.RawModule(code=S)
Z=(8,12,16,24,32)
L=[(k,n) for k in ("add1","add4","two1") for n in Z]
a=cp.ones(8<<20,cp.float32);b=cp.ones(8<<20,cp.float32);d=cp.zeros(16<<20,cp.float32)
for k,n in L:
 e=(n<<20)//(16 if k[-1]=="4" else 4)
 M.get_function("k_"+k)(((e+255)//256,),(256,),(a,b,d,cp.int64(e)));cp.cuda.Device().synchronize()
json.dump(L,sys.stdout)
