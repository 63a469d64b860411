"""The fuzzers' index expressions: C text and numpy values from one tree (validate/fuzz_programs.py
builds kernels of them; validate/fuzz2_cases.py adds shuffles and votes)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

INT_MAX = 2**31 - 1


# ---------------------------------------------------------------------------------------------
# Index expressions: C text and numpy values from one tree. Every value is a non-negative int,
# so C's truncating / and % agree with numpy's flooring ones.

class Expr:
    def c(self) -> str:
        raise NotImplementedError

    def eval(self, env: dict) -> np.ndarray:
        raise NotImplementedError

    def values(self, env: dict) -> np.ndarray:
        """Evaluate, refusing anything a C int could not hold."""
        out = np.asarray(self.eval(env), dtype=np.int64)
        if out.size and (out.min() < 0 or out.max() > INT_MAX):
            raise OverflowError(self.c())
        return out


@dataclass(frozen=True)
class Var(Expr):
    name: str

    def c(self) -> str:
        return self.name

    def eval(self, env):
        return np.asarray(env[self.name], dtype=np.int64)


@dataclass(frozen=True)
class Const(Expr):
    value: int

    def c(self) -> str:
        return str(self.value)

    def eval(self, env):
        return np.int64(self.value)


@dataclass(frozen=True)
class Op(Expr):
    """A binary operation (+ * / % ^ &) on two expressions."""

    symbol: str
    left: Expr
    right: Expr

    def c(self) -> str:
        return f"({self.left.c()} {self.symbol} {self.right.c()})"

    def eval(self, env):
        a, b = self.left.values(env), self.right.values(env)
        return {"+": np.add, "*": np.multiply, "/": np.floor_divide, "%": np.mod,
                "^": np.bitwise_xor, "&": np.bitwise_and}[self.symbol](a, b)


def add(*terms: Expr) -> Expr:
    terms = [t for t in terms if not (isinstance(t, Const) and t.value == 0)]
    if not terms:
        return Const(0)
    out = terms[0]
    for t in terms[1:]:
        out = Op("+", out, t)
    return out


def mul(k: int, e: Expr) -> Expr:
    if k == 0:
        return Const(0)
    return e if k == 1 else Op("*", Const(k), e)
