// SPDX-License-Identifier: GPL-2.0
/*
 * trace_opts.c - `mgtrace trace`'s options: the table (help, man page and completion
 * read it), the event list and --inode parsed strictly, and the checks between them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "ident.h"
#include "opts.h"
#include "trace_int.h"
#include "util.h"
#include "vocab.h"

/*
 * -e LIST (vocab.h mg_events_parse) into *mask: 1 << kind for the tracepoint kinds,
 * EV_FLOOR for the floor object (its three kinds). Returns 0 or MG_EXIT_USAGE.
 */
static int parse_events(const char *s, unsigned int *mask)
{
	unsigned int k;
	int err = mg_events_parse("trace", s, MG_KINDS_ALL, &k);

	if (err)
		return err;
	*mask = (k & MG_KINDS_TP) | (k & MG_KINDS_FLOOR ? EV_FLOOR : 0);
	return 0;
}

/* Whether the comma list s names word itself (not through "all"). */
static bool list_names(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncmp(p, word, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/*
 * --inode MAJ:MIN:INO, each part decimal digits only (no sign, no overflow: sscanf's
 * %u and %llu took "-1" and wrapped 2^32 and 2^64): 0 or -EINVAL.
 */
static int parse_inode(const char *arg, unsigned int *maj, unsigned int *min,
		       unsigned long long *ino)
{
	char part[3][24];
	uint64_t v[3];
	const char *p = arg;
	int i;

	for (i = 0; i < 3; i++) {
		size_t n = strcspn(p, ":");

		if (!n || n >= sizeof(part[i]) || (i < 2 ? p[n] != ':' : p[n] != 0))
			return -EINVAL;
		memcpy(part[i], p, n);
		part[i][n] = 0;
		p += n + 1;
	}
	if (mg_parse_u64(part[0], 0, 4095, &v[0]) || mg_parse_u64(part[1], 0, (1u << 20) - 1, &v[1]) ||
	    mg_parse_u64(part[2], 1, UINT64_MAX, &v[2]))
		return -EINVAL;
	*maj = (unsigned int)v[0];
	*min = (unsigned int)v[1];
	*ino = v[2];
	return 0;
}

static const char *trace_event_words(void)
{
	return mg_events_names(MG_KINDS_ALL);
}

/*
 * -e's help, from the table (include/mg_vocab.def): the tracepoint kinds, then the
 * floor kinds as the one group they are selected in.
 */
static const char *trace_events_help(void)
{
	static char buf[800];
	char text[800];
	size_t len = (size_t)snprintf(text, sizeof(text), "comma list of ");
	const char *sep = "";

	for (unsigned int k = 0; k < MG_EV_NR_KINDS && len < sizeof(text); k++)
		if (MG_KINDS_TP & 1u << k)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s, ",
						mg_event_kind_name(k));
	if (len < sizeof(text))
		len += (size_t)snprintf(text + len, sizeof(text) - len, "floor (");
	for (unsigned int k = 0; k < MG_EV_NR_KINDS && len < sizeof(text); k++)
		if (MG_KINDS_FLOOR & 1u << k) {
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", sep,
						mg_event_kind_name(k));
			sep = ", ";
		}
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, "), ctime (swap and skip), "
			 "timestamp:TRACEPOINT with globs (timestamp:*), all (default: all available)");
	return mg_opt_wrap(buf, sizeof(buf), text);
}

enum { O_COMM = MG_OPTID_FIRST_CMD, O_INODE, O_PATH };

/* Where a stored option goes in struct trace_opts */
#define AT(field) MG_OPT_AT(struct trace_opts, field)

static const struct mg_opt trace_opts[] = {
	{ .val = 'a', .lname = "all", .help = "system-wide, also with COMMAND" },
	{ .val = 'a', .lname = "all-cpus" },	/* an alias, as stat and top spell it */
	{ .val = 'p', .lname = "pid", .arg = "PID",
	  .help = "only PID and its descendants (those it has now and later\n"
	  "forks); a list: 1,2, as perf", .kind = MG_OV_PID },
	MG_OPT_CPUS("only events on these CPUs (perf's list: 0,2-3), filtered in BPF"),
	{ .val = O_COMM, .lname = "comm", .arg = "NAME",
	  .help = "only tasks with this comm", .kind = MG_OV_COMM },
	{ .val = O_PATH, .lname = "path", .arg = "FILE",
	  .help = "only this file: the inode the kernel's events name (device from\n"
	  "/proc/self/mountinfo) and, on overlayfs, its real inode", .kind = MG_OV_FILE },
	{ .val = O_INODE, .lname = "inode", .arg = "M:m:INO",
	  .help = "only this inode (device major:minor, inode number)" },
	{ .val = 'e', .lname = "events", .arg = "LIST",
	  .help_fn = trace_events_help, .kind = MG_OV_LIST, .words_fn = trace_event_words },
	MG_OPT_BACKEND("auto fentry kprobe", "floor events: auto (fentry, then kprobe), fentry or kprobe"),
	MG_OPTS_COMMON("one JSON object per event, then a summary object",
		       "events to FILE (default: stdout; stderr with COMMAND, as perf)",
		       "libbpf's messages too"),
	{ .val = MG_OPT_AUTO, .lname = "no-inherit", .store = MG_OS_FLAG, .at = AT(no_inherit),
	  .help = "with COMMAND: only COMMAND's own process, not its children" },
	MG_OPT_RINGBUF("ring buffer bytes, a power of 2 >= 4096 (default 16777216)"),
	{ 0 }
};

const struct mg_cmd_opts trace_cmdopts = {
	.name = "trace",
	.synopsis = "[-a | -p PID[,PID...]] [-C CPUS] [--comm NAME] [--path FILE | --inode MAJ:MIN:INO]\n"
		    "[-e LIST] [-b B] [-j] [-o FILE] [-v]\n"
		    "[--no-inherit] [-- COMMAND [ARGS...]]",
	.about = "Stream multigrain events in order: floor swaps and lost floor cmpxchgs (function-probe\n"
		 "backends), ctime swaps (old/new, QUERIED decoded), ctime skips, stat queries and\n"
		 "explicit ctime sets, each with time, CPU, pid, comm, dev:ino and file name.\n"
		 "TIME is CLOCK_REALTIME: the event's CLOCK_MONOTONIC stamp plus the offset between\n"
		 "the two clocks when tracing began (JSON also gives the raw CLOCK_MONOTONIC ns);\n"
		 "both the host's, also in a time namespace.\n"
		 "Scope: system-wide without COMMAND; with COMMAND, COMMAND and its descendants.\n",
	.opts = trace_opts,
	.after = "Filters run in BPF. Lost events are printed where they are noticed (\"lost N events\")\n"
		 "and counted in the summary. Processes are followed across forks in BPF (one hash\n"
		 "lookup per event). With COMMAND, mgtrace exits with COMMAND's status.\n",
	.command = true,
};

/*
 * One of trace's options the table does not store (c, its value arg) into o: the scope,
 * -C, --comm, --path, --inode, -e, -b and --ringbuf-size. Returns 0 or an exit code
 * (printed).
 */
static int trace_opt(void *base, int c, const char *arg)
{
	struct trace_opts *o = base;
	unsigned int maj, min;
	unsigned long long ino;
	char why[320];
	int e;

	if ((e = mg_opt_scope("trace", c, arg, &o->pids, &o->all, NULL)))
		return e < 0 ? -e : 0;
	switch (c) {
	case 'C':
		return mg_opt_cpus("trace", arg, &o->cpus) ? MG_EXIT_USAGE : 0;
	case O_COMM:
		if (!*arg || strlen(arg) > 15)
			return mg_err(MG_EXIT_USAGE, "trace: invalid comm '%s' (1 to 15 characters)",
				      arg);
		strcpy(o->comm, arg);
		return 0;
	case O_PATH:
		if (mg_ident_resolve(arg, &o->ids, why, sizeof(why)))
			return mg_err(MG_EXIT_USAGE, "trace: %s", why);
		o->path = arg;
		return 0;
	case O_INODE:
		if (parse_inode(arg, &maj, &min, &ino))
			return mg_err(MG_EXIT_USAGE, "trace: invalid inode '%s' (MAJ:MIN:INO: major "
				      "below 4096, minor below 2^20, inode 1 to 2^64-1, decimal)", arg);
		memset(&o->ids, 0, sizeof(o->ids));
		o->ids.n = 1;
		o->ids.id[0].dev = mg_kdev(maj, min);
		o->ids.id[0].ino = ino;
		snprintf(o->ids.id[0].role, sizeof(o->ids.id[0].role), "inode");
		snprintf(o->ids.id[0].why, sizeof(o->ids.id[0].why), "--inode");
		o->inode_given = true;
		return 0;
	case 'e':
		if (parse_events(arg, &o->mask))
			return MG_EXIT_USAGE;
		o->events_given = true;
		o->floor_named = list_names(arg, "floor");
		return 0;
	case 'b':
		return mg_opt_backend("trace", arg, 0, &o->backend) ? MG_EXIT_USAGE : 0;
	case MG_OPTID_RINGBUF:
		return mg_opt_ringbuf("trace", arg, &o->ringbuf_bytes) ? MG_EXIT_USAGE : 0;
	}
	return 0;
}

int trace_parse_opts(struct trace_opts *o, int argc, char **argv)
{
	struct mg_opt_parser p;
	int e;

	o->mask = ~0u;
	o->ringbuf_bytes = MG_RINGBUF_DEFAULT;
	mg_opt_begin(&p, &trace_cmdopts, argc, argv);
	if ((e = mg_opt_parse(&p, o, trace_opt)))
		return e;
	o->json = mg_json_output;
	if (o->path && o->inode_given)
		return mg_err(MG_EXIT_USAGE, "trace: --path and --inode exclude each other");
	if ((e = mg_opt_command("trace", argc, argv, &o->argv)))
		return e;
	if (o->no_inherit && (!o->argv || o->all || o->pids.n))
		return mg_err(MG_EXIT_USAGE, "trace: --no-inherit needs COMMAND, without --all or --pid");
	if ((e = mg_opt_scope_check("trace", &o->pids, o->all, NULL, o->argv != NULL)))
		return e;
	/* the kernel's events carry the superblock's s_dev; stat(1) of a file in a btrfs
	 * subvolume gives the subvolume's anonymous device, which no event carries */
	if (o->inode_given) {
		char mnt[64];

		if (mg_kdev_mount(o->ids.id[0].dev, mnt, sizeof(mnt)) == -ENOENT)
			fprintf(stderr, "mgtrace: trace: note: no mounted filesystem has device %s "
				"(/proc/self/mountinfo), so no event may match; a file in a btrfs "
				"subvolume shows another device to stat(1) than its filesystem's: "
				"use --path\n", mg_kdev_str(o->ids.id[0].dev, mnt));
	}
	return MG_EXIT_OK;
}
