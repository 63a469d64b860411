"""Honest accuracy figures (issue 11): kernel families, the held-out corpus no fit reads, and
leave-one-family-out cross-validation of the time model's constants."""
from __future__ import annotations

import builtins
import functools

import pytest

from validate import families as fa
from validate import lofo
from validate import time_accuracy as ta
from validate.compare import compare_files
from validate.corpus_cases import corpus_cases, held_out
from validate.report import write_reports

from tests.helpers.records import make_file, make_record


@functools.lru_cache(maxsize=1)
def stored_cases() -> list[ta.TimeCase]:
    return ta.load_cases(ta.INPUTS_BY_ENGINE["sass"])


# -- the grouping rule ---------------------------------------------------------------------------

@pytest.mark.parametrize("case_set, kernel, tags, family", [
    ("suite", "k_ld_float", ["stride"], "suite:k_ld_float"),
    ("suite", "k_reduce<256>", [], "suite:k_reduce"),
    ("corpus", "k_reduce_shfl<128>", ["shfl", "file:reduce"], "corpus:reduce/k_reduce_shfl"),
    ("fuzz", "k_fuzz_s0_0001", ["fuzz", "global", "shared", "2d"], "fuzz:2d+global+shared"),
    ("fuzz2", "k_fuzz2_s2_0003", ["fuzz2", "fuzz", "global", "vector", "atomic"], "fuzz2:atomic+global+vector"),
])
def test_a_family_is_a_kernel_or_a_fuzz_template(case_set, kernel, tags, family):
    assert fa.family_of(case_set, kernel, tags) == family


def test_every_launch_of_one_kernel_is_one_family():
    by_name = {c.name: c.family for c in stored_cases()}
    assert by_name["s001_naiveCol"] == by_name["s001_naiveCol_b32x16"] == "suite:k_naiveCol"
    assert len(set(by_name.values())) < len(by_name) / 3


# -- the held-out corpus -------------------------------------------------------------------------

def test_about_a_third_of_the_corpus_families_are_held_out_and_nothing_else():
    families = {fa.family_of("corpus", c.spec.kernel, c.tags) for c in corpus_cases() if "public" not in c.tags}
    held = {f for f in families if fa.is_held_out(f)}
    assert 0.25 <= len(held) / len(families) <= 0.42   # our own kernels: a third, by the hash
    public = [c for c in corpus_cases() if "public" in c.tags]
    assert public and all(held_out(c) for c in public)   # public kernels: all of them
    assert "corpus:misc/k_saxpy" in held and "corpus:misc/k_daxpy" not in held   # fixed by the hash
    assert {held_out(c) for c in corpus_cases() if c.name in ("saxpy", "saxpy_partial")} == {True}
    assert not any(fa.is_held_out(c.family) for c in stored_cases())


def _held_out_copy(case: ta.TimeCase) -> ta.TimeCase:
    return case.model_copy(update={"name": "corpus_" + case.name, "case_set": "corpus",
                                   "family": "corpus:misc/k_saxpy"})


def test_no_fit_reads_held_out_cases():
    cases = stored_cases()[:20]
    with pytest.raises(fa.HeldOutError, match="k_saxpy"):
        ta.fit(cases + [_held_out_copy(cases[0])], rounds=1, progress=None)


# -- leave one family out ------------------------------------------------------------------------

def test_each_fold_fits_without_its_family_and_without_the_held_out_corpus(monkeypatch):
    chosen = {"suite:k_ld_float", "suite:k_naiveCol", "suite:k_2d_copy", "fuzz:global"}
    cases = [c for c in stored_cases() if c.family in chosen]
    held = _held_out_copy(cases[0])
    fitted: list[set[str]] = []
    real_fit = lofo.fit

    def spy(data, *args, **kwargs):
        fitted.append({c.family for c in data.cases})
        return real_fit(data, *args, **kwargs)

    monkeypatch.setattr(lofo, "fit", spy)
    result = lofo.cross_validate(cases + [held], rounds=1)
    assert all(held.family not in families for families in fitted)
    assert sorted(fitted[:-1], key=sorted) == sorted([chosen - {f} for f in chosen], key=sorted)
    assert fitted[-1] == chosen     # the held-out corpus: constants fitted on everything else
    assert result.fits == 5 and result.lofo.cases == len(cases) and result.held_out.cases == 1
    rows = {row.family: row for row in result.families}
    assert rows[held.family].held_out and not rows["suite:k_ld_float"].held_out
    assert rows["suite:k_ld_float"].figures.cases == sum(c.family == "suite:k_ld_float" for c in cases)


def test_leaving_a_family_out_changes_its_prediction():
    cases = [c for c in stored_cases() if c.family in ("suite:k_ld_float", "suite:k_naiveCol", "fuzz:global")]
    result = lofo.cross_validate(cases, rounds=1)
    shipped = {c.name: ta.predict(c).duration_ns for c in cases}
    assert any(abs(p.predicted_ns - shipped[p.name]) > 1e-6 * shipped[p.name]
               for row in result.families for p in row.cases)


# -- validate run --report without matplotlib ------------------------------------------------------

def test_reports_are_written_without_matplotlib(simulator, tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    notes: list[str] = []
    paths = write_reports(compare_files([make_file(make_record("a"))]), tmp_path, note=notes.append)
    assert [p.name for p in paths] == ["report.md", "report.json"]
    assert len(notes) == 1 and "matplotlib is not installed" in notes[0]
    assert (tmp_path / "report.md").read_text().startswith("# memsim against hardware")
