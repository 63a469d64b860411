"""Does the L2 hold dirty lines at a kernel's start that are not the kernel's? (memsim issue 24)

    bash gpu/cache_probe/run_dirty_start_probe.sh   (on the GPU machine; results under $OUT)

Recorded read-only launches that stream more than the L2 holds show ~2 MB of DRAM writes
(dram__bytes_write.sum) that no store of theirs explains, while the writeback probe's k_read
of up to 256 MB shows none. The difference between the two: the recordings collect ~40
metrics in 7 replay passes, the probe 5 metrics in one. This probe runs the same read-only
kernel under both metric sets, and after a kernel that leaves N MB dirty (k_fill), to tell
which one leaves the dirty lines.
k_read: N MB read (float4, grid-stride, 1056 blocks of 256 threads); k_fill: N MB written."""
import json
import sys

import cupy as cp

S = r'''
extern "C" __global__ void k_read(const float4*s,float4*d,long n){float a=0;for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x){float4 v=s[i];a+=v.x+v.w;}if(a==1234.f)d[0].x=a;}
extern "C" __global__ void k_fill(const float4*s,float4*d,long n){for(long i=blockIdx.x*(long)blockDim.x+threadIdx.x;i<n;i+=(long)gridDim.x*blockDim.x)d[i]=make_float4(1,2,3,4);}
'''
SIZES_MB = (8, 16, 24, 32, 48, 64, 128, 256)
# (kernel, MB): reads of growing size; then fills of 4 and 16 MB each followed by a 64 MB read
LAUNCHES = ([("read", n) for n in SIZES_MB]
            + [x for f in (4, 16) for x in (("fill", f), ("read", 64))])


def main() -> None:
    module = cp.RawModule(code=S)
    src = cp.ones(64 << 20, cp.float32)
    dst = cp.zeros(64 << 20, cp.float32)
    for kernel, mb in LAUNCHES:
        module.get_function("k_" + kernel)((1056,), (256,), (src, dst, cp.int64((mb << 20) // 16)))
        cp.cuda.Device().synchronize()
    json.dump(LAUNCHES, sys.stdout)


if __name__ == "__main__":
    main()
