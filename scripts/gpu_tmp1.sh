. scripts/gpu_setup.sh
B=build/gemmtop
$B sweep --backend cuda --kernel fast02_warptile --size 4096 --set BK=8 --set AMAP=0 --set GROUP=16 --budget 70 --reps 10 --warmup 3 --timeout 20 --save $OUT/sw.json > $OUT/sw.txt 2>&1
sed -n 1,8p $OUT/sw.txt; grep -E "^tried" $OUT/sw.txt
$B run --backend cuda --kernel fast02_warptile --size 4096 --vendor --reps 20 $(sed -n 3p $OUT/sw.txt | awk '{for(i=2;i<=NF-2;i++) printf "--set %s ", $i}') | grep -E "kernel|speed|vendor"
