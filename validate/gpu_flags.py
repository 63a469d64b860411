"""One meaning for `--gpu` across memsim and validate: `--gpu NAME` names a GPU profile (as in
`memsim predict --gpu A100`), `--measure` measures on this machine's GPU.

The old spellings still work, each with a one-line warning on stderr: a bare `--gpu` (it meant
"measure here") and `--model NAME` (the profile). `resolve` turns them into `args.measure` and
`args.model` once, after parsing.
"""
from __future__ import annotations

import argparse
import sys

_BARE = "\0measure"   # what a bare --gpu parses to


def add(command: argparse.ArgumentParser, profile_help: str | None = None,
        measure_help: str = "measure on this machine's GPU") -> None:
    """--measure, and --gpu (NAME: the profile where `profile_help` is given; bare: the old
    --measure). `profile_help` None: the command takes no profile (a NAME is refused)."""
    command.add_argument("--measure", action="store_true", help=measure_help)
    command.add_argument("--gpu", nargs="?", const=_BARE, default=None, metavar="NAME",
                         help=profile_help or "(old spelling of --measure)")
    if profile_help:
        command.add_argument("--model", metavar="NAME", default=None, help="(old spelling of --gpu NAME)")


def resolve(args: argparse.Namespace, warn=lambda line: print(line, file=sys.stderr)) -> None:
    """args.measure and args.model from the new spellings and the old (warned once each)."""
    if not hasattr(args, "measure"):
        return
    gpu, model = args.gpu, getattr(args, "model", None)
    if gpu == _BARE:
        warn("warning: a bare --gpu is now --measure (measure on this machine's GPU); "
             "--gpu NAME names a GPU profile, as in memsim")
        args.measure = True
    elif gpu is not None:
        if not hasattr(args, "model"):
            raise argparse.ArgumentTypeError(f"--gpu {gpu}: this command measures this machine's GPU "
                                             f"(--measure) and takes no profile")
        if model is not None and model.lower() != gpu.lower():
            raise argparse.ArgumentTypeError(f"--gpu {gpu} and --model {model} name two profiles: give --gpu alone")
        args.model = gpu
    elif model is not None:
        warn(f"warning: --model {model} is now --gpu {model} (the GPU profile, as in memsim)")
    args.gpu = args.model if hasattr(args, "model") else None
