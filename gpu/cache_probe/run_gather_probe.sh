#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_gather_probe.sh
# gather_probe.py, inflight_probe.py and stream_mix_probe.py under the recordings' metric list (gpu.ncu.METRICS, the passes the prereg sets
# were recorded with) and under a one-pass list.
set -u
FULL=$(python3 -c 'from gpu import ncu; print(",".join(ncu.METRICS + ["profiler__replayer_passes"]))')
FEW=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,profiler__replayer_passes
for run in full few; do
  case $run in full) M=$FULL;; few) M=$FEW;; esac
  for probe in gather inflight stream_mix; do
    ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/${probe}_$run.csv" \
      python3 gpu/cache_probe/${probe}_probe.py >"$OUT/${probe}_launches.json" 2>"$OUT/${probe}_$run.err"
    echo "$probe $run rc=$?"; tail -2 "$OUT/${probe}_$run.err"
  done
done
