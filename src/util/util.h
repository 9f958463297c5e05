/* SPDX-License-Identifier: GPL-2.0 */
/* util.h - argument parsing and small helpers shared by every mgtrace command. */
#ifndef MG_UTIL_H
#define MG_UTIL_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

/* Documented exit codes (README "Exit codes"). */
enum mg_exit {
	MG_EXIT_OK = 0,
	MG_EXIT_FAIL = 1,	/* a check failed (mgtrace check) */
	MG_EXIT_USAGE = 2,	/* bad option or argument */
	MG_EXIT_ENV = 3,	/* environment unsupported: privileges, BTF, kernel, debugfs */
	MG_EXIT_INCONCLUSIVE = 4, /* mgtrace check: events lost or untracked, no pass claimed */
	MG_EXIT_OUTPUT = 5,	/* the output could not be written (-o FILE, standard output,
				 * --junit, --prometheus): full disk, closed pipe, I/O error */
};

/* Set by -v/--verbose: libbpf's own messages go to stderr too. */
extern int mg_verbose;

/*
 * Parse a decimal unsigned integer in [min, max]. Rejects empty strings, signs,
 * trailing junk and overflow. Returns 0, -EINVAL (not a number) or -ERANGE.
 */
int mg_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Parse a real number written in decimal: digits with an optional point and
 * exponent ("0.5", ".5", "2e-3"), a leading '-' only when neg. Refuses what
 * strtod() alone takes: spaces, '+', hex, inf and nan. Returns 0, -EINVAL (not
 * such a number) or -ERANGE (beyond a double, or a non-zero value too small for one).
 */
int mg_parse_real(const char *s, bool neg, double *out);

/*
 * Parse a duration in seconds ("2", "0.5", "1e-1": mg_parse_real()), > 0 and
 * <= max_s. Rejects junk, negatives, zero, NaN and infinities. Returns 0,
 * -EINVAL or -ERANGE.
 */
int mg_parse_seconds(const char *s, double max_s, double *out);

/*
 * Print "mgtrace: <msg>\n" to stderr, msg in the text form of escape.h (a newline or a
 * control byte it carries escaped: always one line), keep msg's bytes in mg_last_err,
 * and return code (for `return mg_err(...)`).
 */
int mg_err(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The line mg_err() prints for msg: "mgtrace: " and msg's text form, on stderr. */
void mg_err_line(const char *msg);
/*
 * mg_err() for a step (what: "ring buffer") that failed with err (a negative errno):
 * "WHAT: STRERROR (cause)" and MG_EXIT_ENV for a shortage of descriptors or memory
 * (mg_resource_cause()), else "WHAT: STRERROR" and MG_EXIT_FAIL.
 */
int mg_err_step(const char *what, int err);
/* The last mg_err() message, without "mgtrace: " ("" before the first): what an error report says. */
extern char mg_last_err[1024];

/*
 * Whether paths a and b name one file: the same inode where both exist, else the same
 * resolved directory and name (where the later open or rename would put it), a dangling
 * symlink followed to the target an open would create. For refusing one path named for
 * two outputs (-o X --junit X, or --junit LINK where LINK points to X).
 */
bool mg_same_file(const char *a, const char *b);

/*
 * Hold descriptors 0, 1 and 2 where they are closed at start (mgtrace ... >&-): each is
 * /dev/null opened read-only, so that no descriptor opened later (a signalfd, a BPF
 * object, a report file) takes its place and receives what is written to stdout or
 * stderr, and a write there fails with EBADF as it would have (the output layer's
 * exit 5). Call first in main(). Returns 0, or -errno when /dev/null cannot be opened.
 */
int mg_std_fds_hold(void);

/*
 * snprintf() into dst (size bytes) that never cuts a word: a text longer than fits ends at
 * the last space before the limit, followed by MG_WORDS_CUT (" ..."); only a text with no
 * space to cut at is cut where it stops fitting, followed by "...". Returns true when it cut.
 */
bool mg_snprintf_words(char *dst, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define MG_WORDS_CUT " ..."

/*
 * The host's CLOCK_MONOTONIC now, in ns: the clock of bpf_ktime_get_ns(), inside a time
 * namespace too (hostclock.h: this namespace's CLOCK_MONOTONIC less its offset).
 */
uint64_t mg_now_ns(void);

/*
 * *set = the signals that ask a run to stop: SIGINT, SIGTERM and SIGHUP (a closed
 * terminal or ssh session), taken synchronously (src/util/run.c) and watched by the
 * output (src/util/output.c). SIGINT and SIGTERM are taken even when mgtrace was
 * started with them ignored (a shell's background job), as perf stat takes SIGINT: a
 * script's `kill -INT $!` must end the run it started. SIGHUP ignored at start
 * (nohup: survive the terminal's hangup) stays ignored and is not in *set.
 */
void mg_stop_sigset(sigset_t *set);

/*
 * cause = why err (a negative errno) is a shortage, of this process or of the machine,
 * not a refusal by the kernel: EMFILE names the open-file limit (RLIMIT_NOFILE), ENFILE
 * the system's file table, ENOMEM the kernel's memory. Returns true when it wrote one;
 * any other err leaves cause as it is.
 */
bool mg_resource_cause(int err, char *cause, size_t len);

/*
 * The name of a filesystem by its superblock magic (statfs()'s f_type, the kernel's
 * sb->s_magic): "tmpfs", "ext4", "xfs", "btrfs", "overlayfs", "proc", "sysfs", as
 * /proc/self/mountinfo names them; NULL for any other.
 */
const char *mg_fs_magic_name(unsigned long magic);

/*
 * Room for one more element in a growable array: *(T **)arr holds *cap elements of
 * elem bytes, n of them in use; when full it is reallocated to twice *cap (first when
 * 0). Returns 0, or -ENOMEM with the array and *cap unchanged.
 */
int mg_grow(void *arr, size_t *cap, size_t n, size_t elem, size_t first);

/* Whether SIGHUP was ignored when mgtrace started (nohup); read once. */
bool mg_hup_ignored(void);

/*
 * CLOCK_REALTIME - the host's CLOCK_MONOTONIC (mg_now_ns()'s, BPF's) now, ns: a BPF
 * time plus it is CLOCK_REALTIME, inside a time namespace too, whose offset is no
 * clock step. The realtime read is bracketed by two monotonic reads and retried while
 * the bracket is wider than 20 us, so a preemption is not mistaken for a clock step.
 */
int64_t mg_realtime_offset(void);

/*
 * The same, with the uncertainty: the true offset lies within the returned
 * value +- *halfwidth ns (half the tightest monotonic bracket, 16 tries).
 */
int64_t mg_realtime_offset_bracket(int64_t *halfwidth);

/* CLOCK_TAI - CLOCK_REALTIME, ns: the kernel's TAI offset, a whole number of seconds. */
int64_t mg_tai_minus_realtime(void);

/* Read a whole small file into buf (NUL-terminated). Returns bytes read or -errno. */
int mg_read_file(const char *path, char *buf, size_t len);

/*
 * Check -p PID of command cmd: a live process (thread group leader), as the
 * BPF filters match the tgid. Returns MG_EXIT_OK, or prints one line ("no
 * process N"; "N is a thread of process M: give the process") and returns
 * MG_EXIT_USAGE. Source: /proc/PID/status's Tgid; without /proc (not
 * mounted) MG_EXIT_OK: the environment check (mg_env_require) names it.
 */
int mg_check_pid(const char *cmd, unsigned long long pid);

/* Number of possible CPUs (libbpf_num_possible_cpus()), or -errno. */
int mg_nr_cpus(void);

/*
 * online[cpu] for cpu < n from /sys/devices/system/cpu/online ("0-3,6"). Returns the
 * number online, or -errno (then every entry is true: nothing is hidden).
 */
int mg_online_cpus(bool *online, int n);

#endif

/*
 * Report a getopt failure (opterr = 0, optstring starting with ':') as one line:
 * "mgtrace: CMD: unrecognized option 'X' (try 'mgtrace CMD --help')"; CMD "mgtrace":
 * an option before the command ("mgtrace: unrecognized option ..."). c is getopt's
 * return ('?' or ':'). Returns MG_EXIT_USAGE.
 */
int mg_bad_option(const char *cmd, int c, char **argv);
