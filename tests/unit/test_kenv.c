// SPDX-License-Identifier: GPL-2.0
/* test_kenv.c - tests of src/util/kenv.c: a changed kernel interface is refused. */
#include "unit.h"
#include "kenv.h"

/* mg_interface_problem: a changed tracepoint prototype or i_ctime_nsec is refused in one line */
UNIT_TEST(interface_problem)
{
	struct mg_kenv e;
	const char *w;

	memset(&e, 0, sizeof(e));
	snprintf(e.release, sizeof(e.release), "9.9-test");
	e.btf = true;
	e.api = MG_API_MAINLINE;
	snprintf(e.iface.ctime_nsec, sizeof(e.iface.ctime_nsec), "u32");
	ASSERT_STREQ(mg_interface_problem(&e) ? mg_interface_problem(&e) : "(none)", "(none)",
		     "interface as expected: no problem");
	snprintf(e.iface.tp_args[0], sizeof(e.iface.tp_args[0]), "(struct inode *, u64, u32, u32)");
	e.iface.tp_args_changed[0] = true;
	w = mg_interface_problem(&e);
	if (!ASSERT_OK_PTR(w, "changed tracepoint arguments named"))
		return;
	ASSERT_HAS_SUBSTR(w, "timestamp:ctime_ns_xchg",
			  "changed tracepoint arguments named: %s", w ? w : "(null)");
	ASSERT_HAS_SUBSTR(w, "(struct inode *, u64, u32, u32)",
			  "changed tracepoint arguments named: %s", w ? w : "(null)");
	ASSERT_HAS_SUBSTR(w, "(struct inode *, u32, u32, u32)",
			  "changed tracepoint arguments named: %s", w ? w : "(null)");
	ASSERT_NULL(strchr(w, '\n'), "changed tracepoint arguments named: %s", w ? w : "(null)");
	e.iface.tp_args_changed[0] = false;
	snprintf(e.iface.ctime_nsec, sizeof(e.iface.ctime_nsec), "u64");
	w = mg_interface_problem(&e);
	ASSERT_HAS_SUBSTR(w, "i_ctime_nsec (BTF: u64)",
			  "changed i_ctime_nsec named: %s", w ? w : "(null)");
}
