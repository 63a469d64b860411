"""Fourth atomic probe (run in the folder to write into): atomic_probe5.json. Every order of a few
lanes: A (line 0, word 0) and B (line 0, word 1) share a sector; C (line 5, word 1), E (line 5,
word 0), X (line 5, word 2) lie in line 5, which takes the same L1 slot set as line 0 (lines 0 and
5 differ by 5, in the hash's kernel: atomic_probe4's hash_*); 'C' twice is one address twice.
seq_*: lanes 0, 1, 2, ... in that order; spread_*: lanes 0, 9, 18, 27 (orders of 3 and 4 only);
other_*: the same with line 1 (another slot set) for line 5. k_pat as in cases3.py.
"""
import json
from itertools import permutations
S = r'''#define U unsigned long long
#define K(N,X) extern "C" __global__ void N(unsigned*b,U p0,U p1,U p2,U p3,U p4,U p5,U p6,U p7,int m,int o){\
int l=threadIdx.x&31,q=l>>2;U p=q<4?(q<2?(q?p1:p0):(q==3?p3:p2)):(q<6?(q==5?p5:p4):(q==7?p7:p6));\
unsigned w=(p>>16*(l&3))&65535;if(w<65535){w+=(m>>l&1)?o:0;X;}}
K(k_pat,atomicAdd(&b[w],1u))'''
C = []
def pat(n, w):
    w = [65535 if x is None else int(x) for x in w] + [65535] * (32 - len(w))
    C.append(dict(name=n, spec=dict(source=S, kernel="k_pat", grid=[1, 1, 1], block=[32, 1, 1], args=["uint32[65600]:zeros"] + [f"uint64:{sum(w[4*q+i]<<16*i for i in range(4))}" for q in range(8)] + ["int32:0", "int32:0"])))
for L, tag in ((5, "seq"), (1, "other")):
    W = dict(A=0, B=1, C=32 * L + 1, E=32 * L, X=32 * L + 2)
    for pool in ("ABC", "ABE", "ABX", "ABCE", "ABCX", "ABEX", "ABCC", "ABCEX", "ABCCX", "ABCCE"):
        if tag == "other" and len(pool) > 4:
            continue
        for s in sorted(set(permutations(pool))):
            n = "".join(s)
            pat(f"{tag}_{n}", [W[c] for c in s])
            if tag == "seq" and len(s) < 5:
                w = [None] * 32
                for i, c in enumerate(s):
                    w[9 * i] = W[c]
                pat(f"spread_{n}", w)
json.dump(C, open("atomic_probe5.json", "w"), indent=1)
