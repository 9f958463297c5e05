// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - what /proc/kallsyms tells (see kenv.h): whether a symbol is listed
 * and its address shown to this process, why not in one clause, and whether data
 * symbols are listed at all (CONFIG_KALLSYMS_ALL).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kenv.h"
#include "util.h"

int mg_kallsyms_lookup(const char *sym)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t len = strlen(sym);
	int found = 0;
	char line[512];

	if (!f)
		return -errno;
	/* "ADDRESS TYPE NAME[\t[MODULE]]": compare the name without parsing every line */
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, ' ');

		if (!name || !(name = strchr(name + 1, ' ')))
			continue;
		name++;
		if (!strncmp(name, sym, len) && (name[len] == '\n' || name[len] == '\t' || !name[len])) {
			/* kallsyms_show_value(): zeros unless CAP_SYSLOG (kptr_restrict 1) */
			found = strtoull(line, NULL, 16) != 0 ? 1 : -EPERM;
			break;
		}
	}
	fclose(f);
	return found;
}

const char *mg_kallsyms_hidden_why(void)
{
	char buf[32];
	int kr = mg_read_file("/proc/sys/kernel/kptr_restrict", buf, sizeof(buf)) > 0 ?
		 atoi(buf) : -1;

	/* kernel/kallsyms.c kallsyms_show_value(), with the opener's credentials */
	switch (kr) {
	case 0:
		return "kernel.kptr_restrict=0, shown to CAP_SYSLOG or where "
		       "kernel.perf_event_paranoid <= 1";
	case 1:
		return "kernel.kptr_restrict=1, shown only to CAP_SYSLOG";
	case -1:
		return "kernel.kptr_restrict unreadable; shown only to CAP_SYSLOG at 1, to no "
		       "process at 2";
	default:
		return "kernel.kptr_restrict=2 hides them from every process, CAP_SYSLOG too";
	}
}

bool mg_kallsyms_has(const char *sym)
{
	return mg_kallsyms_lookup(sym) == 1;
}

const char *mg_kallsyms_problem(const char *sym, bool data)
{
	static char buf[4][200];
	static unsigned int next;
	char *b = buf[next++ % 4];
	int r = mg_kallsyms_lookup(sym);

	if (r == 1)
		return NULL;
	if (r == -EPERM)
		snprintf(b, sizeof(buf[0]), "%s's address is hidden in /proc/kallsyms (%s)", sym,
			 mg_kallsyms_hidden_why());
	else if (r < 0)
		snprintf(b, sizeof(buf[0]), "/proc/kallsyms: %s", strerror(-r));
	else
		snprintf(b, sizeof(buf[0]), "%s is not in /proc/kallsyms%s", sym,
			 data ? " (data symbols need CONFIG_KALLSYMS_ALL)" : "");
	return b;
}

bool mg_kallsyms_all(void)
{
	static int known = -1;

	/* Data symbols appear in kallsyms only with CONFIG_KALLSYMS_ALL. */
	if (known < 0) {	/* listed, whether or not its address is shown */
		int r = mg_kallsyms_lookup("timekeeping_mg_floor_swaps");

		known = r == 1 || r == -EPERM;
	}
	return known;
}
