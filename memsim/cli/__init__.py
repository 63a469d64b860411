"""The `memsim` command line (entry point `memsim.cli:main`)."""
from .commands import main

__all__ = ["main"]
