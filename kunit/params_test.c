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
	struct vflash_param_strings in = { .frontend = "none" };
	const struct vflash_profile *p;
	struct vflash_config cfg;
	unsigned int i;

	for (i = 0; (p = vflash_profile_at(i)); i++) {
		in.profile = p->name;
		KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
		KUNIT_EXPECT_PTR_EQ(test, cfg.profile, p);
		/* No override: the model is the profile's. */
		KUNIT_EXPECT_STREQ(test, cfg.model.name, p->name);
		KUNIT_EXPECT_EQ(test, cfg.model.channels, p->channels);
		KUNIT_EXPECT_EQ(test, cfg.model.dies_per_channel,
				p->dies_per_channel);
		KUNIT_EXPECT_EQ(test, cfg.model.flash_page_bytes,
				p->flash_page_bytes);
		KUNIT_EXPECT_EQ(test, cfg.model.pages_per_block,
				p->pages_per_block);
		KUNIT_EXPECT_EQ(test, cfg.model.read_ns, p->read_ns);
		KUNIT_EXPECT_EQ(test, cfg.model.op_pct,
				p->op_pct ? p->op_pct : VFLASH_DEFAULT_OP_PCT);
	}
	KUNIT_EXPECT_GE(test, i, 7U);
	/* The names researchers compare with. */
	in.profile = "samsung-970pro";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	in.profile = "optane";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	in.profile = "cxdvirt-znand";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	in.profile = "slc";
	parse(test, &in, &cfg, "profile", "unknown profile");
	in.profile = "";
	parse(test, &in, &cfg, "profile", "unknown profile");
}

/* Good overrides are applied on top of the profile, which stays as it is. */
static void geometry_overrides_apply(struct kunit *test)
{
	struct vflash_param_strings in = {
		.frontend = "none", .profile = "tlc", .channels = "4",
		.dies_per_channel = "3", .page_size = "16K",
		.pages_per_block = "129", .op_percent = "28",
	};
	const struct vflash_profile *tlc = vflash_profile_find("tlc");
	struct vflash_config cfg;

	KUNIT_ASSERT_NOT_NULL(test, tlc);
	KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	KUNIT_EXPECT_PTR_EQ(test, cfg.profile, tlc);
	KUNIT_EXPECT_EQ(test, cfg.model.channels, 4U);
	KUNIT_EXPECT_EQ(test, cfg.model.dies_per_channel, 3U);
	KUNIT_EXPECT_EQ(test, cfg.model.flash_page_bytes, 16384U);
	KUNIT_EXPECT_EQ(test, cfg.model.pages_per_block, 129U);
	KUNIT_EXPECT_EQ(test, cfg.model.op_pct, 28U);
	/* The timing figures stay the profile's; the table is untouched. */
	KUNIT_EXPECT_EQ(test, cfg.model.read_ns, tlc->read_ns);
	KUNIT_EXPECT_EQ(test, cfg.model.prog_ns, tlc->prog_ns);
	KUNIT_EXPECT_EQ(test, tlc->channels, 8U);
	KUNIT_EXPECT_EQ(test, tlc->flash_page_bytes, 32768U);

	/* The bounds themselves, every syntax page_size takes. */
	in.channels = "1";
	in.dies_per_channel = "64";
	in.page_size = "4096";
	in.pages_per_block = "4";
	in.op_percent = "1";
	KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, cfg.model.channels, 1U);
	KUNIT_EXPECT_EQ(test, cfg.model.dies_per_channel, 64U);
	KUNIT_EXPECT_EQ(test, cfg.model.flash_page_bytes, 4096U);
	KUNIT_EXPECT_EQ(test, cfg.model.pages_per_block, 4U);
	KUNIT_EXPECT_EQ(test, cfg.model.op_pct, 1U);
	in.channels = "64";
	in.dies_per_channel = "1";
	in.page_size = "0x10000";
	in.pages_per_block = "4096";
	in.op_percent = "100";
	KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, cfg.model.channels, 64U);
	KUNIT_EXPECT_EQ(test, cfg.model.flash_page_bytes, 65536U);
	KUNIT_EXPECT_EQ(test, cfg.model.pages_per_block, 4096U);
	KUNIT_EXPECT_EQ(test, cfg.model.op_pct, 100U);
	in.page_size = "32k";
	KUNIT_ASSERT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, cfg.model.flash_page_bytes, 32768U);
}

/* Every bad value of every override is refused, naming it. */
static void geometry_bad_values(struct kunit *test)
{
	static const struct {
		size_t off;
		const char *param, *value, *why;
	} cases[] = {
#define BAD(_p, _v, _why) \
	{ offsetof(struct vflash_param_strings, _p), #_p, _v, _why }
		BAD(channels, "0", "from 1 to 64"),
		BAD(channels, "65", "from 1 to 64"),
		BAD(channels, "", "not a decimal"),
		BAD(channels, "-1", "not a decimal"),
		BAD(channels, "8x", "not a decimal"),
		BAD(channels, "99999999999999999999", "not a decimal"),
		BAD(dies_per_channel, "0", "from 1 to 64"),
		BAD(dies_per_channel, "65", "from 1 to 64"),
		BAD(dies_per_channel, "two", "not a decimal"),
		BAD(page_size, "0", "power of two"),
		BAD(page_size, "2K", "power of two"),
		BAD(page_size, "6K", "power of two"),
		BAD(page_size, "12288", "power of two"),
		BAD(page_size, "128K", "power of two"),
		BAD(page_size, "1G", "power of two"),
		BAD(page_size, "16Q", "not a number"),
		BAD(page_size, "", "not a number"),
		BAD(pages_per_block, "0", "from 4 to 4096"),
		BAD(pages_per_block, "3", "from 4 to 4096"),
		BAD(pages_per_block, "4097", "from 4 to 4096"),
		BAD(pages_per_block, "256K", "not a decimal"),
		BAD(op_percent, "0", "from 1 to 100"),
		BAD(op_percent, "101", "from 1 to 100"),
		BAD(op_percent, "7%", "not a decimal"),
		BAD(op_percent, "0.5", "not a decimal"),
#undef BAD
	};
	struct vflash_config cfg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vflash_param_strings in = { .frontend = "none" };
		struct vflash_param_error err = { };

		*(const char **)((char *)&in + cases[i].off) = cases[i].value;
		KUNIT_EXPECT_EQ_MSG(test, vflash_parse_config(&in, &cfg, &err),
				    -EINVAL, "%s=%s", cases[i].param,
				    cases[i].value);
		KUNIT_EXPECT_STREQ_MSG(test, err.param ? err.param : "(null)",
				       cases[i].param, "value %s",
				       cases[i].value);
		KUNIT_EXPECT_PTR_EQ(test, err.value, cases[i].value);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err.why, cases[i].why),
					  "%s=%s: '%s' lacks '%s'",
					  cases[i].param, cases[i].value,
					  err.why, cases[i].why);
		/* The same value alone (a configfs write) is refused too. */
		in.alone = true;
		KUNIT_EXPECT_EQ_MSG(test, vflash_parse_config(&in, &cfg, &err),
				    -EINVAL, "alone %s=%s", cases[i].param,
				    cases[i].value);
	}
}

/* A QLC program fills a wordline of 4 pages: blocks hold whole ones. */
static void geometry_qlc_wordlines(struct kunit *test)
{
	struct vflash_param_strings in = {
		.frontend = "none", .pages_per_block = "130",
	};
	struct vflash_config cfg;

	parse(test, &in, &cfg, "pages_per_block", "multiple of 4");
	in.profile = "qlc-hybrid";
	parse(test, &in, &cfg, "pages_per_block", "multiple of 4");
	in.pages_per_block = "132";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	/* Not QLC: any count. */
	in.pages_per_block = "130";
	in.profile = "tlc";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	in.profile = "optane";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	/* Alone, the profile it will meet is not known yet. */
	in.profile = NULL;
	in.alone = true;
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
}

/*
 * The flash a capacity needs, with VFLASH_FLASH_MIN_BLOCKS_PER_DIE blocks
 * on every die, must fit the FTL's 2^32 slots; the override that was
 * given is named, or size.
 */
static void geometry_fits_the_ftl(struct kunit *test)
{
	struct vflash_param_strings in = {
		.frontend = "none", .profile = "tlc", .size = "8T",
		.store = "none",
	};
	struct vflash_config cfg;

	/* 8 TiB of tlc: 16 dies x 70 k blocks of 2048 slots, 2.3 G. */
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	in.op_percent = "50";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	/* Twice the capacity in flash: 2^32 slots and more. */
	in.op_percent = "100";
	parse(test, &in, &cfg, "op_percent", "more flash than the FTL");
	in.pages_per_block = "300";
	parse(test, &in, &cfg, "pages_per_block", "FTL addresses");
	in.op_percent = NULL;
	in.pages_per_block = NULL;
	in.dies_per_channel = "4";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);

	/* 16 TiB is 2^32 pages: no override to blame. */
	in.dies_per_channel = NULL;
	in.size = "16T";
	parse(test, &in, &cfg, "size", "FTL addresses");
	in.alone = true;
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
	in.alone = false;
	in.size = "12T";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);

	/* The smallest device on the widest geometry loads. */
	in.size = "16M";
	in.channels = "64";
	in.dies_per_channel = "64";
	in.page_size = "64K";
	in.pages_per_block = "4096";
	KUNIT_EXPECT_EQ(test, parse(test, &in, &cfg, NULL, NULL), 0);
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
	KUNIT_CASE(geometry_overrides_apply),
	KUNIT_CASE(geometry_bad_values),
	KUNIT_CASE(geometry_qlc_wordlines),
	KUNIT_CASE(geometry_fits_the_ftl),
	{}
};

static struct kunit_suite params_test_suite = {
	.name = "vflash-params",
	.suite_init = params_test_init,
	.suite_exit = params_test_exit,
	.test_cases = params_test_cases,
};

kunit_test_suite(params_test_suite);
