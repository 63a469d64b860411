"""The package's shape: no import cycles between modules, function-level imports included (a
lazy import is still a dependency; it only hides the cycle from the interpreter), nor between
the packages (memsim, gpu, validate, benchmarks); views, models and the timing simulation import
no engine and no front end, and the engines no front end; no GPU's
numbers in the code, neither as literals nor as parameter defaults (memsim/gpus/profiles/*.json
hold them, each with its source)."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("memsim", "validate", "gpu")
# Every top-level folder of Python code, for the cycles between them (benchmarks: scripts, no package)
TOP_LEVEL = (*PACKAGES, "benchmarks")
FRONT_ENDS = ("memsim.numba_cuda", "memsim.cupy", "memsim.triton")
MAX_LINES = 600
# Modules still over MAX_LINES, each with why; remove a line when its module is split.
TOO_LONG = {
}


def _modules(package: str, root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for path in (root / package).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """module -> every module it imports, anywhere in its body (a name imported from a package
    counts as that submodule where there is one)."""
    modules = _modules(package, root)
    found = {}
    for module, path in modules.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, path, node)
                targets.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                               for a in node.names)
        found[module] = targets - {module}
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """module -> the package's own modules it imports."""
    modules = _modules(package)
    return {module: {t for t in targets if t in modules} for module, targets in imports(package).items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    assert cycles(import_graph(package)) == []


def package_graph(packages: tuple[str, ...] = TOP_LEVEL, root: Path = ROOT) -> dict[str, set[str]]:
    """top-level package -> the others of `packages` any of its modules imports (lazily too)."""
    return {package: {t.split(".")[0] for targets in imports(package, root).values() for t in targets}
            & set(packages) - {package} for package in packages}


def test_the_package_graph_finds_a_cycle_across_packages(tmp_path):
    for package, other in (("pa", "pb"), ("pb", "pa"), ("pc", "pa")):
        (tmp_path / package / "sub").mkdir(parents=True)
        (tmp_path / package / "sub" / "m.py").write_text(f"def f():\n    from {other}.sub import m\n")
    assert cycles(package_graph(("pa", "pb", "pc"), tmp_path)) == [["pa", "pb"]]


def test_no_import_cycles_between_packages():
    """gpu is beneath validate (validate records with it; gpu reads validate's data as files)."""
    assert cycles(package_graph()) == []


def _reaching(prefixes: tuple[str, ...], targets: tuple[str, ...]) -> dict[str, set[str]]:
    """Modules under `prefixes` that import a module under `targets` (lazily too)."""
    def under(name: str, tops: tuple[str, ...]) -> bool:
        return any(name == top or name.startswith(top + ".") for top in tops)
    found = {module: {t for t in imported if under(t, targets)}
             for module, imported in imports("memsim").items() if under(module, prefixes)}
    return {module: hits for module, hits in found.items() if hits}


def test_views_models_and_timing_import_no_engine_and_no_front_end():
    """They read what memsim.report, memsim.stream and the models' results hold; memsim.prediction
    and memsim.warp_trace run the engine."""
    assert _reaching(("memsim.views", "memsim.model", "memsim.timing"),
                     ("memsim.engine", *FRONT_ENDS)) == {}
    assert _reaching(("memsim.prediction",), ("memsim.views",)) == {}


def test_the_engines_import_no_front_end():
    """A front end hands the engine source text, or registers itself (register_python_kernels)."""
    assert _reaching(("memsim.engine",), FRONT_ENDS) == {}


def test_memsim_imports_neither_the_gpu_side_nor_validate():
    outside = {t for targets in imports("memsim").values() for t in targets
               if t.split(".")[0] in ("gpu", "validate")}
    assert outside == set()


def test_the_models_import_nothing_from_the_engines():
    """memsim.model reads what an engine hands it through memsim.stream and memsim.report;
    memsim.prediction is the one place that runs an engine and then the models."""
    engine = {module: {t for t in targets if t == "memsim.engine" or t.startswith("memsim.engine.")}
              for module, targets in imports("memsim").items() if module.startswith("memsim.model")}
    assert {module: targets for module, targets in engine.items() if targets} == {}


def hidden_modules(init: Path) -> list[str]:
    """Names a package's __init__ binds over one of its own modules (anything but
    `from . import name`, which binds the module itself)."""
    here = init.parent
    submodules = {p.stem for p in here.glob("*.py")} | {p.name for p in here.iterdir() if (p / "__init__.py").exists()}
    hidden = []
    for node in ast.walk(ast.parse(init.read_text())):
        if isinstance(node, ast.ImportFrom):
            binds_modules = node.level == 1 and node.module is None
            hidden += [a.asname or a.name for a in node.names
                       if (a.asname or a.name) in submodules and not (binds_modules and a.asname in (None, a.name))]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in submodules:
            hidden.append(node.name)
        elif isinstance(node, ast.Assign):
            hidden += [t.id for t in node.targets if isinstance(t, ast.Name) and t.id in submodules]
    return hidden


def test_the_hidden_module_finder_finds_one(tmp_path):
    (tmp_path / "simulate.py").write_text("def simulate(): pass\n")
    (tmp_path / "notebook.py").write_text("")
    (tmp_path / "__init__.py").write_text("from .simulate import simulate\nfrom . import notebook\n")
    assert hidden_modules(tmp_path / "__init__.py") == ["simulate"]


def test_no_module_is_hidden_under_a_function_of_its_name():
    """memsim.simulate and memsim.predict are the functions; their modules are
    memsim.engine.simulation and memsim.prediction."""
    hidden = {str(init.relative_to(ROOT)): names for package in PACKAGES
              for init in (ROOT / package).rglob("__init__.py") if (names := hidden_modules(init))}
    assert hidden == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_the_line_limit(package):
    long = {str(path.relative_to(ROOT)): n for path in (ROOT / package).rglob("*.py")
            if "__pycache__" not in path.parts and (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert {path: n for path, n in long.items() if path not in TOO_LONG} == {}
    assert all(path in long for path in TOO_LONG if path.startswith(package + "/")), "split: drop it from TOO_LONG"


def _profile_numbers() -> set[int]:
    """Numbers particular to one GPU: SM counts, L2 and DRAM sizes, clocks, bandwidths."""
    from memsim import gpus   # the profiles as loaded: a based one gives only its overrides

    found = set()
    for name in gpus.names():
        raw = json.loads(gpus.load(name).model_dump_json())
        found.add(raw["sm_count"])
        found.update((raw["l2"]["size_bytes"], raw["dram"]["size_bytes"], raw["dram"]["bandwidth_gbs"]))
        found.update(v for v in raw["clocks"].values())
    return {int(n) for n in found if n > 100}


def test_no_gpu_numbers_in_the_code():
    numbers = _profile_numbers()
    assert {132, 52428800}.issubset(numbers)   # the H100's SMs and L2: the list is not empty
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(str, sorted(numbers))) + r")(?![\w.])")
    hits = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for path in (ROOT / "memsim").rglob("*.py")
            for n, line in enumerate(path.read_text().splitlines(), 1)
            if pattern.search(line.split("#")[0])]
    assert hits == []


# Numeric parameter defaults the models and engines may keep: none is a GPU's number.
NOT_GPU_DEFAULTS = {
    "registers_per_thread": "a kernel's register count (its compiled code), not a GPU's",
}


def numeric_defaults(path: Path) -> list[tuple[int, str, str, float]]:
    """(line, function, parameter, value) of every int or float default other than 0 and 1: a
    GPU's number would hide there (a topology, a size) where the grep above cannot see it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        a = node.args
        positional = a.posonlyargs + a.args
        pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults))
        pairs += [(arg, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        found += [(d.lineno, getattr(node, "name", "lambda"), arg.arg, d.value) for arg, d in pairs
                  if isinstance(d, ast.Constant) and type(d.value) in (int, float) and d.value not in (0, 1)]
    return found


def test_the_default_finder_finds_one(tmp_path):
    (tmp_path / "m.py").write_text("def f(sm_count, gpcs: int = 8, *, k=1, lead=8.5): pass\n")
    assert numeric_defaults(tmp_path / "m.py") == [(1, "f", "gpcs", 8), (1, "f", "lead", 8.5)]


def test_no_gpu_numbers_as_parameter_defaults():
    """The models and engines take a GPU's numbers from its GpuProfile, never from a default."""
    hits = [f"{path.relative_to(ROOT)}:{line}: {function}({name}={value})"
            for folder in ("memsim/model", "memsim/engine") for path in (ROOT / folder).rglob("*.py")
            for line, function, name, value in numeric_defaults(path) if name not in NOT_GPU_DEFAULTS]
    assert hits == []


def test_the_readme_layout_table_lists_every_module():
    """Every module with code (not an empty package marker) has a row, and no row a stale one."""
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| stage | module | job |"):]
    table = table[:table.index("\n\n")]
    listed = set(re.findall(r"`(memsim/[\w/]+\.py)`", table))
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "memsim").rglob("*.py")
               if "__pycache__" not in p.parts and p.read_text().strip(" \n").count("\n") > 1}
    assert modules - listed == set()
    assert listed - modules == set()


GPU_NAMED = re.compile(r"""["'](H100|sm_90)["']""")
DEFAULT_DECLARED = {"memsim/gpus/profile.py"}   # DEFAULT_GPU; the architecture is named in the profiles


def test_the_default_gpu_and_its_arch_are_named_once():
    """A GPU's name or architecture as a value in the code would pin it: the profiles name
    them (memsim/gpus/profiles/*.json) and memsim.gpus.DEFAULT_GPU picks one."""
    hits = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for package in ("memsim", "gpu", "validate") for path in (ROOT / package).rglob("*.py")
            if str(path.relative_to(ROOT)) not in DEFAULT_DECLARED
            for n, line in enumerate(path.read_text().splitlines(), 1) if GPU_NAMED.search(line)]
    assert hits == []
    declared = (ROOT / "memsim/gpus/profile.py").read_text()
    assert len(GPU_NAMED.findall(declared)) == 1
