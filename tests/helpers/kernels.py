"""CUDA sources several test modules launch."""

# a transpose whose reads coalesce and whose writes stride: traced by tests/engine
TRACE_SOURCE = '''extern "C" __global__ void k_t(const float* a, float* b, int n) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  b[ix * n + iy] = a[iy * n + ix];
}
'''

# a PTX kernel with parameters, static, dynamic and local arrays and an initialized .global
# variable: laid out and lowered by tests/engine
LAYOUT_PTX = r'''
.version 8.0
.target sm_90
.address_size 64

.global .align 4 .b8 table[8] = {1, 0, 0, 0, 2, 0, 0, 0};

.visible .entry k(
    .param .u64 k_param_0,
    .param .u32 k_param_1
)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b8 tile[100];
    .extern .shared .align 16 .b8 dyn[];
    .local .align 8 .b8 stack[24];

    ld.param.u64 %rd1, [k_param_0];
    ld.param.u32 %r1, [k_param_1];
    mov.u32 %r2, %tid.x;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r1;
    ret;
}
'''
