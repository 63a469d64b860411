"""What both fuzzers share: a generated kernel (`Program`), the grammar its parts are drawn from,
and the drawing, fitting and expectation steps (validate/fuzz_cases.py and validate/fuzz2_cases.py
are the two sets built on them).

Each kernel is drawn from a small grammar: an element type (char to float4), a 1-D or 2-D block
(partial warps included), one or two global loads whose index is an affine, modular, divided or
xor-swizzled expression of the thread and block coordinates, optionally inside a loop whose trip
count may depend on the lane, an optional shared-memory stage (every thread stores at a
one-to-one index, `__syncthreads()`, then reads a strided, padded, transposed or broadcast one),
an optional `if (gid < n)` guard, and one global store. Every index is evaluated here with
numpy over all threads (and loop iterations), so buffers are sized to the largest index and no
access can leave its buffer; the store index is one-to-one over the active threads, so results do
not depend on thread order. Case i depends only on (seed, i). Where a kernel's counters follow
from first principles (validate/expected_counters.py), the case carries them in `expect`; what
the compiler is free to change is left out (NVRTC sinks a guarded kernel's shared load under the
guard; equal loads may be merged; a lane-dependent loop's instruction counts follow its
unrolling).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from memsim import metrics as m
from memsim.launch import LaunchSpec

from .case import Case, buffer_arg, width_of
from .expected_counters import (Access, Threads, addresses_distinct, byte_offsets, expected_counters,
                                launch_threads)
from .fuzz_expressions import Const, Expr, Op, Var, add, mul

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
        body += guarded(inner, self.guard)
        if self.shared is not None:
            store, load = self.shared
            body += [f"  __shared__ {ctype} s[{self.extents['shared']}];",
                     f"  s[{store.c()}] = v;", "  __syncthreads();", f"  v = v + s[{load.c()}];"]
        body += guarded([f"out[{self.store.c()}] = v;"], self.guard)
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


def guarded(lines: list[str], guard: int | None) -> list[str]:
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


def draw(rng: np.random.Generator, name: str, cls: type) -> tuple[Program, "Grammar"]:
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


def shared_stage(g: Grammar, width: int) -> tuple[Expr, Expr]:
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


def fit_buffers(prog: Program, g: Grammar) -> None:
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
