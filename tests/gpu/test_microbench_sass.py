"""The instruction microbenchmarks (gpu/microbench_kernels.cu) measure what gpu/microbench.py says
they do: compiled here with NVRTC 13.0 as CuPy compiles them on the device, every timed loop holds
its counted instructions (unrolled, none merged or hoisted away), nothing spills, and the S2R
bracket holds the read between its two clock reads."""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

from gpu import microbench

sass = pytest.importorskip("memsim.engine.sass.compile")


@lru_cache(maxsize=1)
def functions() -> dict[str, list[tuple[str, str]]]:
    """kernel -> its lines: ("label", name) or ("ins", instruction text without the predicate)."""
    try:
        text = sass.disassemble(sass.compile_cubin(microbench.KERNELS.read_text()))
    except Exception as exc:  # no NVRTC or nvdisasm on this machine
        pytest.skip(f"cannot compile here: {exc}")
    found, current = {}, None
    for line in text.splitlines():
        if m := re.match(r"\s*\.text\.(\w+):", line):
            current = found.setdefault(m.group(1), [])
        elif current is None:
            continue
        elif m := re.match(r"\s*(\.L_x_\d+):", line):
            current.append(("label", m.group(1)))
        elif m := re.match(r"\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?(.*?)\s*;", line):
            current.append(("ins", m.group(1)))
    return found


def loop_bodies(kernel: str) -> list[list[str]]:
    """The instructions from each backward branch's target to the branch."""
    body, labels, loops = functions()[kernel], {}, []
    for i, (kind, text) in enumerate(body):
        if kind == "label":
            labels[text] = i
        elif text.startswith("BRA") and (m := re.search(r"`\((\.L_x_\d+)\)", text)) and m.group(1) in labels:
            loops.append([t for k, t in body[labels[m.group(1)]:i] if k == "ins"])
    return loops


def timed_loop(kernel: str) -> list[str]:
    """The kernel's one loop that holds more than a branch (the timed one)."""
    loops = [loop for loop in loop_bodies(kernel) if len(loop) > 1]
    assert len(loops) == 1, f"{kernel}: {len(loops)} loops"
    return loops[0]


def count(loop: list[str], mnemonic: str) -> int:
    """Instructions of `mnemonic` (any modifiers), less the loop's own exit compare (an ISETP on
    the uniform iteration counter)."""
    return sum(1 for ins in loop if (ins.split()[0] == mnemonic or ins.startswith(mnemonic + "."))
               and not (ins.startswith("ISETP") and "UR" in ins))


@pytest.mark.parametrize("chain", microbench.LATENCY, ids=lambda c: c.name)
def test_a_latency_loop_holds_its_chain(chain):
    loop = timed_loop(chain.function)
    assert count(loop, chain.mnemonic) == chain.count
    # beyond the chain: the loop counter, its compare and the branch, and what docs name
    # (mufu_rcp's |x| as an FADD, mufu_sin's range scaling FMUL.RZ, sts_lds' stores, hmma's NOPs,
    # membar's ERRBAR/CCTL, f2i_i2f's I2F), never a load or store of local memory
    assert not any(ins.startswith(("LDL", "STL")) for ins in loop)
    assert len(loop) <= 4 * chain.count + 4


@pytest.mark.parametrize("stream", microbench.THROUGHPUT, ids=lambda s: s.name)
def test_a_throughput_loop_holds_its_independent_instructions(stream):
    loop = timed_loop(f"k_tp_{stream.name}")
    assert sum(count(loop, m) for m in stream.mnemonics) == stream.count
    assert not any(ins.startswith(("LDL", "STL")) for kind, ins in functions()[f"k_tp_{stream.name}"] if kind == "ins")
    overhead = len(loop) - stream.count
    assert overhead <= (stream.count if stream.name == "ldg" else 8), "the loop is not what is counted"


def test_the_s2r_bracket_holds_the_read_and_its_use_between_the_clocks():
    for kernel, extra in (("k_lat_s2r", ["S2R"]), ("k_lat_s2r_base", [])):
        ops = [ins.split()[0] for ins in timed_loop(kernel)]
        first, second = [i for i, op in enumerate(ops) if op == "CS2R"]
        inside = ops[first + 1:second]
        assert inside == extra + ["SHF.R.U32.HI", "SGXT.U32", "LOP3.LUT"], (kernel, inside)


def test_the_loop_finder_finds_the_empty_kernels_none():
    assert all(len(loop) <= 1 for loop in loop_bodies("k_sm_empty"))
    assert any(len(loop) > 1 for loop in loop_bodies("k_lat_ffma"))
