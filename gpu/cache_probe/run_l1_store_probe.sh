#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_l1_store_probe.sh
# Two ncu runs (base clocks, caches flushed: ncu's defaults) of l1_store_probe.py.
set -u
M=launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_shared_mem,launch__registers_per_thread,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,gpu__time_duration.sum
for run in 1 2; do
  ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/l1st_$run.csv" \
    python3 gpu/cache_probe/l1_store_probe.py >"$OUT/l1st_launches.json" 2>"$OUT/l1st_$run.err"
  echo "run $run rc=$?"; tail -2 "$OUT/l1st_$run.err"
done
