/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loadlog.h - what libbpf and the verifier said: the libbpf print callback keeps the
 * tail of libbpf's warnings (verifier logs included), and a failed load or attach is
 * classified from it into one line (CO-RE relocation, map, untraceable function).
 */
#ifndef MG_LOADLOG_H
#define MG_LOADLOG_H

#include <stdbool.h>
#include <stddef.h>

/* Install the libbpf print callback (quiet unless mg_verbose; keeps the last error line
 * and the tail of libbpf's warnings, verifier logs included, for mg_classify_load_log()). */
void mg_libbpf_setup(void);

/* Forget libbpf's warnings so far: call before each load attempt. */
void mg_libbpf_log_reset(void);

/*
 * The cause of a failed load/attach (negative errno err, at stage) of an object other
 * than mgtrace.bpf.c: a shortage of descriptors or memory (mg_resource_cause()), else
 * from libbpf's warnings since mg_libbpf_log_reset(): the mg_classify_load_log() line,
 * else libbpf's last warning, else strerror. Written
 * into buf[len], which is returned.
 */
const char *mg_libbpf_cause(int err, const char *stage, bool func_probe, char *buf, size_t len);

/* libbpf's warnings since mg_libbpf_log_reset() (the tail, up to 16 KiB; "" when none). */
const char *mg_libbpf_log(void);

/* The first line of libbpf's last warning since mg_libbpf_log_reset() ("" when none). */
const char *mg_libbpf_last_error(void);

/* What a failed load or attach came from, as told by libbpf's and the verifier's log. */
enum mg_load_cause {
	MG_CAUSE_UNKNOWN,	/* nothing recognised in the log */
	MG_CAUSE_CORE_RELO,	/* a CO-RE relocation found no such type/field in kernel BTF */
	MG_CAUSE_MAP,		/* a map the program uses was not created */
	MG_CAUSE_UNTRACEABLE,	/* the kernel refuses to trace the function */
	MG_CAUSE_LOCKDOWN_READ,	/* lockdown=confidentiality: no bpf_probe_read_kernel */
};

/*
 * Classify a failed load/attach from libbpf's warning text log (verifier log
 * included), the negative errno err, the stage ("load", "attach", ...) and whether
 * function probes (fentry/kprobe) were part of it. Writes a one-line cause into
 * cause[len] ("" for MG_CAUSE_UNKNOWN): for CO-RE the type and field as libbpf
 * names them ("struct dentry.d_u.d_alias"), for maps libbpf's line naming the map.
 */
enum mg_load_cause mg_classify_load_log(const char *log, int err, const char *stage,
					bool func_probe, char *cause, size_t len);

#endif
