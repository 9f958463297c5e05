// SPDX-License-Identifier: GPL-2.0
/* loadlog.c - libbpf's warnings kept and classified (see loadlog.h). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "loadlog.h"
#include "util.h"

static char last_libbpf_err[512];
/* Tail of everything libbpf warned about since the last mg_libbpf_log_reset(): the
 * verifier log of a failed load comes as one warning, the CO-RE and map lines near its end. */
static char libbpf_log[16384];
static size_t libbpf_log_len;

/* libbpf may load objects in two threads at once (parload.c): one message at a time */
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static int libbpf_print_locked(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list cp;

	if (level == LIBBPF_WARN) {
		/* the whole message: a verifier log is one warning, its cause near the end */
		char *msg = NULL;
		size_t n;

		va_copy(cp, ap);
		if (vasprintf(&msg, fmt, cp) < 0)
			msg = NULL;
		va_end(cp);
		if (msg) {
			n = strcspn(msg, "\n");
			n = n < sizeof(last_libbpf_err) ? n : sizeof(last_libbpf_err) - 1;
			memcpy(last_libbpf_err, msg, n);
			last_libbpf_err[n] = 0;
			n = strlen(msg);
			if (n >= sizeof(libbpf_log))
				n = sizeof(libbpf_log) - 1;
			if (libbpf_log_len + n >= sizeof(libbpf_log)) {	/* keep the tail */
				size_t drop = libbpf_log_len + n - (sizeof(libbpf_log) - 1);

				drop = drop > libbpf_log_len ? libbpf_log_len : drop;
				memmove(libbpf_log, libbpf_log + drop, libbpf_log_len - drop);
				libbpf_log_len -= drop;
			}
			memcpy(libbpf_log + libbpf_log_len, msg + strlen(msg) - n, n);
			libbpf_log_len += n;
			libbpf_log[libbpf_log_len] = 0;
			free(msg);
		}
	}
	if (!mg_verbose || (level == LIBBPF_DEBUG && mg_verbose < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int r;

	pthread_mutex_lock(&print_lock);
	r = libbpf_print_locked(level, fmt, ap);
	pthread_mutex_unlock(&print_lock);
	return r;
}

void mg_libbpf_log_reset(void)
{
	last_libbpf_err[0] = 0;
	libbpf_log_len = 0;
	libbpf_log[0] = 0;
}

/* Copy the rest of the line starting at p (without the newline) into out. */
static void line_from(const char *p, char *out, size_t len)
{
	size_t n = strcspn(p, "\n");

	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

enum mg_load_cause mg_classify_load_log(const char *log, int err, const char *stage,
					bool func_probe, char *cause, size_t len)
{
	const char *p, *q;
	char line[200];

	cause[0] = 0;
	/* libbpf poisons an instruction whose relocation found no target and rewrites the
	 * verifier's complaint into: failed to resolve CO-RE relocation <kind> [id] TYPE.FIELD (spec) */
	p = strstr(log, "failed to resolve CO-RE relocation ");
	if (p) {
		p += strlen("failed to resolve CO-RE relocation ");
		q = strchr(p, ']');
		if (*p == '<' && q && q - p < 40 && q[1] == ' ')
			p = q + 2;	/* skip "<byte_off> [123] " */
		line_from(p, line, sizeof(line));
		line[strcspn(line, "(")] = 0;
		while (*line && line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = 0;
		snprintf(cause, len, "CO-RE relocation failed: %s is not in this kernel's BTF", line);
		return MG_CAUSE_CORE_RELO;
	}
	/*
	 * lockdown=confidentiality (LOCKDOWN_BPF_READ_KERNEL): the verifier knows no helper
	 * that reads kernel memory (kernel/trace/bpf_trace.c returns no prototype for it).
	 * libbpf's feature probe then finds no bpf_probe_read_kernel and rewrites the calls
	 * into the old bpf_probe_read, which the verifier refuses too (seen on Debian 6.18).
	 */
	if ((p = strstr(log, "unknown func bpf_probe_read")) ||
	    (p = strstr(log, "cannot use helper bpf_probe_read"))) {
		snprintf(cause, len, "the verifier knows no bpf_probe_read_kernel: kernel lockdown="
			 "confidentiality takes away BPF reads of kernel memory "
			 "(LOCKDOWN_BPF_READ_KERNEL), which this program needs");
		return MG_CAUSE_LOCKDOWN_READ;
	}
	/* libbpf's log fixup for a map reference left poisoned: BPF map 'NAME' is referenced
	 * but wasn't created; or its own "map 'NAME': failed to create: ..." */
	p = strstr(log, "is referenced but wasn't created");
	if (p) {
		q = p;
		while (q > log && q[-1] != '\n')
			q--;
		line_from(q, line, sizeof(line));
		snprintf(cause, len, "map not created: %s", line);
		return MG_CAUSE_MAP;
	}
	p = strstr(log, "failed to create: ");
	if (p && (q = strstr(log, "map '")) && q < p) {
		line_from(q, line, sizeof(line));
		snprintf(cause, len, "map not created: %s", line);
		return MG_CAUSE_MAP;
	}
	/* the verifier refusing the attach target itself */
	if ((p = strstr(log, "is rejected")) || (p = strstr(log, "not traceable")) ||
	    (p = strstr(log, "Cannot attach")) || (p = strstr(log, "attach_btf_id"))) {
		q = p;
		while (q > log && q[-1] != '\n')
			q--;
		line_from(q, line, sizeof(line));
		snprintf(cause, len, "function not traceable: %s", line);
		return MG_CAUSE_UNTRACEABLE;
	}
	/* attaching a probe to a function the kernel will not let be traced */
	if (func_probe && !strcmp(stage, "attach") &&
	    (err == -EINVAL || err == -524 || err == -EOPNOTSUPP)) {
		snprintf(cause, len, "function not traceable");
		return MG_CAUSE_UNTRACEABLE;
	}
	return MG_CAUSE_UNKNOWN;
}

void mg_libbpf_setup(void)
{
	libbpf_set_print(libbpf_print);
}

const char *mg_libbpf_cause(int err, const char *stage, bool func_probe, char *buf, size_t len)
{
	if (mg_resource_cause(err, buf, len))
		return buf;
	if (mg_classify_load_log(libbpf_log, err, stage, func_probe, buf, len) == MG_CAUSE_UNKNOWN)
		snprintf(buf, len, "%s%s", last_libbpf_err[0] && strncmp(last_libbpf_err, "libbpf: ", 8) ?
			 "libbpf: " : "", last_libbpf_err[0] ? last_libbpf_err : strerror(-err));
	return buf;
}

const char *mg_libbpf_log(void)
{
	return libbpf_log;
}

const char *mg_libbpf_last_error(void)
{
	return last_libbpf_err;
}
