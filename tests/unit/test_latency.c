// SPDX-License-Identifier: GPL-2.0
/* test_latency.c - tests of src/stat/latency.c: the --latency histograms' math and bars. */
#include <stdlib.h>
#include "unit.h"
#include "latency.h"

/* --latency math: percentile estimates, exact mean, bucket labels, bcc-style bars. */
UNIT_TEST(latency_math)
{
	unsigned long long h[MG_LAT_SLOTS] = { 0 };
	struct mg_lat_stats st;
	uint64_t lo, hi;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	double p50;

	/* all 100 calls in [256, 512): ranks interpolate linearly inside the bucket */
	h[8] = 100;
	p50 = mg_lat_percentile(h, 0.50);
	ASSERT_NEAR(p50, 384, "latency: p50 of 100 calls in [256,512) is 384 (got %g)", p50);
	ASSERT_GE(fabs(p50 - 256), 1e-9,
		  "latency: a wrong p50 (256 or 511) fails the same comparison");
	ASSERT_GE(fabs(p50 - 511), 1e-9,
		  "latency: a wrong p50 (256 or 511) fails the same comparison");
	ASSERT_NEAR(mg_lat_percentile(h, 0.99), 509.44,
		    "latency: p99 of 100 calls in [256,512) is 509.44 (got %g)",
		    mg_lat_percentile(h, 0.99));
	/* two buckets: rank 50 ends bucket 4, rank 99 is 49/50 into bucket 10 */
	memset(h, 0, sizeof(h));
	h[4] = 50;
	h[10] = 50;
	ASSERT_NEAR(mg_lat_percentile(h, 0.50), 32,
		    "latency: p50 of 50 in [16,32) + 50 in [1024,2048) is 32 (got %g)",
		    mg_lat_percentile(h, 0.50));
	ASSERT_NEAR(mg_lat_percentile(h, 0.99), 2027.52,
		    "latency: p99 of the same is 2027.52 (got %g)",
		    mg_lat_percentile(h, 0.99));
	/* one outlier among 100 stays out of p99 */
	memset(h, 0, sizeof(h));
	h[5] = 99;
	h[20] = 1;
	ASSERT_NEAR(mg_lat_percentile(h, 0.99), 64,
		    "latency: 99 in [32,64) + 1 in [1M,2M): p99 64, p50 48.16 (got %g, %g)",
		    mg_lat_percentile(h, 0.99), mg_lat_percentile(h, 0.50));
	ASSERT_NEAR(mg_lat_percentile(h, 0.50), 32 + 32 * 50 / 99.0,
		    "latency: 99 in [32,64) + 1 in [1M,2M): p99 64, p50 48.16 (got %g, %g)",
		    mg_lat_percentile(h, 0.99), mg_lat_percentile(h, 0.50));
	/* slot 0 is [0, 2) */
	memset(h, 0, sizeof(h));
	h[0] = 10;
	ASSERT_NEAR(mg_lat_percentile(h, 0.50), 1,
		    "latency: p50 of 10 calls in slot 0 ([0,2)) is 1");
	/* the mean is exact (sum/count), not taken from the buckets */
	memset(h, 0, sizeof(h));
	h[8] = 2;
	h[9] = 1;
	mg_lat_stats(&st, h, 3, 1000);
	ASSERT_EQ(st.count, 3, "latency: mean of 3 calls summing 1000 ns is 333.33");
	ASSERT_NEAR(st.mean_ns, 1000 / 3.0, "latency: mean of 3 calls summing 1000 ns is 333.33");
	memset(h, 0, sizeof(h));
	mg_lat_stats(&st, h, 0, 0);
	ASSERT_TRUE(isnan(st.mean_ns),
		    "latency: an empty histogram has no mean or percentiles (NAN, null in JSON)");
	ASSERT_TRUE(isnan(st.p50_ns),
		    "latency: an empty histogram has no mean or percentiles (NAN, null in JSON)");
	ASSERT_TRUE(isnan(st.p99_ns),
		    "latency: an empty histogram has no mean or percentiles (NAN, null in JSON)");
	/* bcc's bucket labels */
	mg_lat_slot_label(0, &lo, &hi);
	ASSERT_EQ(lo, 0, "latency: slot 0 is labelled 0 -> 1");
	ASSERT_EQ(hi, 1, "latency: slot 0 is labelled 0 -> 1");
	mg_lat_slot_label(1, &lo, &hi);
	ASSERT_EQ(lo, 2, "latency: slot 1 is labelled 2 -> 3");
	ASSERT_EQ(hi, 3, "latency: slot 1 is labelled 2 -> 3");
	mg_lat_slot_label(8, &lo, &hi);
	ASSERT_EQ(lo, 256, "latency: slot 8 is labelled 256 -> 511");
	ASSERT_EQ(hi, 511, "latency: slot 8 is labelled 256 -> 511");
	mg_lat_slot_label(63, &lo, &hi);
	ASSERT_EQ(lo, 1ULL << 63, "latency: slot 63 is labelled 2^63 -> 2^64-1");
	ASSERT_EQ(hi, UINT64_MAX, "latency: slot 63 is labelled 2^63 -> 2^64-1");
	/* bars as libbpf-tools' print_log2_hist(): header, slots 0..last non-empty, 40 columns */
	h[1] = 5;
	h[8] = 10;
	f = open_memstream(&buf, &len);
	mg_lat_print_log2(f, h);
	fclose(f);
	if (!ASSERT_OK_PTR(buf, "latency: the histogram printed"))
		return;
	ASSERT_TRUE(strstr(buf, "     nsecs               : count    distribution\n") == buf,
		    "latency: bcc header line");
	ASSERT_HAS_SUBSTR(buf, "\n       256 -> 511        : 10       |****************************************|\n",
			  "latency: full bar for the largest bucket");
	ASSERT_HAS_SUBSTR(buf, "\n         2 -> 3          : 5        |********************                    |\n",
			  "latency: half bar for half the count");
	ASSERT_NO_SUBSTR(buf, "512 -> 1023", "latency: no rows after the last non-empty bucket");
	free(buf);
}
