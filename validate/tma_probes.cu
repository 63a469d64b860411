// Hopper's tensor-memory accelerator (TMA: cp.async.bulk.tensor with a CUtensorMap) and
// setmaxnreg, each in a small launch recorded on the H100 (validate/tma_probes.py writes the
// case list). The CUtensorMap is a __grid_constant__ parameter: memsim fills its 128 bytes with
// its own layout (memsim/tensormap.py), the GPU side with cuTensorMapEncodeTiled. The map's
// buffer is an argument too (`tensor`, unread by the kernel): memsim's buffers are arguments.
// cuda.h needs the C library headers NVRTC lacks: the 128-byte, 64-aligned map, as cuda.h has it
struct alignas(64) CUtensorMap { unsigned long long opaque[16]; };

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void bar_init(unsigned long long* bar, unsigned count) {
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(bar)), "r"(count));
    asm volatile("fence.proxy.async.shared::cta;");
}
__device__ __forceinline__ void bar_expect(unsigned long long* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_arrive(unsigned long long* bar) {
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" :: "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void bar_wait(unsigned long long* bar, unsigned parity) {
    asm volatile("{\n .reg .pred done;\n wait:\n mbarrier.try_wait.parity.shared.b64 done, [%0], %1;\n"
                 " @!done bra wait;\n}" :: "r"(smem(bar)), "r"(parity) : "memory");
}
// a 2-D box at (x = column, y = row) of the map into shared memory, completing on bar
__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* map, int x, int y, unsigned long long* bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(smem(dst)), "l"(map), "r"(x), "r"(y), "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void tma_store(const CUtensorMap* map, int x, int y, const void* src) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                 :: "l"(map), "r"(x), "r"(y), "r"(smem(src)) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// TMA load: block (bx, by) loads the box at column bx*BC, row by*BR; every thread then writes
// the whole box (zero-filled out of bounds) to its own slot of out, plus one.
template <typename T, int BR, int BC>
__device__ void load_box(const CUtensorMap* map, T* out) {
    __shared__ alignas(1024) T tile[BR * BC];   // 1024: a 128-byte swizzle's pattern repeats there
    __shared__ unsigned long long bar;
    if (threadIdx.x == 0) bar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        bar_expect(&bar, sizeof(tile));
        tma_load(tile, map, blockIdx.x * BC, blockIdx.y * BR, &bar);
    }
    bar_wait(&bar, 0);
    T* o = out + (size_t)(blockIdx.y * gridDim.x + blockIdx.x) * BR * BC;
    for (int k = threadIdx.x; k < BR * BC; k += blockDim.x) o[k] = tile[k] + (T)1;
}
extern "C" __global__ void k_tma_load_f32_8x32(const float* tensor, const __grid_constant__ CUtensorMap map, float* out) { load_box<float, 8, 32>(&map, out); }
extern "C" __global__ void k_tma_load_f32_32x32(const float* tensor, const __grid_constant__ CUtensorMap map, float* out) { load_box<float, 32, 32>(&map, out); }
extern "C" __global__ void k_tma_load_f32_64x16(const float* tensor, const __grid_constant__ CUtensorMap map, float* out) { load_box<float, 64, 16>(&map, out); }
extern "C" __global__ void k_tma_load_f32_8x64(const float* tensor, const __grid_constant__ CUtensorMap map, float* out) { load_box<float, 8, 64>(&map, out); }
extern "C" __global__ void k_tma_load_f32_16x12(const float* tensor, const __grid_constant__ CUtensorMap map, float* out) { load_box<float, 16, 12>(&map, out); }
extern "C" __global__ void k_tma_load_i16_16x64(const short* tensor, const __grid_constant__ CUtensorMap map, short* out) { load_box<short, 16, 64>(&map, out); }

// TMA store: threads fill a box in shared memory from a row-major input (rows x cols), then one
// thread stores it at (bx*BC, by*BR); out-of-bounds elements are dropped.
template <int BR, int BC>
__device__ void store_box(const CUtensorMap* map, const float* in, int rows, int cols) {
    __shared__ alignas(128) float tile[BR * BC];
    for (int k = threadIdx.x; k < BR * BC; k += blockDim.x) {
        int r = blockIdx.y * BR + k / BC, c = blockIdx.x * BC + k % BC;
        tile[k] = (r < rows && c < cols) ? in[r * cols + c] * 2.0f : -1.0f;
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) tma_store(map, blockIdx.x * BC, blockIdx.y * BR, tile);
}
extern "C" __global__ void k_tma_store_f32_16x32(float* tensor, const __grid_constant__ CUtensorMap map, const float* in, int rows, int cols) { store_box<16, 32>(&map, in, rows, cols); }
extern "C" __global__ void k_tma_store_f32_32x64(float* tensor, const __grid_constant__ CUtensorMap map, const float* in, int rows, int cols) { store_box<32, 64>(&map, in, rows, cols); }

// TMA load then TMA store of the same box, transformed in shared memory: a tiled copy
extern "C" __global__ void k_tma_copy(const float* a, float* b, const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst) {
    __shared__ alignas(128) float tile[32 * 32];
    __shared__ unsigned long long bar;
    if (threadIdx.x == 0) bar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        bar_expect(&bar, sizeof(tile));
        tma_load(tile, &src, blockIdx.x * 32, blockIdx.y * 32, &bar);
    }
    bar_wait(&bar, 0);
    for (int k = threadIdx.x; k < 32 * 32; k += blockDim.x) tile[k] = tile[k] * 3.0f - 1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) tma_store(&dst, blockIdx.x * 32, blockIdx.y * 32, tile);
}

// setmaxnreg alone: warpgroup 0 gives registers back, warpgroup 1 takes some; the sums are the
// same as without it (it changes no count, only the register budget)
extern "C" __global__ void __launch_bounds__(256, 1) k_setmaxnreg(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 128) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        out[i] = x[i] + 1.0f;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 160;");
        out[i] = x[i] * 2.0f;
    }
}

// Warp-specialised producer/consumer: warpgroup 0 (one elected thread) streams STAGES boxes of
// 32 rows x 32 columns down a column strip through a ring of shared buffers with TMA; warpgroup 1
// consumes them (column sums of each box) and releases the slot. setmaxnreg moves registers from
// the producer to the consumers.
#define STAGES 2
extern "C" __global__ void __launch_bounds__(256, 1) k_ws_pipeline(const float* tensor, const __grid_constant__ CUtensorMap map, float* out, int tiles) {
    __shared__ alignas(128) float ring[STAGES][32 * 32];
    __shared__ unsigned long long full[STAGES], empty[STAGES];
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) { bar_init(&full[s], 1); bar_init(&empty[s], 128); }
    }
    __syncthreads();
    if (threadIdx.x < 128) {                       // producer warpgroup
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (threadIdx.x == 0) {
            for (int t = 0; t < tiles; t++) {
                int s = t % STAGES;
                if (t >= STAGES) bar_wait(&empty[s], ((t / STAGES) - 1) & 1);
                bar_expect(&full[s], sizeof(ring[0]));
                tma_load(ring[s], &map, blockIdx.x * 32, t * 32, &full[s]);
            }
        }
    } else {                                       // consumer warpgroup
        asm volatile("setmaxnreg.inc.sync.aligned.u32 160;");
        int c = threadIdx.x - 128;
        float acc = 0.0f;
        for (int t = 0; t < tiles; t++) {
            int s = t % STAGES;
            bar_wait(&full[s], (t / STAGES) & 1);
            if (c < 32) for (int r = 0; r < 32; r++) acc += ring[s][r * 32 + c];
            bar_arrive(&empty[s]);
        }
        if (c < 32) out[blockIdx.x * 32 + c] = acc;
    }
}

// cp.async.bulk (no tensor map): each block's first thread copies 2 KiB global -> shared, completing
// on an mbarrier; every thread then writes its slice back scaled (does the TMA pipe count it?)
extern "C" __global__ void k_bulk_2k(const float* src, float* dst) {
    __shared__ alignas(128) float buf[512];
    __shared__ unsigned long long bar;
    if (threadIdx.x == 0) bar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        bar_expect(&bar, sizeof(buf));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(smem(buf)), "l"(src + blockIdx.x * 512), "r"((unsigned)sizeof(buf)), "r"(smem(&bar)) : "memory");
    }
    bar_wait(&bar, 0);
    for (int k = threadIdx.x; k < 512; k += blockDim.x) dst[blockIdx.x * 512 + k] = buf[k] * 0.5f;
}

// 1-D and 3-D boxes: a row of 256 floats; 2 planes x 8 rows x 32 columns
extern "C" __global__ void k_tma_load_1d(const float* tensor, const __grid_constant__ CUtensorMap map, float* out) {
    __shared__ alignas(128) float tile[256];
    __shared__ unsigned long long bar;
    if (threadIdx.x == 0) bar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        bar_expect(&bar, sizeof(tile));
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                     :: "r"(smem(tile)), "l"(&map), "r"((int)blockIdx.x * 256), "r"(smem(&bar)) : "memory");
    }
    bar_wait(&bar, 0);
    for (int k = threadIdx.x; k < 256; k += blockDim.x) out[blockIdx.x * 256 + k] = tile[k] - 2.0f;
}
extern "C" __global__ void k_tma_load_3d(const float* tensor, const __grid_constant__ CUtensorMap map, float* out) {
    __shared__ alignas(128) float tile[2 * 8 * 32];
    __shared__ unsigned long long bar;
    if (threadIdx.x == 0) bar_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        bar_expect(&bar, sizeof(tile));
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                     :: "r"(smem(tile)), "l"(&map), "r"((int)blockIdx.x * 32), "r"((int)blockIdx.y * 8),
                        "r"((int)blockIdx.z * 2), "r"(smem(&bar)) : "memory");
    }
    bar_wait(&bar, 0);
    unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    for (int k = threadIdx.x; k < 2 * 8 * 32; k += blockDim.x) out[b * 512 + k] = tile[k] * 4.0f;
}
