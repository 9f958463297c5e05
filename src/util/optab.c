// SPDX-License-Identifier: GPL-2.0
/*
 * optab.c - the option tables (optab.h) turned into getopt_long()'s arguments,
 * the usage text and `mgtrace help --options CMD`; the shared scope options.
 */
#include <stdlib.h>
#include <string.h>
#include "optab.h"
#include "opts.h"
#include "util.h"

/* Usage: the column where an option's help starts. */
#define HELP_COL 23

const char *mg_opt_help(const struct mg_opt *o)
{
	return o->help_fn ? o->help_fn() : o->help;
}

const char *mg_opt_wrap(char *buf, size_t len, const char *text)
{
	char *line, *sp, *last;

	snprintf(buf, len, "%s", text);
	for (line = buf; strlen(line) > MG_OPT_HELP_WIDTH; line = last + 1) {
		/* the last space that keeps the line within the width, else the first one */
		for (last = NULL, sp = strchr(line, ' '); sp && sp - line <= MG_OPT_HELP_WIDTH;
		     sp = strchr(sp + 1, ' '))
			last = sp;
		if (!last && !(last = strchr(line, ' ')))
			break;
		*last = '\n';
	}
	return buf;
}

void mg_opt_begin(struct mg_opt_parser *p, const struct mg_cmd_opts *c, int argc, char **argv)
{
	const struct mg_opt *o;
	size_t n = 0, s = 0;

	memset(p, 0, sizeof(*p));
	p->cmd = c;
	p->argc = argc;
	p->argv = argv;
	/* '+': stop at the first non-option, which starts COMMAND; ':': a missing value
	 * is told apart from an unknown option */
	if (c->command)
		p->so[s++] = '+';
	p->so[s++] = ':';
	p->so[s++] = 'h';
	for (o = c->opts; o->val || o->help; o++) {
		int val = o->val == MG_OPT_AUTO ? MG_OPT_AUTO_BASE + (int)(o - c->opts) : o->val;

		if (!o->val)
			continue;
		if (val > 0 && val < MG_OPT_LONG && !strchr(p->so, val)) {
			p->so[s++] = (char)o->val;
			if (o->arg)
				p->so[s++] = ':';
		}
		if (o->lname && n < MG_OPT_MAX)
			p->lo[n++] = (struct option){ o->lname, o->arg ? required_argument :
						      no_argument, NULL, val };
	}
	p->lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	p->so[s] = 0;
	optind = 0;	/* 0: getopt starts afresh, also when called more than once */
	opterr = 0;
}

/* The entry of val in c's table (the first of its aliases), or NULL. */
static const struct mg_opt *opt_entry(const struct mg_cmd_opts *c, int val)
{
	const struct mg_opt *o;

	if (val >= MG_OPT_AUTO_BASE)
		return &c->opts[val - MG_OPT_AUTO_BASE];
	for (o = c->opts; o->val || o->help; o++)
		if (o->val == val)
			return o;
	return NULL;
}

int mg_opt_next(struct mg_opt_parser *p, const char **arg)
{
	int c;

	for (;;) {
		c = getopt_long(p->argc, p->argv, p->so, p->lo, NULL);
		*arg = optarg;
		if (c == -1)
			return 0;
		if (c == 'h')
			exit(mg_stdout_flush(mg_opt_usage(p->cmd, stdout, MG_EXIT_OK)));
		if (c == '?' || c == ':')
			return -mg_bad_option(p->cmd->name, c, p->argv);
		if (!mg_opt_common(c, optarg)) {
			p->cur = opt_entry(p->cmd, c);
			return c;
		}
	}
}

int mg_opt_no_operands(const struct mg_opt_parser *p)
{
	if (optind < p->argc)
		return mg_err(MG_EXIT_USAGE, "%s: unexpected argument '%s'", p->cmd->name,
			      p->argv[optind]);
	return 0;
}

int mg_opt_scope(const char *cmd, int val, const char *arg, struct mg_pids *pids, bool *all,
		 bool *tree)
{
	char why[96];

	switch (val) {
	case 'p':
		if (mg_pidlist_parse(arg, pids, why, sizeof(why)))
			return -mg_err(MG_EXIT_USAGE, "%s: invalid pid list '%s': %s", cmd, arg, why);
		for (unsigned int i = 0; i < pids->n; i++)
			if (mg_check_pid(cmd, pids->pid[i]))
				return -MG_EXIT_USAGE;
		return 1;
	case 'a':
		*all = true;
		return 1;
	case MG_OPTID_TREE:
		if (!tree)
			return 0;
		*tree = true;
		return 1;
	}
	return 0;
}

int mg_opt_intervals(const char *cmd, int val, const char *arg, double *interval, int *unit,
		     uint64_t *count)
{
	switch (val) {
	case 'i':
	case 'I':
		return mg_opt_interval(cmd, val, arg, interval, unit, NULL) ? -MG_EXIT_USAGE : 1;
	case 'c':
	case MG_OPTID_ICOUNT:
		return mg_opt_interval(cmd, 'c', arg, NULL, NULL, count) ? -MG_EXIT_USAGE : 1;
	}
	return 0;
}

int mg_opt_scope_check(const char *cmd, const struct mg_pids *pids, bool all, const bool *tree,
		       bool have_command)
{
	bool t = tree && *tree, pid = pids && pids->n;

	/* the ones given, named: "-a (system-wide) and --tree exclude each other" */
	if (pid + t + all > 1)
		return mg_err(MG_EXIT_USAGE, "%s: %s%s%s%s%s exclude each other", cmd,
			      all ? "-a (system-wide)" : "", all && pid ? (t ? ", " : " and ") : "",
			      pid ? "-p PID" : "", t ? " and " : "", t ? "--tree" : "");
	if (t && !have_command)
		return mg_err(MG_EXIT_USAGE, "%s: --tree needs -- COMMAND", cmd);
	return 0;
}

/* Text with '\n' continuation lines, each after indent spaces but the first. */
static void put_lines(FILE *f, const char *s, int indent)
{
	const char *nl;

	for (; (nl = strchr(s, '\n')); s = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - s), s, indent, "");
	fprintf(f, "%s\n", s);
}

/* The short letter that shares o's val, or 0. */
static int short_of(const struct mg_opt *o)
{
	return o->val > 0 && o->val < MG_OPT_LONG ? o->val : 0;	/* MG_OPT_AUTO: none */
}

int mg_opt_usage(const struct mg_cmd_opts *c, FILE *f, int code)
{
	const struct mg_opt *o;
	char spec[64];
	int n;

	if (c->usage_fn) {
		c->usage_fn(f);
		return code;
	}
	fprintf(f, "Usage: mgtrace %s ", c->name);
	put_lines(f, c->synopsis, (int)strlen(c->name) + 16);
	if (c->about)
		fprintf(f, "%s", c->about);
	for (o = c->opts; o->val || o->help; o++) {
		if (!o->val) {
			fprintf(f, "%s", o->help);
			continue;
		}
		if (!mg_opt_help(o))	/* a hidden alias */
			continue;
		n = short_of(o) ? snprintf(spec, sizeof(spec), "  -%c%s", short_of(o), o->lname ? ", " : "")
				: snprintf(spec, sizeof(spec), "      ");
		if (o->lname)
			n += snprintf(spec + n, sizeof(spec) - (size_t)n, "--%s", o->lname);
		if (o->arg)
			n += snprintf(spec + n, sizeof(spec) - (size_t)n, " %s", o->arg);
		if (n < HELP_COL)
			fprintf(f, "%-*s", HELP_COL, spec);
		else
			fprintf(f, "%s\n%*s", spec, HELP_COL, "");
		put_lines(f, mg_opt_help(o), HELP_COL);
	}
	if (c->after)
		fprintf(f, "%s", c->after);
	mg_opt_exit_codes(f, c->exit_note);
	return code;
}

void mg_opt_exit_codes(FILE *f, const char *note)
{
	fprintf(f, "Exit codes: 0 ok (stat, trace, top -- COMMAND: COMMAND's status), 1 failure (check:\n"
		"violation), 2 usage (also a path that does not exist, -p of no process), 3 environment\n"
		"unsupported (neither root nor CAP_BPF+CAP_PERFMON, no BTF, no multigrain timestamps, a path\n"
		"the machine refuses), 4 check inconclusive, 5 output not written (-o, stdout or a report\n"
		"file; the run ends at the first failed write; silent for a reader that went away, as\n"
		"| head), 126/127 COMMAND cannot be executed / was not found (one line, no report).\n");
	if (note)
		fprintf(f, "%s", note);
}

static const char *const kind_names[] = {
	[MG_OV_NONE] = "none", [MG_OV_WORDS] = "words", [MG_OV_LIST] = "list",
	[MG_OV_FILE] = "file", [MG_OV_DIR] = "dir", [MG_OV_PID] = "pid",
	[MG_OV_COMM] = "comm", [MG_OV_CPU] = "cpu",
};

void mg_opt_dump(const struct mg_cmd_opts *c, FILE *f)
{
	const struct mg_opt *o;

	fprintf(f, "command\t%s\n", c->name);
	for (o = c->opts; o->val || o->help; o++) {
		const char *w = o->words ? o->words : o->words_fn ? o->words_fn() : NULL;

		if (!o->val || !mg_opt_help(o))
			continue;
		if (short_of(o))
			fprintf(f, "-%c", short_of(o));
		else
			fputc('-', f);
		fprintf(f, "\t%s%s\t%s\t%s\t", o->lname ? "--" : "-", o->lname ? o->lname : "",
			o->arg ? o->arg : "-", kind_names[o->kind]);
		/* space-separated, also where words_fn() gives an error message's ", " list */
		for (; w && *w; w++)
			if (*w != ',')
				fputc(*w, f);
			else if (w[1] != ' ')	/* "a,b": a b; "a, b": a b */
				fputc(' ', f);
		fprintf(f, "%s\n", o->words || o->words_fn ? "" : "-");
	}
	fprintf(f, "-h\t--help\t-\tnone\t-\n");
}
