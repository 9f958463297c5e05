# SPDX-License-Identifier: GPL-2.0
# 44-terminal.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# Output fits the terminal (issue 28 item 14), as procps top and perf stat do: TIOCGWINSZ on a
# terminal, else COLUMNS/LINES, else full lines for a pipe or a file. Run on pseudo-terminals
# of chosen sizes (tests/ptyfit.py); each check also run with a doctored, narrower width, where
# it must fail.
echo "# terminal size: stat -I and top fit the screen"

python3 tests/ptyfit.py selftest > "$T/pty-self.chk" 2>&1; tally "ptyfit selftest" "$T/pty-self.chk"

# stat -I at 80x24: every line, stderr's too, within 80 columns
python3 tests/ptyfit.py run 80 24 "$T/st80.txt" -- $MG stat -I 200 -c 3 > /dev/null 2>&1
python3 tests/ptyfit.py check 80 "$T/st80.txt" > "$T/st80.chk" 2>&1; tally "stat -I 200 -c 3 at 80x24" "$T/st80.chk"
grep -q '^time  *ctime_updates' "$T/st80.txt" && grep -q '^ctime_updates ' "$T/st80.txt" \
	&& ok "stat at 80x24: the interval rows and the summary are there" || bad "stat at 80x24: $(head -5 "$T/st80.txt")"
python3 tests/ptyfit.py check 60 "$T/st80.txt" > "$T/st80d.chk" 2>&1 \
	&& bad "ptyfit check: the 80-column output passed a doctored 60-column check" \
	|| ok "ptyfit check: the 80-column output fails a doctored 60-column check"
# every counter (-e all), per-CPU, beside a stress (wide debugfs ranges) at 60x24
$MG stress --threads 2 --duration 3 > /dev/null 2>&1 & sp=$!
sleep 0.3
python3 tests/ptyfit.py run 60 24 "$T/st60.txt" -- $MG stat -e all -A -I 300 -c 2 > /dev/null 2>&1
wait $sp
python3 tests/ptyfit.py check 60 "$T/st60.txt" > "$T/st60.chk" 2>&1; tally "stat -e all -A -I at 60x24 under a stress" "$T/st60.chk"
grep -q '^(to fit 60 columns, not shown:' "$T/st60.txt" \
	&& ok "stat at 60 columns names the interval columns it leaves out" \
	|| bad "stat at 60 columns: no note of the columns left out: $(grep -m1 '^time' "$T/st60.txt")"
# 40 columns: the per-CPU table in blocks of the CPUs that fit, the summary's rows wrapped whole
python3 tests/ptyfit.py run 40 24 "$T/st40.txt" -- $MG stat -e all -A -I 300 -c 1 > /dev/null 2>&1
python3 tests/ptyfit.py check 40 "$T/st40.txt" > "$T/st40.chk" 2>&1; tally "stat -e all -A at 40x24" "$T/st40.chk"
# a file gets full lines: every interval column with values, the summary's usual layout
env -u COLUMNS $MG stat -e all -I 200 -c 1 -o "$T/stf.txt" > /dev/null 2>&1
grep -q '^time .* ctime_skips ctime_cmpxchg_fails stat_queries ctime_sets  debugfs$' "$T/stf.txt" \
	&& grep -q '^counter                    total  source' "$T/stf.txt" \
	&& ok "stat to a file: full lines (every interval column, the usual summary)" \
	|| bad "stat to a file: $(grep -e '^time' -e '^counter' "$T/stf.txt")"
# COLUMNS where the output is no terminal: taken, as procps top takes it
COLUMNS=70 $MG stat -e all -I 200 -c 1 -o "$T/stc.txt" > /dev/null 2>&1
python3 tests/ptyfit.py check 70 "$T/stc.txt" > "$T/stc.chk" 2>&1; tally "stat -o FILE with COLUMNS=70" "$T/stc.chk"

# top: one screen per table, the header on each, beside a workload with more rows than fit
W="sh -c '$MG stress --threads 2 --files 30 --duration 2 > /dev/null'"
for size in 60x24 80x24 60x15; do
	c=${size%x*}; r=${size#*x}
	eval python3 tests/ptyfit.py run "$c" "$r" "\$T/top$size.txt" -- $MG top -B file -i 0.4 -c 3 -- "$W" \
		> /dev/null 2>&1
	python3 tests/ptyfit.py screens "$c" "$r" "$T/top$size.txt" "mgtrace top:" > "$T/top$size.chk" 2>&1
	tally "top -B file at $size: every screen fits, with its header" "$T/top$size.chk"
done
grep -q 'more rows; a taller terminal or -j shows them' "$T/top60x15.txt" \
	&& ok "top at 60x15: the rows cut to the height are counted" || bad "top at 60x15: no 'more rows' line"
python3 tests/ptyfit.py screens 60 12 "$T/top60x15.txt" "mgtrace top:" > "$T/topd.chk" 2>&1 \
	&& bad "ptyfit screens: a 15-line screen passed a doctored 12-line check" \
	|| ok "ptyfit screens: a 15-line screen fails a doctored 12-line check"
python3 tests/ptyfit.py screens 40 24 "$T/top60x24.txt" "mgtrace top:" > "$T/topd.chk" 2>&1 \
	&& bad "ptyfit screens: a 60-column screen passed a doctored 40-column check" \
	|| ok "ptyfit screens: a 60-column screen fails a doctored 40-column check"
# --noclear, and a pipe: the header once, full lines
env -u COLUMNS -u LINES $MG top -i 0.2 -c 2 > "$T/topp.txt" 2>&1
[ "$(grep -c '^mgtrace top:' "$T/topp.txt")" = 1 ] && ! grep -q $'\033' "$T/topp.txt" \
	&& grep -Eq '^[0-9:]{8}  [0-9.]+ s.*  in scope: ctime_swaps [0-9]+ \(after query [0-9]+\), skips [0-9]+, stats [0-9]+$' "$T/topp.txt" \
	&& ok "top to a pipe: the header once, no clear, full lines" || bad "top to a pipe: $(head -6 "$T/topp.txt")"
[ "$(left_attached)" = 0 ] && ok "nothing left attached after the terminal runs" || bad "BPF objects left behind"
