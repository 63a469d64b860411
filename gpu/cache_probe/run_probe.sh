#!/usr/bin/env bash
# On the GPU machine, from the repository root: bash gpu/cache_probe/run_probe.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
cd gpu/cache_probe
python3 probe.py timing > "$OUT/timing.json" 2> "$OUT/timing.err"
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,gpu__time_duration.sum
ncu --csv --page raw --print-units base --metrics "$M" -k regex:^k_ --log-file "$OUT/ncu.csv" python3 probe.py run > "$OUT/launches.json" 2> "$OUT/ncu.err"
echo "rc=$?"; tail -3 "$OUT/ncu.err"; wc -l "$OUT/ncu.csv"
