/* SPDX-License-Identifier: GPL-2.0 */
/*
 * follow.h - a process tree followed in BPF (bpf/follow.bpf.c): a root process and
 * its descendants, kept in the traced_tgids hash map that the event and counting
 * programs look the current tgid up in (one hash lookup per event). Used by
 * `trace -- COMMAND`, and by `stat -p PID` / `stat --tree -- COMMAND` (process scope).
 */
#ifndef MG_FOLLOW_H
#define MG_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct follow_bpf;
struct mg_kenv;

/*
 * Load and attach the fork/exit programs (raw_tp, else tp_btf; under
 * lockdown=confidentiality tp_btf first), reading a task at the offsets of env's
 * kernel BTF (env->iface.task, probed by mg_run_require_env()), put root in the map
 * and, with existing, every descendant root has now (read from
 * /proc/PID/task/TID/children after each insert, so a fork between the two is seen
 * either way), except mgtrace's own process (-p $$ from the shell that runs it).
 * Returns the skeleton, or NULL with one line in why.
 */
struct follow_bpf *mg_follow_open(const struct mg_kenv *env, pid_t root, bool existing,
				  char *why, size_t len);

/*
 * The same for n roots (-p 1,2: each pid with its descendants; n >= 1), every one
 * with the descendants it has now (existing) or none. Returns the skeleton, or NULL
 * with one line in why.
 */
struct follow_bpf *mg_follow_open_pids(const struct mg_kenv *env, const uint32_t *roots,
				       unsigned int n, bool existing, char *why, size_t len);

/* The traced_tgids map's fd, for mg_session_opts::traced_tgids_fd. */
int mg_follow_fd(struct follow_bpf *f);

/* Processes added after the start (forks), and those the full map could not take. */
uint64_t mg_follow_followed(const struct follow_bpf *f);
uint64_t mg_follow_not_followed(const struct follow_bpf *f);

/*
 * Processes in the traced_tgids map now: followed and not exited (at most
 * MG_MAX_TRACED; a process exiting during the walk may be counted or not).
 */
uint64_t mg_follow_live(const struct follow_bpf *f);

/* Processes found by the /proc scan at the start (existing). */
uint64_t mg_follow_found(const struct follow_bpf *f);

/*
 * False once every followed process has exited (the traced_tgids map is empty)
 * and none was left out of it (not_followed 0: else it cannot tell); the
 * mg_run::alive callback of -p PID (arg: the follow_bpf).
 */
bool mg_follow_alive(void *arg);

/* Detach and free; NULL is fine. */
void mg_follow_close(struct follow_bpf *f);

#endif
