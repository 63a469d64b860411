"""Kernel families of the recorded cases, and the part of the corpus that no fit may read.

A fitted constant is only honest on kernels it never saw, and a kernel launched at several
sizes is one kernel: leaving out one launch while fitting on its siblings measures nothing. So
cross-validation leaves out whole *families* (issue 11):

- suite and corpus: one family per kernel, i.e. per source function: the kernel's name without
  template arguments (`k_reduce_shfl<256>` and `<128>` are one family), and for the corpus its
  file too (`corpus:reduce/k_reduce_shfl`). Every launch of the kernel (sizes, blocks,
  strides, dtypes passed as arguments) is in it.
- fuzz sets: each case is a generated kernel, and kernels drawn with the same features (the
  generator's tags: loop, shared, 2d, vector, atomic, ...) are one template that differs only
  in sizes, strides and guards: one family per generator and feature set
  (`fuzz:2d+global+shared`).

The held-out corpus: the corpus families whose name hashes (SHA-256, first byte) to 0 modulo 3,
about a third, fixed by the names alone so that no later choice can move a kernel in or out.
No fit reads them (validate.time_accuracy.FitSet refuses them); they are predicted once, with
constants fitted on everything else. Besides the hash, every family of a public kernel copied
into the corpus (files llmc_*.cu, cusamples_*.cu: validate.corpus_cases.PUBLIC_PREFIXES) is held
out whole: real kernels nobody tuned the model on are the fairest test of it.

The pre-registered sets (`prereg`, validate.prereg_cases; `prereg2`, validate.prereg2_cases; `prereg3`,
validate.prereg3_cases; `prereg4`, validate.prereg4_cases; `prereg5`, validate.prereg5_cases; `prereg6`, validate.prereg6_cases; `prereg7`, validate.prereg7_cases; `prereg8`, validate.prereg8_cases; `prereg9`, validate.prereg9_cases; `prereg10`, validate.prereg10_cases; `prereg11`, validate.prereg11_cases; `prereg12`, validate.prereg12_cases; `prereg13`, validate.prereg13_cases; `prereg14`, validate.prereg14_cases; `prereg15`, validate.prereg15_cases; `prereg16`, validate.prereg16_cases) are held out whole too: their predictions are committed before their
recordings are looked at, and a fit that read them would void that.
Its families are named like the corpus's, by file and kernel (`prereg:shoc_scan/bottom_scan`).
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable

FUZZ_SETS = ("fuzz", "fuzz2")
HELD_OUT_SET = "corpus"
HELD_OUT_MODULUS = 3
PREREG_SET = "prereg"   # every family of it is held out
PREREG_SETS = (PREREG_SET, "prereg2", "prereg3", "prereg4", "prereg5", "prereg6", "prereg7", "prereg8", "prereg9", "prereg10", "prereg11", "prereg12", "prereg13", "prereg14", "prereg15", "prereg16")   # the pre-registered sets, every family held out
PUBLIC_FILE_PREFIXES = ("llmc_", "cusamples_")  # the public corpus files, all held out


class HeldOutError(ValueError):
    """A fit was handed cases of the held-out corpus."""


def kernel_base(kernel: str) -> str:
    """The kernel's name without template arguments: its source function."""
    return kernel.split("<", 1)[0].strip()


def family_of(case_set: str, kernel: str, tags: Iterable[str] = ()) -> str:
    """The family of one recorded case (module docstring: the rule)."""
    tags = list(tags)
    if case_set in FUZZ_SETS:
        features = sorted(set(tags) - set(FUZZ_SETS))
        return f"{case_set}:{'+'.join(features)}"
    if case_set == HELD_OUT_SET or case_set in PREREG_SETS:
        files = [t.removeprefix("file:") for t in tags if t.startswith("file:")]
        return f"{case_set}:{files[0] + '/' if files else ''}{kernel_base(kernel)}"
    return f"{case_set}:{kernel_base(kernel)}"


def is_held_out(family: str) -> bool:
    """Whether the family is held out of every fit: the whole pre-registered set, the public corpus
    kernels, and the part of the rest of the corpus that a hash of its name picks."""
    if family.startswith(tuple(s + ":" for s in PREREG_SETS)):
        return True
    if not family.startswith(HELD_OUT_SET + ":"):
        return False
    if family.removeprefix(HELD_OUT_SET + ":").startswith(PUBLIC_FILE_PREFIXES):
        return True
    return hashlib.sha256(family.encode()).digest()[0] % HELD_OUT_MODULUS == 0


def check_not_held_out(families: Iterable[str]) -> None:
    """Raise HeldOutError when any family is held out: called by every fit on its cases."""
    held = sorted({f for f in families if is_held_out(f)})
    if held:
        raise HeldOutError(f"a fit was given {len(held)} held-out families: {', '.join(held[:5])}")
