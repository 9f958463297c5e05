// SPDX-License-Identifier: GPL-2.0
/* test_loadlog.c - tests of src/util/loadlog.c: the class of a BPF load failure. */
#include <errno.h>
#include "unit.h"
#include "loadlog.h"

/* mg_classify_load_log: each class from a log as libbpf 1.1 and the verifier write it */
UNIT_TEST(classify_load_log)
{
	char c[200];
	enum mg_load_cause k;
	/* the 7.2 failure of the file-name helper before the ___flavor fix */
	const char *core = "prog 'fe_floor_exit': BPF program load failed: Invalid argument\n"
		"prog 'fe_floor_exit': -- BEGIN PROG LOAD LOG --\n"
		"0: R1=ctx() R10=fp0\n12: <invalid CO-RE relocation>\n"
		"failed to resolve CO-RE relocation <byte_off> [88] struct dentry.d_u.d_alias (0:22:0 @ offset 184)\n"
		"processed 13 insns (limit 1000000)\n-- END PROG LOAD LOG --\n"
		"prog 'fe_floor_exit': failed to load: -22\n";
	/* a kernel without CONFIG_NET under libbpf 1.1: .bss never created */
	const char *map = "prog 'tpb_ctime_xchg': -- BEGIN PROG LOAD LOG --\n"
		"3: <invalid BPF map reference>\nBPF map 'mgtrace_.bss' is referenced but wasn't created\n"
		"-- END PROG LOAD LOG --\n";
	const char *rejected = "prog 'fe_real_mg': -- BEGIN PROG LOAD LOG --\n"
		"Attaching tracing programs to function 'ktime_get_real_ts64_mg' is rejected.\n"
		"-- END PROG LOAD LOG --\n";

	k = mg_classify_load_log(core, -EINVAL, "load", true, c, sizeof(c));
	ASSERT_EQ(k, MG_CAUSE_CORE_RELO, "classify CO-RE: %d \"%s\"", k, c);
	ASSERT_STREQ(c, "CO-RE relocation failed: struct " "dentry.d_u.d_alias is not in this kernel's BTF",
		     "classify CO-RE: %d \"%s\"", k, c);
	k = mg_classify_load_log(map, -EINVAL, "load", false, c, sizeof(c));
	ASSERT_EQ(k, MG_CAUSE_MAP, "classify map: %d \"%s\"", k, c);
	ASSERT_HAS_SUBSTR(c, "map not created: BPF map 'mgtrace_.bss'",
			  "classify map: %d \"%s\"", k, c);
	k = mg_classify_load_log(rejected, -EINVAL, "load", true, c, sizeof(c));
	ASSERT_EQ(k, MG_CAUSE_UNTRACEABLE, "classify rejected attach target: %d \"%s\"", k, c);
	ASSERT_HAS_SUBSTR(c, "'ktime_get_real_ts64_mg' is rejected",
			  "classify rejected attach target: %d \"%s\"", k, c);
	k = mg_classify_load_log("", -EINVAL, "attach", true, c, sizeof(c));
	ASSERT_EQ(k, MG_CAUSE_UNTRACEABLE,
		  "classify EINVAL at attach of a function probe: %d \"%s\"", k, c);
	ASSERT_STREQ(c, "function not traceable",
		     "classify EINVAL at attach of a function probe: %d \"%s\"", k, c);
	/* EINVAL at load with nothing recognisable is not "function not traceable" */
	k = mg_classify_load_log("prog 'x': failed to load: -22\n", -EINVAL, "load", true, c, sizeof(c));
	ASSERT_EQ(k, MG_CAUSE_UNKNOWN, "classify unknown EINVAL at load: %d \"%s\"", k, c);
	ASSERT_FALSE(c[0], "classify unknown EINVAL at load: %d \"%s\"", k, c);
	k = mg_classify_load_log("", -EINVAL, "attach", false, c, sizeof(c));
	ASSERT_EQ(k, MG_CAUSE_UNKNOWN, "classify EINVAL at attach of tracepoints only: %d", k);
}
