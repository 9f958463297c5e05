// SPDX-License-Identifier: GPL-2.0
/*
 * funcprobe.c - how each probed kernel function is attached under a backend, and
 * whether kprobes exist (funcprobe.h).
 */
#include <unistd.h>
#include "funcprobe.h"

const char *mg_func_probe(const struct mg_kenv *env, enum mg_backend be, bool hot,
			  enum mg_func fn)
{
	if (fn >= MG_FN_NR_BASE && !hot)
		return NULL;
	if (be == MG_BE_FENTRY)
		return env->func_ret_struct[fn] ? "kprobe" : "fentry";
	return be == MG_BE_KPROBE ? "kprobe" : NULL;
}

bool mg_have_kprobe_pmu(void)
{
	return !access("/sys/bus/event_source/devices/kprobe/type", R_OK) ||
	       !access("/sys/kernel/tracing/kprobe_events", F_OK) ||
	       !access("/sys/kernel/debug/tracing/kprobe_events", F_OK);
}
