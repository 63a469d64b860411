#!/usr/bin/env bash
# On the GPU machine, from the repository root: bash gpu/cache_probe/run_lrc_probe.sh [PROBE ...]
# (lrc_probe.py lists the probes; none named: all, a few minutes under ncu)
set -uo pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
cd gpu/cache_probe
M=lts__t_sectors_srcunit_tex_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,gpu__time_duration.sum
ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/lrc_ncu.csv" python3 lrc_probe.py "$@" > "$OUT/lrc_launches.json" 2> "$OUT/lrc_ncu.err"
echo "rc=$?"; tail -3 "$OUT/lrc_ncu.err"; wc -l "$OUT/lrc_ncu.csv"
