"""`--gpu NAME` names a profile and `--measure` measures here, in validate as in memsim; the old
spellings (a bare --gpu, --model NAME) still work, each with a one-line warning."""
from __future__ import annotations

import pytest

from validate import cli, gpu_flags


@pytest.mark.parametrize("argv, measure, model, warning", [
    (["run", "--measure", "--record"], True, None, None),
    (["run", "--gpu", "--record"], True, None, "a bare --gpu is now --measure"),
    (["run", "--gpu", "A100"], False, "A100", None),
    (["run", "--model", "A100"], False, "A100", "--model A100 is now --gpu A100"),
    (["fuzz", "--gpu"], True, None, "a bare --gpu is now --measure"),
    (["durations", "--gpu"], True, None, "a bare --gpu is now --measure"),
    (["calibrate", "--measure"], True, None, None),
    (["calibrate", "--gpu"], True, None, "a bare --gpu is now --measure"),
])
def test_new_and_old_spellings_mean_the_same(argv, measure, model, warning):
    args = cli.parser().parse_args(argv)
    warned = []
    gpu_flags.resolve(args, warn=warned.append)
    assert args.measure is measure and getattr(args, "model", None) == model
    assert len(warned) == (warning is not None)
    assert all(warning in line and "\n" not in line for line in warned)


@pytest.mark.parametrize("argv, complaint", [
    (["calibrate", "--gpu", "A100"], "takes no profile"),
    (["run", "--gpu", "A100", "--model", "H100"], "name two profiles"),
])
def test_a_profile_where_none_fits_is_one_line(capsys, argv, complaint):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and complaint in err and err.count("\n") == 1
