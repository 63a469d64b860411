#!/usr/bin/env bash
# Generic-address probe (validate/suite/generic_access.cu, the suite's generic_* cases): which
# ncu counters LD.E / ST.E feed. Run through the device tool from the repository root, carrying
# the pydantic wheels in .whl:
#   bash gpu/generic_probe/run_on_device.sh
# Out: $OUT/metrics.txt (ncu --query-metrics), the suite measurement of the generic_* cases
# (memsim's metric set; `validate import`), and $OUT/generic.csv: the SASS instruction counters
# per space and every generic-named counter ncu offers, per launch. Recorded 2026-11-23: ncu 13.0
# offers no smsp__sass_inst_executed_op_generic_*; what the H100 counts is in docs/exactness.md.
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
ncu --query-metrics --chip gh100 > "$OUT/metrics.txt" 2>&1
DEADLINE=400 FILTER='generic_*' bash gpu/measure_on_device.sh suite
M=$(grep -oE '^(smsp__sass_inst_executed_op_generic[a-z_0-9]*|smsp__sass_data_bytes_mem_generic[a-z_0-9]*|l1tex__t_(requests|sectors)_pipe_lsu_mem_generic[a-z_0-9]*|l1tex__data_pipe_lsu_wavefronts_mem_generic[a-z_0-9]*)' \
    "$OUT/metrics.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
M=${M:-smsp__sass_inst_executed_op_generic_ld.sum,smsp__sass_inst_executed_op_generic_st.sum}
echo "$M" > "$OUT/generic_metrics.txt"
PYTHONPATH=$PWD/.site:$PWD python3 -c "import json; from validate.suite_cases import generic_access_cases as g; json.dump([{'name': c.name, 'spec': json.loads(c.spec.model_dump_json())} for c in g()], open('/tmp/generic_cases.json', 'w'))"
PYTHONPATH=$PWD/.site:$PWD ncu --csv --page raw --print-units base -k regex:^k_generic \
  --metrics "$M,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum" \
  python3 -m gpu.driver --cases /tmp/generic_cases.json --results /tmp/generic.jsonl --mode profile --reps 1 --warmups 0 \
  > "$OUT/generic.csv" 2>&1
echo "generic probe: exit $?"
