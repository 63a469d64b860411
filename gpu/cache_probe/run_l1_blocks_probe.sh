#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_l1_blocks_probe.sh
# Runs l1_blocks_probe.py (twice), then store_alloc_probe.py.
set -u
M=launch__shared_mem_config_size,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
for run in 1 2; do
  ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/l1blocks_$run.csv" \
    python3 gpu/cache_probe/l1_blocks_probe.py >"$OUT/l1blocks_launches.json" 2>"$OUT/l1blocks_$run.err"
  echo "run $run rc=$?"; tail -2 "$OUT/l1blocks_$run.err"
done
ncu --csv --page raw --print-units base --metrics "$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum" -k regex:^k_ \
  --log-file "$OUT/store_alloc.csv" python3 gpu/cache_probe/store_alloc_probe.py >"$OUT/store_alloc_launches.json" 2>"$OUT/store_alloc.err"
echo "store_alloc rc=$?"; tail -2 "$OUT/store_alloc.err"
