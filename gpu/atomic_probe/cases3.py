"""Third atomic probe (after cases2.py; run in the folder to write into): atomic_probe4.json.
hash_*: three lanes: a (line 0, word 0), c (line D, word 1), b (line 0, word 1): one packet more
  when c's line takes b's word slot (D = 1..255, and 2^k + r for k = 8..14 through the offset o);
dense_*: instructions that cost more than memsim's rule with no such c (hist_global over 256 bins,
  seed 0, and one of hist_global_4096), replayed by k_pat: as is, lanes 0..k-1 only, one lane left
  out, lanes reversed. k_pat as in cases.py, plus: lanes whose bit is set in m add o to their word.
"""
import json
import numpy as np
S = r'''#define U unsigned long long
#define K(N,X) extern "C" __global__ void N(unsigned*b,U p0,U p1,U p2,U p3,U p4,U p5,U p6,U p7,int m,int o){\
int l=threadIdx.x&31,q=l>>2;U p=q<4?(q<2?(q?p1:p0):(q==3?p3:p2)):(q<6?(q==5?p5:p4):(q==7?p7:p6));\
unsigned w=(p>>16*(l&3))&65535;if(w<65535){w+=(m>>l&1)?o:0;X;}}
K(k_pat,atomicAdd(&b[w],1u))'''
C = []
def pat(n, w, m=0, o=0):
    w = [65535 if x is None else int(x) for x in w] + [65535] * (32 - len(w))
    C.append(dict(name=n, spec=dict(source=S, kernel="k_pat", grid=[1, 1, 1], block=[32, 1, 1], args=["uint32[1114112]:zeros"] + [f"uint64:{sum(w[4*q+i]<<16*i for i in range(4))}" for q in range(8)] + [f"int32:{m}", f"int32:{o}"])))
for D in range(1, 256):
    pat(f"hash_{D:05d}", [0, 32 * D + 1, 1])
for k in range(8, 15):
    for r in range(4):
        pat(f"hash_{(1 << k) + r:05d}", [0, 32 * r + 1, 1], 2, 32 << k)
for B, j in ((256, 5), (256, 8), (256, 2), (256, 10), (4096, 2257)):
    w = list(np.random.default_rng([0, 0]).integers(0, B, 1 << 20)[32 * j:32 * j + 32]); n = f"dense{B}_{j:05d}_"
    pat(n + "same", w); pat(n + "reverse", w[::-1])
    for k in range(1, 32):
        pat(n + f"first{k}", w[:k])
    for k in range(32):
        pat(n + f"drop{k}", w[:k] + [None] + w[k + 1:])
json.dump(C, open("atomic_probe4.json", "w"), indent=1)
