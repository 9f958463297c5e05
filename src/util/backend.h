/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend.h - load and attach bpf/mgtrace.bpf.c with one attach backend.
 *
 * Backends: fentry/fexit (BPF trampolines), kprobe/kretprobe, or tracepoints
 * only. Within the fentry backend, a function whose BTF prototype returns a
 * struct (inode_set_ctime_current and current_time return struct timespec64)
 * is probed with a kprobe, since the verifier refuses trampolines on it
 * ("return type STRUCT is unsupported"), as libbpf-tools fall back per function. Function probes on inode_set_ctime_current and ktime_get_real_ts64_mg
 * (plus current_time and ktime_get_coarse_real_ts64_mg with --hot) are added
 * to the four timestamp:* tracepoints, which every backend attaches as tp_btf,
 * or as raw_tp when tp_btf cannot load. "auto" tries fentry, kprobe, then
 * tracepoints, by really loading and attaching.
 */
#ifndef MG_BACKEND_H
#define MG_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "mgtrace.h"
#include "kenv.h"
#include "loadlog.h"
#include "parload.h"

#include "backend_types.h"
#include "backend_why.h"

struct mgtrace_bpf;
struct bpf_program;

/* Load-time options: what to attach and, in event mode, what to emit. */
struct mg_session_opts {
	bool hot;			/* also probe current_time and coarse_mg */
	bool events;			/* event mode: tracepoints write struct mg_event records */
	bool event_clock;		/* event mode: measure the realtime clock's bracket at each
					 * record, send each step found as a struct mg_steprec
					 * (check: bpf/mg_common.bpf.h mg_event_clock()) */
	unsigned int ringbuf_bytes;	/* ring buffer size (power of 2, >= page size); 0: 16 MiB */
	unsigned int event_mask;	/* 1 << enum mg_event_kind to emit; 0: all */
	unsigned int filter_tgid;	/* only events of this process (0: all) */
	int traced_tgids_fd;		/* > 0: only processes in this BPF hash (tgid keys,
					 * bpf/follow.bpf.c's traced_tgids); filter_tgid unused */
	unsigned int filter_nids;	/* only these inodes (0: all): n <= MG_MAX_IDS pairs of */
	unsigned int filter_devs[MG_MAX_IDS];	/* kernel dev_t (inode->i_sb->s_dev) and */
	unsigned long long filter_inos[MG_MAX_IDS];	/* inode->i_ino */
	char filter_comm[16];		/* only events of tasks with this comm ("" : all) */
	const uint64_t *cpu_mask;	/* event mode, -C: only events on these CPUs
					 * (MG_CPU_WORDS words, cpulist.h); NULL: every CPU */
	bool count_scoped;		/* counting mode: count only the processes that
					 * filter_tgid / traced_tgids_fd pass (process scope) */
	bool prefer_kernel;		/* stat's default: under auto, MG_BE_KERNEL where the
					 * kernel's per-CPU counters are readable (mg_run_setup) */
	const char *tp_off_why;		/* report text for rows of tracepoints not attached
					 * (mg_report_cfg::tp_off_why) */
	bool tp_select;			/* attach only the tracepoints in tp_mask (else all four) */
	unsigned int tp_mask;		/* 1 << index in mg_tp_names[] (kenv.h), with tp_select;
					 * MG_BE_KERNEL with an empty mask loads nothing */
	/* called for each attempt after open, before load (NULL: none), with the attempt's
	 * backend and whether the tracepoints load as tp_btf: the caller's rodata and map sizes (check: the judging
	 * of src/util/judge.c). Returns 0 or -errno (the attempt fails). */
	int (*pre_load)(struct mgtrace_bpf *skel, enum mg_backend be, bool tp_btf, void *ctx);
	void *pre_load_ctx;
	/* called after a load that succeeded, before attach (NULL: none), with pre_load_ctx:
	 * what only a loaded object takes (check --forget: the slots of a map-in-map).
	 * Returns 0 or -errno (the attempt fails). */
	int (*post_load)(struct mgtrace_bpf *skel, void *ctx);
	/* verify the tp_btf programs on two CPUs when the run may (parload.h): check's
	 * judging programs, whose verification is most of its start */
	bool split_load;
};

/* An attached set of programs, from mg_session_open() to mg_session_close(). */
struct mg_session {
	struct mgtrace_bpf *skel;	/* NULL for MG_BE_KERNEL without tracepoints */
	enum mg_backend backend;	/* the backend attached (never AUTO once open) */
	bool tp_btf;			/* tracepoints attached as tp_btf (else raw_tp) */
	unsigned int tp_mask;		/* tracepoints attached: 1 << index in mg_tp_names[] */
	bool hot;			/* current_time/coarse_mg probes attached */
	const char *func_probe[MG_NR_FUNCS];	/* per enum mg_func: "fentry", "kprobe" or NULL
					 * (not attached). The fentry backend uses a kprobe
					 * for functions that return a struct by value,
					 * which BPF trampolines cannot attach to. */
	int nr_cpus;			/* possible CPUs: entries per per-CPU read */
	struct mg_attempt attempts[MG_BE_NR];	/* why each backend tried was (not) taken */
	char tp_why[320];		/* why tp_btf was refused, when raw_tp is used */
	struct mg_parload pl;		/* the clones that loaded some of skel's programs
					 * (pl.on), closed with the session */
};


/* A program table entry as a test sees it: offset into the skeleton and the SEC() it needs. */
struct mg_prog_ref {
	size_t off;		/* MG_SKEL_PROG_OFF() */
	char sec[96];		/* "fentry/inode_set_ctime_current", "tp_btf/ctime_ns_xchg", ... */
};

/*
 * Check a program table against an opened skeleton: each entry's program has section
 * refs[i].sec (it attaches to the function or tracepoint the table says), no two entries
 * are one program, and every program of obj is in the table (none silently left off). Returns 0, or
 * -EINVAL with the first discrepancy in why[len].
 */
struct bpf_object;
int mg_progs_check(struct bpf_object *obj, const void *skel, const struct mg_prog_ref *refs,
		   size_t n, char *why, size_t len);

/*
 * The tables of bpf/mgtrace.bpf.c (this file), bpf/latency.bpf.c (src/stat/latency.c) and
 * bpf/floor.bpf.c (src/util/floor.c), checked with mg_progs_check() on a freshly opened (not
 * loaded) skeleton. Return 0 or a negative errno with why set.
 */
int mg_session_progs_check(char *why, size_t len);
int mg_latency_progs_check(char *why, size_t len);
int mg_floor_progs_check(char *why, size_t len);

/* "auto", "fentry", "kprobe", "tracepoint", "kernel". */
const char *mg_backend_name(enum mg_backend b);

/* Parse a --backend value. Returns 0 or -EINVAL. */
int mg_backend_parse(const char *s, enum mg_backend *b);

/* True for backends whose BPF programs count ctime_updates and fine_stamps. */
bool mg_backend_has_funcs(enum mg_backend b);

/*
 * Load and attach. want may be MG_BE_AUTO. On success returns 0 and s->skel is
 * attached; on failure returns a negative errno, nothing stays loaded, and
 * s->attempts[] says why each tried backend was refused.
 */
int mg_session_open(struct mg_session *s, const struct mg_kenv *env,
		    enum mg_backend want, const struct mg_session_opts *opts);

/*
 * The fd of the stack map the records' stack_id names (check judging in user space:
 * judge.c mg_judge_pre_load() asks for the stacks), or -1 without a skeleton. Look a stack up with bpf_map_lookup_elem(fd, &(stack_id - 1)).
 */
int mg_session_stacks_fd(const struct mg_session *s);

/*
 * The descriptor of the session's program prog (a program of s->skel) wherever it
 * loaded: in s->skel, or in the clone that verified it on another CPU (parload.h).
 * Negative when it did not load (not autoloaded: -1) or there is no skeleton.
 */
int mg_session_prog_fd(const struct mg_session *s, const struct bpf_program *prog);

/* Read the per-CPU counters: out[0..nr_cpus-1] (all 0 without a skeleton). Returns 0 or -errno. */
int mg_session_read(struct mg_session *s, struct mg_bpf_counts *out);

/*
 * Runs the kernel skipped of the session's programs so far: the sum of their
 * bpf_prog_info.recursion_misses (a program not run because it was already running
 * on that CPU, e.g. its task was preempted inside it), and for kprobe programs the
 * missed count of their perf-event link (bpf_link_info.perf_event.kprobe.missed,
 * 6.7+: a kprobe hit during another kprobe's handler, or a kretprobe with more
 * returns in flight than its maxactive). Each miss is an event the counters did
 * not see. detail[len] (may be NULL) gets "prog=n ..." for programs with misses
 * ("prog(probe missed)=n" for the links'). Returns 0 when none, or when the
 * kernel does not report them.
 */
uint64_t mg_session_recursion_misses(const struct mg_session *s, char *detail, size_t len);

/*
 * struct bpf_link_info as the kernel's uapi has it since 6.7, up to the perf-event
 * kprobe's missed count (Debian 12's headers, from 6.1, lack the perf_event member):
 * the union starts at offset 16 (tests/unit/test_backend.c checks every offset against the
 * running kernel's BTF).
 */
struct mg_link_info_kprobe {
	__u32 type, id, prog_id, pad;
	__u32 pe_type;		/* perf_event.type: enum bpf_perf_event_type */
	__u32 pad2;
	__u64 func_name;	/* perf_event.kprobe.func_name: 0 with name_len 0, no name */
	__u32 name_len, offset;
	__u64 addr;
	__u64 missed;		/* the kprobe's nmissed, + the kretprobe's (maxactive exceeded) */
};

#define MG_LINK_TYPE_PERF_EVENT 7	/* enum bpf_link_type */
#define MG_PERF_EVENT_KPROBE 3		/* enum bpf_perf_event_type */
#define MG_PERF_EVENT_KRETPROBE 4

/*
 * The same for any loaded object (the floor object of trace and check). detail,
 * if not NULL, is appended to (it must hold a string).
 */
struct bpf_object;
uint64_t mg_obj_recursion_misses(const struct bpf_object *obj, char *detail, size_t len);
/*
 * The same, with the misses of the programs named in apart (NULL-terminated) added to
 * *apart_total and described in apart_detail instead: programs whose skipped runs the
 * caller knows cannot hide an event (they only leave a decision undecided).
 */
uint64_t mg_obj_misses_split(const struct bpf_object *obj, const char *const *apart,
			     char *detail, size_t len, uint64_t *apart_total, char *apart_detail,
			     size_t alen);

/* Detach and unload; safe on a closed or failed session. */
void mg_session_close(struct mg_session *s);

#endif
