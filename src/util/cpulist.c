// SPDX-License-Identifier: GPL-2.0
/* cpulist.c - CPU and pid lists in perf's syntax (see cpulist.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpulist.h"
#include "util.h"

/* A decimal number at *p (digits only), moved past; -1 when none or too large. */
static long number(const char **p)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	for (; **p >= '0' && **p <= '9'; (*p)++)
		if ((v = v * 10 + (**p - '0')) > 100000000)
			return -1;
	return v;
}

int mg_cpulist_parse(const char *s, uint64_t *mask, char *why, size_t len)
{
	const char *p = s;
	int n = 0;

	memset(mask, 0, MG_CPU_WORDS * sizeof(*mask));
	if (!s || !*s) {
		snprintf(why, len, "an empty list");
		return -EINVAL;
	}
	for (;;) {
		const char *item = p;
		long a = number(&p), b = a;

		if (*p == '-') {
			p++;
			b = number(&p);
		}
		if (a < 0 || b < 0 || (*p && *p != ',')) {
			snprintf(why, len, *item == ',' || !*item ? "an empty item" :
				 "'%.*s' is not a CPU or a range A-B", (int)strcspn(item, ","), item);
			return -EINVAL;
		}
		if (b < a) {
			snprintf(why, len, "range %ld-%ld is reversed", a, b);
			return -EINVAL;
		}
		if (b >= MG_MAX_CPUS) {
			snprintf(why, len, "CPU %ld is beyond the %d CPUs mgtrace handles", b,
				 MG_MAX_CPUS);
			return -ERANGE;
		}
		for (long c = a; c <= b; c++)
			if (!(mask[c / 64] >> (c % 64) & 1)) {
				mask[c / 64] |= 1ull << (c % 64);
				n++;
			}
		if (!*p)
			return n;
		p++;	/* ',' */
	}
}

void mg_cpulist_str(const uint64_t *mask, char *buf, size_t len)
{
	size_t o = 0;
	int c = 0;

	buf[0] = 0;
	while (c < MG_MAX_CPUS) {
		int a;

		if (!(mask[c / 64] >> (c % 64) & 1)) {
			c++;
			continue;
		}
		for (a = c; c + 1 < MG_MAX_CPUS && (mask[(c + 1) / 64] >> ((c + 1) % 64) & 1); c++)
			;
		if (o < len)
			o += snprintf(buf + o, len - o, a == c ? "%s%d" : "%s%d-%d", o ? "," : "", a, c);
		c++;
	}
}

int mg_opt_cpus(const char *cmd, const char *arg, struct mg_cpus *c)
{
	uint64_t online[MG_CPU_WORDS];
	char why[160], list[1024];
	int n, possible = mg_nr_cpus();

	if ((n = mg_cpulist_parse(arg, c->mask, why, sizeof(why))) < 0)
		return mg_err(MG_EXIT_USAGE, "%s: invalid CPU list '%s': %s (perf's syntax: 0,2-3)",
			      cmd, arg, why);
	if (mg_read_file("/sys/devices/system/cpu/online", list, sizeof(list)) < 0 ||
	    (list[strcspn(list, "\n")] = 0, mg_cpulist_parse(list, online, why, sizeof(why)) < 0))
		return mg_err(MG_EXIT_USAGE, "%s: -C %s: cannot read the online CPUs "
			      "(/sys/devices/system/cpu/online)", cmd, arg);
	for (int cpu = 0; cpu < MG_MAX_CPUS; cpu++) {
		if (!(c->mask[cpu / 64] >> (cpu % 64) & 1))
			continue;
		if (possible > 0 && cpu >= possible)
			return mg_err(MG_EXIT_USAGE, "%s: -C %s: CPU %d is not possible on this "
				      "machine (%d possible CPUs; online: %s)", cmd, arg, cpu,
				      possible, list);
		if (!(online[cpu / 64] >> (cpu % 64) & 1))
			return mg_err(MG_EXIT_USAGE, "%s: -C %s: CPU %d is not online (online: %s)",
				      cmd, arg, cpu, list);
	}
	c->given = true;
	c->n = n;
	mg_cpulist_str(c->mask, c->text, sizeof(c->text));
	return 0;
}

int mg_pidlist_parse(const char *s, struct mg_pids *p, char *why, size_t len)
{
	const char *q = s;

	if (!s || !*s) {
		snprintf(why, len, "an empty list");
		return -EINVAL;
	}
	for (;;) {
		const char *item = q;
		long v = number(&q);
		unsigned int i;

		if (v < 0 || (*q && *q != ',')) {
			snprintf(why, len, *item == ',' || !*item ? "an empty item" :
				 "'%.*s' is not a pid", (int)strcspn(item, ","), item);
			return -EINVAL;
		}
		if (v < 1 || v > 4194304) {
			snprintf(why, len, "pid %ld is out of range (1 to 4194304)", v);
			return -ERANGE;
		}
		for (i = 0; i < p->n && p->pid[i] != (uint32_t)v; i++)
			;
		if (i == p->n) {
			if (p->n >= MG_PIDS_MAX) {
				snprintf(why, len, "more than %d pids", MG_PIDS_MAX);
				return -E2BIG;
			}
			p->pid[p->n++] = (uint32_t)v;
		}
		if (!*q)
			return 0;
		q++;
	}
}

void mg_pids_scope(const struct mg_pids *p, char *buf, size_t len)
{
	size_t o;

	if (p->n == 1) {
		snprintf(buf, len, "pid %u and its descendants", p->pid[0]);
		return;
	}
	o = (size_t)snprintf(buf, len, "pids");
	for (unsigned int i = 0; i < p->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u", i ? ", " : " ", p->pid[i]);
	if (o + 27 >= len && len > 32)
		snprintf(buf + len - 32, 32, "...");
	o = strlen(buf);
	snprintf(buf + o, len - o, " and their descendants");
}
