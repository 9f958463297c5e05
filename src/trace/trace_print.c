// SPDX-License-Identifier: GPL-2.0
/* trace_print.c - what `mgtrace trace` prints (see trace_int.h, docs/json.md). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "escape.h"
#include "ident.h"
#include "json_writer.h"
#include "jsonnum.h"
#include "report.h"
#include "opts.h"
#include "trace_int.h"
#include "util.h"
#include "vocab.h"


static json_t *ids_json(struct trace_state *t);
static void print_text_event(struct trace_state *t, const struct mg_event *e, int64_t real);

static void fmt_time(char *buf, size_t len, int64_t real_ns)
{
	time_t s = real_ns / 1000000000;
	struct tm tm;

	localtime_r(&s, &tm);
	snprintf(buf, len, "%02d:%02d:%02d.%09lld", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (long long)(real_ns % 1000000000));
}

/*
 * The event's comm and name as printed: cut at a character boundary, with
 * whether each was cut (escape.h). comm has no recorded length: the kernel
 * keeps 15 bytes; a cut is seen only when it split a character.
 */
static void event_names(const struct mg_event *e, size_t *comm_len, bool *comm_cut,
			size_t *name_len, bool *name_cut)
{
	*comm_len = mg_name_len(e->comm, sizeof(e->comm), 0, comm_cut);
	*name_len = mg_name_len(e->name, sizeof(e->name), e->name_len, name_cut);
}

/*
 * The kernel's fine-stamp decision as bpf/floor.bpf.c captured it: "needed",
 * "unneeded" (outside the kernel's condition), "undecided" (the state changed
 * between the two captures), or NULL (not inside inode_set_ctime_current).
 */
static const char *fine_decision(const struct mg_event *e)
{
	if (e->flags & MG_EVF_FINE_NEEDED)
		return "needed";
	if (e->flags & MG_EVF_FINE_UNNEEDED)
		return "unneeded";
	return e->flags & MG_EVF_IN_SET_CTIME ? "undecided" : NULL;
}

/* The ctime's nsec word split into its value and I_CTIME_QUERIED, as NAME_nsec, NAME_queried. */
static void jw_nsec_word(struct mg_jw *w, const char *name, uint32_t word)
{
	char k[32];

	snprintf(k, sizeof(k), "%s_nsec", name);
	mg_jw_int_field(w, k, word & ~MG_I_CTIME_QUERIED);
	snprintf(k, sizeof(k), "%s_queried", name);
	mg_jw_bool_field(w, k, word & MG_I_CTIME_QUERIED);
}

/* One event as a JSON line, streamed (no tree: this runs for every event). */
static void print_json_event(struct trace_state *t, const struct mg_event *e, int64_t real)
{
	char dev[MG_KDEV_STRLEN];
	size_t comm_len, name_len;
	bool comm_cut, name_cut;
	struct mg_jw w;

	mg_jw_init(&w, mg_out);
	mg_jw_start_object(&w);
	mg_jw_string_field(&w, "type", "event");
	mg_jw_string_field(&w, "event", mg_event_kind_name(e->kind));
	/* the exact ns, and forms a double keeps exact (jsonnum.h) */
	mg_jw_name(&w, "time");
	mg_jw_rfc3339(&w, real);
	mg_jw_ns(&w, "time_realtime", real, true);
	mg_jw_ns(&w, "time_mono", (int64_t)e->ts_ns, true);
	mg_jw_int_field(&w, "cpu", e->cpu);
	/* a task outside mgtrace's PID namespace has no ids there (pidns.h): null */
	if (e->flags & MG_EVF_PID_OUTSIDE) {
		mg_jw_null_field(&w, "pid");
		mg_jw_null_field(&w, "tid");
	} else {
		mg_jw_int_field(&w, "pid", e->tgid);
		mg_jw_int_field(&w, "tid", e->pid);
	}
	event_names(e, &comm_len, &comm_cut, &name_len, &name_cut);
	mg_jw_name(&w, "comm");
	mg_jw_bytes(&w, e->comm, comm_len);
	mg_jw_bool_field(&w, "comm_truncated", comm_cut);
	mg_jw_string_field(&w, "dev", mg_kdev_str(e->dev, dev));
	mg_jw_uint_field(&w, "ino", e->ino);
	mg_jw_name(&w, "inode");
	mg_jw_inode(&w, e->dev, e->ino);
	mg_jw_int_field(&w, "gen", e->gen);
	/* no bytes: a name the probe could not read (escape.h mg_json_name()) */
	mg_jw_name(&w, "name");
	name_len ? mg_jw_bytes(&w, e->name, name_len) : mg_jw_null(&w);
	mg_jw_bool_field(&w, "name_truncated", name_cut);
	mg_jw_bool_field(&w, "unlinked", e->flags & MG_EVF_UNLINKED);
	if (e->kind == MG_EV_CTIME_SWAP || e->kind == MG_EV_CTIME_SKIP || e->kind >= MG_EV_FLOOR_SWAP)
		mg_jw_ns(&w, "entry_mono", (int64_t)e->entry_ns, e->entry_ns);
	switch (e->kind) {
	case MG_EV_CTIME_SWAP:
		jw_nsec_word(&w, "old", e->old_nsec);
		mg_jw_int_field(&w, "new_sec", e->ctime_sec);
		mg_jw_int_field(&w, "new_nsec", e->ctime_nsec);
		jw_nsec_word(&w, "cur", e->cur_nsec);
		break;
	case MG_EV_STAT:
		mg_jw_int_field(&w, "mtime_sec", e->mtime_sec);
		mg_jw_int_field(&w, "mtime_nsec", e->mtime_nsec);
		/* fall through */
	case MG_EV_CTIME_SKIP:
		mg_jw_int_field(&w, "ctime_sec", e->ctime_sec);
		mg_jw_int_field(&w, "ctime_nsec", e->ctime_nsec);
		break;
	case MG_EV_CTIME_SET:
		mg_jw_int_field(&w, "ctime_sec", e->ctime_sec);
		mg_jw_int_field(&w, "ctime_nsec", e->ctime_nsec);
		/* i_ctime_nsec before the set (its tracepoint fires before the store) */
		jw_nsec_word(&w, "old", e->old_nsec);
		mg_jw_bool_field(&w, "inode_setup", e->flags & MG_EVF_INODE_SETUP);
		break;
	default:	/* floor */
		mg_jw_int_field(&w, "fine_sec", e->ctime_sec);
		mg_jw_int_field(&w, "fine_nsec", e->ctime_nsec);
		mg_jw_ns(&w, "floor_before_mono", (int64_t)e->floor_before, e->floor_known);
		mg_jw_ns(&w, "floor_after_mono", (int64_t)e->floor_after, e->floor_known);
		mg_jw_string_field(&w, "fine_decision", fine_decision(e));
		if (!e->floor_known)
			mg_jw_string_field(&w, "floor_unavailable",
					   "mg_floor is not in /proc/kallsyms");
		break;
	}
	mg_jw_end_object(&w);
	if (mg_jw_end_line(&w)) {
		mg_err(MG_EXIT_FAIL, "JSON: writing an event failed");
		mg_json_failures++;
	}
}

void trace_on_event(void *ctx, const struct mg_event *e)
{
	struct trace_state *t = ctx;
	int64_t real = (int64_t)e->ts_ns + t->offset;

	if (e->kind >= MG_EV_NR_KINDS) {
		t->bad_kind++;
		return;
	}
	if (mg_out_failed()) {	/* the run is ending: counted, never silently dropped */
		t->not_written++;
		return;
	}
	if (t->o.json)
		print_json_event(t, e, real);
	else
		print_text_event(t, e, real);
	if (mg_out_failed()) {	/* this line did not go out (whole) */
		t->not_written++;
		return;
	}
	t->printed++;
	t->by_kind[e->kind]++;
}

/* One event as a text line of mg_out. */
static void print_text_event(struct trace_state *t, const struct mg_event *e, int64_t real)
{
	char tm[32], pid[16], det[160], name[4 * MG_NAME_LEN + 24], comm[4 * 16 + 8], dev[MG_KDEV_STRLEN];
	size_t comm_len, name_len;
	bool comm_cut, name_cut;

	fmt_time(tm, sizeof(tm), real);
	switch (e->kind) {
	case MG_EV_CTIME_SWAP:
		snprintf(det, sizeof(det), "old=.%09u%s new=%lld.%09u",
			 e->old_nsec & ~MG_I_CTIME_QUERIED,
			 e->old_nsec & MG_I_CTIME_QUERIED ? "(QUERIED)" : "",
			 (long long)e->ctime_sec, e->ctime_nsec);
		break;
	case MG_EV_CTIME_SKIP:
		snprintf(det, sizeof(det), "ctime=%lld.%09u", (long long)e->ctime_sec,
			 e->ctime_nsec);
		break;
	case MG_EV_STAT:
		snprintf(det, sizeof(det), "ctime=%lld.%09u mtime=%lld.%09u", (long long)e->ctime_sec,
			 e->ctime_nsec, (long long)e->mtime_sec, e->mtime_nsec);
		break;
	case MG_EV_CTIME_SET:
		snprintf(det, sizeof(det), "ctime=%lld.%09u old_nsec=%u%s%s", (long long)e->ctime_sec,
			 e->ctime_nsec, e->old_nsec & ~MG_I_CTIME_QUERIED,
			 e->old_nsec & MG_I_CTIME_QUERIED ? "(QUERIED)" : "",
			 e->flags & MG_EVF_INODE_SETUP ? " setup" : "");
		break;
	default:
		if (e->floor_known)
			snprintf(det, sizeof(det), "fine=%lld.%09u floor=%llu->%llu (mono ns) %s",
				 (long long)e->ctime_sec, e->ctime_nsec, e->floor_before, e->floor_after,
				 fine_decision(e) ? fine_decision(e) : "-");
		else
			snprintf(det, sizeof(det), "fine=%lld.%09u floor=unavailable (mg_floor not "
				 "in kallsyms) %s", (long long)e->ctime_sec, e->ctime_nsec,
				 fine_decision(e) ? fine_decision(e) : "-");
		break;
	}
	event_names(e, &comm_len, &comm_cut, &name_len, &name_cut);
	mg_text_escape(comm, sizeof(comm), e->comm, comm_len, comm_cut);
	mg_text_escape(name, sizeof(name), e->name, name_len, name_cut);
	if (name[0] && (e->flags & MG_EVF_UNLINKED))
		strcat(name, " (deleted)");	/* as /proc/PID/fd; room kept above */
	if (e->flags & MG_EVF_PID_OUTSIDE)
		snprintf(pid, sizeof(pid), "-");	/* outside mgtrace's PID namespace */
	else
		snprintf(pid, sizeof(pid), "%u", e->tgid);
	fprintf(mg_out, "%s %3u %7s %-15s %-13s %-7s %-10llu %-16s %s\n", tm, e->cpu, pid, comm,
	       mg_event_kind_name(e->kind), mg_kdev_str(e->dev, dev), (unsigned long long)e->ino,
	       name[0] ? name : "-", det);
}


void trace_print_summary(struct trace_state *t)
{
	struct mg_ident now, *cu = &now, rep;
	char dev[MG_KDEV_STRLEN];
	bool copied = mg_ident_copied_up(&t->o.ids, &now);
	/* the path names another inode now (renamed over): its events were not traced */
	bool replaced = !copied && mg_ident_replaced(t->o.path, &t->o.ids, &rep);
	int k;

	if (mg_out_failed()) {	/* one line, mg_out_close()'s (none for a reader gone) */
		char cmd[48] = "";

		if (t->o.argv)
			snprintf(cmd, sizeof(cmd), "; COMMAND's status %d", t->run.child_status);
		mg_out_note("the run ended; %llu events written, %llu not written, %llu lost%s",
			    (unsigned long long)t->printed, (unsigned long long)t->not_written,
			    (unsigned long long)t->lost_seen, cmd);
		return;
	}

	if (t->o.json) {
		json_t *o = json_object(), *by = json_object();

		mg_json_put_header(o, "trace_summary", t->run.env.release);
		json_object_set_new(o, "tracepoints", json_string(t->run.sess.tp_btf ? "tp_btf" : "raw_tp"));
		json_object_set_new(o, "floor_probes", t->floor.skel ? json_string(t->floor.probe) :
				    json_null());
		if (!t->floor.skel && (t->o.mask & EV_FLOOR))
			json_object_set_new(o, "floor_unavailable", json_string(t->floor_why));
		json_object_set_new(o, "events", json_integer((json_int_t)t->printed));
		for (k = 0; k < MG_EV_NR_KINDS; k++)
			json_object_set_new(by, mg_event_kind_name(k), json_integer((json_int_t)t->by_kind[k]));
		json_object_set_new(o, "by_event", by);
		json_object_set_new(o, "lost_events", json_integer((json_int_t)t->lost_seen));
		json_object_set_new(o, "malformed_records",
				    json_integer((json_int_t)(t->bad_kind + t->ev.short_records)));
		if (t->o.argv)
			json_object_set_new(o, "command_status", mg_run_status_json(&t->run));
		json_object_set_new(o, "processes", json_string(t->procs));
		if (t->follow) {
			json_object_set_new(o, "processes_followed",
					    json_integer((json_int_t)t->follow->bss->follow_counts.followed));
			json_object_set_new(o, "processes_not_followed",
					    json_integer((json_int_t)t->nf_seen));
		}
		json_object_set_new(o, "inodes", ids_json(t));
		if (t->o.path) {	/* asked of the kernel (pathid.h mg_ident_multigrain()) */
			json_object_set_new(o, "path_multigrain", t->path_mg < 0 ? json_null() :
					    json_boolean(t->path_mg));
			if (t->path_mg < 0)
				json_object_set_new(o, "path_multigrain_unavailable",
						    mg_json_cstr(t->path_mg_why));
		}
		if (t->o.ids.note[0])
			json_object_set_new(o, "inodes_note", json_string(t->o.ids.note));
		if (copied)
			json_object_set_new(o, "copied_up_untraced",
					    json_sprintf("%s:%llu", mg_kdev_str(cu->dev, dev), cu->ino));
		if (replaced)
			json_object_set_new(o, "path_replaced_untraced",
					    json_sprintf("%s:%llu", mg_kdev_str(rep.dev, dev), rep.ino));
		mg_json_print_line(mg_out, o);
		json_decref(o);
		return;
	}
	if (copied)
		fprintf(stderr, "mgtrace: note: the file was copied up during the trace to upper inode "
			"%s:%llu (%s), whose events were not traced\n", mg_kdev_str(cu->dev, dev),
			cu->ino, cu->why);
	if (replaced)
		fprintf(stderr, "mgtrace: note: the path now names another inode, %s:%llu "
			"(the file was replaced during the trace, as by a rename over it), whose "
			"events were not traced\n", mg_kdev_str(rep.dev, dev), rep.ino);
	fprintf(stderr, "mgtrace: %llu events printed, %llu lost", (unsigned long long)t->printed,
		(unsigned long long)t->lost_seen);
	if (t->bad_kind + t->ev.short_records)
		fprintf(stderr, "; %llu malformed records not shown",
			(unsigned long long)(t->bad_kind + t->ev.short_records));
	if (t->follow)
		fprintf(stderr, "; %llu child processes followed",
			(unsigned long long)t->follow->bss->follow_counts.followed);
	if (t->follow && t->nf_seen)	/* only when the map filled: 0 is the normal case */
		fprintf(stderr, ", %llu not followed (process map full)",
			(unsigned long long)t->nf_seen);
	fputc('\n', stderr);
}

/* [{dev, ino, role, fstype, source}] of the traced inodes ([] when every inode is traced). */
static json_t *ids_json(struct trace_state *t)
{
	json_t *a = json_array();

	for (int i = 0; i < t->o.ids.n; i++) {
		const struct mg_ident *id = &t->o.ids.id[i];
		json_t *o = json_object();

		json_object_set_new(o, "dev", json_sprintf("%u:%u", id->dev >> 20, id->dev & 0xfffff));
		json_object_set_new(o, "ino", mg_json_u64(id->ino));
		json_object_set_new(o, "inode", mg_json_inode(id->dev, id->ino));
		json_object_set_new(o, "role", json_string(id->role));
		json_object_set_new(o, "file_type", id->ftype[0] ? json_string(id->ftype) : json_null());
		json_object_set_new(o, "fstype", json_string(id->fstype));
		json_object_set_new(o, "source", json_string(id->why));
		json_array_append_new(a, o);
	}
	return a;
}

/* Header lines (text mode, stderr): the processes and the inodes traced, and why. */
void trace_print_selection(struct trace_state *t)
{
	fprintf(stderr, "mgtrace: processes: %s%s%s\n", t->procs, t->o.comm[0] ? ", comm " : "",
		t->o.comm);
	for (int i = 0; i < t->o.ids.n; i++) {
		const struct mg_ident *id = &t->o.ids.id[i];

		/* the path's own inode is named by its type ("file" for a regular one) */
		bool own = !strcmp(id->role, "file") && id->ftype[0] && strcmp(id->ftype, "regular");

		fprintf(stderr, "mgtrace: inode %u:%u:%llu (%s%s%s%s%s): %s\n", id->dev >> 20,
			id->dev & 0xfffff, id->ino, own ? id->ftype : id->role,
			id->fstype[0] ? ", " : "", id->fstype,
			!own && id->ftype[0] && strcmp(id->ftype, "regular") ? ", " : "",
			!own && strcmp(id->ftype, "regular") ? id->ftype : "", id->why);
	}
	if (t->o.ids.note[0])
		fprintf(stderr, "mgtrace: note: %s\n", t->o.ids.note);
}
