// SPDX-License-Identifier: GPL-2.0
/*
 * forgetrace.c - check --forget's races between generations, made to happen
 * (tests/host.d/63-check-bpf.sh; root, a kernel with bpf_res_spin_lock, 6.15+).
 *
 * Under --forget an inode's state moves from the previous generation's map to
 * the current one at its first event there (bpf/mg_judge.bpf.h
 * mg_judge_migrate()). Two events of one inode can meet that move: one finds
 * the previous entry already marked moved while its mover has not entered the
 * copy yet (MG_JTEST_RACE_HALF_MOVED), or one that found its entry sees it
 * moved on under it, user space having begun the next generation meanwhile
 * (MG_JTEST_RACE_MOVED_UNDER). Each must still be judged, against the inode's
 * whole history: never counted untracked, never judged against a copy that
 * lacks what the other event did. bpf/judgetest.bpf.c makes each race happen
 * at its exact point, on maps of its own (loaded with judge_forget set), and
 * this program checks what the judging found:
 *   - a regression stream (a swap to 2000.000000500, then 2 s later one to
 *     1999.000000500) must FAIL with exactly one regression, the later event
 *     judged, nothing untracked, the state moved once;
 *   - its twin (the second swap to 2001.000000500) must find no violation;
 *   - a getattr that marks the quiet word while the inode moves under it must
 *     leave the mark in the generation that holds the inode: the next getattr
 *     of the same ctime is quiet (a lost mark makes it mark again).
 *
 * A new ext4 or tmpfs inode's first event carries generation 0 (its times are
 * stamped before i_generation is set): its next event's key, with the
 * generation, takes that state (mg_judge_adopt()), with and without --forget,
 * from the current generation or the one before. A swap to 2000.000000500
 * under generation 0, then one to 1999.000000500 under generation 5, must FAIL
 * with one regression (before, the two keys never met: a PASS); its twin to
 * 2001 finds none. When the inode GC deletes the creation's entry while it is
 * copied (MG_JTEST_RACE_CREATION_DELETED), the copy is dropped and counted.
 * The same for a new xfs inode, whose creation swap carries number 0 (its
 * times stamped before i_ino is set) and its generation: its state is taken by
 * the key with the number.
 *
 * The state keeps an observation's context in its CPU's ring (judge_ctx): a
 * regression's earlier observation has its thread and comm with few kept
 * observations between, and is marked lost, its ctime exact, past the ring; a
 * held getattr's two contexts are kept apart (judge_held), so that the
 * regression it is judged to be names both threads past the ring too.
 *
 * Prints one "PASS name" or "FAIL name: why" line a check (tests/lib.sh tally);
 * exits 0, or 2 when the program cannot load (the reason on stderr).
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mgtrace.h"
#include "mg_rules.h"
#include "judgetest.skel.h"
#include "judge_gens.h"

static int failed;

static void check(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One "PASS name" or "FAIL name: why" line. */
static void check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failed++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* judge_counts summed over the possible CPUs into *sum; 0 or -errno. */
static int counts(struct judgetest_bpf *t, struct mg_judge_counts *sum)
{
	int n = libbpf_num_possible_cpus(), i;
	size_t k, words = sizeof(*sum) / sizeof(unsigned long long);
	struct mg_judge_counts *pc;
	uint32_t zero = 0;

	if (n <= 0 || !(pc = calloc(n, sizeof(*pc))))
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(t->maps.judge_counts), &zero, pc)) {
		free(pc);
		return -errno;
	}
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++)
		for (k = 0; k < words; k++)
			((unsigned long long *)sum)[k] += ((unsigned long long *)&pc[i])[k];
	free(pc);
	return 0;
}

/* the generation of the key of inode 7's next events (event(), slot_val()) */
static unsigned int ev_gen;

/* their number (7; 0: an xfs creation) and the struct inode's address (0: not known) */
static unsigned long long ev_ino = 7, ev_addr;

/* judgetest.bpf.c opened with judge_forget (forget) and small maps, loaded; NULL (why printed). */
static struct judgetest_bpf *load_as(bool forget)
{
	struct judgetest_bpf *t = judgetest_bpf__open();
	int err;

	if (!t) {
		fprintf(stderr, "forgetrace: judgetest.bpf.c: open: %s\n", strerror(errno));
		return NULL;
	}
	t->rodata->judge_forget = forget;
	t->rodata->judge_gen_half = 1000;	/* no generation asks for the next one */
	if ((err = bpf_map__set_max_entries(t->maps.judge_ctx, libbpf_num_possible_cpus())) ||
	    (err = bpf_map__set_max_entries(t->maps.judge_held, MG_HELD_ENTRIES)) ||
	    (err = bpf_map__set_max_entries(t->maps.inodes, 64)) ||
	    (err = bpf_map__set_max_entries(t->maps.inodes1, 64)) ||
	    (err = bpf_map__set_max_entries(t->maps.inodes2, 64)) ||
	    (err = bpf_map__set_max_entries(t->maps.inode_pend, 64)) ||
	    (err = bpf_map__set_max_entries(t->maps.inode_pend1, 64)) ||
	    (err = bpf_map__set_max_entries(t->maps.inode_pend2, 64)) ||
	    (err = judgetest_bpf__load(t))) {
		fprintf(stderr, "forgetrace: judgetest.bpf.c: load: %s\n", strerror(-err));
		judgetest_bpf__destroy(t);
		return NULL;
	}
	/* the generations' slots, filled as check fills them after load under --forget
	 * (judge_gens.h); nothing reads them without it */
	if (forget) {
		int fds[MG_GENS] = { bpf_map__fd(t->maps.inodes), bpf_map__fd(t->maps.inodes1),
				     bpf_map__fd(t->maps.inodes2) };
		int err = mg_judge_fill_gens(bpf_map__fd(t->maps.inode_gens), fds);

		if (err) {
			fprintf(stderr, "forgetrace: inode_gens: %s\n", strerror(-err));
			judgetest_bpf__destroy(t);
			return NULL;
		}
	}
	return t;
}

/* counts() into *c, or -1 with t destroyed (why printed). */
static int counts_or_destroy(struct judgetest_bpf *t, struct mg_judge_counts *c)
{
	int err = counts(t, c);

	if (!err)
		return 0;
	fprintf(stderr, "forgetrace: judge_counts: %s\n", strerror(-err));
	judgetest_bpf__destroy(t);
	return -1;
}

/* judgetest.bpf.c under --forget (load_as()). */
static struct judgetest_bpf *load(void)
{
	ev_gen = 0;
	return load_as(true);
}

/* One event of inode ev_ino (7): kind, ctime sec.nsec, monotonic t_ns, race, by thread pid
 * named comm; its path or -errno. */
static int event_race(struct judgetest_bpf *t, unsigned int kind, long long sec, unsigned int nsec,
		      unsigned long long t_ns, unsigned int race, unsigned int pid,
		      const char *comm)
{
	struct mg_judge_test_ctx ev;
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &ev, .ctx_size_in = sizeof(ev));

	memset(&ev, 0, sizeof(ev));
	ev.key = (struct mg_inode_key){ .ino = ev_ino, .gen = ev_gen, .addr = ev_addr };
	strcpy(ev.name, "forgetrace");
	ev.in.o = (struct mg_robs){ .sec = sec, .nsec = nsec, .kind = kind, .t_ns = t_ns,
				    .pid = pid };
	snprintf(ev.in.o.comm, sizeof(ev.in.o.comm), "%s", comm);
	ev.in.time_gran = 1;
	if (kind == MG_EV_CTIME_SWAP)
		ev.in.cur_nsec = ev.in.old_nsec = 100;
	ev.race = race;
	if (bpf_prog_test_run_opts(bpf_program__fd(t->progs.judge_test), &o))
		return -errno;
	return (int)o.retval;
}

/* event_race() by this process, named "forgetrace". */
static int event(struct judgetest_bpf *t, unsigned int kind, long long sec, unsigned int nsec,
		 unsigned long long t_ns, unsigned int race)
{
	return event_race(t, kind, sec, nsec, t_ns, race, (unsigned int)getpid(), "forgetrace");
}

/* event_race() with no race. */
static int event_as(struct judgetest_bpf *t, unsigned int kind, long long sec, unsigned int nsec,
		    unsigned long long t_ns, unsigned int pid, const char *comm)
{
	return event_race(t, kind, sec, nsec, t_ns, MG_JTEST_RACE_NONE, pid, comm);
}

/* The value of inode ev_ino (7) in slot's map (0, 1, 2); false if it holds none. */
static bool slot_val(struct judgetest_bpf *t, int slot, struct mg_inode_plain *v)
{
	struct bpf_map *m = slot == 0 ? t->maps.inodes : slot == 1 ? t->maps.inodes1 :
			    t->maps.inodes2;
	struct mg_inode_key key = { .ino = ev_ino, .gen = ev_gen, .addr = ev_addr };

	return !bpf_map_lookup_elem(bpf_map__fd(m), &key, v);
}

static const char *race_name[] = { "no race", "half moved", "moved under" };

/*
 * A swap in generation 0, then (generation 1) a second swap to later_sec under
 * race: one regression if later_sec < 2000, none otherwise, the second swap
 * judged in generation 1 with the history of generation 0.
 */
static int swaps(unsigned int race, long long later_sec)
{
	const unsigned long long S = 1000000000ull, t0 = 10 * S;
	unsigned int want = later_sec < 2000 ? 1 : 0;
	struct mg_judge_counts c;
	struct mg_inode_plain v0, v1;
	struct judgetest_bpf *t = load();
	char name[160];
	int p0, p1;

	if (!t)
		return -1;
	p0 = event(t, MG_EV_CTIME_SWAP, 2000, 500, t0, MG_JTEST_RACE_NONE);
	/* user space begins generation 1; under MOVED_UNDER the event's own race does */
	if (race != MG_JTEST_RACE_MOVED_UNDER)
		t->bss->judge_gen = 1;
	p1 = event(t, MG_EV_CTIME_SWAP, later_sec, 500, t0 + 2 * S, race);
	if (counts_or_destroy(t, &c))
		return -1;
	snprintf(name, sizeof(name), "--forget, %s: a swap to %lld.000000500 after one to "
		 "2000.000000500 in the generation before", race_name[race], later_sec);
	check(p0 == MG_JPATH_CONTEXT && p1 == MG_JPATH_CONTEXT, name,
	      "paths %d and %d (enum mg_judge_path), want %d for both", p0, p1, MG_JPATH_CONTEXT);
	snprintf(name, sizeof(name), "--forget, %s, later %lld: %u regression%s found", race_name[race],
		 later_sec, want, want ? "" : "s");
	check(c.violations[MG_V_REGRESSION] == want, name, "%llu",
	      c.violations[MG_V_REGRESSION]);
	snprintf(name, sizeof(name), "--forget, %s, later %lld: nothing untracked, nothing raced, "
		 "moved once", race_name[race], later_sec);
	check(!c.untracked && !c.forget_raced && c.migrated == 1, name,
	      "untracked %llu, not judged while moving %llu, moved %llu", c.untracked,
	      c.forget_raced, c.migrated);
	snprintf(name, sizeof(name), "--forget, %s, later %lld: generation 1 holds the inode, "
		 "generation 0's entry is marked moved", race_name[race], later_sec);
	check(t->bss->judge_gen == 1 && slot_val(t, 1, &v1) && !v1.moved && slot_val(t, 0, &v0) &&
	      v0.moved, name, "judge_gen %llu", (unsigned long long)t->bss->judge_gen);
	judgetest_bpf__destroy(t);
	return 0;
}

/*
 * A held getattr moves with its state (the storage apart, struct mg_rpend,
 * copied by the event that moves the state): a swap to 2000.000000500 in
 * generation 0, a getattr of the older 1999.000000500 held there (hold_s
 * seconds later), then in generation 1 under race resolve it: a swap to the
 * held value at 0.5 s (a concurrent read, nothing found), or at 4 s a getattr of the latest
 * (the held one judged: a regression when it came 2 s after the newer value,
 * undecided within 1 s). With the held getattr left behind (zero storage), the
 * regression would be undecided and the concurrent read a regression's base.
 */
static int holds(unsigned int race, bool by_swap, unsigned int hold_s)
{
	const unsigned long long S = 1000000000ull, t0 = 10 * S;
	unsigned int want_reg = !by_swap && hold_s >= 2, want_cr = by_swap;
	struct mg_inode_key key = { .ino = ev_ino, .gen = 0, .addr = 0 };
	struct judgetest_bpf *t = load();
	struct mg_judge_counts c;
	struct mg_rpend p1;
	char name[200];
	int p[3];
	bool pend1;

	if (!t)
		return -1;
	p[0] = event(t, MG_EV_CTIME_SWAP, 2000, 500, t0, MG_JTEST_RACE_NONE);
	p[1] = event(t, MG_EV_STAT, 1999, 500, t0 + hold_s * S, MG_JTEST_RACE_NONE);
	if (race != MG_JTEST_RACE_MOVED_UNDER)
		t->bss->judge_gen = 1;
	p[2] = by_swap ? event(t, MG_EV_CTIME_SWAP, 1999, 500, t0 + S / 2, race) :
			 event(t, MG_EV_STAT, 2000, 500, t0 + 4 * S, race);
	pend1 = !bpf_map_lookup_elem(bpf_map__fd(t->maps.inode_pend1), &key, &p1);
	if (counts_or_destroy(t, &c))
		return -1;
	snprintf(name, sizeof(name), "--forget, %s: a getattr held %u s after the newer value, "
		 "moved on, then %s", race_name[race], hold_s,
		 by_swap ? "a swap to its value" : "resolved by a getattr 4 s on");
	check(p[0] == MG_JPATH_CONTEXT && p[1] == MG_JPATH_CONTEXT && p[2] == MG_JPATH_CONTEXT &&
	      c.migrated == 1 && !c.untracked && !c.forget_raced, name,
	      "paths %d %d %d, moved %llu, untracked %llu, raced %llu", p[0], p[1], p[2],
	      c.migrated, c.untracked, c.forget_raced);
	check(t->bss->judge_pend_entries == 2, name, "judge_pend_entries %llu, want 2 (the "
	      "held getattr in each generation)", (unsigned long long)t->bss->judge_pend_entries);
	check(pend1 && p1.pend.sec == 1999 && p1.pend.nsec == 500 &&
	      p1.pend.t_ns == t0 + hold_s * S && p1.earlier.sec == 2000 && p1.earlier.t_ns == t0,
	      name, "the held getattr in generation 1's inode_pend1: %s, %lld.%09u at %llu, "
	      "older than %lld.%09u at %llu", pend1 ? "found" : "none", p1.pend.sec, p1.pend.nsec,
	      p1.pend.t_ns, p1.earlier.sec, p1.earlier.nsec, p1.earlier.t_ns);
	check(c.violations[MG_V_REGRESSION] == want_reg &&
	      c.benign[MG_B_CONCURRENT_READ] == want_cr &&
	      c.benign[MG_B_UNSEEN] == (!by_swap && hold_s < 2), name,
	      "%llu regressions (want %u), %llu concurrent reads (want %u), %llu unseen",
	      c.violations[MG_V_REGRESSION], want_reg, c.benign[MG_B_CONCURRENT_READ], want_cr,
	      c.benign[MG_B_UNSEEN]);
	judgetest_bpf__destroy(t);
	return 0;
}

/*
 * A swap, then a getattr of it that marks the quiet word while the inode moves on
 * under it, then another getattr of the same ctime: quiet, as without the race.
 */
static int marks(void)
{
	const unsigned long long S = 1000000000ull, t0 = 10 * S;
	struct judgetest_bpf *t = load();
	struct mg_judge_counts c;
	struct mg_inode_plain v1;
	int p[3];

	if (!t)
		return -1;
	p[0] = event(t, MG_EV_CTIME_SWAP, 2000, 500, t0, MG_JTEST_RACE_NONE);
	p[1] = event(t, MG_EV_STAT, 2000, 500, t0 + S / 4, MG_JTEST_RACE_MOVED_UNDER);
	p[2] = event(t, MG_EV_STAT, 2000, 500, t0 + S / 2, MG_JTEST_RACE_NONE);
	if (counts(t, &c)) {
		judgetest_bpf__destroy(t);
		return -1;
	}
	check(p[0] == MG_JPATH_CONTEXT && p[1] == MG_JPATH_MARKED, "--forget, moved under a "
	      "getattr: it marks the quiet word", "paths %d, %d (enum mg_judge_path)", p[0], p[1]);
	check(p[2] == MG_JPATH_QUIET, "--forget, moved under a getattr: its mark is in the "
	      "generation that holds the inode (the next getattr is quiet)",
	      "path %d, want %d (%d: the mark was lost with the generation before)", p[2],
	      MG_JPATH_QUIET, MG_JPATH_MARKED);
	check(slot_val(t, 1, &v1) && (v1.s.quiet & 1), "--forget, moved under a getattr: "
	      "generation 1's quiet word is marked", "quiet word %#llx",
	      (unsigned long long)v1.s.quiet);
	check(!c.untracked && !c.forget_raced && c.migrated == 1, "--forget, moved under a "
	      "getattr: nothing untracked, nothing raced, moved once",
	      "untracked %llu, raced %llu, moved %llu", c.untracked, c.forget_raced, c.migrated);
	judgetest_bpf__destroy(t);
	return 0;
}

/*
 * A new inode's creation swap to 2000.000000500 under generation 0 (number0:
 * under number 0, generation 5, at a known address: xfs), then under
 * generation 5 a swap to later_sec.000000500, with or without --forget (forget;
 * prev: generation 1 begun in between, so the creation is in the generation
 * before), under race: the second key takes the creation's state and finds one
 * regression if later_sec < 2000; when the inode GC deletes it meanwhile, none
 * (entered afresh, counted).
 */
static int creation(bool number0, bool forget, bool prev, unsigned int race, long long later_sec)
{
	const unsigned long long S = 1000000000ull, t0 = 10 * S;
	bool deleted = race == MG_JTEST_RACE_CREATION_DELETED;
	unsigned int want = later_sec < 2000 && !deleted ? 1 : 0;
	const char *under = number0 ? "number 0" : "generation 0";
	struct mg_judge_counts c;
	struct mg_inode_plain v;
	struct judgetest_bpf *t;
	char what[200], name[280];
	int p0, p1;

	if (!(t = load_as(forget)))
		return -1;
	/* the creation's key */
	ev_gen = number0 ? 5 : 0;
	ev_ino = number0 ? 0 : 7;
	ev_addr = number0 ? 0xffff888000003000ull : 0;
	p0 = event(t, MG_EV_CTIME_SWAP, 2000, 500, t0, MG_JTEST_RACE_NONE);
	if (prev)
		t->bss->judge_gen = 1;
	ev_gen = 5;
	ev_ino = 7;
	p1 = event(t, MG_EV_CTIME_SWAP, later_sec, 500, t0 + 2 * S, race);
	if (counts_or_destroy(t, &c))
		return -1;
	snprintf(what, sizeof(what), "creation under %s (%s%s%s), then a swap to "
		 "%lld.000000500 under number 7, generation 5", under, forget ? "--forget" : "exact",
		 prev ? ", the generation before" : "", deleted ? ", deleted while copied" : "",
		 later_sec);
	snprintf(name, sizeof(name), "%s: both judged", what);
	check(p0 == MG_JPATH_CONTEXT && p1 == MG_JPATH_CONTEXT, name,
	      "paths %d and %d (enum mg_judge_path), want %d for both", p0, p1, MG_JPATH_CONTEXT);
	snprintf(name, sizeof(name), "%s: %u regression%s found", what, want, want == 1 ? "" : "s");
	check(c.violations[MG_V_REGRESSION] == want, name, "%llu%s", c.violations[MG_V_REGRESSION],
	      want ? " (the creation's state not taken)" : " (a copy taken from a deleted entry)");
	snprintf(name, sizeof(name), "%s: %s, nothing untracked", what,
		 deleted ? "the copy dropped and counted" : "the state taken once");
	check(!c.untracked && c.adopted == (deleted ? 0 : 1) && c.adopt_raced == (deleted ? 1 : 0),
	      name, "taken %llu, found deleted %llu, untracked %llu", c.adopted, c.adopt_raced,
	      c.untracked);
	snprintf(name, sizeof(name), "%s: the creation's entry %s", what,
		 deleted ? "gone (the GC's)" : "moved, not copied (deleted by the event that took it)");
	ev_gen = number0 ? 5 : 0;
	ev_ino = number0 ? 0 : 7;
	check(!slot_val(t, 0, &v) && c.adopted_moved == (deleted ? 0 : 1), name,
	      "the creation's key still in slot 0: %d, moved %llu", slot_val(t, 0, &v),
	      c.adopted_moved);
	ev_gen = 5;
	ev_ino = 7;
	snprintf(name, sizeof(name), "%s: the entry of number 7, generation 5 holds the later ctime",
		 what);
	check(slot_val(t, prev ? 1 : 0, &v) && (v.s.fl & MG_RS_KNOWN) && v.s.max.sec == later_sec, name,
	      "known %u, max %lld", v.s.fl & MG_RS_KNOWN, (long long)v.s.max.sec);
	ev_addr = 0;
	judgetest_bpf__destroy(t);
	return 0;
}

/* ring buffer callback: the first violation record's observations into ctx (two) */
static int first_viol(void *ctx, void *data, size_t len)
{
	const struct mg_vrec *r = data;
	struct mg_robs *o = ctx;

	if (len >= sizeof(*r) && r->magic == MG_VREC_MAGIC && !(r->kind & MG_VREC_BENIGN) &&
	    o[0].ctx_from == MG_CTX_KEPT) {
		o[0] = r->earlier;
		o[1] = r->later;
		return 1;
	}
	return 0;
}

/* The first violation record t's ring buffer holds: its two observations into o; -1 if none. */
static int read_viol(struct judgetest_bpf *t, struct mg_robs o[2])
{
	struct ring_buffer *rb;

	o[0].ctx_from = MG_CTX_KEPT;
	rb = ring_buffer__new(bpf_map__fd(t->maps.events), first_viol, o, NULL);
	if (!rb)
		return -1;
	ring_buffer__consume(rb);
	ring_buffer__free(rb);
	return o[0].ctx_from == MG_CTX_KEPT ? -1 : 0;
}

/*
 * The per-inode state keeps a reference to an observation's context, which
 * lives in its CPU's ring "judge_ctx" (bpf/mg_judge.bpf.h): inode 7's swap to
 * 2000.000000500 by "ctx-early", then `between` swaps of inode 8 (each kept: the
 * state holds them), then a regression of inode 7 (pinned to one CPU: the ring
 * is that CPU's):
 *  - without hold, a swap to 1999.000000500 by "ctx-late": with few between, the
 *    violation record's earlier observation has its thread and comm; past
 *    MG_CTX_RING it is marked lost, its ctime and time exact;
 *  - with hold, a getattr of 1999.000000500 by "ctx-stat" 1.5 s after the swap,
 *    before inode 8's (a value older than the latest, not seen: held), judged
 *    by inode 7's next getattr past its 1 s window: a regression whose two
 *    observations name both threads past the ring too, from the contexts kept
 *    apart when it was held ("judge_held").
 */
static int ring_case(unsigned int between, bool hold)
{
	const unsigned long long S = 1000000000ull, t0 = 10 * S;
	bool lost = !hold && between >= MG_CTX_RING;
	struct mg_robs o[2] = {};
	struct judgetest_bpf *t;
	char name[200];
	unsigned int i;
	cpu_set_t cpus;
	int err = 0;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		fprintf(stderr, "forgetrace: sched_setaffinity: %s\n", strerror(errno));
		return -1;
	}
	ev_gen = 5;
	if (!(t = load_as(false)))
		return -1;
	ev_ino = 7;
	err = event_as(t, MG_EV_CTIME_SWAP, 2000, 500, t0, 4242, "ctx-early");
	if (hold && err >= 0)
		err = event_as(t, MG_EV_STAT, 1999, 500, t0 + S + S / 2, 4245, "ctx-stat");
	ev_ino = 8;
	for (i = 0; err >= 0 && i < between; i++)
		err = event_as(t, MG_EV_CTIME_SWAP, 3000 + i, 500, t0 + 2 * S + i, 4243, "ctx-other");
	ev_ino = 7;
	if (err >= 0)
		err = hold ? event_as(t, MG_EV_STAT, 2000, 500, t0 + 3 * S, 4246, "ctx-late") :
			     event_as(t, MG_EV_CTIME_SWAP, 1999, 500, t0 + 3 * S, 4244, "ctx-late");
	if (err < 0 || (err = read_viol(t, o)) < 0) {
		fprintf(stderr, "forgetrace: judge_test: %s\n", err < 0 ? strerror(-err) :
			"no violation record");
		judgetest_bpf__destroy(t);
		return -1;
	}
	snprintf(name, sizeof(name), "context%s: %u kept observations between: the regression's "
		 "earlier observation %s", hold ? " of a held getattr" : "", between,
		 lost ? "marked lost, its ctime and time exact" : "with its thread and comm");
	check(o[0].sec == 2000 && o[0].nsec == 500 && o[0].t_ns == t0 &&
	      (lost ? o[0].ctx_from == MG_CTX_LOST && !o[0].pid && !o[0].comm[0] :
		      o[0].ctx_from == MG_CTX_READ && o[0].pid == 4242 &&
		      !strcmp(o[0].comm, "ctx-early")),
	      name, "ctime %lld.%09u at %llu, context %u, pid %u, comm %.16s", o[0].sec,
	      o[0].nsec, o[0].t_ns, o[0].ctx_from, o[0].pid, o[0].comm);
	if (hold) {
		snprintf(name, sizeof(name), "context of a held getattr: %u kept observations "
			 "between: the later observation, the held getattr, with its thread", between);
		check(o[1].sec == 1999 && o[1].ctx_from == MG_CTX_READ && o[1].pid == 4245 &&
		      !strcmp(o[1].comm, "ctx-stat"), name, "ctime %lld, context %u, pid %u, "
		      "comm %.16s", o[1].sec, o[1].ctx_from, o[1].pid, o[1].comm);
	}
	judgetest_bpf__destroy(t);
	return 0;
}

int main(void)
{
	unsigned int r;

	if (!getenv("FORGETRACE_DEBUG"))
		libbpf_set_print(NULL);
	for (r = MG_JTEST_RACE_NONE; r <= MG_JTEST_RACE_MOVED_UNDER; r++)
		if (swaps(r, 1999) || swaps(r, 2001))
			return 2;
	if (marks())
		return 2;
	for (r = MG_JTEST_RACE_NONE; r <= MG_JTEST_RACE_MOVED_UNDER; r++)
		if (holds(r, true, 0) || holds(r, false, 0) || holds(r, false, 2))
			return 2;
	for (int n = 0; n < 2; n++)
		if (creation(n, false, false, MG_JTEST_RACE_NONE, 1999) ||
		    creation(n, false, false, MG_JTEST_RACE_NONE, 2001) ||
		    creation(n, false, false, MG_JTEST_RACE_CREATION_DELETED, 1999) ||
		    creation(n, true, false, MG_JTEST_RACE_NONE, 1999) ||
		    creation(n, true, false, MG_JTEST_RACE_NONE, 2001) ||
		    creation(n, true, true, MG_JTEST_RACE_NONE, 1999) ||
		    creation(n, true, true, MG_JTEST_RACE_NONE, 2001) ||
		    creation(n, true, true, MG_JTEST_RACE_CREATION_DELETED, 1999))
			return 2;
	if (ring_case(10, false) || ring_case(MG_CTX_RING + 10, false) || ring_case(10, true) ||
	    ring_case(MG_CTX_RING + 10, true))
		return 2;
	return 0;
}
