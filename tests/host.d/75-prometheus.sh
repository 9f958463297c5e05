# SPDX-License-Identifier: GPL-2.0
# 75-prometheus.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# stat --prometheus with the real components from Debian: node_exporter's textfile collector
# serves the file over HTTP, a Prometheus server scrapes it every second and answers the
# two queries of docs/prometheus.md, promtool lints the file and the contrib/ alert rules. The scraped
# values must equal mgtrace's own JSON for the same window; both servers are stopped and
# nothing is left behind.
echo "# stat --prometheus, node_exporter, Prometheus, promtool"
NODE_EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter)
PROMETHEUS=$(command -v prometheus)
PROMTOOL=$(command -v promtool)

python3 tests/promcheck.py selftest > "$T/prom-self.chk" 2>&1
tally prom-selftest "$T/prom-self.chk"
# the page shows the queries this test asks the server
python3 tests/promcheck.py doc docs/prometheus.md > "$T/prom-doc.chk" 2>&1
tally prom-doc "$T/prom-doc.chk"

if [ -z "$NODE_EXPORTER" ] || [ -z "$PROMETHEUS" ] || [ -z "$PROMTOOL" ]; then
	bad "prometheus: prometheus-node-exporter and prometheus (promtool) are installed (sh tools/deps.sh)"
else
	# promtool check rules on the example alert rules, and on a broken copy (must fail)
	if "$PROMTOOL" check rules contrib/mgtrace.rules.yml > "$T/rules.out" 2>&1; then
		ok "promtool check rules contrib/mgtrace.rules.yml: $(grep -o 'SUCCESS.*' "$T/rules.out")"
	else
		bad "promtool check rules contrib/mgtrace.rules.yml: $(cat "$T/rules.out")"
	fi
	sed 's/expr: /expr: sum(/' contrib/mgtrace.rules.yml > "$T/broken.rules.yml"
	"$PROMTOOL" check rules "$T/broken.rules.yml" > /dev/null 2>&1 \
		&& bad "promtool check rules: a broken expression fails" \
		|| ok "promtool check rules: a broken expression fails"

	if "$PROMTOOL" test rules contrib/mgtrace.rules.test.yml > "$T/rtest.out" 2>&1; then
		ok "promtool test rules: each alert fires on its case, none on a steady machine"
	else
		bad "promtool test rules contrib/mgtrace.rules.test.yml: $(cat "$T/rtest.out")"
	fi
	# twin: rules whose MgtraceNotCounting reads mgtrace_up instead of mgtrace_error (no
	# reason_class, no exit code) fail the same test
	mkdir -p "$T/rtwin" && cp contrib/mgtrace.rules.test.yml "$T/rtwin/"
	sed 's/expr: mgtrace_error > 0/expr: mgtrace_up == 0/' contrib/mgtrace.rules.yml > "$T/rtwin/mgtrace.rules.yml"
	! cmp -s contrib/mgtrace.rules.yml "$T/rtwin/mgtrace.rules.yml" &&
		! "$PROMTOOL" test rules "$T/rtwin/mgtrace.rules.test.yml" > /dev/null 2>&1 \
		&& ok "promtool test rules twin: MgtraceNotCounting on mgtrace_up == 0 fails its case" \
		|| bad "promtool test rules twin: MgtraceNotCounting on mgtrace_up == 0 passes"
	# the systemd unit: systemd's own parser accepts every line (a misspelt key is reported)
	if command -v systemd-analyze > /dev/null; then
		sed "s|/usr/sbin/mgtrace|$(realpath "$MG")|" contrib/mgtrace-exporter.service > "$T/mgtrace-exporter.service"
		out=$(systemd-analyze verify --man=no "$T/mgtrace-exporter.service" 2>&1)
		[ $? = 0 ] && [ -z "$out" ] && ok "systemd-analyze verify contrib/mgtrace-exporter.service" \
			|| bad "systemd-analyze verify contrib/mgtrace-exporter.service: $out"
		sed 's/^PrivateIPC=/PrivateIPCx=/' "$T/mgtrace-exporter.service" > "$T/bad.service"
		[ -n "$(systemd-analyze verify --man=no "$T/bad.service" 2>&1)" ] \
			&& ok "systemd-analyze verify reports a misspelt key" || bad "systemd-analyze verify reports a misspelt key"
	else
		skip unit-verify "systemd-analyze is not installed"
	fi
	# the unit's user and capabilities are enough for the exporter, and each of CAP_BPF and
	# CAP_PERFMON is needed: mgtrace runs as a non-root uid (65534 stands for the unit's
	# User=mgtrace) with exactly the unit's ambient capabilities, which must equal its
	# bounding set; the per-CPU counters are then validated at start (debugfs is root's)
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' contrib/mgtrace-exporter.service)
	acaps=$(sed -n 's/^AmbientCapabilities=//p' contrib/mgtrace-exporter.service)
	uuser=$(sed -n 's/^User=//p' contrib/mgtrace-exporter.service)
	[ -n "$caps" ] && [ "$caps" = "$acaps" ] && [ -n "$uuser" ] && [ "$uuser" != root ] \
		&& ok "the unit runs as $uuser, not root, with ambient = bounding capabilities ($caps)" \
		|| bad "the unit's User=$uuser, CapabilityBoundingSet=$caps, AmbientCapabilities=$acaps"
	# the unit starts on a host without prometheus-node-exporter's user: contrib/mgtrace.sysusers
	# makes its User= and Group=; twin: the unit as it was (User=prometheus) is reported
	unit_user_check unit-user contrib/mgtrace-exporter.service
	capset() { echo "-all$(for c in "$@"; do printf ',+%s' "$(echo "${c#CAP_}" | tr A-Z a-z)"; done)"; }
	# the textfile directory as the unit's StateDirectory= makes it: the user's, its mode
	mkdir "$T/caps" && chown 65534:65534 "$T/caps" && chmod 755 "$T" &&
		chmod "$(sed -n 's/^StateDirectoryMode=//p' contrib/mgtrace-exporter.service)" "$T/caps"
	cp "$MG" "$T/caps-mgtrace" && chmod 755 "$T/caps-mgtrace"
	asuser() { local set; set=$(capset "$@"); shift $#; setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps="$set" --ambient-caps="$set" --bounding-set="$set" -- \
		"$T/caps-mgtrace" stat -c 1 -i 0.2 --prometheus "$T/caps/m.prom"; }
	asuser $caps > /dev/null 2> "$T/caps.err"
	rc=$?
	[ $rc = 0 ] && grep -q '^mgtrace_floor_swaps_total{cpu="0"} ' "$T/caps/m.prom" \
		&& grep -q 'kernel_per_cpu="per-CPU via BTF offsets, validated at start' "$T/caps/m.prom" \
		&& ok "the exporter runs as uid 65534 with the unit's capabilities only ($caps), counters validated at start" \
		|| bad "the exporter runs as uid 65534 with the unit's capabilities only ($caps): exit $rc $(cat "$T/caps.err") $(grep mgtrace_info "$T/caps/m.prom")"
	# node_exporter, another user, reads the file there (uid 65533); twin: not through a
	# directory of mode 0700
	reader() { setpriv --reuid=65533 --regid=65533 --clear-groups cat "$T/caps/m.prom" 2> /dev/null | grep -c '^mgtrace_up 1$'; }
	[ "$(reader)" = 1 ] && ok "another uid (node_exporter's) reads the file in the unit's StateDirectoryMode=$(stat -c %a "$T/caps") directory" \
		|| bad "another uid cannot read the exporter's file: $(ls -la "$T/caps")"
	chmod 0700 "$T/caps"
	[ "$(reader)" != 1 ] && ok "twin: through a directory of mode 0700 another uid cannot read it" \
		|| bad "twin: another uid reads the file through a directory of mode 0700"
	chmod "$(sed -n 's/^StateDirectoryMode=//p' contrib/mgtrace-exporter.service)" "$T/caps"
	for c in $caps; do
		asuser $(echo $caps | tr ' ' '\n' | grep -vx $c) > /dev/null 2> "$T/caps.err"
		rc=$?
		[ $rc = 3 ] \
			&& ok "without $c the exporter exits 3: $(cat "$T/caps.err")" \
			|| bad "without $c the exporter exits 3: exit $rc $(cat "$T/caps.err")"
		# the refusal rewrote the file the run with both capabilities wrote: no stale counts
		python3 tests/promcheck.py error "$T/caps/m.prom" mgtrace 3 environment "lacks $c" > "$T/caps.chk" 2>&1
		tally "prom-refused: without $c" "$T/caps.chk"
	done
	expect "capabilities: nothing left attached" test "$(left_attached)" = 0

	# a reader never sees a half-written file: 100 rewrites at 20 ms, read in a loop
	mkdir "$T/prr"
	$MG stat -i 0.02 -c 100 --prometheus "$T/prr/mgtrace.prom" > /dev/null 2>&1 &
	mgp=$!
	python3 tests/promcheck.py reads "$T/prr/mgtrace.prom" 1.5 > "$T/prr.chk" 2>&1
	wait $mgp && ok "stat -i 0.02 -c 100 --prometheus exits 0" || bad "stat -i 0.02 -c 100 --prometheus exits 0"
	tally prom-atomic "$T/prr.chk"
	[ "$(ls -A "$T/prr")" = mgtrace.prom ] && ok "only the metrics file is left in its directory" \
		|| bad "only the metrics file is left in its directory: $(ls -A "$T/prr")"

	# two free local ports
	read -r p1 p2 < <(python3 tests/promcheck.py free-ports 2)
	D="$T/textfile"
	mkdir -p "$D" "$T/tsdb"
	"$NODE_EXPORTER" --web.listen-address="127.0.0.1:$p1" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$D" > "$T/ne.log" 2>&1 &
	nep=$!
	# the server evaluates contrib/'s alert rules every second (MgtraceNotCounting, below)
	printf 'global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - %s\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
		"$(realpath contrib/mgtrace.rules.yml)" "$p1" > "$T/prometheus.yml"
	"$PROMETHEUS" --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
		--web.listen-address="127.0.0.1:$p2" > "$T/prometheus.log" 2>&1 &
	prp=$!
	for i in $(seq 100); do
		python3 tests/promcheck.py fetch "http://127.0.0.1:$p1/metrics" "$T/m0.txt" 2>/dev/null &&
			python3 tests/promcheck.py fetch "http://127.0.0.1:$p2/-/ready" "$T/r0.txt" 2>/dev/null && break
		sleep 0.2
	done
	expect "node_exporter on 127.0.0.1:$p1 and Prometheus on 127.0.0.1:$p2 answer" \
		grep -q Ready "$T/r0.txt"

	expect "Prometheus scraped node_exporter" python3 tests/promcheck.py wait-scraped "http://127.0.0.1:$p2"
	$MG stat -e all -i 1 --prometheus "$D/mgtrace.prom" --json -o "$T/prom.json" 2> "$T/prom.err" &
	mgp=$!
	for i in $(seq 50); do [ -e "$D/mgtrace.prom" ] && break; sleep 0.1; done
	$MG stress --duration 4 > /dev/null 2>&1
	sleep 2.5
	python3 tests/promcheck.py fetch "http://127.0.0.1:$p1/metrics" "$T/live.txt"
	python3 tests/promcheck.py query "http://127.0.0.1:$p2" "$T/tsdb.json"
	python3 tests/promcheck.py no-alert "http://127.0.0.1:$p2" MgtraceNotCounting > "$T/noalert.chk" 2>&1
	tally "prom-alert: while counting" "$T/noalert.chk"
	kill -INT $mgp
	wait $mgp && ok "stat -i 1 --prometheus: SIGINT ends it with exit 0" \
		|| bad "stat -i 1 --prometheus: SIGINT ends it with exit 0: $(cat "$T/prom.err")"
	python3 tests/promcheck.py fetch "http://127.0.0.1:$p1/metrics" "$T/final.txt"
	python3 tests/promcheck.py scrape "$T/live.txt" "$T/prom.json" > "$T/live.chk" 2>&1
	tally prom-live "$T/live.chk"
	python3 tests/promcheck.py scrape "$T/final.txt" "$T/prom.json" --final > "$T/final.chk" 2>&1
	tally prom-final "$T/final.chk"
	python3 tests/promcheck.py tsdb "$T/tsdb.json" "$T/prom.json" > "$T/tsdb.chk" 2>&1
	tally prom-tsdb "$T/tsdb.chk"
	if "$PROMTOOL" check metrics < "$D/mgtrace.prom" > "$T/lint.out" 2>&1; then
		ok "promtool check metrics passes on the file"
	else
		bad "promtool check metrics passes on the file: $(cat "$T/lint.out")"
	fi
	# the linter is not blind: a counter without _total must be reported
	sed 's/mgtrace_floor_swaps_total/mgtrace_floor_swaps/' "$D/mgtrace.prom" |
		"$PROMTOOL" check metrics > /dev/null 2>&1 && bad "promtool check metrics: a counter without _total fails" \
		|| ok "promtool check metrics: a counter without _total fails"
	# MGTRACE_PROM_OUT=DIR keeps the run's files (docs/prometheus.md's excerpt and query output)
	[ -n "${MGTRACE_PROM_OUT:-}" ] && cp "$D/mgtrace.prom" "$T/live.txt" "$T/tsdb.json" \
		"$T/prom.json" "$T/live.chk" "$T/final.chk" "$T/tsdb.chk" "$MGTRACE_PROM_OUT/"
	# the next run is refused (bpf() denied, exit 3): it rewrites the file that node_exporter
	# serves with mgtrace_up 0 and the reason, never leaving the last run's counts as this
	# one's, and the server's MgtraceNotCounting alert (contrib/mgtrace.rules.yml) goes pending
	build/denybpf $MG stat --prometheus "$D/mgtrace.prom" -- true > /dev/null 2>&1; rc=$?
	[ $rc = 3 ] && ok "stat refused (bpf() denied): exit 3" || bad "stat refused (bpf() denied): exit $rc, want 3"
	python3 tests/promcheck.py fetch "http://127.0.0.1:$p1/metrics" "$T/refused.txt"
	python3 tests/promcheck.py error "$T/refused.txt" mgtrace 3 environment "seccomp filter" > "$T/refused.chk" 2>&1
	tally "prom-refused: as node_exporter serves it" "$T/refused.chk"
	python3 tests/promcheck.py alert "http://127.0.0.1:$p2" MgtraceNotCounting 20 --desc "seccomp filter" \
		reason_class=environment > "$T/alert.chk" 2>&1
	tally "prom-alert: after the refusal" "$T/alert.chk"
	kill $nep $prp
	wait $nep $prp 2>/dev/null
	if kill -0 $nep 2>/dev/null || kill -0 $prp 2>/dev/null || kill -0 $mgp 2>/dev/null; then
		bad "prometheus: node_exporter, Prometheus and mgtrace stopped"
	else
		ok "prometheus: node_exporter, Prometheus and mgtrace stopped"
	fi
	[ "$(ls -A "$D")" = mgtrace.prom ] && ok "prometheus: no temporary file left beside mgtrace.prom" \
		|| bad "prometheus: no temporary file left beside mgtrace.prom: $(ls -A "$D")"
	expect "prometheus: nothing left attached" test "$(left_attached)" = 0
	rm -rf "$D" "$T/tsdb"
fi

# process scope: no row is compared with debugfs and no kernel counter is used, so no
# mgtrace_debugfs_mismatches 0 and no per-CPU reader named; the file agrees with the JSON
mkdir -p "$T/pscope"
$MG stat --tree --prometheus "$T/pscope/m.prom" --json -o "$T/pscope.json" -- $MG stress --duration 0.5 > /dev/null 2>&1
python3 tests/promcheck.py file "$T/pscope/m.prom" "$T/pscope.json" > "$T/pscope.chk" 2>&1
tally prom-process-scope "$T/pscope.chk"
# ... and the JSON says the same: mismatches null with why, not a 0 that means "nothing compared"
python3 - "$T/pscope.json" > "$T/pscope-mm.txt" 2>&1 <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
ok = s["mismatches"] is None and "compared" in s.get("mismatches_unavailable", "") and \
     not any("match" in r for r in s["counters"].values())
print(s["mismatches"], s.get("mismatches_unavailable"))
sys.exit(0 if ok else 1)
PY
[ $? = 0 ] && ok "stat --tree --json: mismatches null with why ($(cat "$T/pscope-mm.txt"))" \
	|| bad "stat --tree --json: mismatches in process scope: $(cat "$T/pscope-mm.txt")"
# and the text report names no per-CPU reader there
$MG stat --tree -- $MG stress --duration 0.3 > "$T/pscope.txt" 2>&1
grep -q "kernel per-CPU counters: unused in process scope" "$T/pscope.txt" \
	&& ok "stat --tree text: the kernel per-CPU counters are said unused in process scope" \
	|| bad "stat --tree text: $(grep 'kernel per-CPU' "$T/pscope.txt")"
if [ -n "$PROMTOOL" ]; then
	"$PROMTOOL" check metrics < "$T/pscope/m.prom" > "$T/pscope.lint" 2>&1 \
		&& ok "promtool check metrics passes on the process-scope file" \
		|| bad "promtool check metrics on the process-scope file: $(cat "$T/pscope.lint")"
fi

# A run that ends without counting (issue 28 item 1) rewrites FILE, which holds an earlier
# run's counts: mgtrace_up 0, mgtrace_error{reason_class} = the exit code, the reason only in
# mgtrace_error_info (tests/promcheck.py error); promtool accepts it. Each exit path: an
# unsupported environment (3), COMMAND not found (127) or not executable (126), bad input
# found after the outputs were opened (2). Twins: a run that counts has mgtrace_up 1 and no
# error (the error check fails on its file); a usage error found while reading the options
# (exit 2 before anything runs) leaves FILE as it was, as it leaves -o's file.
mkdir -p "$T/pref"
F="$T/pref/mgtrace.prom"
$MG stat --prometheus "$T/pref/earlier.prom" -- true > /dev/null 2>&1
grep -q '^mgtrace_ctime_updates_total{cpu="0"} ' "$T/pref/earlier.prom" \
	&& ok "prom-refused: an earlier run's file of counts to replace" || bad "prom-refused: no earlier run's file"
# prom_refused NAME CODE CLASS TEXT CMD...: FILE holds the earlier counts; CMD exits CODE, FILE is
# its error file (with the labels NAME=VALUE of $PL, the run's --prometheus-label, on every series)
prom_refused() {
	local name=$1 code=$2 class=$3 text=$4 rc; shift 4
	cp "$T/pref/earlier.prom" "$F"
	"$@" > /dev/null 2> "$T/pref.err"; rc=$?
	[ $rc = "$code" ] && [ "$(wc -l < "$T/pref.err")" = 1 ] && ok "$name: exit $code, one line ($(cat "$T/pref.err"))" \
		|| bad "$name: exit $rc (want $code): $(head -c 300 "$T/pref.err")"
	python3 tests/promcheck.py error "$F" mgtrace "$code" "$class" "$text" ${PL:-} > "$T/pref.chk" 2>&1
	tally "$name" "$T/pref.chk"
	if [ -n "$PROMTOOL" ]; then
		"$PROMTOOL" check metrics < "$F" > "$T/pref.lint" 2>&1 && ok "$name: promtool check metrics accepts the file" \
			|| bad "$name: promtool check metrics: $(head -c 300 "$T/pref.lint")"
	fi
	[ "$(ls -A "$T/pref" | xargs)" = "earlier.prom mgtrace.prom" ] || bad "$name: files left beside FILE: $(ls -A "$T/pref")"
}
prom_refused "stat --prometheus, bpf() denied" 3 environment "seccomp filter" build/denybpf $MG stat --prometheus "$F" -- true
prom_refused "stat --prometheus -- /nonexistent/cmd" 127 command "cannot run '/nonexistent/cmd'" \
	$MG stat --prometheus "$F" -- /nonexistent/cmd
grep -qx "mgtrace_error_info{reason=\"$(tail -1 "$T/pref.err" | sed 's/^mgtrace: //')\",errno=\"ENOENT\"} 1" "$F" \
	&& ok "stat --prometheus -- /nonexistent/cmd: reason is stderr's line, errno ENOENT" \
	|| bad "stat --prometheus -- /nonexistent/cmd: $(grep error_info "$F") against stderr $(cat "$T/pref.err")"
prom_refused "stat --prometheus -- /etc/passwd" 126 command "cannot run '/etc/passwd'" \
	$MG stat --prometheus "$F" -- /etc/passwd
PL="job=wide" prom_refused "stat --prometheus, bad input after the outputs opened" 2 usage "MGTRACE_TEST_SKEW='x'" \
	env MGTRACE_TEST_SKEW=x $MG stat --prometheus "$F" --prometheus-label job=wide -- true
# twins: a run that counts; a usage error in the options
cp "$T/pref/earlier.prom" "$F"
$MG stat --prometheus "$F" -- true > /dev/null 2>&1; rc=$?
python3 tests/promcheck.py error "$F" mgtrace 3 environment "" > "$T/pref.chk" 2>&1
[ $rc = 0 ] && grep -qx 'mgtrace_up 1' "$F" && ! grep -q '^mgtrace_error' "$F" && grep -q '^FAIL ' "$T/pref.chk" \
	&& ok "twin: a run that counts: mgtrace_up 1, no mgtrace_error, the error check fails on its file" \
	|| bad "twin: a run that counts: exit $rc, $(grep -e '^mgtrace_up' -e '^mgtrace_error' "$F")"
cp "$T/pref/earlier.prom" "$F"
$MG stat --prometheus "$F" -i 0 -- true > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && cmp -s "$F" "$T/pref/earlier.prom" \
	&& ok "twin: a usage error in the options (exit 2, nothing run) leaves FILE as it was" \
	|| bad "twin: a usage error in the options: exit $rc, FILE $(grep -c . "$F") lines"
expect "prom-refused: nothing left attached" test "$(left_attached)" = 0

badcase prom-no-dir 2 "does not exist" $MG stat --prometheus /nonexistent-dir/m.prom
badcase prom-dir 2 "is a directory" $MG stat --prometheus /tmp
# files that are not mgtrace's to replace (issue 28 item 0): refused at start, before COMMAND
badcase prom-dev-null 2 "is not a regular file (a character device)" $MG stat --prometheus /dev/null -- true
[ -c /dev/null ] && ok "/dev/null is still a character device" || bad "/dev/null was replaced: $(ls -la /dev/null)"
badcase prom-proc 3 "cannot hold the temporary file" $MG stat --prometheus /proc/uptime -- touch "$T/prom-ran"
[ ! -e "$T/prom-ran" ] && ok "--prometheus /proc/uptime: refused before COMMAND ran" || bad "--prometheus /proc/uptime: COMMAND ran first"
badcase prom-same-as-o 2 "are one file" $MG stat -o "$T/same.prom" --prometheus "$T/./same.prom" -- true
badcase junit-same-as-o 2 "are one file" $MG check -o "$T/same.xml" --junit "$T/same.xml" -- true
# one file through a dangling symlink: --junit LINK, LINK -> -o's file, neither there yet (the
# open creates the target: both reports went into one file); its twin, a link to another
# file, runs and writes each report whole
ln -sf "$T/dx.xml" "$T/dl.xml"
badcase junit-link-to-o 2 "are one file" $MG check -o "$T/dx.xml" --junit "$T/dl.xml" -- true
ln -sf "$T/dy.xml" "$T/dl2.xml"
$MG check -o "$T/dy.txt" --junit "$T/dl2.xml" -- true > /dev/null 2>&1; rc=$?
[ $rc = 0 ] && [ -L "$T/dl2.xml" ] && python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/dy.xml" 2> /dev/null \
	&& grep -q '^verdict: PASS' "$T/dy.txt" \
	&& ok "twin: --junit through a dangling symlink to another file: exit 0, the XML and the text whole" \
	|| bad "twin: --junit through a dangling symlink to another file: exit $rc, $(head -c 200 "$T/dy.xml" 2>&1)"
ln -sf "$T/nowhere/x.prom" "$T/dangling.prom"
badcase prom-dangling-symlink 2 "a symlink whose target does not exist" $MG stat --prometheus "$T/dangling.prom" -- true
# a symlink is written through: its target gets the metrics, the link stays a link
echo old > "$T/target.prom"; ln -sf "$T/target.prom" "$T/link.prom"
$MG stat --prometheus "$T/link.prom" -- true > /dev/null 2>&1
[ -L "$T/link.prom" ] && grep -q '^mgtrace_info' "$T/target.prom" \
	&& ok "--prometheus through a symlink: the target written, the link kept" \
	|| bad "--prometheus through a symlink: link $(ls -la "$T/link.prom"), target $(head -c 80 "$T/target.prom")"
# a --prometheus file that can no longer be written (its filesystem filled up mid-run) ends the
# run as a failed -o does: exit 5, one line with the write's own error, fewer intervals than -c
mkdir -p "$T/pfull" && mount -t tmpfs -o size=64k mgtrace-pfull "$T/pfull"
$MG stat --prometheus "$T/pfull/m.prom" -I 200 -c 25 -x , > "$T/pfull.out" 2> "$T/pfull.err" &
pfpid=$!
sleep 0.5
dd if=/dev/zero of="$T/pfull/fill" bs=4k 2> /dev/null
wait $pfpid; rc=$?
rows=$(cut -d, -f1 "$T/pfull.out" | sort -u | grep -c .)	# -x: one line per counter, the time first
if [ $rc = 5 ] && [ "$(grep -c 'writing --prometheus.*No space left on device' "$T/pfull.err")" = 1 ] &&
	[ "$rows" -lt 25 ]; then
	ok "a full --prometheus filesystem ends the run: exit 5, one ENOSPC line, $rows of 25 intervals"
else
	bad "a full --prometheus filesystem: exit $rc, $rows of 25 intervals: $(cat "$T/pfull.err")"
fi
umount "$T/pfull"
# without -i the file is still rewritten every 15 s (MG_PROM_INTERVAL_S), not left at its start
# values for a long run: 16 s of a steady workload; the copy taken at 14 s is the start's
# (its twin: the check can fail) and the one at 16.5 s counts the workload
mkdir -p "$T/pint" && rm -f "$T/pint/m.prom"
$MG stat --prometheus "$T/pint/m.prom" -- $MG stress --threads 1 --duration 17 > /dev/null 2>&1 &
pipid=$!
sleep 14; cp "$T/pint/m.prom" "$T/pint/at14.prom" 2> /dev/null
sleep 2.5; cp "$T/pint/m.prom" "$T/pint/at16.prom" 2> /dev/null
wait $pipid
el() { awk '$1 == "mgtrace_elapsed_seconds" { print $2 }' "$1" 2> /dev/null; }
e14=$(el "$T/pint/at14.prom"); e16=$(el "$T/pint/at16.prom")
awk -v a="$e14" 'BEGIN { exit !(a != "" && a < 1) }' \
	&& ok "--prometheus without -i: at 14 s the file is still the start's (elapsed $e14 s)" \
	|| bad "--prometheus without -i: at 14 s elapsed '$e14' (want the start's, < 1 s)"
awk -v a="$e16" 'BEGIN { exit !(a != "" && a >= 14.9 && a < 16) }' \
	&& ok "--prometheus without -i: rewritten at 15 s (elapsed $e16 s)" \
	|| bad "--prometheus without -i: at 16.5 s elapsed '$e16' (want about 15 s: rewritten every 15 s)"
# --prometheus-label NAME=VALUE on every series: two runs share one directory without
# colliding (each series differs by job); a value's quote, backslash and newline escaped once
# (Prometheus reads back the value given); a bad name, mgtrace's own label, twice: refused
$MG stat --prometheus "$T/pint/a.prom" --prometheus-label job=wide --prometheus-label 'team=fs "x"' \
	--prometheus-label "dir=C:\\tmp"$'\n2' -- true > /dev/null 2>&1
python3 - "$T/pint/a.prom" > "$T/plabel.chk" 2>&1 <<'PY'
import re, sys
def check(c, m): print(("PASS " if c else "FAIL ") + m)
series = [l for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
check(series and all(re.match(r'^[a-z_]+\{job="wide",team="fs \\"x\\"",dir="C:\\\\tmp\\n2"[,}]', l) for l in series),
      f"--prometheus-label: every one of {len(series)} series carries job, team and dir first")
check(any(l.startswith('mgtrace_ctime_updates_total{job="wide",team="fs \\"x\\"",dir="C:\\\\tmp\\n2",cpu="0"}')
          for l in series), "--prometheus-label: before mgtrace's own labels (cpu)")
unlabel = lambda s: re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), s)
m = re.search(r'dir="((?:[^"\\]|\\.)*)"', series[0]) if series else None
check(m and unlabel(m.group(1)) == "C:\\tmp\n2",
      f"--prometheus-label: dir reads back as C:\\tmp, a newline, 2 ({m and m.group(1)!r})")
PY
tally prom-label "$T/plabel.chk"
if [ -n "$PROMTOOL" ]; then
	"$PROMTOOL" check metrics < "$T/pint/a.prom" > "$T/plabel.lint" 2>&1 \
		&& ok "promtool check metrics: a labelled file" || bad "promtool check metrics, labelled: $(head -c 300 "$T/plabel.lint")"
fi
badcase prom-label-syntax 2 "invalid --prometheus-label" $MG stat --prometheus "$T/pint/b.prom" --prometheus-label 9x=1 -- true
badcase prom-label-own 2 "a label of mgtrace's own series" $MG stat --prometheus "$T/pint/b.prom" --prometheus-label cpu=1 -- true
badcase prom-label-twice 2 "given twice" $MG stat --prometheus "$T/pint/b.prom" --prometheus-label a=1 --prometheus-label a=2 -- true
badcase prom-label-alone 2 "give --prometheus" $MG stat --prometheus-label a=1 -- true
badcase prom-label-le 2 "le is Prometheus' own" \
	$MG stat --prometheus "$T/pint/b.prom" --prometheus-label le=1 -- true
badcase prom-label-empty 2 "an empty value is, to Prometheus, no label at all" \
	$MG stat --prometheus "$T/pint/b.prom" --prometheus-label a= -- true
