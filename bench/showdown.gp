# SPDX-License-Identifier: MIT
# showdown.gp - draws the showdown (bench/showdown.c's data file) as one PNG:
# a row of three bar charts per workload set (alloc/free, churn, iteration), one
# bar per design, milliseconds on a log scale (the naive pool is 1000x slower).
#   gnuplot -e "datafile='build/bench/showdown.dat'; outfile='bench/out/showdown.png'" bench/showdown.gp
if (!exists("datafile")) datafile = 'build/bench/showdown.dat'
if (!exists("outfile")) outfile = 'bench/out/showdown.png'
if (!exists("machine")) machine = ''

if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo noenhanced size 1500,1400 font 'sans,10'
} else {
    set terminal png noenhanced size 1500,1400
}
set output outfile

phase(k) = word("Alloc/Free Churn Iteration", k)
set style fill solid 0.8 border -1
set boxwidth 0.7
set logscale y
set grid ytics
set xtics rotate by -35 nomirror font ',9'
set ylabel 'ms (log)'
unset key

set multiplot layout 4,3 title "stow: the pool-design showdown, median ms per phase".(machine eq '' ? '' : ' - '.machine)
do for [s = 1:4] {
    do for [k = 1:3] {
        set title sprintf("Set %d, %s", s, phase(k))
        plot datafile index (s - 1) using 0:(column(k + 1)):($0 + 1):xtic(1) with boxes lc variable
    }
}
unset multiplot
