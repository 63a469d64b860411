#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_partial_write_probe.sh
# Three ncu runs (base clocks, caches flushed: ncu's defaults) of partial_write_probe.py.
set -u
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__cycles_elapsed.avg
for run in 1 2 3; do
  ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/partial_$run.csv" \
    python3 gpu/cache_probe/partial_write_probe.py >"$OUT/partial_launches.json" 2>"$OUT/partial_$run.err"
  echo "run $run rc=$?"
done
