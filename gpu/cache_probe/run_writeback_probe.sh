#!/usr/bin/env bash
# On the GPU machine, from gpu/cache_probe: OUT=... bash run_writeback_probe.sh [PROBE.py] (n1.csv, n2.csv, l.json)
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for r in 1 2;do ncu --csv --page raw --print-units base --metrics $M -k regex:^k_ --log-file $OUT/n$r.csv python3 ${1:-writeback_probe.py} >$OUT/l.json 2>$OUT/e$r.txt;echo rc=$?;tail -2 $OUT/e$r.txt;done
