"""The fuzz2 set: the fuzz kernels (validate/fuzz_programs.py) plus warp shuffles and votes,
atomics, double arithmetic and local arrays indexed at run time.

    from validate.fuzz2_cases import generate2
    more = generate2()                     # fuzz2_s2_0000 ... fuzz2_s2_0149

Every kernel also keeps an int `acc` that the features feed and stores it one-to-one
(aux[gid] = acc), so none of them is dead code. What keeps the counters deterministic:
- shuffles and votes with the full mask run at the top level of kernels whose blocks are
  whole warps (every lane exists and is converged); partial masks only inside
  `if ((lt & 31) < 16)` with mask 0xffff and sources among those 16 lanes;
- the shuffles and votes that feed load indices ("lets") are evaluated here lane by lane
  (Shfl, Vote), so the expected counters still follow; deltas past the warp (the PTX takes
  their low 5 bits) and float/double shuffles feed `acc` only;
- atomics' return values feed nothing but `acc` through order-free tests (`>= 0`); each
  atomic statement has its own region of its buffer, float/double adds are of dyadic
  constants (exact in any order), and the atomicCAS loop and the shared float add (a CAS
  loop in SASS) use one address per thread, so no retry depends on timing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from memsim.launch import ArgSpec

from .case import Case, width_of
from .expected_counters import Access, Threads, byte_offsets
from .fuzz_expressions import Const, Expr, Op, Var, add, mul
from .fuzz_programs import PRELUDE, Grammar, Program, draw, fit_buffers, guarded, shared_stage

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
        body += guarded(inner + [a.c() for a in self.atomics], self.guard)
        if self.shared_atomics:
            body += ["  __syncthreads();", "  acc += sa[lt & 31] + (int)sf[lt];"]
        if self.shared is not None:
            store, load = self.shared
            body += [f"  __shared__ {ctype} s[{self.extents['shared']}];",
                     f"  s[{store.c()}] = v;", "  __syncthreads();", f"  v = v + s[{load.c()}];"]
        body += ["  " + line for line in self.tail]
        body += guarded([f"out[{self.store.c()}] = v;"], self.guard)
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
    prog, g = draw(rng, f"{FUZZ2_PREFIX}_s{seed}_{i:04d}", Program2)
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
        prog.shared = shared_stage(g, width_of(prog.ctype))
    fit_buffers(prog, g)
    return prog


FUZZ2_N, FUZZ2_SEED = 150, 2


def programs2(n: int = FUZZ2_N, seed: int = FUZZ2_SEED) -> list[Program2]:
    return [program2(seed, i) for i in range(n)]


def generate2(n: int = FUZZ2_N, seed: int = FUZZ2_SEED) -> list[Case]:
    """The fuzz2 set: `n` kernels with warp, atomic, double and local-array features."""
    return [p.case() for p in programs2(n, seed)]
