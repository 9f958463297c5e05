/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - the one event pipeline of event mode (trace, check): the BPF ring
 * buffer "events" that bpf/mgtrace.bpf.c and bpf/floor.bpf.c share, consumed
 * in batches so that a sustained stream still hands control back (signals,
 * clock samples), and the count of events lost on the way.
 *
 * Events are submitted without a wakeup below a backlog (mg_wakeup_flags in
 * bpf/mg_common.bpf.h), so consumers wait on a timer as well as on data.
 * Model: libbpf-bootstrap's bootstrap.c (one loop, one handler).
 */
#ifndef MG_EVENTS_H
#define MG_EVENTS_H

#include <signal.h>
#include <stdint.h>
#include "backend.h"
#include "floor.h"
#include "mgtrace.h"
#include "mg_rules.h"

/* Called for each complete record, in ring-buffer (reservation) order. */
typedef void (*mg_event_fn)(void *ctx, const struct mg_event *e);

/* Called for each violation record (struct mg_vrec: check judging in BPF). */
typedef void (*mg_vrec_fn)(void *ctx, const struct mg_vrec *r);

/* Called for each clock-step record (struct mg_steprec: check judging in BPF). */
typedef void (*mg_step_fn)(void *ctx, const struct mg_steprec *r);

/* A consumer of the ring buffer, from mg_events_open() to mg_events_close(). */
struct mg_events {
	struct ring_buffer *rb;
	mg_event_fn fn;
	mg_vrec_fn vrec_fn;		/* NULL: a violation record counts as short */
	mg_step_fn step_fn;		/* NULL: a clock-step record counts as short */
	void *ctx;
	unsigned int batch;		/* records handled in the current batch */
	unsigned int batch_max;		/* records per batch before control returns */
	uint64_t records;		/* records handled */
	uint64_t short_records;		/* records shorter than struct mg_event (never expected) */
	uint64_t gen_records;		/* struct mg_genrec: check --forget's wakeups */
	int wake_fd;			/* signalfd mg_events_wait() also wakes on, or -1 */
};

/*
 * Consume the ring buffer map map_fd, batch_max records per batch. Returns 0
 * or -errno (-ENOMEM).
 */
int mg_events_open(struct mg_events *ev, int map_fd, mg_event_fn fn, void *ctx,
		   unsigned int batch_max);

/* Wait up to timeout_ms for records (or a wakeup). Returns 0 or -errno (not -EINTR). */
int mg_events_wait(struct mg_events *ev, int timeout_ms);

/*
 * Wake mg_events_wait() also while one of sigs (blocked, and taken by sigtimedwait()
 * elsewhere: mg_run_wait()) is pending: a signalfd in the ring buffer's epoll set,
 * never read, closed by mg_events_close(). For a loop that waits for its COMMAND's end
 * or a stop signal: seen at once, not at its next tick. Returns 0 or -errno. The ring
 * buffer is then never to be polled with ring_buffer__poll(), which would take the
 * signalfd for a ring; mg_events_consume() does not poll.
 */
int mg_events_wake_on(struct mg_events *ev, const sigset_t *sigs);

/*
 * Handle what is there now, one batch at most. Returns 1 if the batch filled
 * (more may be waiting), 0 if the buffer was emptied, or -errno.
 */
int mg_events_consume(struct mg_events *ev);

/* Handle everything there now, batch after batch. Returns 0 or -errno. */
int mg_events_drain(struct mg_events *ev);

/*
 * Events lost since load (ring buffer full): the session object's MG_BPF_LOST
 * and, if loaded, the floor object's, summed over possible CPUs. scratch holds
 * sess->nr_cpus entries. Returns 0 or -errno (a map could not be read).
 */
int mg_events_lost(struct mg_session *sess, const struct mg_floor *floor,
		   struct mg_bpf_counts *scratch, uint64_t *lost);

void mg_events_close(struct mg_events *ev);

#endif
