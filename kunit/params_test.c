// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for load-time parameter parsing and validation
 * (core/params.c).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "backend_flash/profile.h"
#include "core/params.h"
#include "core/vflash.h"

static void parse_bytes_accepts_memparse_syntax(struct kunit *test)
{
	static const struct {
		const char *s;
		u64 want;
	} cases[] = {
		{ "0", 0 },
		{ "4096", 4096 },
		{ "4k", 4096 },
		{ "4K", 4096 },
		{ "16M", 16ULL << 20 },
		{ "1G", 1ULL << 30 },
		{ "1g\n", 1ULL << 30 },
		{ "2T", 2ULL << 40 },
		{ "1P", 1ULL << 50 },
		{ "1E", 1ULL << 60 },
		{ "0x1000", 0x1000 },
		{ "0x40000000", 1ULL << 30 },
		{ "0x1G", 1ULL << 30 },
		{ "0x1e", 0x1e },	/* memparse reads e as a hex digit */
		{ "010", 8 },		/* leading zero: octal, as memparse */
		{ "15E", 15ULL << 60 },
		{ "18446744073709551615", U64_MAX },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 got = 0xdeadbeef;

		KUNIT_EXPECT_EQ_MSG(test, vflash_parse_bytes(cases[i].s, &got),
				    0, "input '%s'", cases[i].s);
		KUNIT_EXPECT_EQ_MSG(test, got, cases[i].want, "input '%s'",
				    cases[i].s);
	}
}

static void parse_bytes_rejects_junk(struct kunit *test)
{
	static const char * const bad[] = {
		"", "\n", "G", "abc", "12Q", "-1", "1GG", "1 G", " 1G",
		"1.5G", "0x", "4096x", "99999999999999999999999999999999",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		u64 got = 42;

		KUNIT_EXPECT_NE_MSG(test, vflash_parse_bytes(bad[i], &got), 0,
				    "input '%s'", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, got, 42ULL,
				    "input '%s' wrote a value", bad[i]);
	}
	KUNIT_EXPECT_EQ(test, vflash_parse_bytes(NULL, NULL), -EINVAL);
}

static void parse_bytes_rejects_overflow(struct kunit *test)
{
	u64 got = 42;

	KUNIT_EXPECT_EQ(test, vflash_parse_bytes("16E", &got), -ERANGE);
	KUNIT_EXPECT_EQ(test, vflash_parse_bytes("16777216T", &got), -ERANGE);
	KUNIT_EXPECT_EQ(test, vflash_parse_bytes("0x400000000000000K", &got),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, vflash_parse_bytes("18446744073709551616", &got),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, got, 42ULL);
}

/* Parses @in; on refusal checks that @param is blamed for a @why. */
static int parse(struct kunit *test, const struct vflash_param_strings *in,
		 struct vflash_config *cfg, const char *param, const char *why)
{
	struct vflash_param_error err = { };
	int ret = vflash_parse_config(in, cfg, &err);

	if (param) {
		KUNIT_EXPECT_EQ(test, ret, -EINVAL);
		KUNIT_EXPECT_STREQ(test, err.param ? err.param : "(null)",
				   param);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err.why, why),
					  "reason '%s' lacks '%s'", err.why,
					  why);
	} else {
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "refused %s: %s",
				    err.param, err.why);
	}
	return ret;
}

static void config_defaults(struct kunit *test)
{
	struct vflash_param_strings in = { .frontend = "none" };
	struct vflash_config cfg;

	KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, cfg.size_bytes, 1ULL << 30);
	KUNIT_EXPECT_FALSE(test, cfg.use_memmap);
	KUNIT_EXPECT_EQ(test, cfg.nr_fe, 1U);
	KUNIT_EXPECT_STREQ(test, cfg.fe[0]->name, "none");
	KUNIT_EXPECT_STREQ(test, cfg.profile->name, VFLASH_DEFAULT_PROFILE);
}

static void config_frontend(struct kunit *test)
{
	struct vflash_param_strings in = { };
	struct vflash_config cfg;
	struct vflash_param_error err = { };

	KUNIT_EXPECT_EQ(test, vflash_parse_config(&in, &cfg, &err), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err.param, "frontend");
	KUNIT_EXPECT_NULL(test, err.value);
	KUNIT_EXPECT_NOT_NULL(test, strstr(err.why, "missing"));

	in.frontend = "";
	parse(test, &in, &cfg, "frontend", "missing");
	/* No NVMe or CXL frontend registers yet: both are unknown. */
	in.frontend = "nvme";
	parse(test, &in, &cfg, "frontend", "unknown frontend 'nvme'");
	in.frontend = "cxl";
	parse(test, &in, &cfg, "frontend", "unknown frontend 'cxl'");
	in.frontend = "non";
	parse(test, &in, &cfg, "frontend", "unknown");
	in.frontend = "nonex";
	parse(test, &in, &cfg, "frontend", "unknown");
	in.frontend = "none,none";
	parse(test, &in, &cfg, "frontend", "twice");
	in.frontend = "none,";
	parse(test, &in, &cfg, "frontend", "empty name");
	in.frontend = ",none";
	parse(test, &in, &cfg, "frontend", "empty name");
	in.frontend = "none,cxl";
	parse(test, &in, &cfg, "frontend", "unknown frontend 'cxl'");
}

static void config_size(struct kunit *test)
{
	struct vflash_param_strings in = { .frontend = "none" };
	struct vflash_config cfg;

	in.size = "64M";
	KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, cfg.size_bytes, 64ULL << 20);
	in.size = "16M";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);

	in.size = "0";
	parse(test, &in, &cfg, "size", "zero");
	in.size = "16777217";
	parse(test, &in, &cfg, "size", "multiple");
	in.size = "8M";
	parse(test, &in, &cfg, "size", "at least");
	in.size = "17T";
	parse(test, &in, &cfg, "size", "at most");
	in.size = "lots";
	parse(test, &in, &cfg, "size", "not a number");
	in.size = "16E";
	parse(test, &in, &cfg, "size", "64 bits");
}

static void config_memmap(struct kunit *test)
{
	struct vflash_param_strings in = { .frontend = "none" };
	struct vflash_config cfg;

	in.memmap_start = "1G";
	in.memmap_size = "0x40000000";
	KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	KUNIT_EXPECT_TRUE(test, cfg.use_memmap);
	KUNIT_EXPECT_EQ(test, (u64)cfg.memmap_start, 1ULL << 30);
	KUNIT_EXPECT_EQ(test, cfg.size_bytes, 1ULL << 30);

	in.memmap_size = NULL;
	parse(test, &in, &cfg, "memmap_start", "without memmap_size");
	in.memmap_start = NULL;
	in.memmap_size = "1G";
	parse(test, &in, &cfg, "memmap_size", "without memmap_start");

	in.memmap_start = "0x40000100";
	parse(test, &in, &cfg, "memmap_start", "aligned");
	in.memmap_start = "1G";
	in.memmap_size = "0x40000100";
	parse(test, &in, &cfg, "memmap_size", "multiple");
	in.memmap_size = "0";
	parse(test, &in, &cfg, "memmap_size", "zero");
	in.memmap_size = "1G";
	in.size = "1G";
	parse(test, &in, &cfg, "size", "not allowed");
	in.size = NULL;
	in.memmap_start = "0xfffffffffff00000";
	parse(test, &in, &cfg, "memmap_size", "overflows");
	in.memmap_start = "oops";
	parse(test, &in, &cfg, "memmap_start", "not a number");
}

static void config_profile(struct kunit *test)
{
	static const char * const shipped[] = {
		"qlc-hybrid", "znand", "cylon", "tlc",
	};
	struct vflash_param_strings in = { .frontend = "none" };
	struct vflash_config cfg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(shipped); i++) {
		in.profile = shipped[i];
		KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
		KUNIT_EXPECT_STREQ(test, cfg.profile->name, shipped[i]);
	}
	in.profile = "slc";
	parse(test, &in, &cfg, "profile", "unknown profile");
	in.profile = "";
	parse(test, &in, &cfg, "profile", "unknown profile");
}

static int params_test_init(struct kunit_suite *suite)
{
	return vflash_frontends_init(NULL, 0);
}

static void params_test_exit(struct kunit_suite *suite)
{
	vflash_frontends_exit();
}

static struct kunit_case params_test_cases[] = {
	KUNIT_CASE(parse_bytes_accepts_memparse_syntax),
	KUNIT_CASE(parse_bytes_rejects_junk),
	KUNIT_CASE(parse_bytes_rejects_overflow),
	KUNIT_CASE(config_defaults),
	KUNIT_CASE(config_frontend),
	KUNIT_CASE(config_size),
	KUNIT_CASE(config_memmap),
	KUNIT_CASE(config_profile),
	{}
};

static struct kunit_suite params_test_suite = {
	.name = "vflash-params",
	.suite_init = params_test_init,
	.suite_exit = params_test_exit,
	.test_cases = params_test_cases,
};

kunit_test_suite(params_test_suite);
