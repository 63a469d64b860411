#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_side_probe.sh
# side_probe.py under the recordings' metric list (7 replay passes: ncu's foreign dirty lines are
# there) and under a one-pass list.
set -u
FULL=$(python3 -c 'from gpu import ncu; print(",".join(ncu.METRICS + ["profiler__replayer_passes"]))')
FEW=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,profiler__replayer_passes
for run in full few; do
  case $run in full) M=$FULL;; few) M=$FEW;; esac
  ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/side_$run.csv" \
    python3 gpu/cache_probe/side_probe.py >"$OUT/side_launches.json" 2>"$OUT/side_$run.err"
  echo "side $run rc=$?"; tail -2 "$OUT/side_$run.err"
done
