"""When does the L2 write dirty lines back to DRAM during a kernel? (memsim issue 24, item 3)

    ncu --csv --page raw --metrics ... -k regex:^k_ python3 writeback_probe.py > launches.json
    (run_writeback_probe.sh runs it twice; results: h100_writeback_results.json)

k_copy: N MB read, N MB written; k_fill: N MB written; k_read: N MB read; k_sparse: one 16-byte
read and one 4-byte write per 128-byte line of N MB (one dirty, partly written sector per line).
1056 blocks of 256 threads, grid-stride loops over float4s, N from 1 to 256 MB, in LAUNCHES order.
Kept terse: the device tool takes it as a command line."""
import cupy as cp,sys,json
S=r'''
extern "C" __global__ void k_copy(const float4*s,float4*d,long n){for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x)d[i]=s[i];}
extern "C" __global__ void k_fill(const float4*s,float4*d,long n){for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x)d[i]=make_float4(1,2,3,4);}
extern "C" __global__ void k_read(const float4*s,float4*d,long n){float a=0;for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x){float4 v=s[i];a+=v.x+v.w;}if(a==1234.f)d[0].x=a;}
extern "C" __global__ void k_sparse(const float4*s,float4*d,long n){for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x){float4 v=s[i];if((i&7)==0)((float*)d)[i*4]=v.x;}}
'''
M=cp.RawModule(code=S)
Z=(1,2,4,8,12,16,20,24,28,32,36,40,48,56,64,96,128,192,256)
L=[(k,n) for k in ("copy","fill") for n in Z]+[(k,n) for k in ("read","sparse") for n in Z if n>=8]
s=cp.ones(64<<20,cp.float32);d=cp.zeros(64<<20,cp.float32)
for k,n in L:
 M.get_function("k_"+k)((1056,),(256,),(s,d,cp.int64((n<<20)//16)));cp.cuda.Device().synchronize()
json.dump(L,sys.stdout)
