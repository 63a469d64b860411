"""Recordings write each kernel source once (validate.record.deduplicated) and give every case
its whole source back on load."""
from __future__ import annotations

import json

import pytest

from tests.helpers.records import SOURCE, make_file, make_record
from validate import record as rec


def other_source_record(name: str) -> rec.CaseRecord:
    case = make_record(name)
    return case.model_copy(update={"spec": case.spec.model_copy(update={"source": SOURCE + "\n// another file"})})


@pytest.mark.parametrize("names, distinct", [(["a"], 1), (["a", "b", "c"], 1), (["a", "b", "x"], 2)])
def test_save_writes_each_source_once_and_load_gives_them_back(tmp_path, names, distinct):
    cases = [other_source_record(n) if n == "x" else make_record(n) for n in names]
    path = rec.save(make_file(*cases), tmp_path)
    raw = json.loads(path.read_text())
    assert len(raw["sources"]) == distinct
    assert all(c["spec"]["source"].startswith(rec.SOURCE_REF) for c in raw["cases"])
    assert [c.spec.source for c in rec.load(path).cases] == [c.spec.source for c in cases]
    assert rec.read_raw(path)["cases"][0]["spec"]["source"] == cases[0].spec.source


def test_a_file_without_sources_loads_as_before(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(make_file(make_record("a")).model_dump_json(indent=1))
    assert rec.load(path).cases[0].spec.source == SOURCE


def test_a_reference_to_no_source_is_one_clear_error(tmp_path):
    raw = rec.deduplicated(json.loads(make_file(make_record("a")).model_dump_json()))
    raw["sources"] = {}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(rec.RecordError, match="not among the file's sources"):
        rec.load(path)
