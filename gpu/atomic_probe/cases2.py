"""Second atomic probe (after cases.py; run in the folder to write into):
atomic_probe2.json: instructions of corpus hist_global_4096 (its data: seed 0, randint(0,4096)),
  7 of them, 5 that cost one packet more than memsim's rule and 2 that don't, replayed by k_pat
  (cases.py) with one thing changed each: as is; every word moved by s lines; words XORed with k
  (k < 8: offsets permuted within the sector; 8, 16, 24: sectors within the line; >= 32: lines);
  only lanes 0..k-1; one lane left out; lanes reversed or rotated.
atomic_probe3.json: single instructions replayed by k_hist (cases.py): 400 more of
  hist_global_4096's data and 100 of randint(0,256) (8 lines: extras are frequent there).
"""
import json
import numpy as np
S = r'''extern "C" __global__ void k_hist(const int*d,unsigned*b,int s,int n){
for(int i=s+blockIdx.x*blockDim.x+threadIdx.x;i<s+n;i+=blockDim.x*gridDim.x)atomicAdd(&b[d[i]],1u);}
#define U unsigned long long
#define K(N,X) extern "C" __global__ void N(unsigned*b,U p0,U p1,U p2,U p3,U p4,U p5,U p6,U p7){\
int l=threadIdx.x&31,q=l>>2;U p=q<4?(q<2?(q?p1:p0):(q==3?p3:p2)):(q<6?(q==5?p5:p4):(q==7?p7:p6));\
unsigned w=(p>>16*(l&3))&65535;if(w<65535)X;}
K(k_pat,atomicAdd(&b[w],1u))'''
C = []
def case(n, k, a):
    C.append(dict(name=n, spec=dict(source=S, kernel=k, grid=[1, 1, 1], block=[32, 1, 1], args=a)))
def pat(n, w):
    w = [65535 if x is None else int(x) for x in w]
    case(n, "k_pat", ["uint32[65600]:zeros"] + [f"uint64:{sum(w[4*q+i]<<16*i for i in range(4))}" for q in range(8)])
def save(n):
    json.dump(C, open(n + ".json", "w"), indent=1); C.clear()
d = np.random.default_rng([0, 0]).integers(0, 4096, 1 << 20).reshape(-1, 32)
for j in (9, 2, 19, 36, 481, 11, 7):
    w = list(d[j]); n = f"i{j:05d}_"
    pat(n + "same", w)
    for s in (1, 4, 16, 64, 128, 512, 1024):
        pat(n + f"shift{s}", [x + 32 * s for x in w])
    for k in (1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 64, 128, 256, 512, 1024, 2048):
        pat(n + f"xor{k}", [x ^ k for x in w])
    for k in range(1, 32):
        pat(n + f"first{k}", w[:k] + [None] * (32 - k))
    for k in range(32):
        pat(n + f"drop{k}", w[:k] + [None] + w[k + 1:])
    pat(n + "reverse", w[::-1]); pat(n + "rot1", w[1:] + w[:1]); pat(n + "rot16", w[16:] + w[:16])
save("atomic_probe2")
for B, js in ((4096, range(2000, 2400)), (256, range(100))):
    for j in js:
        case(f"b{B}_inst_{j:05d}", "k_hist", [f"int32[{1 << 20}]:randint(0,{B})", f"uint32[{B}]:zeros", f"int32:{32 * j}", "int32:32"])
save("atomic_probe3")
