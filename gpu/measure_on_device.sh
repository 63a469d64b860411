#!/usr/bin/env bash
# Measure memsim's cases on the GPU machine and leave the measurement files under $OUT.
#
# Run from the repository root on the device (through the `run` tool), carrying `.whl` (pydantic
# wheels, see docs/hardware.md):
#     bash gpu/measure_on_device.sh smoke            # the 25 reference launches + the GPU tests
#     bash gpu/measure_on_device.sh all [N] [SEED]   # suite + N fuzz cases (default 200, seed 0)
#     bash gpu/measure_on_device.sh suite|fuzz|corpus|prereg|prereg2..prereg16 ... # one set; corpus: validate/corpus_cases.py,
#                                                    # prereg, prereg2 ... prereg16: validate/prereg_cases.py, prereg2_cases.py, ... (pre-registered)
#                                                    # (FILTER=GLOB: only the cases it matches)
#     bash gpu/measure_on_device.sh file CASES.json  # the cases of a JSON list ({name, spec, tags})
#     bash gpu/measure_on_device.sh numba            # numba.cuda kernels (validate/numba_cases.py): their
#                                                    # PTX is linked by nvJitLink 13.0, so carry its wheel
#                                                    # in .whl too (nvidia-nvjitlink==13.0.88)
#     bash gpu/measure_on_device.sh triton           # Triton kernels (validate/triton_cases.py; needs
#                                                    # triton==3.6.0, which the GPU machine has)
#     bash gpu/measure_on_device.sh inductor         # torch.compile's generated Triton kernels
#                                                    # (gpu/inductor_functions.py, validate/inductor_cases.py)
#     bash gpu/measure_on_device.sh fuzz2 [N] [SEED]  # warp/atomic/double/local fuzz (default 150, seed 2)
#     bash gpu/measure_on_device.sh calibrate        # the GPU profile's microbenchmarks
#     bash gpu/measure_on_device.sh durations [N] [SET]  # N (default 21) ncu durations of each
#                                                    # case of SET (suite, fuzz, corpus, prereg, prereg2 ... prereg16 or all;
#                                                    # default suite; FILTER=GLOB: only the cases it
#                                                    # matches, to split a set over several calls)
#     bash gpu/measure_on_device.sh lrc [GLOB...]    # L2 request coalescer counters of recorded cases
#     bash gpu/measure_on_device.sh launchcfg SET [GLOB...]  # the driver's carveout of SET's cases
# Then here: validate import <files_at>/data   (files them under validate/data/<gpu>/).
#
# Out: $OUT/data/<gpu>/<set>.json, $OUT/environment.txt, $OUT/log.txt, $OUT/work.tgz (driver
# and ncu files, for post-mortems); calibrate writes $OUT/calibration.json instead of data/, to
# record here with `validate calibrate --from <files_at>/calibration.json --record`.
# A failing case is recorded as failed; the run goes on.
set -uo pipefail
MODE=${1:-all}
N=${2:-}
SEED=${3:-}
OUT=${OUT:-$PWD/out}
WORK=/tmp/memsim-work
mkdir -p "$OUT" && rm -rf "$WORK" && mkdir -p "$WORK"

if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target .site .whl/*.whl || { echo "error: could not install the wheels in .whl"; exit 2; }
fi
export PYTHONPATH=$PWD/.site:$PWD PYTHONUNBUFFERED=1
# nvJitLink from the carried wheel, where the nvidia namespace package does not reach it
export LD_LIBRARY_PATH=$PWD/.site/nvidia/cu13/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

{
  date -u +%FT%TZ
  nvidia-smi
  ncu --version
  python3 - <<'PY'
from gpu.versions import collect
from gpu import ncu
print(collect(ncu.version(ncu.find_ncu())).model_dump_json(indent=1))
PY
} >"$OUT/environment.txt" 2>&1

# The device tool kills a command at 600 s and then nothing comes back: each set stops in time
# (the sets are recorded one by one, so a cut-short fuzz run still leaves the suite's file).
DEADLINE=${DEADLINE:-570}
measure() {  # measure WORKNAME [validate run args...]: measure and record only; compare here later
  local left=$((DEADLINE - SECONDS))
  [ "$left" -gt 30 ] || { echo "error: no time left for $1"; return 1; }
  timeout "$left" python3 -m validate.cli run --measure --record --measure-only --out "$OUT/data" \
    --work "$WORK/$1" "${@:2}"
}

case "$MODE" in
  smoke)
    python3 -m tests.helpers.seed_cases "$WORK/seed_cases.json"
    measure seed --case-file "$WORK/seed_cases.json"
    python3 -m pytest -q -m gpu tests/gpu/test_gpu_side.py
    ;;
  suite|fuzz|corpus|prereg|prereg2|prereg3|prereg4|prereg5|prereg6|prereg7|prereg8|prereg9|prereg10|prereg11|prereg12|prereg13|prereg14|prereg15|prereg16)
    measure "$MODE" --cases "$MODE" --n "${N:-200}" --seed "${SEED:-0}" ${FILTER:+--filter "$FILTER"}
    ;;
  file)   # bash gpu/measure_on_device.sh file CASES.json: a JSON list of {name, spec, tags}
    measure "$(basename "$N" .json)" --case-file "$N"
    ;;
  numba)
    python3 -c "from memsim.engine.sass.nvjitlink import version; print('nvJitLink', version())" &&
      measure numba --cases numba
    ;;
  triton)  # Triton kernels (validate/triton_cases.py): compiled here by Triton 3.6.0 (torch 2.11 +
           # triton 3.6.0 on the GPU machine), their cubins loaded into CuPy
    python3 -c "import memsim.triton, triton; print('triton', triton.__version__)" &&
      measure triton --cases triton
    ;;
  inductor)  # torch.compile's kernels: gpu/inductor_functions.py writes Inductor's output code of 7
             # functions here (torch 2.11, Triton 3.6.0; checked against eager), into validate/inductor/,
             # then its Triton launches (validate/inductor_cases.py) are recorded as the triton mode does;
             # the files come back in $OUT/inductor_files.tgz (commit them with the recording)
    # (and with Inductor's own config choices into validate/inductor/defaults/, keeping the GPU's
    # timing of each config: autotune_timings.json)
    { timeout 120 python3 gpu/inductor_functions.py validate/inductor &&
      timeout 120 python3 gpu/inductor_functions.py validate/inductor/defaults --inductor-defaults; } \
      >"$OUT/inductor_functions.txt" 2>&1 &&
      tar -czf "$OUT/inductor_files.tgz" validate/inductor && measure inductor --cases inductor
    # and Triton's own autotuner's choice for examples/triton_autotune.py (docs/triton.md)
    timeout 60 python3 gpu/autotune_choice.py "$OUT/autotune_choice.json" >>"$OUT/inductor_functions.txt" 2>&1
    ;;
  fuzz2)
    measure fuzz2 --cases fuzz2 --n "${N:-150}" --seed "${SEED:-2}"
    ;;
  calibrate)
    timeout $((DEADLINE - SECONDS)) python3 -m validate.cli calibrate --measure --out "$OUT/calibration.json" \
      --work "$WORK/calibrate" && python3 -m pytest -q -m gpu tests/gpus/test_profiles.py
    ;;
  all)
    measure suite --cases suite && measure fuzz --cases fuzz --n "${N:-200}" --seed "${SEED:-0}"
    ;;
  durations)
    timeout $((DEADLINE - SECONDS)) python3 -m validate.cli durations --measure --cases "${3:-suite}" \
      --launches "${2:-21}" --out "$OUT/data" --work "$WORK/durations" ${FILTER:+--filter "$FILTER"}
    ;;
  lrc)
    shift   # validate lists the cases (the GPU side imports nothing from validate)
    python3 - "$WORK/lrc_cases.json" "$@" <<'EOF' &&
import fnmatch, json, sys
from validate.cli import driver_case, select_cases
out, patterns = sys.argv[1], sys.argv[2:] or ["*"]
cases = [driver_case(c) for _, c in select_cases("classic", "*", 200, 0)
         if any(fnmatch.fnmatchcase(c.name, p) for p in patterns)]
json.dump([json.loads(c.model_dump_json()) for c in cases], open(out, "w"))
EOF
    timeout $((DEADLINE - SECONDS)) python3 gpu/cache_probe/lrc_cases.py "$OUT/lrc.json" "$WORK/lrc_cases.json"
    ;;
  launchcfg)
    shift; WHICH=${1:-suite}; shift   # the driver's carveout (and occupancy limits) of a set's cases
    python3 - "$WORK/cfg_cases.json" "$WHICH" "$@" <<'EOF' &&
import fnmatch, json, sys
from validate.cli import driver_case, select_cases
out, which, patterns = sys.argv[1], sys.argv[2], sys.argv[3:] or ["*"]
cases = [driver_case(c) for _, c in select_cases(which, "*", None, None)
         if any(fnmatch.fnmatchcase(c.name, p) for p in patterns)]
json.dump([json.loads(c.model_dump_json()) for c in cases], open(out, "w"))
EOF
    timeout $((DEADLINE - SECONDS)) python3 gpu/cache_probe/launch_config_cases.py "$OUT/launchcfg_$WHICH.json" "$WORK/cfg_cases.json"
    ;;
  *)
    echo "error: unknown mode '$MODE' (smoke | suite | fuzz | fuzz2 | corpus | prereg | prereg2 | prereg3 | prereg4 | prereg5 | prereg6 | prereg7 | prereg8 | prereg9 | prereg10 | prereg11 | prereg12 | prereg13 | prereg14 | prereg15 | prereg16 | file | numba | triton | calibrate | all | durations | lrc | launchcfg)"; exit 2 ;;
esac 2>&1 | tee "$OUT/log.txt"
status=${PIPESTATUS[0]}
echo "measure_on_device: mode $MODE, exit $status, $SECONDS s" | tee -a "$OUT/log.txt"
tar czf "$OUT/work.tgz" -C /tmp memsim-work 2>/dev/null
exit "$status"
