"""memsim.engine.count: the shared-memory memo returns what counting afresh returns."""
import numpy as np
import pytest

from memsim.engine.count import MEMO_COLUMNS, shared_wavefronts, shared_wavefronts_memo


def _patterns(rng: np.random.Generator, width: int) -> list[tuple[np.ndarray, int]]:
    """Warp accesses in the shapes kernels make, each repeated at shifts of 128 bytes (the memo
    may answer), of one word (it may not: banks move) and of a random aligned amount."""
    lane = np.arange(32, dtype=np.int64)
    shapes = [lane * width, (lane % 16) * width, lane * width * 32, (lane // 2) * width,
              rng.integers(0, 512, 32) * width, np.zeros(32, np.int64), lane * 4 * width + 64]
    out = []
    for shape in shapes:
        for active in ((1 << 32) - 1, 0x0000FFFF, int(rng.integers(1, 1 << 32)), 0):
            for shift in (0, 128, 4 * width, 1024, int(rng.integers(0, 64)) * width):
                out.append((shape + shift, active))
    return out


@pytest.mark.parametrize("width", [4, 8, 16])
@pytest.mark.parametrize("is_store", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_memo_equals_counting_afresh(width, is_store, seed):
    rng = np.random.default_rng(seed)
    memo = np.full((2, MEMO_COLUMNS), -1, np.int64)
    scratch, bank_load = np.zeros(160, np.int64), np.zeros(32, np.int64)
    hits = 0
    for addrs, active in _patterns(rng, width):
        before = memo[1].copy()
        got = shared_wavefronts_memo(addrs, active, width, is_store, scratch, bank_load, memo, 1)
        hits += bool(active) and (memo[1] == before).all()
        assert got == shared_wavefronts(addrs, active, width, is_store, scratch, bank_load), (addrs, active)
    assert hits > 0   # the memo answered some of them itself
