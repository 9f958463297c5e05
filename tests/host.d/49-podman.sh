# SPDX-License-Identifier: GPL-2.0
# 49-podman.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# mgtrace in a real container: podman (Debian's 4.3), rootfs of the static mgtrace and
# busybox-static, the README's line (--cap-add BPF --cap-add PERFMON --security-opt
# seccomp=unconfined --tmpfs /tmp): probe, stat, check (PASS, the container's pids under
# --tree), trace and top run; without seccomp=unconfined the default profile's refusal of
# bpf() is named in one line, exit 3; nothing left attached. Then the image (make image,
# Containerfile: FROM scratch, the static binary) run with README.md's podman line exactly
# as written (PASS), and without its flags (one line, exit 3, the JUnit file written); each
# mode of each command refused with check -d 1's line (issue 43 parts 3 and 4). Skipped
# without podman (tools/deps.sh installs it).
echo "# podman"
MIN="--cap-add BPF --cap-add PERFMON --security-opt seccomp=unconfined --tmpfs /tmp"
# the README shows the flags this test runs with; the check fails on a copy without one of them
readme_shows_min() { grep -qF -- "podman run --rm $MIN" "$1"; }
readme_shows_min README.md && ok "README.md shows the podman line this test runs: $MIN" \
	|| bad "README.md shows the podman line this test runs: $MIN"
sed 's| --tmpfs /tmp||' README.md > "$T/readme-nomin.md"
readme_shows_min "$T/readme-nomin.md" && bad "a README without --tmpfs /tmp in its podman line fails the check" \
	|| ok "a README without --tmpfs /tmp in its podman line fails the check"
if ! command -v podman > /dev/null || [ ! -x ./mgtrace.static ] || ! command -v busybox > /dev/null; then
	skip podman "podman, ./mgtrace.static (make mgtrace.static) or busybox-static missing"
else
	R="$T/podroot"
	mkdir -p "$R/bin" "$R/tmp" "$R/proc" "$R/sys" "$R/dev" "$R/etc"
	cp ./mgtrace.static "$R/bin/mgtrace"; cp "$(command -v busybox)" "$R/bin/busybox"
	for a in sh touch stat head cat; do ln -sf busybox "$R/bin/$a"; done
	# Two host settings this machine needs, detected, not assumed: crun 1.8 refuses a hybrid
	# cgroup layout (runc does not), and podman's default rlimits may exceed the hard limits
	PODRUN="podman"
	if grep -q ' - cgroup ' /proc/self/mountinfo && command -v runc > /dev/null; then PODRUN="podman --runtime runc"; fi
	# (podman's own processes run with RLIMIT_NPROC 32768 here, runc cannot raise it)
	np=$(ulimit -Hu); [ "$np" = unlimited ] || [ "$np" -gt 32768 ] && np=32768
	PODRUN="$PODRUN run --rm --network none --ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=$np:$np"
	pod() { timeout 120 $PODRUN "$@"; }
	for c in "probe" "stat -c 1" "top -c 1"; do
		pod $MIN --rootfs "$R" mgtrace $c > "$T/pod.out" 2> "$T/pod.err" \
			&& ok "podman $MIN: mgtrace $c" \
			|| bad "podman $MIN: mgtrace $c: exit $? $(tail -2 "$T/pod.err")"
	done
	pod $MIN --rootfs "$R" mgtrace check -d 2 > "$T/pod.out" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q '^verdict: PASS' "$T/pod.out" && grep -q 'mounted on /tmp' "$T/pod.out" \
		&& ok "podman: check -d 2 PASS on the container's tmpfs" || bad "podman: check -d 2: exit $rc $(tail -3 "$T/pod.out")"
	pod $MIN --rootfs "$R" mgtrace check --tree -- sh -c 'echo "SHPID $$"; touch /tmp/x; stat /tmp/x > /dev/null; touch /tmp/x' \
		> "$T/pod-tree.out" 2>&1
	rc=$?
	python3 - "$T/pod-tree.out" $rc > "$T/pod-tree.chk" 2>&1 <<'PY'
import re, sys
txt = open(sys.argv[1]).read()
sh = re.findall(r"^SHPID (\d+)$", txt, re.M)
pid = re.findall(r"COMMAND \(pid (\d+)\)", txt)
ev = re.findall(r"^events \(attach to detach\): (\d+) ", txt, re.M)
print(("PASS " if sys.argv[2] == "0" and "verdict: PASS" in txt else "FAIL ")
      + f"podman: check --tree PASS (exit {sys.argv[2]})")
print(("PASS " if sh and pid == sh else "FAIL ") + f"podman: COMMAND's pid is the container's ({pid} = {sh})")
print(("PASS " if ev and int(ev[0]) > 0 else "FAIL ") + f"podman: --tree judged events ({ev})")
PY
	tally podman-tree "$T/pod-tree.chk"
	pod --rootfs "$R" sh -c 'mgtrace trace -- touch /tmp/y' > "$T/pod.out" 2> "$T/pod.err"
	rc=$?
	# no flags: the default capability set lacks CAP_BPF; named, one line
	[ $rc = 3 ] && grep -q '^mgtrace: needs CAP_BPF and CAP_PERFMON' "$T/pod.err" && [ "$(wc -l < "$T/pod.err")" = 1 ] \
		&& ok "podman without flags: $(cat "$T/pod.err")" || bad "podman without flags: exit $rc $(cat "$T/pod.err")"
	pod --cap-add BPF --cap-add PERFMON --rootfs "$R" mgtrace trace -- touch /tmp/y > "$T/pod.out" 2> "$T/pod.err"
	rc=$?
	[ $rc = 3 ] && grep -q "refused by this process's seccomp filter" "$T/pod.err" && [ "$(wc -l < "$T/pod.err")" = 1 ] \
		&& ok "podman's default seccomp profile named: $(cat "$T/pod.err")" \
		|| bad "podman's default seccomp profile: exit $rc $(cat "$T/pod.err")"
	pod $MIN --rootfs "$R" sh -c 'mgtrace trace -- touch /tmp/y' > "$T/pod.out" 2> "$T/pod.err"
	rc=$?
	# with COMMAND, trace's records go to stderr, COMMAND keeps stdout
	[ $rc = 0 ] && grep -q 'ctime_swap\|ctime_skip' "$T/pod.err" \
		&& ok "podman: trace -- touch shows its ctime events" || bad "podman: trace: exit $rc $(tail -2 "$T/pod.err") $(head -3 "$T/pod.out")"
	[ "$(left_attached)" = 0 ] && ok "podman: nothing left attached" || bad "podman: BPF objects left behind"
	# every mode refused before any BPF object loads, with check -d 1's line (check --
	# COMMAND blamed the PID-namespace kfunc: "bpf_task_from_vpid ... did not load"); -p 1
	# is the container's first process
	mkdir -p "$T/pj" && chmod 777 "$T/pj"
	RA_PID=1 refused_alike podman-no-flags /out/j0.xml "$T/pj/j0.xml" pod -v "$T/pj:/out" \
		--rootfs "$R" mgtrace
	grep -q '^mgtrace: needs CAP_BPF and CAP_PERFMON' "$T/ra-ref.err" && ok "podman-no-flags: the capabilities named" \
		|| bad "podman-no-flags: $(cat "$T/ra-ref.err")"
	RA_PID=1 refused_alike podman-seccomp /out/j1.xml "$T/pj/j1.xml" pod -v "$T/pj:/out" \
		--cap-add BPF --cap-add PERFMON --rootfs "$R" mgtrace
	grep -q "refused by this process's seccomp filter" "$T/ra-ref.err" && ok "podman-seccomp: the profile named" \
		|| bad "podman-seccomp: $(cat "$T/ra-ref.err")"
fi

# The image a CI job pulls, and README.md's podman line run exactly as it is written there
if ! command -v podman > /dev/null; then
	skip podman-image "podman missing (tools/deps.sh installs it)"
elif ! make -s image > "$T/image.out" 2>&1; then
	bad "make image: $(tail -3 "$T/image.out")"
else
	mkdir -p "$T/pj" && chmod 777 "$T/pj"
	layers=$(podman image inspect -f '{{len .RootFS.Layers}}' localhost/mgtrace 2> /dev/null)
	grep -qx 'FROM scratch' Containerfile && [ "$layers" = 1 ] \
		&& ok "make image: localhost/mgtrace, FROM scratch, one layer (the static binary)" \
		|| bad "make image: want FROM scratch and one layer, got $layers layers"
	# the README's line: the sh block after "smallest flags that work", continuations joined
	python3 - README.md > "$T/readme-line" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
b = re.search(r"smallest flags that work.*?```sh\n(.*?)```", t, re.S)
print(re.sub(r"\\\n\s*", "", b.group(1)).strip() if b else "")
PY
	line=$(cat "$T/readme-line")
	case "$line" in "podman run "*) ok "README.md's podman line: $line" ;;
		*) bad "README.md has no podman line after 'smallest flags that work': $line" ;; esac
	(cd "$T" && timeout 180 sh -c "$line") > "$T/readme-run.out" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q '^verdict: PASS' "$T/readme-run.out" \
		&& ok "README.md's podman line as written: check PASS" \
		|| bad "README.md's podman line as written: exit $rc $(tail -3 "$T/readme-run.out")"
	# without the documented flags: the one line the README names, exit 3, the JUnit file written
	noflags=$(printf '%s\n' "$line" | sed 's| --cap-add BPF --cap-add PERFMON --security-opt seccomp=unconfined||;
		s|podman run --rm |podman run --rm -v '"$T/pj"':/out |; s|check -d 10$|check -d 1 --junit /out/jimg.xml|')
	(cd "$T" && timeout 180 sh -c "$noflags") > "$T/noflags.out" 2> "$T/noflags.err"
	rc=$?
	python3 - "$T/pj/jimg.xml" "$T/noflags.err" $rc > "$T/noflags.chk" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
err = open(sys.argv[2]).read()
print(("PASS " if sys.argv[3] == "3" and err.count("\n") == 1 and
       err.startswith("mgtrace: needs CAP_BPF and CAP_PERFMON") else "FAIL ")
      + f"the image without the flags: exit {sys.argv[3]}, {err.strip()!r}")
try:
    e = ET.parse(sys.argv[1]).getroot().find("testcase/error")
    msg = e.get("message") if e is not None else None
except (OSError, ET.ParseError) as x:
    msg = f"no JUnit file: {x}"
print(("PASS " if msg and "mgtrace: " + msg == err.strip() else "FAIL ")
      + f"the image without the flags: the JUnit file says {msg!r}")
PY
	tally podman-image "$T/noflags.chk"
	[ "$(left_attached)" = 0 ] && ok "podman image: nothing left attached" || bad "podman image: BPF objects left behind"
fi
