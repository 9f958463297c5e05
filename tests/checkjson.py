#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""checkjson.py - assertions on mgtrace's JSON output, for the host and VM tests.

Usage:
  checkjson.py stat FILE [--expect-backend B] [--funcs] [--kernel-percpu]
                         [--min-floor-swaps N] [--min-stat-queries N] [--exact-kernel]
                         [--expect-no ROW]
  checkjson.py check FILE [--verdict V] [--command] [--min-lost N] [--breach THRESHOLD]
                         [--floor checked|unchecked|inverted]
  checkjson.py intervals FILE N [--match] [--expect-no ROW]
  checkjson.py probe FILE (--host-lockdown | --vm-multigrain | --vm-nomultigrain)
  checkjson.py trace-names FILE  trace --json of tests/names_workload.py: every event keeps
                                 name/comm; the workload's names decode as documented
  checkjson.py command FILE TYPE HEXARG...  the "command" of the TYPE object decodes to
                                 the argv bytes (each ARG as hex)
  checkjson.py junit-command FILE HEXARG...  the JUnit properties command[i] decode to them
  checkjson.py selftest        feed every check a case that must fail

For the host tests (tests/host.d), each a check printing ok/FAIL lines unless marked
(extractor: prints a value for the shell):
  zero-default FILE            stat's zero-cost default: counted, event rows say how to opt in
  counter-min FILE ROW N       the summary's ROW total is >= N
  pcpu-rejected FILE           probe --json: a doctored BTF offset is rejected, saying why
  widest-bracket FILE          (extractor) the widest debugfs bracket of a stat --json file
  checked-against TEXT CSV JSON WORD  stat without debugfs: every kernel row's match column,
                               -x MATCH and JSON checked_against say WORD (start, ksym), the
                               text explains it, no row claims a debugfs match
  bpf-ours [--probes] [--count]  (extractor) bpftool -j prog/link show on stdin: our
                               programs and timestamp:* links by name, whoever holds them
                               ("prog:NAME link:TP"); --count: the number of programs listed
  bpf-mark                     (extractor) bpftool -j prog/link/map show on stdin: their ids
                               now, one JSON object (a test's mark)
  bpf-test [--mark FILE] [--count] [--progs]  (extractor) bpftool -j prog/link/map show on
                               stdin: the objects the test's processes (MGTRACE_TEST_ROOT's
                               tree, MGTRACE_TEST_OWNER's environment) hold, new since the mark
  junit-gate FILE TESTS GATE [TEXT]  check --junit: TESTS testcases, GATE the one failure
                               (its message containing TEXT, default "(limit)")
  categories FILE              (extractor) a check report's not-fault categories, one line
  invariant-min FILE NAME N    a check report counts >= N of not-fault category NAME
  example-names FILE INO NAME  the not-fault examples of inode INO (>= 1) are all named NAME
  step-explained FILE          a check report files its ctime regressions under the clock step
                               that explains them: >= 1, all explained, none taken for
                               overlapping updates or a future ctime
  figure-min FILE FIGURE N [--no-gates]  a floor figure > N (and no gate set)
  trace-seq FILE PATH          trace of trace_workload.py seq PATH: exact events and ctimes
  trace-filter FILE INO COMM N N events, all of COMM on inode INO
  trace-tids FILE NAME N       N threads stat NAME (stress --shared)
  trace-events FILE LABEL WANT [--format dev|comm|queried] [--only KIND] [--pids N]
                               the events, one word each, are exactly WANT
  trace-summary FILE LABEL COND...  summary fields: KEY=JSON, KEY=None, KEY~TEXT, roles=R@DEV,...,
                               types=FILE_TYPE,...
  workload-dir FILE DEV MOUNT  check --dir: the report names DEV and MOUNT, and passes
  trace-dev FILE DEV N         N events, all on device DEV
  trace-times FILE START END [--text TEXT]  every event's time (and TEXT's TIME column) within
                               2 s of the host's [START, END], each swap's of its new ctime
  trace-unlinked FILE GONE KEPT  a file unlinked while open (inode GONE) beside one never
                               unlinked (KEPT): GONE's last event unlinked, its first and KEPT's not
  interrupted FILE SIG VERDICT [STATUS]  a check report of a run SIG (SIGINT, SIGTERM, SIGHUP;
                               none: no signal) ended early: VERDICT, "interrupted" and the
                               reason agree; with COMMAND, its STATUS and whether it is the signal's
  command-end FILE VERDICT SIGNAL PATTERN  check -- COMMAND: VERDICT, command_signal SIGNAL
                               (null: none), the reason matching PATTERN, command_status to match
  command-status FILE WANT     the last object's command_status is WANT (null, or an exit code)
  json-first-line FILE         the first line is a JSON object
  json-lines FILE [TYPE]       every line a JSON object with a type (the last one TYPE)
  junit-same XML XML           two suites of one command: the same testcases, in order
  junit-skips XML [TEXT...]    no skipped message cut mid-word; each TEXT whole in the
                               messages that carry it
  junit-text XML TEXT          check --junit against its text: one failure per FAIL line,
                               each with expected and actual
  counts-sane FILE N           stat --json: >= N objects, no count below 0, derived rows exact
                               or approximate with a reason
  scope SA SP TP TA PID        stat -a, stat -p PID, trace -p PID, trace -a -- COMMAND beside
                               an outside stress: each counts or shows its scope only
  interval-sums FILE           stat -I: every counter's interval rows add up to the summary
  partial FILE                 stat -i 1 -- sleep 1.5: a full and a partial interval, ISO times
  stat-csv FILE N [SEP]        stat -x , -I MS -c N: perf's lines, one per counter, N intervals, no summary
  stat-csv-fields FILE [SEP]   stat -x SEP (default ,) [-A] [-I]: perf stat -x's fields, none padded,
                               every value a number or <not counted> / <not supported>
  stat-cpus FILE CPUS MIN MAX  stat -C CPUS -j: totals sum those CPUs' values, debugfs judges every
                               CPU's sum, ctime_updates in [MIN, MAX)
  trace-cpus FILE CPUS MIN     trace -C CPUS -j: at least MIN events, all on those CPUs
  top-cpus FILE MIN MAX        top -C CPUS -j -- a pinned workload: the busiest row's ctime_swaps in [MIN, MAX)
  trace-pids FILE PIDS OTHERS  trace -p A,B -j: events of each, none of OTHERS or any other
  top-pids FILE PIDS OTHERS    top -p A,B -j: rows of each, none of OTHERS or any other
  count-ended FILE             stat -c N -- COMMAND: ended by the count, status 143
  duration-ended FILE S N partial|whole command|none
                               stat -d S (or --timeout): N whole intervals, then a partial one or
                               none, an S-second window, COMMAND ended by the duration (143)
  json-exact FILE [INO...]     every X_ns with its X_sec/X_nsec, time_realtime_ns with time, ino
                               with inode (docs/json.md "Integers above 2^53"); each INO written exactly
  map-full FILE                check --max-inodes 1 judged in BPF: map full, untracked, inconclusive
  inode-gc FILE LIVE N         check judged in BPF over file churn beyond --max-inodes: >= N
                               inodes gone forgotten, >= LIVE entries kept, nothing untracked, PASS
  events-window FILE           check with --max-inodes below the files touched (either --judge):
                               events judged + untracked + no inode number + lock failed + lost
                               cover the tracepoint counters' sum, and not twice over
  dir-visibility FILE RC SEEN [NAME]  check -- dirvis: SEEN > 0 (the workload's own
                               count): FAIL with >= SEEN not_later_after_query by sets (one
                               report naming the directory NAME, if given); 0: PASS
  tree-scope FILE K            check --tree beside a stat flood and K outside getattrs of
                               COMMAND's file: PASS, flood out of scope, the K judged
  inject-lost FILE N RC        MGTRACE_TEST_INJECT=N, small ring buffer: records lost, N counted
  baseline-used FILE BASE      check --baseline BASE: accepted without a warning, and every
                               figure BASE has gates FILE's run (the baseline column equal)
  check-intervals FILE RC N VERDICTS FINAL
                               check -i: N check_interval objects, then the report (FINAL,
                               exit RC); VERDICTS "PASS,FAIL,..." per interval or "any";
                               running verdicts and sums against the report
  check-prom FILE PROM         check -i --prometheus PROM: every counter the sum of FILE's
                               intervals, verdicts counted, gauges the last interval's
  check-forget FILE RC MODE [MIN]  check --max-inodes reached around more live inodes: MODE exact
                               INCONCLUSIVE with untracked events, nothing forgotten; forget:
                               PASS, every interval without untracked events, >= MIN (3)
                               generations, the intervals' history_forgotten summing to the
                               report's
  check-forget-text FILE       check --forget's text: a PASS that forgot says how many, never a
                               plain PASS (interval, running and final verdicts)
  set-figure IN OUT FIGURE V   (tool) write check report IN to OUT with floor figure FIGURE = V
  probe-field KEY...           (extractor) probe --json on stdin: the first KEY set (not null)

--exact-kernel: every kernel counter's row lies in its debugfs bracket (equal where the bracket's
width is 0); --expect-no ROW: the same, but ROW (doctored by MGTRACE_TEST_SKEW) lies outside.
intervals --match: every compared row of every interval and the summary lies in its bracket.

Each check prints "PASS ..." or "FAIL ..."; the exit status is the number of failures
(capped at 1). Every file is parsed with Python's json module, line by line (JSON lines).

The checks are the package tests/checkjson/ (its __init__.py lists the modules), each
module registering its subcommands; this file dispatches to them.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checkjson  # noqa: E402  (the package tests/checkjson/: a package is found before this file)

if __name__ == "__main__":
    sys.exit(checkjson.main(sys.argv, __doc__))
