"""Recorded hardware measurements: `validate/data/<gpu>/<suite|fuzz>.json`.

Each file holds the versions it was measured with and, per case, the full launch (so the
simulator can rerun it anywhere), the digest of its inputs (proof that both sides saw the same
bytes), the ncu counters (.sum only, to keep the files small), event timing and whether the
outputs matched the catalog's reference.
"""
from __future__ import annotations

import hashlib
import json
import statistics
from pathlib import Path

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, model_validator

from gpu.driver import CatalogRef
from gpu.measure import Measurement
from gpu.versions import Versions
from memsim import metrics as m
from memsim.errors import MemsimError
from memsim.launch import LaunchSpec

DATA_DIR = Path(__file__).parent / "data"
CASE_SETS = ("suite", "fuzz", "fuzz2", "corpus", "numba", "prereg", "prereg2", "prereg3", "prereg4", "prereg5", "prereg6", "prereg7", "prereg8", "prereg9", "prereg10", "prereg11", "prereg12", "prereg13", "prereg14", "prereg15", "prereg16")


class RecordError(MemsimError):
    """A measurement file is missing, unreadable or not a measurement file."""


class CaseRecord(Measurement):
    """One case measured on hardware, with the launch needed to simulate it again."""

    tags: list[str] = Field(default_factory=list)
    spec: LaunchSpec
    catalog: CatalogRef | None = None
    expect: dict[str, int] = Field(default_factory=dict,
                                   description="counters the case derived from first principles")

    @property
    def measured(self) -> bool:
        """True when ncu's counters are there to compare with."""
        return not self.error and bool(self.metrics)


class MeasurementFile(BaseModel):
    """On disk, the kernel sources the cases share are written once, in `sources`, and each
    case's spec.source names its entry ("@source:<key>"): a set's launches repeat a handful of
    .cu files, which otherwise made up four fifths of the file."""

    gpu: str = Field(description="folder name of the GPU, e.g. h100")
    case_set: str = Field(description="suite | fuzz")
    versions: Versions
    method: str = Field("", description="how the counters were collected")
    cases: list[CaseRecord]

    @model_validator(mode="before")
    @classmethod
    def _sources_filled_in(cls, raw):
        return expanded(raw) if isinstance(raw, dict) else raw


class DurationFile(BaseModel):
    """Repeated ncu durations of one case set: the rank of short kernels needs more than one
    launch (a single launch of a 3 us kernel moves by a median 2.7% between recordings)."""

    gpu: str
    case_set: str
    versions: Versions
    method: str = ""
    launches: int = Field(description="profiled launches per case")
    samples: dict[str, list[float]] = Field(description="case name -> gpu__time_duration.sum of each launch (ns)")


def durations_path(data_dir: Path, gpu: str, case_set: str) -> Path:
    return data_dir / gpu / f"{case_set}-durations.json"


def save_durations(record: DurationFile, data_dir: Path = DATA_DIR) -> Path:
    """Write the file; as `save`, the cases of an earlier file of the same GPU, tools and method
    that this one lacks are kept, so a set measured in parts (`--filter`: one device call has too
    little time for all of a large set) adds up instead of each part replacing the last."""
    path = durations_path(data_dir, record.gpu, record.case_set)
    if path.exists():
        old = _durations_file(path)
        if same_setup(old.versions, record.versions) and (old.method, old.launches) == (record.method, record.launches):
            kept = {n: v for n, v in old.samples.items() if n not in record.samples}
            record = record.model_copy(update={"samples": {**kept, **record.samples}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.model_dump_json(indent=1) + "\n")
    return path


def load_durations(data_dir: Path = DATA_DIR) -> dict[tuple[str, str, str], list[float]]:
    """(gpu, case set, case name) -> repeated durations, from every *-durations.json file."""
    found: dict[tuple[str, str, str], list[float]] = {}
    for path in sorted(Path(data_dir).glob("*/*-durations.json")):
        record = _durations_file(path)
        found.update({(record.gpu, record.case_set, n): v for n, v in record.samples.items() if v})
    return found


def with_durations(files: list[MeasurementFile], durations: dict[tuple[str, str, str], list[float]]
                   ) -> list[MeasurementFile]:
    """The files with each case's gpu__time_duration.sum replaced by the median of its repeated
    durations where there are some: a launch profiled alone for its duration, many times, is
    the reference the time model is held to (the recording's single launch ran alongside ~40
    counters and is noisier and a few hundred ns longer on short kernels)."""
    out = []
    for f in files:
        cases = []
        for c in f.cases:
            samples = durations.get((f.gpu, f.case_set, c.name))
            if samples and c.measured:
                c = c.model_copy(update={"metrics": {**c.metrics, m.DURATION: float(statistics.median(samples))}})
            cases.append(c)
        out.append(f.model_copy(update={"cases": cases}))
    return out


def load_reference(data_dir: Path = DATA_DIR, case_sets: tuple[str, ...] = CASE_SETS) -> list[MeasurementFile]:
    """Every recorded file of the sets, durations from the repeated measurements where there are."""
    return with_durations(load_all(data_dir, case_sets), load_durations(data_dir))


def path_for(data_dir: Path, gpu: str, case_set: str) -> Path:
    return data_dir / gpu / f"{case_set}.json"


def save(record: MeasurementFile, data_dir: Path = DATA_DIR) -> Path:
    """Write the file; cases already recorded with the same tool versions and not measured
    again this time are kept, so a filtered run adds to a recording instead of truncating it."""
    path = path_for(data_dir, record.gpu, record.case_set)
    if path.exists():
        record = merge(load(path), record)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(deduplicated(record.model_dump(mode="json")), indent=1, ensure_ascii=False) + "\n")
    return path


SOURCE_REF = "@source:"


def deduplicated(raw: dict) -> dict:
    """A measurement file's JSON with each distinct kernel source written once (`sources`)."""
    sources: dict[str, str] = {}
    cases = []
    for case in raw["cases"]:
        text = case["spec"]["source"]
        key = hashlib.sha1(text.encode()).hexdigest()[:16]
        sources[key] = text
        cases.append({**case, "spec": {**case["spec"], "source": SOURCE_REF + key}})
    return {**{k: v for k, v in raw.items() if k != "cases"}, "sources": sources, "cases": cases}


def expanded(raw: dict) -> dict:
    """A measurement file's JSON with every case's source written out (the inverse of
    deduplicated; a file without `sources` comes back as it is)."""
    if "sources" not in raw:
        return raw
    sources = raw["sources"]

    def source_of(spec: dict) -> str:
        text = spec["source"]
        if not text.startswith(SOURCE_REF):
            return text
        if text[len(SOURCE_REF):] not in sources:
            raise ValueError(f"a case's source {text} is not among the file's sources")
        return sources[text[len(SOURCE_REF):]]
    cases = [{**c, "spec": {**c["spec"], "source": source_of(c["spec"])}} for c in raw["cases"]]
    return {**{k: v for k, v in raw.items() if k != "sources"}, "cases": cases}


def read_raw(path: Path) -> dict:
    """A measurement file as plain JSON, sources written out (for readers that want dicts)."""
    return expanded(json.loads(Path(path).read_text()))


def merge(old: MeasurementFile, new: MeasurementFile) -> MeasurementFile:
    """`new` plus the cases of `old` it lacks, when both come from the same GPU and tools."""
    if not same_setup(old.versions, new.versions):
        return new
    names = {c.name for c in new.cases}
    kept = [c for c in old.cases if c.name not in names]
    return new.model_copy(update={"cases": kept + new.cases})


def same_setup(a: Versions, b: Versions) -> bool:
    fields = ("gpu", "driver", "cuda_runtime", "cupy", "nvrtc", "ncu")
    return all(getattr(a, f) == getattr(b, f) for f in fields)


def read_json(path: Path, model, what: str, error: type[MemsimError] | None = None):
    """The JSON file `path` validated as `model` (a pydantic model or type); `error` (one line,
    RecordError by default) when it cannot be read or is not `what`."""
    error = error or RecordError
    try:
        return TypeAdapter(model).validate_json(Path(path).read_text())
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    except ValidationError as exc:
        raise error(f"{path} is not {what}: {exc.errors()[0]['msg']}") from None


def load(path: Path) -> MeasurementFile:
    return read_json(path, MeasurementFile, "a measurement file")


def load_all(data_dir: Path = DATA_DIR, case_sets: tuple[str, ...] = CASE_SETS) -> list[MeasurementFile]:
    """Every recorded file of the given sets, for every GPU, sorted by path."""
    paths = sorted(p for s in case_sets for p in Path(data_dir).glob(f"*/{s}.json"))
    return [load(p) for p in paths]


def import_files(paths: list[Path], data_dir: Path = DATA_DIR) -> list[Path]:
    """Check measurement files (fetched from the GPU machine) and file them under data_dir."""
    found = [f for p in map(Path, paths) for f in (sorted(p.rglob("*.json")) if p.is_dir() else [p])]
    if not found:
        raise RecordError(f"no measurement files in {', '.join(map(str, paths))}")
    return [save_durations(_durations_file(f), data_dir) if f.name.endswith("-durations.json")
            else save(load(f), data_dir) for f in found]


def _durations_file(path: Path) -> DurationFile:
    return read_json(path, DurationFile, "a durations file")
