"""One compile and one emulation per launch in a test run: tests that run the same recorded
launch (the check against the hardware, the cache model's accuracy over the same launches, and
the tests that hold one of them to a rule of their own) share the results through a folder of
this run, so what one xdist worker made the other reads back. Only for the tests that ask (the
`launch_cache` fixture): a test that patches memsim's internals or hides its tools must not
get a result made without its patch.

What is kept, each keyed by everything that decides it:
- a launch: simulate_spec or predict_spec, the LaunchSpec (source text, kernel, grid, block,
  arguments with their initial values, shared memory, options) and every keyword (engine, gpu,
  arch, registers, budgets); a call with a keyword that is not a plain value (a trace request,
  a profile object) is not kept;
- a compile: NVRTC's PTX (memsim.compiler.nvrtc._compile_cached) and cubin
  (memsim.engine.sass.compile._compile_cubin), by their arguments, and nvdisasm's listing of a
  cubin (disassemble), by the cubin's digest.
Errors are not kept (the next caller runs it and gets the error itself). The folder belongs
to one run (never the repository, never a later run): the code and the tools are the same for
every entry, so they need not be in the key."""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Callable

from memsim.engine import registry

PLAIN = (str, int, float, bool, type(None))
LARGEST_ENTRY = 64 << 20   # bytes; the seed launches' 1 GiB matrices are run again instead


def run_folder(basetemp: Path) -> Path:
    """This run's cache folder: under xdist each worker's basetemp (popen-gwN) sits in the run's
    own folder, which both workers share; without xdist the basetemp is the run's."""
    root = basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp
    folder = root / "launch-cache"
    folder.mkdir(exist_ok=True)
    return folder


def launch_key(spec, **kwargs) -> str | None:
    """A launch's key, or None where a keyword is not a plain value. The same launch asked for
    in other words gets one key: `timeout` left out (it decides only whether an error is
    raised), a keyword given as None left out (its default), and engine "auto" (or none)
    resolved as memsim resolves it where no arch or gpu is named."""
    if not all(isinstance(v, PLAIN) for v in kwargs.values()):
        return None
    named = {k: v for k, v in kwargs.items() if v is not None and k != "timeout"}
    engine = named.get("engine", registry.DEFAULT)
    if engine == registry.DEFAULT and not {"arch", "gpu"} & set(named):
        named["engine"] = registry.resolve_engine(engine, spec.source)
    return repr((spec.model_dump_json(), sorted(named.items())))


def arguments_key(*args, **kwargs) -> str:
    return repr((args, sorted(kwargs.items())))


def cubin_key(cubin: bytes) -> str:
    return hashlib.sha256(cubin).hexdigest()


def cached(function: Callable, folder: Path, key: Callable[..., str | None]) -> Callable:
    """function(*args, **kwargs), read from `folder` when a worker of this run already made it."""
    def run(*args, **kwargs):
        text = key(*args, **kwargs)
        if text is None:
            return function(*args, **kwargs)
        digest = hashlib.sha256(f"{function.__module__}.{function.__name__}\n{text}".encode()).hexdigest()
        path = folder / f"{digest}.pickle"
        if path.exists():
            return pickle.loads(path.read_bytes())
        result = function(*args, **kwargs)
        data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) <= LARGEST_ENTRY:
            partial = path.with_suffix(f".{os.getpid()}.part")
            partial.write_bytes(data)
            os.replace(partial, path)   # atomic: the other worker reads all of it or nothing
        return result
    run.__wrapped__ = function
    return run


def install(monkeypatch, folder: Path) -> None:
    """Every name the callers look these up by reads `folder` while `monkeypatch` lasts
    (in-process only: a test that spreads launches over processes gives them jobs=1)."""
    import memsim
    from memsim import prediction
    from memsim.compiler import nvrtc
    from memsim.engine import simulation
    from memsim.engine.sass import compile as sass_compile

    simulate = cached(simulation.simulate_spec, folder, launch_key)
    predict = cached(prediction.predict_spec, folder, launch_key)
    for module in (memsim, simulation):
        monkeypatch.setattr(module, "simulate_spec", simulate)
    for module in (memsim, prediction):
        monkeypatch.setattr(module, "predict_spec", predict)
    monkeypatch.setattr(nvrtc, "_compile_cached", cached(nvrtc._compile_cached, folder, arguments_key))
    monkeypatch.setattr(sass_compile, "_compile_cubin",
                        cached(sass_compile._compile_cubin, folder, arguments_key))
    monkeypatch.setattr(sass_compile, "disassemble", cached(sass_compile.disassemble, folder, cubin_key))
