#!/usr/bin/env bash
# On the GPU machine, from the repository root: OUT=... bash gpu/cache_probe/run_carveout_probe.sh
# Runs carveout_probe.py, then store_lines_probe.py (one ncu run each).
set -u
M=launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__registers_per_thread,launch__block_size,launch__grid_size
ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/carveout.csv" \
  python3 gpu/cache_probe/carveout_probe.py >"$OUT/carveout_launches.json" 2>"$OUT/carveout.err"
echo "rc=$?"; tail -2 "$OUT/carveout.err"
S=lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
(cd gpu/cache_probe && ncu --csv --page raw --print-units base --metrics "$S" -k regex:^k_ --log-file "$OUT/store_lines.csv" \
  python3 store_lines_probe.py >"$OUT/store_lines_launches.json" 2>"$OUT/store_lines.err")
echo "rc=$?"; tail -2 "$OUT/store_lines.err"
