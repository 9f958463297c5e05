// SPDX-License-Identifier: GPL-2.0
/* opts.c - option values shared by several commands (see opts.h). */
#include <errno.h>
#include <string.h>
#include "opts.h"
#include "util.h"

bool mg_json_output;
const char *mg_output_path;

bool mg_opt_common(int c, const char *arg)
{
	switch (c) {
	case 'j': mg_json_output = true; return true;
	case 'o': mg_output_path = arg; return true;
	case 'v': mg_verbose++; return true;
	}
	return false;
}

int mg_path_exit(int err)
{
	return err == EACCES || err == EPERM || err == EROFS ? MG_EXIT_ENV : MG_EXIT_USAGE;
}

int mg_opt_backend(const char *cmd, const char *arg, unsigned int allow, enum mg_backend *be)
{
	if (mg_backend_parse(arg, be) ||
	    (*be == MG_BE_KERNEL && !(allow & MG_OPT_BE_KERNEL)) ||
	    (*be == MG_BE_TRACEPOINT && !(allow & MG_OPT_BE_TRACEPOINT)))
		return mg_err(MG_EXIT_USAGE, "%s: invalid backend '%s' (auto, fentry, kprobe%s%s)",
			      cmd, arg, allow & MG_OPT_BE_TRACEPOINT ? ", tracepoint" : "",
			      allow & MG_OPT_BE_KERNEL ? ", kernel" :
			      allow ? "" : ": it selects the floor probes");
	return 0;
}

int mg_opt_ringbuf(const char *cmd, const char *arg, uint64_t *bytes)
{
	if (mg_parse_u64(arg, 4096, 1u << 30, bytes) || (*bytes & (*bytes - 1)))
		return mg_err(MG_EXIT_USAGE, "%s: invalid --ringbuf-size '%s' "
			      "(a power of 2, 4096 to 1073741824)", cmd, arg);
	return 0;
}

int mg_opt_time(const char *cmd, const char *what, const char *s_name, const char *ms_name,
		int opt, int s_opt, int *given, const char *arg, double *secs)
{
	uint64_t ms;

	if (*given && *given != opt)
		return mg_err(MG_EXIT_USAGE, "%s: %s S and %s MS both set the %s: give one", cmd,
			      s_name, ms_name, what);
	*given = opt;
	if (opt == s_opt) {
		if (mg_parse_seconds(arg, 86400, secs) || *secs < 0.01)
			return mg_err(MG_EXIT_USAGE, "%s: invalid %s '%s' (seconds, 0.01 to 86400)",
				      cmd, what, arg);
		return 0;
	}
	if (mg_parse_u64(arg, 10, 86400000, &ms))
		return mg_err(MG_EXIT_USAGE, "%s: invalid %s '%s' (milliseconds, 10 to 86400000)",
			      cmd, what, arg);
	*secs = ms / 1000.0;
	return 0;
}

int mg_opt_interval(const char *cmd, int opt, const char *arg, double *interval, int *unit,
		    uint64_t *count)
{
	if (opt == 'i' || opt == 'I')
		return mg_opt_time(cmd, "interval", "-i", "-I", opt, 'i', unit, arg, interval);
	if (mg_parse_u64(arg, 1, 1000000000, count))
		return mg_err(MG_EXIT_USAGE, "%s: invalid count '%s' (1 to 1000000000)", cmd, arg);
	return 0;
}

int mg_opt_command(const char *cmd, int argc, char **argv, char ***command)
{
	*command = NULL;
	if (optind < argc) {
		*command = &argv[optind];
		return 0;
	}
	/* "mgtrace check -- $EMPTY" must not quietly become a run without COMMAND */
	if (optind > 1 && !strcmp(argv[optind - 1], "--"))
		return mg_err(MG_EXIT_USAGE, "%s: '--' with no COMMAND after it", cmd);
	return 0;
}
