"""Probe launches for the packets the L1 sends to L2 for global atomics
(l1tex__t_sectors_pipe_lsu_mem_global_op_{atom,red}); docs/exactness.md says what they showed.

    python /PATH/TO/gpu/atomic_probe/cases.py   -> atomic_probe.json and atomic_probe_pat.json in the
                                                 current folder, --case-files for `validate run`

Terse on purpose: the device tool sends the project's main checkout, not a helper's worktree, so
the run command carried this script in, compressed (2,000 characters at most). Cases:
  real_*  k_hist over the data of corpus hist_global_4096 (seed 0, randint(0,4096)) replayed by
          one warp: all of it, 32 chunks of 1024 instructions, and single instructions
  bins_*  k_hist over randint(0,B): 1024 blocks of 256 threads (as hist_global_4096), and one warp
  pat_*   k_pat: one warp, one atomic; lane l adds 1 to word (p[l/4] >> 16*(l%4)) & 0xffff
          (0xffff: lane inactive); k_pat_atom stores the result (an ATOM; k_pat's is a RED)
"""
import json
import numpy as np
S = r'''extern "C" __global__ void k_hist(const int*d,unsigned*b,int s,int n){
for(int i=s+blockIdx.x*blockDim.x+threadIdx.x;i<s+n;i+=blockDim.x*gridDim.x)atomicAdd(&b[d[i]],1u);}
#define U unsigned long long
#define K(N,X) extern "C" __global__ void N(unsigned*b,U p0,U p1,U p2,U p3,U p4,U p5,U p6,U p7){\
int l=threadIdx.x&31,q=l>>2;U p=q<4?(q<2?(q?p1:p0):(q==3?p3:p2)):(q<6?(q==5?p5:p4):(q==7?p7:p6));\
unsigned w=(p>>16*(l&3))&65535;if(w<65535)X;}
K(k_pat,atomicAdd(&b[w],1u))
K(k_pat_atom,b[65536+l]=atomicAdd(&b[w],1u))'''
C=[];M=1<<20;N=[None]*32;L=[32*l+32 for l in range(32)];R=np.random.default_rng
def case(n,k,g,b,a,s=0):C.append(dict(name=n,spec=dict(source=S,kernel=k,grid=[g,1,1],block=[b,1,1],args=a,seed=s)))
def hist(n,s,c,B=4096,g=1,b=32,e=0):case(n,"k_hist",g,b,[f"int32[{M}]:randint(0,{B})",f"uint32[{B}]:zeros",f"int32:{s}",f"int32:{c}"],e)
def pat(n,w,k="k_pat"):
    w=[65535 if x is None else x for x in w]+[65535]*(32-len(w))
    case("pat_"+n,k,1,32,["uint32[65600]:zeros"]+[f"uint64:{sum(w[4*q+i]<<16*i for i in range(4))}" for q in range(8)])
def put(w,l,v):
    w=list(w)
    for a,b in zip(l,v):w[a]=b
    return w
def save(n):json.dump(C,open(f"{n}.json","w"));C.clear()
hist("real_full",0,M)
for c in range(32):hist(f"real_chunk_{c:02d}",c<<15,1<<15)
f=[len(set(x))<32 for x in R([0,0]).integers(0,4096,M).reshape(-1,32)[:2000]]
for j in [j for j in range(2000) if f[j]][:96]+[j for j in range(40) if not f[j]][:16]:hist(f"real_inst_{j:05d}",32*j,32)
for B in(128,256,512,1024,2048,4096,8192,65536):hist(f"bins_{B}",0,M,B,1024,256,int(B==4096));hist(f"bins_{B}_serial",0,M,B,e=int(B==4096))
save("atomic_probe")
for a,b in((0,1),(0,15),(0,16),(15,16),(0,31),(7,24)):pat(f"pair_{a}_{b}",put(N,(a,b),(0,0)));pat(f"pair_{a}_{b}_lines31",put(L,(a,b),(0,0)))
pat("pair_0_16_lines31_atom",put(L,(0,16),(0,0)),"k_pat_atom");pat("lines32",L)
for k in range(1,31):
    for a,b,v in((0,1,0),(0,16,0),(0,1,1)):pat(f"k{k:02d}_{a}_{b}_{v}",put(put(N,[l for l in range(32) if l not in(a,b)],[32+32*(i%k)+i//k for i in range(30)]),(a,b),(0,v)))
for m in(64,128,256,384,512,768,1024,2048,4096):pat(f"mod{m}",[0,m,m+1]);pat(f"mod{m}_pair",[0,m,m+1,5000,5000])
r=R(7)
for t in range(100):
    k=r.integers(1,33);w=[int(x) for x in r.choice(2047,k,replace=False)[r.integers(0,k,32)]*32+r.integers(0,32,32)]
    for _ in range(r.integers(0,3)):a,b=r.choice(32,2,replace=False);w[b]=w[a]
    pat(f"rand_{t:03d}",put(w,r.choice(32,r.integers(0,3)*4),N))
save("atomic_probe_pat")
