#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_exit_probe.sh
set -u
M=launch__registers_per_thread,launch__occupancy_limit_registers,gpu__time_duration.sum,sm__warps_active.avg.per_cycle_active,sm__ctas_active.avg.per_cycle_active,sm__ctas_launched.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum,launch__occupancy_limit_warps
for run in ${RUNS:-1 2}; do
  ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/exit_$run.csv" \
    python3 gpu/cache_probe/exit_probe.py >"$OUT/exit_launches.json" 2>"$OUT/exit_$run.err"
  echo "run $run rc=$?"; tail -2 "$OUT/exit_$run.err"
done
