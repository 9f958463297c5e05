/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mg_rules.h - the per-event rules of `mgtrace check`, written once: pure
 * functions over plain integers and one per-inode state, included by the BPF
 * program that judges each tracepoint event at the event (bpf/mgtrace.bpf.c,
 * under the inode's bpf_res_spin_lock) and by user space (src/util/checker.c: the
 * raw_tp fallback, and the unit tests' synthetic streams). No libc, no
 * vmlinux.h types, no signed division (clang 14 BPF has none), loops bounded
 * by constants.
 *
 * The rules are the kernel's contract, no stricter (fs/inode.c
 * inode_set_ctime_current(), fs/stat.c fill_mg_cmtime(),
 * Documentation/filesystems/multigrain-ts.rst): per inode (dev, ino,
 * generation) the ctimes seen never decrease (MG_V_REGRESSION), an update of a
 * QUERIED ctime yields a later one (MG_V_NOT_LATER), and the kernel never skips
 * an update over a query that provably came first (MG_V_SKIP_AFTER_QUERY).
 * What lies outside the contract, or is a race the events cannot decide, is
 * counted by enum mg_benign_kind and never fails the check (docs/check.md,
 * "Not faults", has the table and what each category is).
 */
#ifndef MG_RULES_H
#define MG_RULES_H


/*
 * Its parts, in order (each includes those it needs): the kinds and the
 * observations (mg_rule_obs.h), the per-inode state with its history and
 * quiet words (mg_rule_state.h), what judging finds (mg_rule_out.h), the event
 * rules (mg_rule_event.h), the clock steps (mg_rule_clock.h), the floor rule
 * (mg_rule_floor.h), the observations' contexts (mg_rule_ctx.h), and judging
 * in BPF: its maps' keys and values, counts and records (mg_judge_maps.h).
 * Includers name this file only.
 */
#include "mgtrace.h"
#include "mg_rule_obs.h"
#include "mg_rule_state.h"
#include "mg_rule_out.h"
#include "mg_rule_event.h"
#include "mg_rule_clock.h"
#include "mg_rule_floor.h"
#include "mg_rule_ctx.h"
#include "mg_judge_maps.h"

#endif /* MG_RULES_H */
