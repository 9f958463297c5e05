// SPDX-License-Identifier: GPL-2.0
/* opts.c - option values shared by several commands (see opts.h). */
#include "opts.h"
#include "util.h"

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
