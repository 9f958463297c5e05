/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optab.h - every command's options as one declarative table, in the manner of
 * perf's OPT_* arrays and retsnoop's env.c: getopt_long()'s arguments, the
 * usage text (with one exit-code block) and `mgtrace help --options CMD` (what
 * the bash completion and the man page check read) are all generated from it.
 * The shared groups (common, scope, interval, backend) are written once, here.
 */
#ifndef MG_OPTAB_H
#define MG_OPTAB_H

#include <getopt.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cpulist.h"

/* What an option's value is, for the completion (`help --options`). */
enum mg_optval {
	MG_OV_NONE,		/* a number or free text: nothing to offer */
	MG_OV_WORDS,		/* one of words (or words_fn()) */
	MG_OV_LIST,		/* a comma-separated list of words (or words_fn()) */
	MG_OV_FILE,		/* a file name */
	MG_OV_DIR,		/* a directory */
	MG_OV_PID,		/* a process id */
	MG_OV_COMM,		/* a task's comm */
	MG_OV_CPU,		/* an online CPU number */
};

/*
 * How mg_opt_parse() stores an option's value itself, as retsnoop's cfg_specs do
 * (optstore.c); MG_OS_NONE leaves the option to the command's own function.
 */
enum mg_optstore {
	MG_OS_NONE,
	MG_OS_FLAG,		/* bool at .at: true */
	MG_OS_STR,		/* const char * at .at: the argument */
	MG_OS_U64,		/* uint64_t at .at: an integer in [.min, .max] (mg_parse_u64) */
	MG_OS_SECONDS,		/* double at .at: seconds, more than 0, at most .max */
};

/* Where a stored option goes: the field's offset in the command's options struct, plus 1
 * (so that 0 means nowhere). */
#define MG_OPT_AT(type, field) (offsetof(type, field) + 1)

/*
 * The val of an option with no short letter and no shared id: mg_opt_begin() gives it
 * MG_OPT_AUTO_BASE + its index in the table, so a command needs no enum entry for it.
 */
#define MG_OPT_AUTO (-1)
#define MG_OPT_AUTO_BASE 4096

/*
 * One option: val is what mg_opt_next() returns for it (the short letter, or an
 * id >= MG_OPT_LONG for a long-only option; aliases share a val; an alias without
 * help is accepted but not shown). An entry with val 0 and help set is a heading
 * line of the usage text; all zero ends a table.
 */
struct mg_opt {
	int val;
	const char *lname;		/* long name without "--", or NULL */
	const char *arg;		/* the value's name in usage ("MS"), NULL: a flag */
	const char *help;		/* usage text; '\n' starts an aligned continuation line */
	const char *(*help_fn)(void);	/* the same, computed (from a table: mg_opt_wrap()), or NULL */
	enum mg_optval kind;
	const char *words;		/* MG_OV_WORDS/LIST: space-separated, or NULL: words_fn */
	const char *(*words_fn)(void);	/* the same, computed (the event names, say) */
	enum mg_optstore store;		/* stored by mg_opt_parse() (MG_OS_NONE: by the command) */
	size_t at;			/* MG_OPT_AT() of where it is stored */
	uint64_t min, max;		/* MG_OS_U64's bounds; MG_OS_SECONDS: its maximum */
	size_t seen;			/* MG_OPT_AT() of a const struct mg_opt * that takes
					 * the first given option of a group, or 0 */
};

/*
 * An option's usage text: help_fn()'s where it has one, else help (NULL for a
 * hidden alias).
 */
const char *mg_opt_help(const struct mg_opt *o);

/* The width help texts are wrapped to (the column after HELP_COL's 23). */
#define MG_OPT_HELP_WIDTH 62

/*
 * text wrapped into buf for a help_fn: spaces become '\n' so that no line is
 * over MG_OPT_HELP_WIDTH, each line as full as fits (a longer word keeps its own
 * line). Returns buf (cut to len).
 */
const char *mg_opt_wrap(char *buf, size_t len, const char *text);

/* The first val of a long-only option: above every character. */
#define MG_OPT_LONG 256

/* A heading line in the usage text between groups of options. */
#define MG_OPT_HEADING(text) { .val = 0, .help = (text) }

/* The options of one command. */
struct mg_cmd_opts {
	const char *name;		/* "stat" */
	const char *synopsis;		/* "Usage: mgtrace stat " is printed before it */
	const char *about;		/* what the command does, before the options (may be NULL) */
	const struct mg_opt *opts;	/* ended by an all-zero entry */
	const char *after;		/* printed after the options, before the exit codes (or NULL) */
	const char *exit_note;		/* this command's own exit-code notes (or NULL) */
	bool command;			/* takes -- COMMAND: options stop at the first non-option */
	/* a usage text of its own instead of the generated one (mgtrace's command list) */
	void (*usage_fn)(FILE *f);
};

/* A macro's value as a string, for help texts: MG_STR(MG_PROM_INTERVAL_S) is "15". */
#define MG_STR_(x) #x
#define MG_STR(x) MG_STR_(x)

/* ---- the shared groups ---- */

/* -j, -o, -v: taken by mg_opt_next() itself (opts.h mg_opt_common()). */
#define MG_OPTS_COMMON(json_help, output_help, verbose_help) \
	{ .val = 'j', .lname = "json", .help = json_help }, \
	{ .val = 'o', .lname = "output", .arg = "FILE", .help = output_help, .kind = MG_OV_FILE }, \
	{ .val = 'v', .lname = "verbose", .help = verbose_help }

/* The vals of the shared long-only options; a command's own start at MG_OPTID_FIRST_CMD. */
enum { MG_OPTID_ICOUNT = MG_OPT_LONG, MG_OPTID_TREE, MG_OPTID_RINGBUF, MG_OPTID_PROM,
       MG_OPTID_PROM_LABEL, MG_OPTID_FIRST_CMD };

/* -I, -i, -c and --interval-count (mg_opt_interval()). */
#define MG_OPTS_INTERVAL(what, i_default, count_help) \
	{ .val = 'I', .lname = "interval-ms", .arg = "MS", \
	  .help = what " every MS milliseconds (10..86400000), as perf's -I" }, \
	{ .val = 'i', .lname = "interval", .arg = "S", \
	  .help = "the same in seconds (0.01..86400" i_default ")" }, \
	{ .val = 'c', .lname = "count", .arg = "N", .help = count_help }, \
	{ .val = MG_OPTID_ICOUNT, .lname = "interval-count", .arg = "N", \
	  .help = "the same as -c (perf's name)" }

/* -p PID[,PID...] (each pid must exist) and -a: mg_opt_scope(). */
#define MG_OPTS_SCOPE(all_name, all_help, pid_help) \
	{ .val = 'a', .lname = all_name, .help = all_help }, \
	{ .val = 'p', .lname = "pid", .arg = "PID", .help = pid_help, .kind = MG_OV_PID }
/* -C CPUS, perf's CPU list ("0,2-3"; cpulist.h mg_opt_cpus()). */
#define MG_OPT_CPUS(h) { .val = 'C', .lname = "cpu", .arg = "CPUS", .help = (h), .kind = MG_OV_CPU }
/* --tree: with COMMAND, only COMMAND and its descendants. */
#define MG_OPT_SCOPE_TREE(h) { .val = MG_OPTID_TREE, .lname = "tree", .help = (h) }

/* -b B with the backends a command accepts (opts.h mg_opt_backend()). */
#define MG_OPT_BACKEND(w, h) \
	{ .val = 'b', .lname = "backend", .arg = "B", .help = (h), .kind = MG_OV_WORDS, .words = (w) }

/* --ringbuf-size B (opts.h mg_opt_ringbuf()). */
#define MG_OPT_RINGBUF(h) { .val = MG_OPTID_RINGBUF, .lname = "ringbuf-size", .arg = "B", .help = (h) }

/* --prometheus FILE and --prometheus-label NAME=VALUE (prom.h mg_opt_prom()). */
#define MG_OPTS_PROM(file_help) \
	{ .val = MG_OPTID_PROM, .lname = "prometheus", .arg = "FILE", .help = (file_help), \
	  .kind = MG_OV_FILE }, \
	{ .val = MG_OPTID_PROM_LABEL, .lname = "prometheus-label", .arg = "NAME=VALUE", \
	  .help = "one more label on every series of --prometheus FILE (up to\n" \
	  "8): two runs, each with its own, can share a textfile directory" }

/* ---- parsing ---- */

#define MG_OPT_MAX 64		/* options in one command's table, aliases included */

/* A parse of one command's arguments with its table. */
struct mg_opt_parser {
	const struct mg_cmd_opts *cmd;
	const struct mg_opt *cur;	/* the entry of the option mg_opt_next() returned */
	int argc;
	char **argv;
	struct option lo[MG_OPT_MAX + 2];
	char so[3 * MG_OPT_MAX + 8];
};

/*
 * Begin parsing argv (argv[0]: the command's name) with c's table: getopt_long()'s
 * short string and long table are built from it, and getopt is reset.
 */
void mg_opt_begin(struct mg_opt_parser *p, const struct mg_cmd_opts *c, int argc, char **argv);

/*
 * The next option of the command's own: its val, with *arg its value (NULL for a
 * flag). The shared -j, -o and -v are taken here; --help prints the usage and exits
 * 0. Returns 0 after the last option (getopt's optind: the first operand), or
 * -MG_EXIT_USAGE for an unknown option or a missing value (one line printed).
 */
int mg_opt_next(struct mg_opt_parser *p, const char **arg);

/*
 * The command's operands after the options: none accepted (a command without
 * COMMAND), else one line and MG_EXIT_USAGE. Returns 0 or that code.
 */
int mg_opt_no_operands(const struct mg_opt_parser *p);

/*
 * The scope options of stat, trace and top, parsed once: -p PID[,PID...] (perf's
 * list; each 1..4194304 and a live process: mg_check_pid(); -p given twice adds to
 * the list), -a, --tree. Returns 1 when val was one of them (taken into *pids, *all,
 * *tree; tree NULL: the command has no --tree), 0 when it is not, or -MG_EXIT_USAGE
 * (printed).
 */
int mg_opt_scope(const char *cmd, int val, const char *arg, struct mg_pids *pids, bool *all,
		 bool *tree);

/*
 * The interval options (MG_OPTS_INTERVAL), parsed once: -i S and -I MS into *interval
 * (seconds; *unit keeps which gave it, opts.h mg_opt_interval()), -c and
 * --interval-count into *count. Returns 1 when val was one of them, 0 when it is not,
 * or -MG_EXIT_USAGE (printed).
 */
int mg_opt_intervals(const char *cmd, int val, const char *arg, double *interval, int *unit,
		     uint64_t *count);

/*
 * The scope's exclusions: at most one of -a, -p and --tree (pids NULL: the command has
 * no -p; tree NULL: no --tree), and --tree only with COMMAND (have_command). Returns 0 or
 * MG_EXIT_USAGE (printed).
 */
int mg_opt_scope_check(const char *cmd, const struct mg_pids *pids, bool all, const bool *tree,
		       bool have_command);

/*
 * Parse every option of argv with p's table (begun by mg_opt_begin()): an entry with a
 * store is stored into base (the command's options struct) with its bounds checked; every
 * other option goes to own(base, val, arg), which returns 0 or an exit code (printed)
 * (own NULL: every option of the table has a store).
 * Returns 0 after the last option (optind: the first operand), or MG_EXIT_USAGE with one
 * line: "CMD: invalid value 'X' for --OPT (RANGE)" (optstore.c).
 */
int mg_opt_parse(struct mg_opt_parser *p, void *base,
		 int (*own)(void *base, int val, const char *arg));

/* o's name as the usage text gives it first: "-t", or "--rate" without a letter; in buf. */
const char *mg_opt_name(const struct mg_opt *o, char *buf, size_t len);

/* ---- what is generated from the tables ---- */

/* The usage text of c on f: synopsis, about, options, after, the exit codes. Returns code. */
int mg_opt_usage(const struct mg_cmd_opts *c, FILE *f, int code);

/*
 * The exit-code block every usage text ends with (the top-level one too), then
 * note (a command's own, or NULL).
 */
void mg_opt_exit_codes(FILE *f, const char *note);

/*
 * `mgtrace help --options CMD`: c's table, one tab-separated line per option
 * (also -h): short ("-b" or "-"), long ("--backend" or "-"), the value's name
 * ("-" for a flag), the value's kind (none, words, list, file, dir, pid, comm,
 * cpu) and its words (space-separated, or "-"). First a line "command NAME".
 */
void mg_opt_dump(const struct mg_cmd_opts *c, FILE *f);

#endif
