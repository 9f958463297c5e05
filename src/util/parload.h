/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parload.h - a session's tp_btf programs verified on two CPUs at once (parload.c).
 *
 * libbpf 1.1 loads an object's programs one after another in the loading thread, and
 * the verifier, about 17 ms a judging program on 6.18 (bench/notes.md "check start"),
 * is most of check's start. The main object then creates its maps (and loads any
 * program of another kind: check's fentry and kprobe backends); two clones of it,
 * opened from the same skeleton, reuse every map and load the deferred programs,
 * half of the tp_btf ones each, one in a helper thread, the syscall programs (the
 * inode GC's) with the helper's. The tp_btf programs' links go into the main
 * skeleton's slots, so its attach, detach and destroy see them; a deferred syscall
 * program's descriptor is the clone's (mg_parload_prog_fd()).
 */
#ifndef MGTRACE_PARLOAD_H
#define MGTRACE_PARLOAD_H

#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stddef.h>

struct mgtrace_bpf;
struct bpf_object;
struct bpf_program;

#define MG_PARLOAD_CLONES 2	/* clone 0 loads in the caller's thread, clone 1 in a helper */
#define MG_PARLOAD_MAX 8	/* programs deferred at most */

/* One clone: the programs it loads and what came of it. */
struct mg_parload_clone {
	struct mgtrace_bpf *skel;	/* opened clone (NULL: not opened, or closed) */
	size_t offs[MG_PARLOAD_MAX];	/* its programs, as MG_SKEL_PROG_OFF() offsets */
	int n;				/* how many */
	int err;			/* 0 or -errno of its open, map reuse or load */
};

/* The split of one load, from mg_parload_start() to mg_parload_close(). */
struct mg_parload {
	bool on;			/* programs were deferred to clones */
	struct mgtrace_bpf *main;	/* the object whose maps the clones reuse */
	struct mgtrace_bpf *(*open)(void);	/* opens a clone (backend.c's skeleton) */
	struct mg_parload_clone c[MG_PARLOAD_CLONES];
	pthread_t helper;		/* loads c[1] (on: started) */
	sem_t go;			/* posted once main's maps exist, or main's load failed */
	bool main_failed;		/* the helper is to stop without loading */
};

/*
 * Before main's load: defer its autoloaded tp_btf and syscall programs to clones when
 * this run can verify on two CPUs (two or more in its affinity mask, at least two
 * tp_btf programs, room for the clones' descriptors under RLIMIT_NOFILE) and start
 * the helper thread
 * (it opens its clone while main loads). open opens a new skeleton. Returns true when
 * split (pl->on); false leaves main as it was (a load as before). Never fails.
 */
bool mg_parload_start(struct mg_parload *pl, struct mgtrace_bpf *main,
		      struct mgtrace_bpf *(*open)(void));

/*
 * After main's load (main_err its result): load the clones, c[0] here and c[1] in the
 * helper, each reusing every map of main, sharing one parse of the kernel BTF
 * (kenv.c's lending). Returns 0, main_err, or the first clone's -errno (the caller
 * then closes everything and may load again without a split).
 */
int mg_parload_finish(struct mg_parload *pl, int main_err);

/* Attach the clones' programs, each link into main's skeleton slot. 0 or -errno. */
int mg_parload_attach(struct mg_parload *pl);

/*
 * The descriptor of main's program prog wherever it loaded: main's, else the clone's
 * that loaded it (pl->on). -1 or -ENOENT when neither did (not autoloaded, not loaded).
 */
int mg_parload_prog_fd(const struct mg_parload *pl, const struct mgtrace_bpf *main,
		       const struct bpf_program *prog);

/*
 * The clones' objects (loaded, pl->on), for what reads every loaded program (the
 * runs the kernel skipped): up to MG_PARLOAD_CLONES into objs; returns how many.
 */
int mg_parload_objs(const struct mg_parload *pl, struct bpf_object **objs);

/* Close the clones (their links stay with main's skeleton) and reset pl. */
void mg_parload_close(struct mg_parload *pl);

#endif
