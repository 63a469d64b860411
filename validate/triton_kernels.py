"""Triton's tutorial kernels (triton-lang.org, "Tutorials", Triton 3.6), copied unchanged but
for names, and the uncoalesced/coalesced pair: what tests/test_triton.py runs on memsim and
validate/triton_cases.py launches on the H100 (the same file, the same Triton 3.6.0)."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def row_sums_strided(x_ptr, out_ptr, n_rows, BLOCK: tl.constexpr):
    """out[r] = x[r*4] + ... + x[r*4+3]: a warp's lanes read 16 bytes apart (uncoalesced)."""
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < n_rows
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in range(4):
        acc += tl.load(x_ptr + rows * 4 + k, mask=mask)
    tl.store(out_ptr + rows, acc, mask=mask)


@triton.jit
def row_sums_coalesced(x_ptr, out_ptr, n_rows, BLOCK: tl.constexpr):
    """The fix: x stored column by column (x[k*n_rows + r]), a warp reads 128 contiguous bytes."""
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = rows < n_rows
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in range(4):
        acc += tl.load(x_ptr + k * n_rows + rows, mask=mask)
    tl.store(out_ptr + rows, acc, mask=mask)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# ---- memsim's own kernels: the access patterns Triton users ask about (coalescing, strides,
# masks, transposes, gathers, reductions, atomics, casts).

@triton.jit
def copy_strided(x_ptr, out_ptr, n, STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    """out[i] = x[i * STRIDE]: a stride of STRIDE elements between lanes."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * STRIDE, mask=mask), mask=mask)


@triton.jit
def copy_offset(x_ptr, out_ptr, n, SHIFT: tl.constexpr, BLOCK: tl.constexpr):
    """out[i] = x[i + SHIFT]: a misaligned read of SHIFT elements."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs + SHIFT, mask=mask, other=0.0), mask=mask)


@triton.jit
def scale_cast(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    """out = (x * scale) in out's element type (fp16 in, fp32 out or the other way)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (x * scale).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def transpose_tile(x_ptr, out_ptr, rows, cols, BM: tl.constexpr, BN: tl.constexpr):
    """out[c, r] = x[r, c] by BM x BN tiles (Triton moves the tile through shared memory)."""
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(out_ptr + c[None, :] * rows + r[:, None], tile, mask=mask)


@triton.jit
def transpose_naive(x_ptr, out_ptr, rows, cols, BM: tl.constexpr, BN: tl.constexpr):
    """The same, each program reading a column block of x (the uncoalesced side is the read)."""
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (r[None, :] < rows) & (c[:, None] < cols)
    tile = tl.load(x_ptr + r[None, :] * cols + c[:, None], mask=mask)
    tl.store(out_ptr + c[:, None] * rows + r[None, :], tile, mask=mask)


@triton.jit
def row_sum_2d(x_ptr, out_ptr, rows, cols, BR: tl.constexpr, BC: tl.constexpr):
    """out[r] = sum over c of x[r, c]: a tl.sum along the contiguous axis, BR rows a program."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    acc = tl.zeros((BR,), dtype=tl.float32)
    for c0 in range(0, cols, BC):
        c = c0 + tl.arange(0, BC)
        mask = (r[:, None] < rows) & (c[None, :] < cols)
        acc += tl.sum(tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask, other=0.0), axis=1)
    tl.store(out_ptr + r, acc, mask=r < rows)


@triton.jit
def col_sum_2d(x_ptr, out_ptr, rows, cols, BR: tl.constexpr, BC: tl.constexpr):
    """out[c] = sum over r of x[r, c]: a tl.sum across rows, BC columns a program."""
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    acc = tl.zeros((BC,), dtype=tl.float32)
    for r0 in range(0, rows, BR):
        r = r0 + tl.arange(0, BR)
        mask = (r[:, None] < rows) & (c[None, :] < cols)
        acc += tl.sum(tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask, other=0.0), axis=0)
    tl.store(out_ptr + c, acc, mask=c < cols)


@triton.jit
def row_max_argmax(x_ptr, max_ptr, arg_ptr, cols, BLOCK: tl.constexpr):
    """Each program one row: its max and where (tl.max, tl.argmax)."""
    row = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * cols + c, mask=c < cols, other=-float("inf"))
    tl.store(max_ptr + row, tl.max(x, axis=0))
    tl.store(arg_ptr + row, tl.argmax(x, axis=0))


@triton.jit
def gather_rows(table_ptr, idx_ptr, out_ptr, dim, BLOCK: tl.constexpr):
    """out[i, :] = table[idx[i], :] (an embedding lookup): one program per looked-up row."""
    i = tl.program_id(0)
    row = tl.load(idx_ptr + i)
    c = tl.arange(0, BLOCK)
    mask = c < dim
    tl.store(out_ptr + i * dim + c, tl.load(table_ptr + row * dim + c, mask=mask), mask=mask)


@triton.jit
def gather_elements(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[i] = x[idx[i]]: a data-dependent (random) load."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.load(x_ptr + idx, mask=mask), mask=mask)


@triton.jit
def histogram_atomic(x_ptr, hist_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    """hist[x[i] % BINS] += 1 with tl.atomic_add (int32)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(hist_ptr + x % BINS, 1, mask=mask)


@triton.jit
def sum_atomic(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[0] += the program's sum (a float atomic per program)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


@triton.jit
def max_atomic(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[i % 64] = max(out[i % 64], x[i]) with tl.atomic_max (int32)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.atomic_max(out_ptr + offs % 64, tl.load(x_ptr + offs, mask=mask, other=0), mask=mask)


@triton.jit
def bias_relu_2d(x_ptr, b_ptr, out_ptr, rows, cols, BR: tl.constexpr, BC: tl.constexpr):
    """out = relu(x + b[None, :]): a 2-D tile with a broadcast row."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    c = tl.program_id(1) * BC + tl.arange(0, BC)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    x = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    b = tl.load(b_ptr + c, mask=c < cols)
    tl.store(out_ptr + r[:, None] * cols + c[None, :], tl.maximum(x + b[None, :], 0.0), mask=mask)


@triton.jit
def cumsum_rows(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    """out[r, :] = cumulative sum of x[r, :] (tl.cumsum: a scan)."""
    row = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * cols + c, mask=c < cols, other=0.0)
    tl.store(out_ptr + row * cols + c, tl.cumsum(x, axis=0), mask=c < cols)


@triton.jit
def seeded_dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    """The tutorial's low-memory dropout: a Philox random number per element (tl.rand)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    keep = tl.rand(seed, offs) > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


@triton.jit
def matmul_fma(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B, row-major fp32, with tl.dot in IEEE fp32 (FMA, no tensor core)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
