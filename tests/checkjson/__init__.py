# SPDX-License-Identifier: GPL-2.0
"""checkjson - assertions on mgtrace's JSON output, for the host and VM tests.

tests/checkjson.py is the command line (its docstring the usage); this package holds the
checks, one module per command family, each registering its subcommands with
checker.subcommand and its self-test cases with checker.selftest_cases:

  checker  the shared Checker (ok/FAIL lines), reading JSON lines, the registries, main()
  stat     stat --json: counters, debugfs brackets, intervals, the zero-cost default
  output   output formats and options: JSON lines, stat -x CSV, scopes, -i, -c
  cpus     perf's lists: -C CPUS and -p PID,PID
  probe    probe --json on each test machine
  check    check --json: verdict, invariants, not-fault categories, gates, floor, baseline
  judge    how check judged: the BPF inode map, every event counted once, violation records
  signals  how a check run ended: signals, COMMAND's status
  junit    check --junit
  trace    trace --json: event sequences, filters, the trace summary
  names    names and commands as bytes (docs/json.md "Strings")
  harness  the BPF objects a test made and still holds (by id), our programs by name

The names other scripts use (tests/vm/check-*.py, checktop.py, observer.py, ...) are
imported here: `import checkjson; checkjson.check_stat(...)`.
"""
from . import checker, stat, output, cpus, probe, check, judge, signals, junit, trace, names, harness, continuous  # noqa: F401
from .checker import (Checker, SUBCOMMANDS, events_of, first_report, load_lines, main,  # noqa: F401
                      opt, selftest, summary_of, trace_summary_of)
from .stat import (KERNEL_COUNTERS, check_brackets, check_counter_min, check_interval_sums,  # noqa: F401
                   check_intervals, check_stat, check_zero_default, in_bracket, widest_bracket)
from .output import (check_count_ended, check_counts_sane, check_duration_ended,  # noqa: F401
                     check_json_first_line, check_json_lines, check_partial, check_scope, check_stat_csv,
                     check_stat_csv_fields)
from .probe import check_pcpu_rejected, check_probe, probe_field  # noqa: F401
from .check import (NOT_FAULT_KEYS, NOT_FAULTS, VIOLATION_KINDS, categories,  # noqa: F401
                    check_baseline_used, check_check, check_example_names, check_figure_min,
                    check_floor, check_floor_stacks, check_injected, check_invariant_min, check_step_explained,
                    check_workload_dir, set_figure)
from .judge import (check_dir_visibility, check_events_window, check_inject_lost,  # noqa: F401
                    check_inode_gc, check_map_full, check_tree_scope)
from .continuous import check_intervals as check_check_intervals  # noqa: F401
from .signals import check_command_end, check_command_status, check_interrupted  # noqa: F401
from .junit import check_junit_gate, check_junit_strict, check_junit_text  # noqa: F401
from .trace import (check_trace_dev, check_trace_events, check_trace_filter,  # noqa: F401
                    check_trace_seq, check_trace_summary, check_trace_tids, check_trace_unlinked,
                    trace_events)
from .names import check_command, check_junit_command, check_trace_names, unescape, utf8_cut  # noqa: F401
from .harness import OUR_PROG_PREFIXES, TIMESTAMP_TPS, bpf_ours, held_by, test_objects, test_processes  # noqa: F401
