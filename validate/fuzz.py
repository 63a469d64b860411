"""Random kernels that exercise the counter rules in combinations nobody wrote by hand.

    from validate.fuzz import generate, generate2
    cases = generate(200, seed=1)          # fuzz_s1_0000 ... fuzz_s1_0199, tagged "fuzz"
    more = generate2()                     # fuzz2_s2_0000 ... fuzz2_s2_0149: the same kernels plus
                                           # shuffles, votes, atomics, doubles, local arrays

Each kernel is drawn from a small grammar: an element type (char to float4), a 1-D or 2-D block
(partial warps included), one or two global loads whose index is an affine, modular, divided or
xor-swizzled expression of the thread and block coordinates, optionally inside a loop whose trip
count may depend on the lane, an optional shared-memory stage (every thread stores at a
one-to-one index, `__syncthreads()`, then reads a strided, padded, transposed or broadcast one),
an optional `if (gid < n)` guard, and one global store. Every index is evaluated here with numpy over all threads (and loop iterations),
so buffers are sized to the largest index and no access can leave its buffer; the store index is
one-to-one over the active threads, so results do not depend on thread order. Case i depends
only on (seed, i). Where a kernel's counters follow from first principles (cases.py's rules),
the case carries them in `expect`; what the compiler is free to change is left out (NVRTC
sinks a guarded kernel's shared load under the guard; equal loads may be merged; a lane-dependent
loop's instruction counts follow its unrolling).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from memsim import metrics as m
from memsim.launch import ArgSpec, LaunchSpec
from .cases import (Access, Case, Threads, addresses_distinct, buffer_arg, byte_offsets,
                    expected_counters, launch_threads, width_of)

INT_MAX = 2**31 - 1
MAX_THREADS = 8192  # per kernel: 200 kernels must simulate in a couple of minutes
MAX_BUFFER_BYTES = 4 << 20
MAX_SHARED_BYTES = 48 << 10
TYPES = ["char", "short", "int", "float", "double", "float2", "float4"]
TYPE_WEIGHTS = [0.1, 0.1, 0.15, 0.25, 0.15, 0.1, 0.15]
BLOCKS_1D = [32, 64, 128, 256, 48, 100, 96, 200, 33, 160]
BLOCKS_2D = [(32, 8), (16, 16), (8, 32), (64, 4), (12, 10), (24, 6), (32, 4), (16, 8), (40, 3),
             (8, 8), (4, 32)]
STRIDES = [1, 1, 1, 2, 3, 4, 8, 16, 32, 33]
OFFSETS = [0, 0, 0, 1, 2, 3, 8, 32]

PRELUDE = """\
__device__ inline float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ inline float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
"""


# ---------------------------------------------------------------------------------------------
# Index expressions: C text and numpy values from one tree. Every value is a non-negative int,
# so C's truncating / and % agree with numpy's flooring ones.

class Expr:
    def c(self) -> str:
        raise NotImplementedError

    def eval(self, env: dict) -> np.ndarray:
        raise NotImplementedError

    def values(self, env: dict) -> np.ndarray:
        """Evaluate, refusing anything a C int could not hold."""
        out = np.asarray(self.eval(env), dtype=np.int64)
        if out.size and (out.min() < 0 or out.max() > INT_MAX):
            raise OverflowError(self.c())
        return out


@dataclass(frozen=True)
class Var(Expr):
    name: str

    def c(self) -> str:
        return self.name

    def eval(self, env):
        return np.asarray(env[self.name], dtype=np.int64)


@dataclass(frozen=True)
class Const(Expr):
    value: int

    def c(self) -> str:
        return str(self.value)

    def eval(self, env):
        return np.int64(self.value)


@dataclass(frozen=True)
class Op(Expr):
    """A binary operation (+ * / % ^ &) on two expressions."""

    symbol: str
    left: Expr
    right: Expr

    def c(self) -> str:
        return f"({self.left.c()} {self.symbol} {self.right.c()})"

    def eval(self, env):
        a, b = self.left.values(env), self.right.values(env)
        return {"+": np.add, "*": np.multiply, "/": np.floor_divide, "%": np.mod,
                "^": np.bitwise_xor, "&": np.bitwise_and}[self.symbol](a, b)


def add(*terms: Expr) -> Expr:
    terms = [t for t in terms if not (isinstance(t, Const) and t.value == 0)]
    if not terms:
        return Const(0)
    out = terms[0]
    for t in terms[1:]:
        out = Op("+", out, t)
    return out


def mul(k: int, e: Expr) -> Expr:
    if k == 0:
        return Const(0)
    return e if k == 1 else Op("*", Const(k), e)


# ---------------------------------------------------------------------------------------------
# Programs

@dataclass
class Program:
    """One generated kernel and the launch that goes with it."""

    name: str
    ctype: str
    block: tuple[int, int]
    grid: tuple[int, int]
    guard: int | None  # n of `if (gid < n)`, or None
    loads: list[Expr]
    store: Expr
    trip: Expr | None = None  # loop trip count (the loads are inside the loop, index uses k)
    shared: tuple[Expr, Expr] | None = None  # (store index, load index) of the shared stage
    extents: dict[str, int] = field(default_factory=dict)  # in / out / shared element counts

    @property
    def threads(self) -> Threads:
        return launch_threads(self.grid, self.block)

    def env(self, t: Threads) -> dict:
        lt = t.ty * self.block[0] + t.tx
        gid = (t.by * self.grid[0] + t.bx) * (self.block[0] * self.block[1]) + lt
        return {"tx": t.tx, "ty": t.ty, "bx": t.bx, "by": t.by, "lt": lt, "gid": gid}

    def active(self, env: dict) -> np.ndarray:
        shape = np.broadcast(env["gid"], env["tx"]).shape
        if self.guard is None:
            return np.ones(shape, dtype=bool)
        return np.broadcast_to(env["gid"] < self.guard, shape)

    def load_indices(self, env: dict) -> list[tuple[np.ndarray, np.ndarray]]:
        """(element index, active) per executed load: one per load and loop iteration."""
        active = self.active(env)
        if self.trip is None:
            return [(np.broadcast_to(e.values(env), active.shape), active) for e in self.loads]
        trips = np.broadcast_to(self.trip.values(env), active.shape)
        out = []
        for k in range(int(trips[active].max(initial=0))):
            env_k = {**env, "k": np.int64(k)}
            out += [(np.broadcast_to(e.values(env_k), active.shape), active & (trips > k))
                    for e in self.loads]
        return out

    def source(self) -> str:
        ctype = self.ctype
        body = [f"  {ctype} v = {ctype}{{}};"]
        loads = " + ".join(f"in[{e.c()}]" for e in self.loads)
        if self.trip is None:
            inner = [f"v = v + {loads};"]
        else:
            inner = [f"for (int k = 0; k < {self.trip.c()}; k++) {{", f"  v = v + {loads};", "}"]
        body += _guarded(inner, self.guard)
        if self.shared is not None:
            store, load = self.shared
            body += [f"  __shared__ {ctype} s[{self.extents['shared']}];",
                     f"  s[{store.c()}] = v;", "  __syncthreads();", f"  v = v + s[{load.c()}];"]
        body += _guarded([f"out[{self.store.c()}] = v;"], self.guard)
        return PRELUDE + "\n".join([
            f'extern "C" __global__ void k_{self.name}(const {ctype}* in, {ctype}* out, int n) {{',
            "  const int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;",
            "  const int lt = ty * blockDim.x + tx;",
            "  const int gid = (by * gridDim.x + bx) * (blockDim.x * blockDim.y) + lt;",
            *body, "}", ""])

    def case(self) -> Case:
        spec = LaunchSpec(source=self.source(), kernel=f"k_{self.name}", grid=self.grid,
                          block=self.block, seed=0,
                          args=[buffer_arg(self.ctype, self.extents["in"]),
                                buffer_arg(self.ctype, self.extents["out"], "zeros"),
                                f"int32:{self.guard if self.guard is not None else 0}"])
        return Case(name=self.name, spec=spec, tags=self.tags(), expect=self.expected())

    def tags(self) -> list[str]:
        tags = ["fuzz", "global"]
        tags += ["vector"] if self.ctype in ("float2", "float4") else []
        tags += ["shared"] if self.shared else []
        tags += ["loop"] if self.trip is not None else []
        tags += ["2d"] if self.block[1] > 1 else []
        return tags

    def expected(self) -> dict[str, int]:
        """Counters from first principles, where the compiler leaves them no freedom."""
        t = self.threads
        env = self.env(t)
        width = width_of(self.ctype)
        loads = self.load_indices(env)
        accesses = [Access("global", "ld", width, byte_offsets(t, idx, width, on)) for idx, on in loads]
        if self.shared is not None:
            full = np.ones(t.shape, dtype=bool)
            accesses += [Access("shared", "st", width, byte_offsets(t, self.shared[0].values(env), width, full)),
                         Access("shared", "ld", width, byte_offsets(t, self.shared[1].values(env), width, full))]
        accesses.append(Access("global", "st", width, byte_offsets(t, self.store.values(env), width,
                                                                 self.active(env))))
        extra = self.extra_accesses(t, env)
        accesses += extra
        distinct = _all_distinct([np.where(on, idx, -1) for idx, on in loads])
        uniform = self.trip is None or isinstance(self.trip, Const)
        unmodeled = [] if distinct and uniform else [("global", "ld")]
        unmodeled += self.extra_unmodeled()
        if self.shared is not None and self.guard is not None:
            # the shared load feeds only the guarded store: NVRTC may sink it under the guard
            unmodeled.append(("shared", "ld"))
        expect = expected_counters(accesses, unmodeled)
        if distinct and not uniform and self._loop_addresses_distinct(t, loads):
            # a lane-dependent loop: instructions follow the unrolling; bytes do not, as long as
            # no instruction can meet one address twice, whichever iterations it groups
            expect[m.BYTES_GLOBAL_LD] = width * int(sum(on.sum() for _, on in loads))
            extra_loads = [a for a in extra if (a.space, a.op) == ("global", "ld")]
            if extra_loads:
                expect[m.BYTES_GLOBAL_LD] += expected_counters(extra_loads)[m.BYTES_GLOBAL_LD]
        return expect

    def extra_accesses(self, t: Threads, env: dict) -> list[Access]:
        """Memory instructions beyond the loads, the shared stage and the store (fuzz2)."""
        return []

    def extra_unmodeled(self) -> list[tuple[str, str]]:
        return []

    def _loop_addresses_distinct(self, t: Threads, loads) -> bool:
        per_load = len(self.loads)
        return all(addresses_distinct([byte_offsets(t, idx, 1, on) for idx, on in loads[j::per_load]])
                   for j in range(per_load))


def _all_distinct(arrays: list[np.ndarray]) -> bool:
    """No two loads read the same addresses: equal ones the compiler may or may not merge."""
    return all(not np.array_equal(a, b) for i, a in enumerate(arrays) for b in arrays[i + 1:])


def _guarded(lines: list[str], guard: int | None) -> list[str]:
    if guard is None:
        return ["  " + line for line in lines]
    return ["  if (gid < n) {", *("    " + line for line in lines), "  }"]


# ---------------------------------------------------------------------------------------------
# The grammar

class Grammar:
    """Draws the parts of one program from a numpy Generator."""

    def __init__(self, rng: np.random.Generator, block: tuple[int, int], grid: tuple[int, int]):
        self.rng, self.block, self.grid = rng, block, grid
        self.block_size = block[0] * block[1]
        self.width = grid[0] * block[0]  # threads across the launch in x
        self.height = grid[1] * block[1]

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def gx(self) -> Expr:
        return add(mul(self.block[0], Var("bx")), Var("tx"))

    def gy(self) -> Expr:
        return add(mul(self.block[1], Var("by")), Var("ty"))

    def global_index(self) -> Expr:
        """A global element index built from the thread and block coordinates."""
        form = self.pick(["linear", "linear", "affine", "mod", "div", "xor", "rows", "columns"])
        stride, offset = self.pick(STRIDES), self.pick(OFFSETS)
        if form == "linear":
            return add(mul(stride, Var("gid")), Const(offset))
        if form == "affine":
            return add(mul(self.pick([0, 1, 2, 4, 33]), Var("tx")),
                       mul(self.pick([0, 1, self.block[0], 32]), Var("ty")),
                       mul(self.pick([0, 1, self.block_size, 2 * self.block_size]), Var("bx")),
                       mul(self.pick([0, self.width]), Var("by")), Const(offset))
        if form == "mod":
            return add(mul(stride, Op("%", Var("gid"), Const(self.pick([7, 32, 64, 100, 1000])))), Const(offset))
        if form == "div":
            return add(mul(stride, Op("/", Var("gid"), Const(self.pick([2, 3, 4, 8, 32])))), Const(offset))
        if form == "xor":
            swizzle = mul(self.pick([1, 2, 8, 32]), Op("&", Var(self.pick(["ty", "bx", "lt"])), Const(self.pick([1, 3, 7, 31]))))
            return add(mul(stride, Op("^", Var("gid"), swizzle)), Const(offset))
        if form == "rows":
            return add(mul(self.width * stride, self.gy()), mul(stride, self.gx()), Const(offset))
        return add(mul(self.height, self.gx()), self.gy(), Const(offset))

    def loop_term(self) -> Expr:
        return mul(self.pick([1, 2, 32, 33, self.width]), Var("k"))

    def trip(self) -> Expr:
        form = self.pick(["const", "lane", "lane", "masked"])
        if form == "const":
            return Const(self.pick([2, 3, 4]))
        if form == "lane":
            return add(Op("%", Var("tx"), Const(self.pick([3, 4, 7, 8]))), Const(self.pick([0, 1])))
        return add(Op("&", Var("lt"), Const(3)), Const(1))

    def shared_store(self) -> Expr:
        """A shared index that is one-to-one over the block (every thread stores)."""
        bx, by = self.block
        form = self.pick(["strided", "strided", "rows", "columns", "xor"])
        if form == "strided":
            return mul(self.pick([1, 2, 3, 4, 8, 16, 17, 32, 33]), Var("lt"))
        if form == "rows":
            return add(mul(bx + self.pick([0, 0, 1, 2, 4]), Var("ty")), Var("tx"))
        if form == "columns":
            return add(mul(by + self.pick([0, 0, 1, 2, 4]), Var("tx")), Var("ty"))
        return Op("^", Var("lt"), Const(self.pick([1, 3, 16, 31])))

    def shared_load(self) -> Expr:
        form = self.pick(["same", "store-like", "broadcast", "groups", "modular", "rotate"])
        if form == "store-like":
            return self.shared_store()
        if form == "broadcast":
            return self.pick([Const(self.pick([0, 5])), Var("ty"), Var("tx")])
        if form == "groups":
            return mul(self.pick([1, 2, 32]), Op("/", Var("lt"), Const(self.pick([2, 4, 16, 32]))))
        if form == "modular":
            return mul(self.pick([1, 2, 4, 8, 33]), Op("%", Var("lt"), Const(self.pick([4, 8, 32]))))
        if form == "rotate":
            return Op("%", add(Var("lt"), Const(self.pick([1, 5, 31]))), Const(self.block_size))
        return None  # the caller reuses the store index


def _geometry(rng: np.random.Generator) -> tuple[tuple[int, int], tuple[int, int]]:
    if rng.random() < 0.5:
        block = (BLOCKS_1D[int(rng.integers(len(BLOCKS_1D)))], 1)
        blocks = int(rng.integers(1, MAX_THREADS // block[0] + 1))
        return block, (blocks, 1)
    block = BLOCKS_2D[int(rng.integers(len(BLOCKS_2D)))]
    budget = MAX_THREADS // (block[0] * block[1])
    gx = int(rng.integers(1, min(budget, 16) + 1))
    return block, (gx, int(rng.integers(1, budget // gx + 1)))


def program(seed: int, i: int) -> Program:
    """Program i of `seed`: drawn from its own generator, so it does not depend on the others."""
    rng = np.random.default_rng([seed, i])
    prog, g = _draw(rng, f"fuzz_s{seed}_{i:04d}", Program)
    if g.chance(0.4):
        prog.shared = _shared_stage(g, width_of(prog.ctype))
    _fit_buffers(prog, g)
    return prog


def _draw(rng: np.random.Generator, name: str, cls: type) -> tuple[Program, "Grammar"]:
    """Geometry, type, guard, loop, loads and store of one program (the draws' order is part of
    the recorded fuzz cases: keep it)."""
    block, grid = _geometry(rng)
    g = Grammar(rng, block, grid)
    ctype = TYPES[int(rng.choice(len(TYPES), p=TYPE_WEIGHTS))]
    total = block[0] * block[1] * grid[0] * grid[1]
    guard = int(rng.integers(max(1, total - total // 3), total + 1)) if g.chance(0.5) else None
    trip = g.trip() if g.chance(0.35) else None
    loads = [g.global_index() for _ in range(2 if g.chance(0.3) else 1)]
    if trip is not None:
        loads = [add(e, g.loop_term()) for e in loads]
    prog = cls(name=name, ctype=ctype, block=block, grid=grid, guard=guard,
               loads=loads, store=g.global_index(), trip=trip)
    return prog, g


def _shared_stage(g: Grammar, width: int) -> tuple[Expr, Expr]:
    """Store and load indices whose array fits in 48 KB (falling back to s[lt])."""
    lt = Var("lt")
    env = {"tx": np.arange(g.block_size) % g.block[0], "ty": np.arange(g.block_size) // g.block[0],
           "lt": np.arange(g.block_size)}
    for _ in range(8):
        store = g.shared_store()
        load = g.shared_load() or store
        extent = int(max(store.values(env).max(), np.broadcast_to(load.values(env), env["lt"].shape).max())) + 1
        if extent * width <= MAX_SHARED_BYTES:
            return store, load
    return lt, lt


def _fit_buffers(prog: Program, g: Grammar) -> None:
    """Size the buffers to the indices; wrap loads and redraw stores that would not fit."""
    env = prog.env(prog.threads)
    width = width_of(prog.ctype)
    cap = MAX_BUFFER_BYTES // width
    loads = prog.load_indices(env)
    if max(int(idx[on].max(initial=0)) for idx, on in loads) >= cap:
        prog.loads = [Op("%", e, Const(cap)) for e in prog.loads]
        loads = prog.load_indices(env)
    prog.store = _one_to_one_store(prog, g, env, cap)
    active = prog.active(env)
    store = np.broadcast_to(prog.store.values(env), active.shape)[active]
    prog.extents = {"in": max(int(idx[on].max(initial=0)) for idx, on in loads) + 1,
                    "out": int(store.max()) + 1}
    if prog.shared is not None:
        prog.extents["shared"] = max(int(np.max(e.values(env))) for e in prog.shared) + 1


def _one_to_one_store(prog: Program, g: Grammar, env: dict, cap: int) -> Expr:
    """The drawn store index if it is one-to-one over the active threads and fits, else gid."""
    active = prog.active(env)
    for candidate in (prog.store, g.global_index(), g.global_index()):
        try:
            values = np.broadcast_to(candidate.values(env), active.shape)[active]
        except OverflowError:
            continue
        if values.max() < cap and len(np.unique(values)) == len(values):
            return candidate
    return Var("gid")


def programs(n: int, seed: int) -> list[Program]:
    return [program(seed, i) for i in range(n)]


def generate(n: int, seed: int) -> list[Case]:
    """`n` random kernel launches, the same for the same seed (case i depends on seed and i only)."""
    return [p.case() for p in programs(n, seed)]


# ---------------------------------------------------------------------------------------------
# fuzz2: the same kernels plus warp shuffles and votes, atomics, double arithmetic and local
# arrays indexed at run time.
#
# Every kernel also keeps an int `acc` that the features feed and stores it one-to-one
# (aux[gid] = acc), so none of them is dead code. What keeps the counters deterministic:
# - shuffles and votes with the full mask run at the top level of kernels whose blocks are
#   whole warps (every lane exists and is converged); partial masks only inside
#   `if ((lt & 31) < 16)` with mask 0xffff and sources among those 16 lanes;
# - the shuffles and votes that feed load indices ("lets") are evaluated here lane by lane
#   (Shfl, Vote), so the expected counters still follow; deltas past the warp (the PTX takes
#   their low 5 bits) and float/double shuffles feed `acc` only;
# - atomics' return values feed nothing but `acc` through order-free tests (`>= 0`); each
#   atomic statement has its own region of its buffer, float/double adds are of dyadic
#   constants (exact in any order), and the atomicCAS loop and the shared float add (a CAS
#   loop in SASS) use one address per thread, so no retry depends on timing.

FULL_MASK = "0xffffffffu"
FUZZ2_PREFIX = "fuzz2"
SHFL_FUNCTIONS = {"sync": "__shfl_sync", "up": "__shfl_up_sync", "down": "__shfl_down_sync",
                  "xor": "__shfl_xor_sync"}


def _warp_lanes(values: np.ndarray, env: dict) -> np.ndarray:
    """Broadcast to (blocks, threads) and split the threads into warps: (blocks, warps, 32)."""
    shape = np.broadcast(env["gid"], env["tx"]).shape
    full = np.broadcast_to(values, shape)
    return full.reshape(shape[0], shape[1] // 32, 32)


@dataclass(frozen=True)
class Shfl(Expr):
    """A full-mask __shfl*_sync of an int expression, with CUDA's segment (width) rules."""

    kind: str  # sync | up | down | xor
    value: Expr
    lane: int  # source lane (sync) or delta
    width: int = 32

    def c(self) -> str:
        width = "" if self.width == 32 else f", {self.width}"
        return f"{SHFL_FUNCTIONS[self.kind]}({FULL_MASK}, {self.value.c()}, {self.lane}{width})"

    def eval(self, env):
        values = _warp_lanes(self.value.values(env), env)
        lane = np.arange(32)
        base = lane & ~(self.width - 1)
        d = self.lane & 31  # the PTX uses the low 5 bits
        if self.kind == "sync":
            source = base + (d % self.width)
        elif self.kind == "up":
            source = np.where(lane - d >= base, lane - d, lane)
        elif self.kind == "down":
            source = np.where(lane + d < base + self.width, lane + d, lane)
        else:
            source = np.where((lane ^ d) < base + self.width, lane ^ d, lane)
        return values[..., source].reshape(values.shape[0], -1)


@dataclass(frozen=True)
class Vote(Expr):
    """A full-mask vote on `left < right`: popc of the ballot, any or all (as 0/1)."""

    kind: str  # popc | any | all
    left: Expr
    right: Expr

    def c(self) -> str:
        pred = f"{self.left.c()} < {self.right.c()}"
        if self.kind == "popc":
            return f"__popc(__ballot_sync({FULL_MASK}, {pred}))"
        return f"(__{self.kind}_sync({FULL_MASK}, {pred}) != 0)"

    def eval(self, env):
        pred = _warp_lanes(self.left.values(env) < self.right.values(env), env)
        if self.kind == "popc":
            out = pred.sum(axis=-1, keepdims=True)
        elif self.kind == "any":
            out = pred.any(axis=-1, keepdims=True)
        else:
            out = pred.all(axis=-1, keepdims=True)
        out = np.broadcast_to(out.astype(np.int64), pred.shape)
        return out.reshape(pred.shape[0], -1)


@dataclass
class Atomic:
    """One atomic statement on a region [offset, offset + size) of its buffer."""

    kind: str
    space: str  # global | shared
    index: str  # C index within the region
    offset: int = 0
    size: int = 1

    def c(self) -> str:
        at = f"{self.index}" if not self.offset else f"{self.offset} + {self.index}"
        return {
            "add_int": f"atomicAdd(&ia[{at}], 1);",
            "add_int_ret": f"acc += atomicAdd(&ia[{at}], 1) >= 0;",
            "max_int": f"atomicMax(&ia[{at}], gid);",
            "exch_int": f"acc += atomicExch(&ia[{at}], 7) != 12345;",
            "add_float": f"atomicAdd(&fa[{at}], 0.25f);",
            "add_double": f"atomicAdd(&da[{at}], 0.5);",
            "cas_loop": (f"{{ int* p = &ia[{at}]; int old = *p, assumed; "
                         "do { assumed = old; old = atomicCAS(p, assumed, assumed + gid + 1); } "
                         "while (assumed != old); acc += old >= 0; }"),
            "add_int_shared": f"atomicAdd(&sa[{self.index}], 1);",
            "max_int_shared": f"atomicMax(&sa[{self.index}], gid);",
            "add_float_shared": "acc += atomicAdd(&sf[lt], 0.5f) >= 0.0f;",
        }[self.kind]


GLOBAL_ATOMICS = ["add_int", "add_int_ret", "max_int", "exch_int", "add_float", "add_double", "cas_loop"]
ATOMIC_MODULI = [1, 2, 32, 64, 1000]


@dataclass
class Program2(Program):
    """A fuzz2 kernel: Program's loads, shared stage and store, plus warp, atomic, double and
    local-array features (see the section comment)."""

    lets: list[tuple[str, Expr]] = field(default_factory=list)  # hoisted; may feed load indices
    top: list[str] = field(default_factory=list)  # value-only statements at the top level
    atomics: list[Atomic] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)  # double and local-array statements
    features: list[str] = field(default_factory=list)

    def env(self, t: Threads) -> dict:
        env = super().env(t)
        for name, expr in self.lets:
            env[name] = expr.values(env)
        return env

    @property
    def shared_atomics(self) -> bool:
        return any(a.space == "shared" for a in self.atomics)

    def region(self, buffer: str) -> int:
        """Elements of ia / fa / da the atomics use (at least 1)."""
        kinds = {"ia": ("add_int", "add_int_ret", "max_int", "exch_int", "cas_loop"),
                 "fa": ("add_float",), "da": ("add_double",)}[buffer]
        return max([a.offset + a.size for a in self.atomics if a.kind in kinds], default=1)

    def source(self) -> str:
        ctype, bsize = self.ctype, self.block[0] * self.block[1]
        body = ["  int acc = 0;"]
        body += [f"  const int {name} = {expr.c()};" for name, expr in self.lets]
        body += ["  " + line for line in self.top]
        if self.shared_atomics:
            body += ["  __shared__ int sa[32];", f"  __shared__ float sf[{bsize}];",
                     "  if (lt < 32) sa[lt] = 0;", "  sf[lt] = 0.0f;", "  __syncthreads();"]
        body.append(f"  {ctype} v = {ctype}{{}};")
        loads = " + ".join(f"in[{e.c()}]" for e in self.loads)
        if self.trip is None:
            inner = [f"v = v + {loads};"]
        else:
            inner = [f"for (int k = 0; k < {self.trip.c()}; k++) {{", f"  v = v + {loads};", "}"]
        body += _guarded(inner + [a.c() for a in self.atomics], self.guard)
        if self.shared_atomics:
            body += ["  __syncthreads();", "  acc += sa[lt & 31] + (int)sf[lt];"]
        if self.shared is not None:
            store, load = self.shared
            body += [f"  __shared__ {ctype} s[{self.extents['shared']}];",
                     f"  s[{store.c()}] = v;", "  __syncthreads();", f"  v = v + s[{load.c()}];"]
        body += ["  " + line for line in self.tail]
        body += _guarded([f"out[{self.store.c()}] = v;"], self.guard)
        body.append("  aux[gid] = acc;")
        return PRELUDE + "\n".join([
            f'extern "C" __global__ void k_{self.name}(const {ctype}* in, {ctype}* out, int n, '
            "int* aux, int* ia, float* fa, double* da) {",
            "  const int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;",
            "  const int lt = ty * blockDim.x + tx;",
            "  const int gid = (by * gridDim.x + bx) * (blockDim.x * blockDim.y) + lt;",
            *body, "}", ""])

    def case(self) -> Case:
        case = super().case()
        total = self.block[0] * self.block[1] * self.grid[0] * self.grid[1]
        case.spec = case.spec.model_copy(update={"args": case.spec.args + [
            _arg(f"int32[{total}]:zeros"), _arg(f"int32[{self.region('ia')}]:zeros"),
            _arg(f"float32[{self.region('fa')}]:zeros"), _arg(f"float64[{self.region('da')}]:zeros")]})
        return case

    def tags(self) -> list[str]:
        return [FUZZ2_PREFIX] + super().tags() + self.features

    def extra_accesses(self, t: Threads, env: dict) -> list[Access]:
        full = np.ones(t.shape, dtype=bool)
        gid = np.broadcast_to(env["gid"], t.shape)
        accesses = [Access("global", "st", 4, byte_offsets(t, gid, 4, full))]
        for a in self.atomics:
            if a.kind == "cas_loop":  # its first read, `old = *p`, one address per thread
                accesses.append(Access("global", "ld", 4, byte_offsets(t, a.offset + gid, 4, self.active(env))))
        return accesses

    def extra_unmodeled(self) -> list[tuple[str, str]]:
        unmodeled = []
        if any(a.space == "global" for a in self.atomics):
            unmodeled.append(("global", "atom"))
        if any(a.kind == "cas_loop" for a in self.atomics) or self.shared_atomics:
            # A CAS loop's YIELD lets the lanes its guard left out pass the region's BSYNC
            # alone, so a partial warp may store in two requests (docs/exactness.md, "YIELD").
            unmodeled.append(("global", "st"))
        if self.shared_atomics:  # the counters' init and read-back are not described
            unmodeled += [("shared", "atom"), ("shared", "st"), ("shared", "ld")]
        if "local" in self.features:
            unmodeled += [("local", "ld"), ("local", "st")]
        return unmodeled


def _arg(text: str) -> ArgSpec:
    return ArgSpec.parse(text)


def _let(g: Grammar) -> Expr:
    """A shuffle or vote with a known value per lane, fit to feed a load index."""
    kind = g.pick(["xor", "sync", "up", "down", "popc", "any", "all"])
    value = Var(g.pick(["gid", "lt"]))
    if kind == "xor":
        return Shfl("xor", value, g.pick([1, 2, 5, 16, 31]))
    if kind == "sync":
        width = g.pick([32, 32, 16, 8])
        return Shfl("sync", value, g.pick([0, 3, 7, 31]), width)
    if kind in ("up", "down"):
        width = g.pick([32, 32, 16, 8])
        return Shfl(kind, value, g.pick([1, 3, 4, 7, 16, 31]) % width or 1, width)
    left = Op("%", Var("gid"), Const(g.pick([2, 3, 7, 64])))
    return Vote(kind, left, Const(g.pick([1, 2, 5])))


def _warp_values(g: Grammar) -> list[str]:
    """Value-only warp statements (top level, full warps)."""
    options = [
        f"acc += __shfl_down_sync({FULL_MASK}, acc + lt, {g.pick([32, 33, 40, 63])});",  # past the warp
        f"acc += __shfl_up_sync({FULL_MASK}, gid, {g.pick([33, 48])});",
        f"acc += (int)__shfl_xor_sync({FULL_MASK}, (float)lt * 0.5f, {g.pick([1, 4, 17])});",
        f"acc += (int)__shfl_down_sync({FULL_MASK}, (double)gid * 0.25, {g.pick([1, 8, 31])});",
        f"acc += (int)__shfl_sync({FULL_MASK}, (double)lt, {g.pick([0, 9, 40])});",
        "acc += __popc(__activemask());",
        f"acc += __popc(__ballot_sync({FULL_MASK}, (lt & {g.pick([1, 3, 7])}) == 1));",
        f"acc += __all_sync({FULL_MASK}, gid >= 0) + __any_sync({FULL_MASK}, lt == {g.pick([0, 5, 31])});",
        f"acc += __clz(__ballot_sync({FULL_MASK}, (gid % {g.pick([3, 5, 33])}) == 2));",
    ]
    return [g.pick(options) for _ in range(int(g.rng.integers(1, 4)))]


def _partial_mask(g: Grammar) -> list[str]:
    """Shuffles and a ballot among lanes 0-15 only, with mask 0xffff."""
    options = [
        f"acc += __shfl_xor_sync(0xffffu, lt, {g.pick([1, 2, 4, 8])});",
        f"acc += __shfl_down_sync(0xffffu, gid, {g.pick([1, 3, 15])}, 16);",
        f"acc += __shfl_up_sync(0xffffu, gid, {g.pick([1, 2, 9])}, 16);",
        f"acc += __shfl_sync(0xffffu, gid, {g.pick([0, 5, 15])}, 16);",
        "acc += __popc(__ballot_sync(0xffffu, lt & 1));",
    ]
    chosen = [g.pick(options) for _ in range(int(g.rng.integers(1, 3)))]
    return ["if ((lt & 31) < 16) {", *("  " + s for s in chosen), "}"]


def _atomics(g: Grammar, total: int) -> list[Atomic]:
    out: list[Atomic] = []
    offsets = {"ia": 0, "fa": 0, "da": 0}
    buffer = {"add_float": "fa", "add_double": "da"}
    for _ in range(int(g.rng.integers(1, 4))):
        kind = g.pick(GLOBAL_ATOMICS)
        if kind == "cas_loop":
            atomic = Atomic(kind, "global", "gid", size=total)
        else:
            m = g.pick(ATOMIC_MODULI)
            index = g.pick([f"(gid % {m})", f"((gid / 32) % {m})", f"((lt * 33) % {m})"])
            atomic = Atomic(kind, "global", index, size=m)
        b = buffer.get(kind, "ia")
        atomic.offset = offsets[b]
        offsets[b] += -(-atomic.size // 8) * 8  # regions start on 32-byte sectors
        out.append(atomic)
    if g.chance(0.4):
        kind = g.pick(["add_int_shared", "max_int_shared"])
        out.append(Atomic(kind, "shared", f"(lt % {g.pick([1, 2, 16, 32])})"))
        if g.chance(0.5):
            out.append(Atomic("add_float_shared", "shared", "lt"))
    return out


def _doubles(g: Grammar) -> list[str]:
    return [
        f"double dd = (double)gid * {g.pick(['0.75', '1.5', '3.0'])} + (double)lt;",  # int -> double
        "dd = dd * dd - 3.0 * dd + (double)(acc & 1023);",
        "float ff = (float)dd;",                                                   # double -> float
        "double de = (double)ff * 0.5 + (double)(ff - (float)lt);",               # float -> double
        "acc += (int)(de / 7.0) % 1000 + (int)(dd > 0.0 ? dd : -dd) % 13;",        # double -> int
        "acc += (int)((unsigned long long)(dd * dd < 0.0 ? 0.0 : de) % 17ull);",
    ]


def _local_array(g: Grammar) -> list[str]:
    size = g.pick([4, 8, 16])
    ctype = g.pick(["int", "float", "double"])
    read = g.pick([f"lt % {size}", f"(gid >> 2) & {size - 1}", f"(lt + n) % {size}", f"(acc & {size - 1})"])
    lines = [f"{ctype} loc[{size}];",
             f"for (int j = 0; j < {size}; j++) loc[j] = ({ctype})((gid ^ (j * 7)) + j);"]
    if g.chance(0.5):
        lines.append(f"loc[(lt + {g.pick([1, 3])}) % {size}] = ({ctype})acc;")  # a store at a runtime index
    lines.append(f"acc += (int)loc[{read}];")
    return lines


def program2(seed: int, i: int) -> Program2:
    """fuzz2 program i of `seed` (independent of the others and of fuzz's)."""
    rng = np.random.default_rng([seed, i, 2])
    prog, g = _draw(rng, f"{FUZZ2_PREFIX}_s{seed}_{i:04d}", Program2)
    whole_warps = (prog.block[0] * prog.block[1]) % 32 == 0
    total = prog.block[0] * prog.block[1] * prog.grid[0] * prog.grid[1]
    if whole_warps and g.chance(0.5):
        prog.lets = [(f"w{j}", _let(g)) for j in range(int(g.rng.integers(1, 3)))]
        prog.loads[0] = add(prog.loads[0], mul(g.pick([1, 2, 32]), Var(prog.lets[0][0])))
        prog.features.append("shuffle" if any(isinstance(e, Shfl) for _, e in prog.lets) else "vote")
    if whole_warps and g.chance(0.6):
        prog.top += _warp_values(g)
        prog.features.append("warp")
    if whole_warps and g.chance(0.3):
        prog.top += _partial_mask(g)
        prog.features.append("partial-mask")
    if g.chance(0.6):
        prog.atomics = _atomics(g, total)
        prog.features.append("atomic")
    if g.chance(0.4):
        prog.tail += _doubles(g)
        prog.features.append("double")
    if g.chance(0.4):
        prog.tail += _local_array(g)
        prog.features.append("local")
    if g.chance(0.3):
        prog.shared = _shared_stage(g, width_of(prog.ctype))
    _fit_buffers(prog, g)
    return prog


FUZZ2_N, FUZZ2_SEED = 150, 2


def programs2(n: int = FUZZ2_N, seed: int = FUZZ2_SEED) -> list[Program2]:
    return [program2(seed, i) for i in range(n)]


def generate2(n: int = FUZZ2_N, seed: int = FUZZ2_SEED) -> list[Case]:
    """The fuzz2 set: `n` kernels with warp, atomic, double and local-array features."""
    return [p.case() for p in programs2(n, seed)]
