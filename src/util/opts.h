/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - options shared by the commands, each with one parser and one error
 * message. --json, -o FILE and -v are global, as bpftool's json_output: every
 * command's option table (optab.h) has MG_OPTS_COMMON, whose letters
 * mg_opt_next() hands to mg_opt_common(); main() takes them before the command
 * name too (`mgtrace -j probe`). --backend and --ringbuf-size are parsed here as
 * well.
 */
#ifndef MG_OPTS_H
#define MG_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "backend.h"

/* --json (-j): JSON lines instead of text, for every command. */
extern bool mg_json_output;
/* -o FILE (--output): where results go, or NULL (see mg_out_open()). */
extern const char *mg_output_path;
/*
 * Where a command writes its results (text or JSON), set by mg_out_open(): FILE
 * with -o; else stderr when mgtrace runs a COMMAND (as perf stat and perf trace
 * do, so that COMMAND's stdout stays COMMAND's and --json stays parseable); else
 * stdout. Diagnostics and errors always go to stderr.
 */
extern FILE *mg_out;

/* Take c (a getopt return) if it is a shared option. Returns true when taken. */
bool mg_opt_common(int c, const char *arg);

/*
 * Open where results go (mg_out, src/util/output.c): -o FILE (created or truncated), else
 * stderr when command is true (mgtrace runs a COMMAND), else stdout; a line-buffered
 * stream whose writes stop at the first failure and never block past a stop (see
 * mg_out_stop()). Returns 0, or one line and MG_EXIT_USAGE (no such directory, not a
 * file) or MG_EXIT_ENV (permission denied, read-only filesystem) when FILE cannot be
 * opened.
 */
int mg_out_open(const char *cmd, bool command);

/*
 * mg_out_open() for a report written once, at the end of the run (check and stat without
 * intervals, probe, clocks, stress, version): -o FILE is written to a temporary file beside
 * it (src/util/replace.c), which mg_out_close() renames over FILE only once every write,
 * fsync() and close() succeeded, else removes: FILE holds the earlier report or the whole
 * new one, never an empty or cut one. FILE not a regular file (/dev/null, a FIFO) is
 * written in place, as mg_out_open() does. Same returns.
 */
int mg_out_open_once(const char *cmd, bool command);

/*
 * Flush mg_out and close it (mg_out_open_once(): fsync, close, rename over -o FILE, or remove
 * the temporary file). Returns 0, or MG_EXIT_OUTPUT when a write failed, with
 * one line naming the output and the error, then mg_out_note()'s text; silent for
 * EPIPE (the reader went away: mgtrace ... | head) unless -v.
 */
int mg_out_close(void);

/*
 * Flush stdout after text written to it directly, not through mg_out (a usage text, `help
 * --options`). Returns code, or MG_EXIT_OUTPUT when a write failed, with one line naming
 * the error as mg_out_close() does (silent for EPIPE unless -v).
 */
int mg_stdout_flush(int code);

/*
 * Before mg_out_close() of a run that ends with code (an exit code; 0: nothing done):
 * where results are JSON, or go to a file (-o), and the command wrote nothing there, one
 * error record, so that a report asked for is never left empty: JSON {"type":"error",
 * "command", "exit_code", "reason" (mg_last_err), "errno" (the E... name the reason
 * gives, or null)} (docs/schema/error.schema.json), or one text line. Nothing when -o
 * FILE could not be opened: the line on stderr is all, never a record on stdout instead.
 */
void mg_out_error(const char *cmd, int code);

/*
 * The errno name (E...) that msg names as a word ("load failed: EPERM (...)": "EPERM"),
 * else the one whose strerror() text follows a ": " in msg ("cannot open 'x': No such file
 * or directory": "ENOENT"), or NULL. Points at a static buffer, valid until the next call.
 */
const char *mg_errno_name(const char *msg);

/* True once a write of mg_out failed (or was abandoned): nothing more is written, and a
 * streaming command ends its run (exit MG_EXIT_OUTPUT). */
bool mg_out_failed(void);

/* errno of mg_out's failed write (ETIMEDOUT: abandoned after a stop), or 0. */
int mg_out_errno(void);

/*
 * -o FILE opened again at the same path, as daemons do for logrotate on SIGHUP: what
 * mg_out buffered goes to the old file, later writes to the new one (O_APPEND, created
 * 0666 & ~umask: a file not moved away is added to, never truncated). Without -o, nothing.
 * Returns 0, or -errno with mg_out failed (the run ends, exit MG_EXIT_OUTPUT, its line
 * saying the reopen failed).
 */
int mg_out_reopen(void);

/* The descriptor mg_out writes to (for isatty()), or -1. */
int mg_out_fd(void);

/* Text (printf format) that mg_out_close() appends to its error line: what was not
 * written (events, intervals). */
void mg_out_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* How long output that cannot be written is waited for once a stop was asked. */
#define MG_OUT_STOP_GRACE_MS 1000

/*
 * A stop was asked (signal sig: SIGINT, SIGTERM or SIGHUP, taken by mg_run_wait() or
 * seen pending by a blocked write): from now on a write of mg_out that cannot go out
 * by MG_OUT_STOP_GRACE_MS after this call fails (mg_out_failed(), errno ETIMEDOUT).
 */
void mg_out_stop(int sig);

/* Exit code for a path the user gave that cannot be used: MG_EXIT_ENV for
 * EACCES, EPERM and EROFS (the machine refuses), else MG_EXIT_USAGE. */
int mg_path_exit(int err);

/*
 * A length of time in one of two units, as -i S and -I MS give the interval: opt
 * s_opt (arg in seconds, 0.01 to 86400) or another (milliseconds, 10 to 86400000)
 * into *secs; *given (0 before the first) keeps which one gave it, and the other
 * one after it is refused (the same one again keeps the last, as perf does).
 * what ("interval"), s_name and ms_name ("-i", "-I") name them in the refusal.
 * Returns 0, or MG_EXIT_USAGE with "CMD: invalid WHAT '...' (range)" or the
 * two-units line printed.
 */
int mg_opt_time(const char *cmd, const char *what, const char *s_name, const char *ms_name,
		int opt, int s_opt, int *given, const char *arg, double *secs);

/*
 * The interval options every command with intervals shares: opt 'i' (arg in
 * seconds, 0.01 to 86400, into *interval), 'I' (milliseconds, 10 to 86400000,
 * into *interval in seconds) or 'c' (a count, 1 to 1000000000, into *count).
 * *unit (0 before the first) keeps which of 'i' and 'I' set the interval: the
 * other one after it is refused (one interval in two units), the same one again
 * keeps the last, as perf does. One parser, one message: returns 0, or
 * MG_EXIT_USAGE with "CMD: invalid interval|count '...' (range)" or the
 * two-units line printed.
 */
int mg_opt_interval(const char *cmd, int opt, const char *arg, double *interval, int *unit,
		    uint64_t *count);

/*
 * The COMMAND after the options (getopt's optind): *command points into argv, or
 * is NULL when there is none. A "--" with nothing after it is a usage error
 * (MG_EXIT_USAGE, message printed), never a run without COMMAND. Returns 0 or
 * the exit code.
 */
int mg_opt_command(const char *cmd, int argc, char **argv, char ***command);

/* Backends a command accepts besides auto, fentry and kprobe (mg_opt_backend's allow). */
#define MG_OPT_BE_TRACEPOINT	(1u << 0)	/* tracepoints only */
#define MG_OPT_BE_KERNEL	(1u << 1)	/* the kernel's per-CPU counters only (stat) */

/*
 * --backend for command cmd: auto, fentry, kprobe, and the backends in allow.
 * Returns 0, or MG_EXIT_USAGE with one line naming the accepted ones.
 */
int mg_opt_backend(const char *cmd, const char *arg, unsigned int allow, enum mg_backend *be);

/* Default --ringbuf-size: 16 MiB. */
#define MG_RINGBUF_DEFAULT (16u << 20)

/*
 * --ringbuf-size for command cmd: a power of 2 from 4096 to 1 GiB, in bytes.
 * Returns 0, or MG_EXIT_USAGE with one line printed.
 */
int mg_opt_ringbuf(const char *cmd, const char *arg, uint64_t *bytes);

#endif
