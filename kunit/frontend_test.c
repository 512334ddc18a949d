// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the frontend registry (core/frontend.c).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "core/vflash.h"

static int fake_attach(struct vflash_dev *vdev)
{
	return 0;
}

static void fake_detach(struct vflash_dev *vdev)
{
}

static void register_find_unregister(struct kunit *test)
{
	struct vflash_frontend a = {
		.name = "alpha", .attach = fake_attach, .detach = fake_detach,
	};
	struct vflash_frontend b = {
		.name = "beta", .attach = fake_attach, .detach = fake_detach,
	};
	char names[64];

	KUNIT_EXPECT_NULL(test, vflash_frontend_find("alpha", 5));
	vflash_frontend_names(names, sizeof(names));
	KUNIT_EXPECT_STREQ(test, names, "(none registered)");

	KUNIT_ASSERT_EQ(test, vflash_frontend_register(&a), 0);
	KUNIT_ASSERT_EQ(test, vflash_frontend_register(&b), 0);
	KUNIT_EXPECT_PTR_EQ(test, vflash_frontend_find("alpha", 5),
			    (const struct vflash_frontend *)&a);
	KUNIT_EXPECT_PTR_EQ(test, vflash_frontend_find("beta,x", 4),
			    (const struct vflash_frontend *)&b);
	/* Prefixes and extensions of a name are other names. */
	KUNIT_EXPECT_NULL(test, vflash_frontend_find("alph", 4));
	KUNIT_EXPECT_NULL(test, vflash_frontend_find("alphas", 6));
	KUNIT_EXPECT_NULL(test, vflash_frontend_find("", 0));

	vflash_frontend_names(names, sizeof(names));
	KUNIT_EXPECT_STREQ(test, names, "alpha beta");
	/* A short buffer gets a truncated, terminated list. */
	KUNIT_EXPECT_EQ(test, vflash_frontend_names(names, 4), (size_t)3);
	KUNIT_EXPECT_STREQ(test, names, "alp");

	vflash_frontend_unregister(&a);
	KUNIT_EXPECT_NULL(test, vflash_frontend_find("alpha", 5));
	KUNIT_EXPECT_PTR_EQ(test, vflash_frontend_find("beta", 4),
			    (const struct vflash_frontend *)&b);
	vflash_frontend_unregister(&b);
	vflash_frontend_names(names, sizeof(names));
	KUNIT_EXPECT_STREQ(test, names, "(none registered)");
}

static void register_rejects_bad_frontends(struct kunit *test)
{
	struct vflash_frontend ok = {
		.name = "ok", .attach = fake_attach, .detach = fake_detach,
	};
	struct vflash_frontend twin = ok;
	struct vflash_frontend bad = ok;

	KUNIT_ASSERT_EQ(test, vflash_frontend_register(&ok), 0);
	KUNIT_EXPECT_EQ(test, vflash_frontend_register(&twin), -EEXIST);

	bad.name = NULL;
	KUNIT_EXPECT_EQ(test, vflash_frontend_register(&bad), -EINVAL);
	bad.name = "";
	KUNIT_EXPECT_EQ(test, vflash_frontend_register(&bad), -EINVAL);
	bad.name = "a,b";
	KUNIT_EXPECT_EQ(test, vflash_frontend_register(&bad), -EINVAL);
	bad.name = "noattach";
	bad.attach = NULL;
	KUNIT_EXPECT_EQ(test, vflash_frontend_register(&bad), -EINVAL);
	bad.attach = fake_attach;
	bad.detach = NULL;
	KUNIT_EXPECT_EQ(test, vflash_frontend_register(&bad), -EINVAL);

	KUNIT_EXPECT_NULL(test, vflash_frontend_find("noattach", 8));
	vflash_frontend_unregister(&ok);
	KUNIT_EXPECT_NULL(test, vflash_frontend_find("ok", 2));
}

static void builtin_frontends(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, vflash_frontends_init(NULL, 0), 0);
	KUNIT_EXPECT_NOT_NULL(test, vflash_frontend_find("none", 4));
	/* Registering twice is refused, not a corrupted list. */
	KUNIT_EXPECT_EQ(test, vflash_frontends_init(NULL, 0), -EEXIST);
	vflash_frontends_exit();
	KUNIT_EXPECT_NULL(test, vflash_frontend_find("none", 4));
}

/* A frontend that owns VFLASH_ARG_WORKERS and takes only "1". */
static int fake_check_arg(enum vflash_fe_arg arg, const char *val)
{
	if (arg != VFLASH_ARG_WORKERS)
		return 0;
	return strcmp(val, "1") ? -EINVAL : 0;
}

static void check_arg_asks_the_owner(struct kunit *test)
{
	struct vflash_frontend plain = {
		.name = "plain", .attach = fake_attach, .detach = fake_detach,
	};
	struct vflash_frontend owner = {
		.name = "owner", .attach = fake_attach, .detach = fake_detach,
		.check_arg = fake_check_arg,
	};

	/* No frontend claims it: nothing to refuse. */
	KUNIT_EXPECT_EQ(test, vflash_frontend_check_arg(VFLASH_ARG_WORKERS,
							"x"), 0);
	KUNIT_ASSERT_EQ(test, vflash_frontend_register(&plain), 0);
	KUNIT_ASSERT_EQ(test, vflash_frontend_register(&owner), 0);
	KUNIT_EXPECT_EQ(test, vflash_frontend_check_arg(VFLASH_ARG_WORKERS,
							"1"), 0);
	KUNIT_EXPECT_EQ(test, vflash_frontend_check_arg(VFLASH_ARG_WORKERS,
							"2"), -EINVAL);
	/* Another frontend's parameter is not its business. */
	KUNIT_EXPECT_EQ(test, vflash_frontend_check_arg(VFLASH_ARG_CACHE_SIZE,
							"2"), 0);
	vflash_frontend_unregister(&owner);
	vflash_frontend_unregister(&plain);
}

static struct kunit_case frontend_test_cases[] = {
	KUNIT_CASE(register_find_unregister),
	KUNIT_CASE(register_rejects_bad_frontends),
	KUNIT_CASE(builtin_frontends),
	KUNIT_CASE(check_arg_asks_the_owner),
	{}
};

static struct kunit_suite frontend_test_suite = {
	.name = "vflash-frontend",
	.test_cases = frontend_test_cases,
};

kunit_test_suite(frontend_test_suite);
