"""SASS stage: parser, opcode semantics, reconvergence and H100 counts (memsim/engine/sass/).

Runs without nvdisasm: listings are either written here or stored in tests/golden/sass/ (made
with `nvdisasm -c -g` from the cubin NVRTC 13.0.88 builds with CuPy's flags)."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from memsim.engine.count import C_EXEC, C_REQUESTS
from memsim.engine.sass.compile import find_nvdisasm
from memsim.engine.sass.parser import parse
from memsim.engine.sass.program import lower
from memsim.errors import UnsupportedInstruction
from tests.helpers import GOLDEN as GOLDEN_ROOT
from tests.helpers.sass_listing import STORE, listing, run

GOLDEN = GOLDEN_ROOT / "sass"


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


SEMANTICS = [
    # 64-bit subtraction whose low word is 0: the carry must come through the -x = ~x + 1 chain
    ("iadd3 carry of -0", ["MOV R6, 0x5", "MOV R7, RZ", "MOV R8, 0x7", "MOV R9, 0x2",
                           "IADD3 R10, P0, R6, -R7, RZ", "IADD3.X R5, R8, ~R9, RZ, P0, !PT"], 5),
    # a - b - c in 64 bits: the two carries must add up to the low sum's carry count (2 here)
    ("iadd3 two carries, no borrow", ["MOV R6, 0x1000", "MOV R7, 0x7", "MOV R8, 0x100", "MOV R9, 0x200",
                                      "IADD3 R10, P0, P1, R6, -R8, -R9",
                                      "IADD3.X R5, R7, ~RZ, ~RZ, P0, P1"], 0x7),
    ("iadd3 two carries, one borrow", ["MOV R6, 0x100", "MOV R7, 0x7", "MOV R8, 0x200", "MOV R9, RZ",
                                       "IADD3 R10, P0, P1, R6, -R8, -R9",
                                       "IADD3.X R5, R7, ~RZ, ~RZ, P0, P1"], 0x6),
    ("lea.hi.x.sx32 negative index", ["MOV R6, 0xfffffffe", "MOV R7, 0x10", "LEA R8, P0, R6, R7, 0x2",
                                      "LEA.HI.X.SX32 R5, R6, RZ, 0x2, P0"], 0),
    ("lea.hi", ["MOV R6, 0xf0000001", "MOV R7, 0x3", "LEA.HI R5, R6, R7, RZ, 0x3"], 0x3 + 0x7),
    ("isetp.ex low decides", ["MOV R5, RZ", "MOV R6, 0x1", "MOV R7, 0x2",
                              "ISETP.GE.U32.AND P0, PT, R6, R7, PT",
                              "ISETP.GE.U32.AND.EX P0, PT, RZ, RZ, PT, P0", "@P0 MOV R5, 0x1"], 0),
    ("isetp.ex high decides", ["MOV R5, RZ", "MOV R6, 0x1", "MOV R7, 0x2", "MOV R8, 0x1",
                               "ISETP.GE.U32.AND P0, PT, R6, R7, PT",
                               "ISETP.GE.AND.EX P0, PT, R8, RZ, PT, P0", "@P0 MOV R5, 0x1"], 1),
    ("isetp signed or", ["MOV R5, RZ", "MOV R6, 0xffffffff", "ISETP.LT.OR P0, PT, R6, RZ, !PT",
                         "@P0 MOV R5, 0x1"], 1),
    ("lop3 xor3", ["MOV R6, 0xff00ff00", "MOV R7, 0x0ff00ff0", "MOV R8, 0x12345678",
                   "LOP3.LUT R5, R6, R7, R8, 0x96, !PT"], 0xFF00FF00 ^ 0x0FF00FF0 ^ 0x12345678),
    ("lop3 predicate out", ["MOV R5, RZ", "MOV R6, 0x4", "LOP3.LUT P0, RZ, R6, 0x4, RZ, 0xc0, !PT",
                            "@P0 MOV R5, 0x9"], 9),
    ("shf.r.s32.hi sign", ["MOV R6, 0x80000000", "SHF.R.S32.HI R5, RZ, 0x1f, R6"], 0xFFFFFFFF),
    # (1 + 2^-52)(1 + 2^-51) = 1 + 3 * 2^-52 + 2^-103: the low word 3 to nearest or down, 4 up (ptxas'
    # double division and square root use DMUL.RP and DFMA.RM)
    ("dmul.rp rounds up", ["MOV R6, 0x1", "MOV R7, 0x3ff00000", "MOV R8, 0x2", "MOV R9, 0x3ff00000",
                           "DMUL.RP R10, R6, R8", "MOV R5, R10"], 4),
    ("dmul.rm rounds down", ["MOV R6, 0x1", "MOV R7, 0x3ff00000", "MOV R8, 0x2", "MOV R9, 0x3ff00000",
                             "DMUL.RM R10, R6, R8", "MOV R5, R10"], 3),
    # -(1 + 2^-52) - 2^-60 rounded down (away from zero): the low word 2
    ("dadd.rm rounds down", ["MOV R6, 0x1", "MOV R7, 0x3ff00000", "MOV R8, RZ", "MOV R9, 0x3c300000",
                             "DADD.RM R10, -R6, -R8", "MOV R5, R10"], 2),
    # __funnelshift_l (SHF.W) takes the shift modulo 32, __funnelshift_lc clamps it to 32
    ("shf.l.w wraps the shift", ["MOV R6, 0x80000001", "MOV R7, 0x21", "SHF.L.W.U32.HI R5, R6, R7, R6"], 3),
    ("shf.l clamps the shift", ["MOV R6, 0x80000001", "MOV R7, 0x21", "SHF.L.U32.HI R5, R6, R7, R6"],
     0x80000001),
    ("shf.l.u64.hi", ["MOV R6, 0xf0000000", "MOV R7, 0x1", "SHF.L.U64.HI R5, R6, 0x4, R7"], 0x1F),
    ("imad.wide signed", ["MOV R6, 0xfffffffd", "MOV R10, 0x100", "MOV R11, RZ",
                          "IMAD.WIDE R8, R6, 0x4, R10", "MOV R5, R8"], 0xF4),
    ("imad.wide high word", ["MOV R6, 0xfffffffd", "MOV R10, 0x100", "MOV R11, RZ",
                             "IMAD.WIDE R8, R6, 0x4, R10", "MOV R5, R9"], 0),
    ("imad.hi signed", ["MOV R6, 0xfffffffe", "MOV R7, 0x3", "IMAD.HI R5, R6, R7, RZ"], 0xFFFFFFFF),
    # the addend of IMAD.HI is a register pair: (R9 << 32 | R8) = 10 << 32: 7 * -0x6db6db6d + (10 << 32) >> 32 = 7
    ("imad.hi pair addend", ["MOV R8, RZ", "MOV R9, 0xa", "MOV R6, 0x7", "MOV R7, -0x6db6db6d",
                             "IMAD.HI R5, R6, R7, R8"], 7),
    ("imad.hi.u32", ["MOV R6, 0xfffffffe", "MOV R7, 0x3", "IMAD.HI.U32 R5, R6, R7, RZ"], 2),
    ("imad.x carry", ["MOV R6, 0xffffffff", "IADD3 R7, P0, R6, 0x1, RZ", "IMAD.X R5, RZ, RZ, 0x4, P0"], 5),
    ("i2f.u32.rp rounds up", ["MOV R6, 0x1000001", "I2F.U32.RP R5, R6"], f32(16777218.0)),
    ("i2fp.f32.s32", ["MOV R6, 0xfffffffd", "I2FP.F32.S32 R5, R6"], f32(-3.0)),
    ("f2i.u32.trunc", ["MOV R6, 0x40490fdb", "F2I.FTZ.U32.TRUNC.NTZ R5, R6"], 3),
    ("mufu.rcp", ["MOV R6, 0x40000000", "MUFU.RCP R5, R6"], f32(0.5)),
    ("ffma", ["MOV R6, 0x40000000", "MOV R7, 0x40400000", "MOV R8, 0x3f800000",
              "FFMA.FTZ R5, R6, R7, R8"], f32(7.0)),
    # FMUL.D2 / .M4: ptxas folds `x * y / 2` into the multiply (MXNet's bilinear sampler)
    ("fmul.d2 halves", ["MOV R6, 0x40400000", "MOV R7, 0x41200000", "FMUL.FTZ.D2 R5, R6, R7"], f32(15.0)),
    ("fmul.m4 quadruples", ["MOV R6, 0x40400000", "MOV R7, 0x3f000000", "FMUL.M4 R5, R6, R7"], f32(6.0)),
    # 1 + 2^-30 in float32: round to nearest gives 1, round up the next float, round down 1
    ("fadd.rp rounds up", ["MOV R6, 0x3f800000", "MOV R7, 0x30800000", "FADD.RP R5, R6, R7"],
     f32(1.0) + 1),
    ("fadd.rm rounds down", ["MOV R6, 0x3f800000", "MOV R7, 0x30800000", "FADD.RM R5, R6, R7"], f32(1.0)),
    ("fadd.rz toward zero", ["MOV R6, 0xbf800000", "MOV R7, 0xb0800000", "FADD.RZ R5, R6, R7"], f32(-1.0)),
    # (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: RN and RZ drop 2^-46, RP adds an ulp
    ("fmul.rp rounds up", ["MOV R6, 0x3f800001", "FMUL.RP R5, R6, R6"], f32(1.0) + 3),
    ("fmul.rz toward zero", ["MOV R6, 0x3f800001", "FMUL.RZ R5, R6, R6"], f32(1.0) + 2),
    ("fadd negated operand", ["MOV R6, 0x40000000", "MOV R7, 0x40400000", "FADD.FTZ R5, -R6, R7"], f32(1.0)),
    ("fadd flushes denormals", ["MOV R6, 0x00000001", "FADD.FTZ R5, R6, RZ"], 0),
    ("fsetp.geu nan", ["MOV R5, RZ", "MOV R6, 0x7fc00000", "FSETP.GEU.FTZ.AND P0, PT, R6, RZ, PT",
                       "@P0 MOV R5, 0x1"], 1),
    ("fsetp.ge nan", ["MOV R5, RZ", "MOV R6, 0x7fc00000", "FSETP.GE.FTZ.AND P0, PT, R6, RZ, PT",
                      "@P0 MOV R5, 0x1"], 0),
    ("prmt byte reverse", ["MOV R6, 0x11223344", "PRMT R5, R6, 0x123, RZ"], 0x44332211),
    ("prmt sign replicate", ["MOV R6, 0x80", "PRMT R5, R6, 0x8880, RZ"], 0xFFFFFF80),
    ("plop3", ["MOV R5, RZ", "PLOP3.LUT P0, PT, PT, PT, PT, 0x8, 0x0", "@!P0 MOV R5, 0x7"], 7),
    ("hfma2 constant", ["HFMA2.MMA R5, -RZ, RZ, 0, 1.78813934326171875e-07"], 3),
    ("hfma2 high half", ["HFMA2.MMA R5, -RZ, RZ, 1.875, 0"], 0x3F800000),
    ("iabs", ["MOV R6, 0xfffffff9", "IABS R5, R6"], 7),
    ("viadd", ["MOV R6, 0x10", "VIADD R5, R6, 0xfffffffe"], 0xE),
    ("uniform ops", ["UMOV UR6, 0x3", "UIMAD UR6, UR6, 0x5, URZ", "USHF.L.U32 UR6, UR6, 0x1, URZ",
                     "UIADD3 UR6, UR6, 0x2, URZ", "MOV R5, UR6"], 32),
    # (U)IADD3.64 adds register pairs: Triton's wgmma descriptor step (hi word 0x80000020 + 0, lo 5 + 2)
    ("uiadd3.64 negated pair, high word", ["UMOV UR6, 0x5", "UMOV UR7, URZ", "UMOV UR12, 0xfffffffe",
                                          "UMOV UR13, 0x7fffffdf", "UIADD3.64 UR12, UR6, -UR12, URZ",
                                          "MOV R5, UR13"], 0x80000020),
    ("uiadd3.64 negated pair, low word", ["UMOV UR6, 0x5", "UMOV UR7, URZ", "UMOV UR12, 0xfffffffe",
                                         "UMOV UR13, 0x7fffffdf", "UIADD3.64 UR12, UR6, -UR12, URZ",
                                         "MOV R5, UR12"], 7),
    ("iadd3.64 carries into the high word", ["MOV R6, 0xffffffff", "MOV R7, RZ", "MOV R10, 0x1", "MOV R11, RZ",
                                             "IADD3.64 R8, R6, R10, RZ", "MOV R5, R9"], 1),
    ("cs2r zeroes a pair", ["MOV R6, 0x5", "MOV R7, 0x5", "CS2R R6, SRZ", "IADD3 R5, R6, R7, RZ"], 0),
    ("dadd", ["MOV R6, RZ", "MOV R7, 0x3ff00000", "DADD R8, R6, R6", "MOV R5, R9"], 0x40000000),
    # UP2UR: the uniform predicates (UP0 and UP1 true, UP2 false) as bits, the mask's only, the
    # other bits from URb
    ("up2ur packs uniform predicates", ["UISETP.EQ.U32.AND UP0, UPT, URZ, URZ, UPT",
                                        "UISETP.EQ.U32.AND UP1, UPT, URZ, URZ, UPT",
                                        "UISETP.NE.U32.AND UP2, UPT, URZ, URZ, UPT", "UMOV UR7, 0x30",
                                        "UP2UR UR6, UPR, UR7, 0x6", "MOV R5, UR6"], 0x32),
]


@pytest.mark.parametrize("body, expected", [(b, x) for _, b, x in SEMANTICS],
                         ids=[name for name, _, _ in SEMANTICS])
def test_opcode_semantics(body, expected):
    out, _ = run(body + [STORE, "EXIT"])
    assert int(out[0]) == expected


LOAD = "LDG.E R5, desc[UR4][R2.64]"
# (body, global round trips, constant round trips) of one warp; the prologue's LDC.64 is one
# constant round trip, which a global load in flight hides.
SCOREBOARD = [
    ("a load and its store", [LOAD, STORE, "EXIT"], 1, 1),
    ("two independent loads", [LOAD, "LDG.E R6, desc[UR4][R2.64+0x4]", "IADD3 R5, R5, R6, RZ", STORE, "EXIT"], 1, 1),
    ("a gather", [LOAD, "IMAD.WIDE R6, R5, 0x4, R2", "LDG.E R5, desc[UR4][R6.64]", STORE, "EXIT"], 2, 1),
    ("three dependent loads", [LOAD, "IMAD.WIDE R6, R5, 0x4, R2", "LDG.E R5, desc[UR4][R6.64]",
                               "IMAD.WIDE R6, R5, 0x4, R2", "LDG.E R5, desc[UR4][R6.64]", STORE, "EXIT"], 3, 1),
    ("a load overwritten before use", [LOAD, "MOV R5, 0x1", STORE, "EXIT"], 1, 1),
    ("a second constant read after the first", ["LDC R6, c[0x0][RZ]", "IADD3 R6, R6, 0x1, RZ",
                                                "LDC R7, c[0x0][0x4]", "IADD3 R5, R7, R6, RZ", STORE, "EXIT"], 0, 3),
    ("in-order issue: a store waits, the next load goes later", [LOAD, STORE, "LDG.E R6, desc[UR4][R2.64+0x4]",
                                                                 "STG.E desc[UR4][R2.64], R6", "EXIT"], 2, 1),
    ("no load", ["MOV R5, 0x7", STORE, "EXIT"], 0, 1),
]


@pytest.mark.parametrize("body, trips, constant", [(b, g, c) for _, b, g, c in SCOREBOARD],
                         ids=[name for name, *_ in SCOREBOARD])
def test_the_scoreboard_counts_the_round_trips_a_warp_waits_for(body, trips, constant):
    round_trips = np.zeros(4, np.int64)
    run(body, threads=64, round_trips=round_trips)
    assert list(round_trips) == [2 * trips, 2 * constant, trips, constant]


def test_a_barrier_makes_every_warp_wait_for_the_slowest():
    """Warp 1 gathers (two round trips), warp 0 only stores; past the barrier both have waited
    for the gather."""
    body = ["ISETP.GE.U32.AND P0, PT, R4, 0x20, PT", "@!P0 BRA `(.L_x_9)", LOAD,
            "IMAD.WIDE R6, R5, 0x4, R2", "LDG.E R5, desc[UR4][R6.64]", "STG.E desc[UR4][R2.64], R5",
            ".L_x_9:", "BAR.SYNC.DEFER_BLOCKING 0x0", "MOV R5, 0x1", STORE, "EXIT"]
    round_trips = np.zeros(4, np.int64)
    run(body, threads=64, round_trips=round_trips)
    assert list(round_trips[[0, 2]]) == [4, 2]


def test_bssy_bsync_reconverge_divergent_lanes():
    """Lanes split on tid < 8; both sides store once per side; after BSYNC one store for all."""
    body = ["MOV R5, 0x1", "BSSY B0, `(.L_x_1)", "ISETP.GE.AND P0, PT, R4, 0x8, PT",
            "@P0 BRA `(.L_x_0)", "MOV R5, 0x2", STORE, "BRA `(.L_x_1)", ".L_x_0:",
            "MOV R5, 0x3", STORE, ".L_x_1:", "BSYNC B0", "LDG.E R6, desc[UR4][R2.64]",
            "IADD3 R5, R6, 0x10, RZ", STORE, "EXIT"]
    out, counters = run(body, threads=32)
    assert out.tolist() == [0x12] * 8 + [0x13] * 24
    stores = [k for k, text in enumerate(x for x in body if not x.endswith(":")) if text == STORE]
    assert [counters[k, C_EXEC] for k in stores] == [1, 1, 1]


@pytest.mark.parametrize("pause, tail_stores", [("YIELD", 2), ("NOP", 1)])
def test_yield_lets_lanes_parked_at_bsync_go_without_the_yielding_lanes(pause, tail_stores):
    """Lanes tid >= 8 skip a loop and park at BSYNC; lanes tid < 8 loop twice. A YIELD in the
    loop clears the barrier for the parked lanes (the H100's count on fuzz2 kernels with a
    guarded atomicCAS loop), so the store after BSYNC runs once per side; without it, once."""
    body = ["MOV R5, RZ", "BSSY B0, `(.L_x_1)", "ISETP.GE.AND P0, PT, R4, 0x8, PT",
            "@P0 BRA `(.L_x_1)", ".L_x_0:", "IADD3 R5, R5, 0x1, RZ", pause,
            "ISETP.LT.AND P1, PT, R5, 0x2, PT", "@P1 BRA `(.L_x_0)", ".L_x_1:", "BSYNC B0",
            STORE, "EXIT"]
    out, counters = run(body, threads=32)
    assert out.tolist() == [2] * 8 + [0] * 24
    assert counters[-2, C_EXEC] == tail_stores


def test_branch_with_a_second_predicate_needs_both():
    """`@P0 BRA P1, target` (ptxas' form of `while (a && b)`): taken only where both hold."""
    body = ["MOV R5, 0x1", "ISETP.GE.AND P0, PT, R4, 0x4, PT", "ISETP.LT.AND P1, PT, R4, 0x8, PT",
            "@P0 BRA P1, `(.L_x_0)", "MOV R5, 0x2", ".L_x_0:", STORE, "EXIT"]
    out, _ = run(body, threads=12)
    assert out.tolist() == [2] * 4 + [1] * 4 + [2] * 4


def test_predicated_off_memory_instruction_is_issued_without_a_request():
    out, counters = run(["MOV R5, 0x4", "ISETP.GE.AND P0, PT, R4, 0x40, PT", f"@P0 {STORE}", "EXIT"],
                        threads=32)
    assert counters[2, C_EXEC] == 1 and counters[2, C_REQUESTS] == 0
    assert out.tolist() == [0] * 32


def test_loop_with_break_leaves_the_convergence_barrier():
    """Lanes leave a loop at different trip counts (BREAK); the code after BSYNC runs once."""
    body = ["MOV R5, RZ", "BSSY B0, `(.L_x_2)", ".L_x_1:", "ISETP.GE.AND P0, PT, R5, R4, PT",
            "@P0 BREAK B0", "@P0 BRA `(.L_x_2)", "IADD3 R5, R5, 0x1, RZ", "BRA `(.L_x_1)",
            ".L_x_2:", "BSYNC B0", STORE, "EXIT"]
    out, counters = run(body, threads=32)
    assert out.tolist() == list(range(32))
    assert counters[-2, C_EXEC] == 1


@pytest.mark.parametrize("text, message", [
    ("FOO R1, R2", "FOO"),
    ("UTMALDG.2D.MULTICAST [UR8], [UR4], UR6", "UTMALDG.2D.MULTICAST"),   # plain tiled forms run (ops_tma)
    ("BAR.RED.XOR.DEFER_BLOCKING 0x0, P1", "BAR.RED.XOR"),
    ("DSETP.MAX.AND P0, P1, R2, R4, PT", "DSETP.MAX.AND"),   # double fmax's choice: no comparison to lower
])
def test_unknown_opcode_is_named(text, message):
    with pytest.raises(UnsupportedInstruction, match=message.replace(".", r"\.")):
        lower(parse(listing([text, "EXIT"]))["k_t"])


@pytest.mark.parametrize("text, kind", [("LDC R1, c[0x0][R2+0x10]", "const"), ("MOV R1, 32@lo(var)", "unknown"),
                                        ("MOV R1, what?", "unknown")])
def test_unusual_operands_parse_without_raising(text, kind):
    # The module must parse; only lowering the kernel that uses an unknown operand may fail.
    assert parse(listing([text]))["k_t"].instructions[0].operands[1].kind == kind


def test_parser_reads_guards_lines_labels_and_addresses():
    kernel = parse(listing(["//## File \"k.cu\", line 7", "@!UP2 BRA `(.L_x_0)",
                            "LDS.128 R4, [R7+UR4+0x10]", ".L_x_0:", "STG.E.U16 desc[UR4][R2.64+-0x8], R5",
                            "EXIT"]))["k_t"]
    bra, lds, stg, _ = kernel.instructions
    assert (bra.guard, bra.guard_negated, bra.guard_uniform, bra.target, bra.line) == (2, True, True, 2, 7)
    address = lds.operands[1]
    assert (lds.mods, address.base, address.uoffset, address.value) == (("128",), 7, 4, 0x10)
    assert (stg.operands[0].base, stg.operands[0].wide, stg.operands[0].value) == (2, True, -8)


def _golden_cases():
    return sorted(p.stem for p in GOLDEN.glob("*.sass"))


@pytest.mark.parametrize("name", _golden_cases())
def test_recorded_case_matches_the_h100(name, recorded):
    """Cases where ptxas changed the instruction stream (PTX emulation differs from the H100):
    every EXACT counter of the SASS emulation equals the recorded measurement."""
    from memsim import metrics as m
    import memsim
    from memsim.engine.sass.engine import SassEngine
    rec = recorded[name]
    spec = rec.spec
    report = memsim.simulate(spec.source, spec.kernel, spec.grid, spec.block, spec.materialize(),
                             spec.shared_mem, options=spec.options,
                             engine=SassEngine((GOLDEN / f"{name}.sass").read_text()))
    diffs = {k: (report.metrics[k], rec.metrics[k]) for k in m.EXACT if k in rec.metrics
             and report.metrics[k] != rec.metrics[k]}
    assert diffs == {}


@pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) not installed")
@pytest.mark.parametrize("name", _golden_cases()[:2])
def test_cubin_disassembles_to_the_golden_listing(name, recorded):
    from memsim.engine.sass.compile import compile_cubin, disassemble
    spec = recorded[name].spec
    text = disassemble(compile_cubin(spec.source, options=tuple(spec.options)))
    strip = lambda s: [l for l in s.splitlines() if "/*" in l]
    assert strip(text) == strip((GOLDEN / f"{name}.sass").read_text())


@pytest.mark.parametrize("name", _golden_cases())
def test_outputs_equal_the_ptx_emulation(name, recorded):
    import memsim
    from memsim.engine.sass.engine import SassEngine
    spec = recorded[name].spec
    sass_values, ptx_values = spec.materialize(), spec.materialize()
    memsim.simulate(spec.source, spec.kernel, spec.grid, spec.block, sass_values, spec.shared_mem,
                    options=spec.options, engine=SassEngine((GOLDEN / f"{name}.sass").read_text()))
    memsim.simulate(spec.source, spec.kernel, spec.grid, spec.block, ptx_values, spec.shared_mem,
                    options=spec.options)
    for ours, theirs in zip(sass_values, ptx_values):
        assert np.array_equal(ours, theirs)


def test_engine_switch_runs_the_sass_stage_through_memsim_simulate():
    """fuzz_s0_0091: a lane-dependent loop ptxas unrolls x4 with a 2+1 remainder. The SASS
    engine matches the H100's 352 load instructions; the PTX engine's rolled loop gives 256."""
    import memsim
    from memsim import metrics as m
    from validate import record
    if find_nvdisasm() is None:
        pytest.skip("nvdisasm (nvidia-cuda-nvdisasm) not installed")
    case = next(c for f in record.load_all() if f.gpu == "h100" for c in f.cases if c.name == "fuzz_s0_0091")
    sass, _ = memsim.simulate_spec(case.spec, engine="sass")
    ptx, _ = memsim.simulate_spec(case.spec, engine="ptx")
    assert sass.engine == "sass" and ptx.engine == "ptx"
    assert sass.metrics[m.INST_GLOBAL_LD] == case.metrics[m.INST_GLOBAL_LD] == 352
    assert ptx.metrics[m.INST_GLOBAL_LD] == 256
    with pytest.raises(memsim.MemsimError, match="unknown engine"):
        memsim.simulate_spec(case.spec, engine="cuda")
