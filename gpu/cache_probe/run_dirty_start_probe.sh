#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_dirty_start_probe.sh
# Three ncu runs of dirty_start_probe.py: the writeback probe's 5 metrics (few passes), the
# recordings' full metric list (gpu.ncu.METRICS, 7 passes), and dram__bytes_write.sum alone.
set -u
FEW=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,profiler__replayer_passes
FULL=$(python3 -c 'from gpu import ncu; print(",".join(ncu.METRICS + ["profiler__replayer_passes"]))')
ONE=dram__bytes_write.sum,profiler__replayer_passes
for run in few full one; do
  case $run in few) M=$FEW;; full) M=$FULL;; one) M=$ONE;; esac
  ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/dirty_$run.csv" \
    python3 gpu/cache_probe/dirty_start_probe.py >"$OUT/dirty_launches.json" 2>"$OUT/dirty_$run.err"
  echo "$run rc=$?"
done
