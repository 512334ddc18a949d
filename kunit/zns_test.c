// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the zone state machine (frontend_nvme/zns.c): every
 * transition of every Zone Management Send action from every state, the
 * write rules and their status codes, the open and active resources with
 * implicit open and close, Select All, Report Zones, and the resource
 * counts under a random mix of commands.
 */
#include <kunit/test.h>
#include <linux/nvme.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/compat.h"

#include "frontend_nvme/proto.h"
#include "frontend_nvme/zns.h"

#define ZSZE		64
#define ZCAP		48
#define NR_ZONES	16

#define SC(x)		((u16)VFN_SC(x))

static struct vfn_zoned *zoned(struct kunit *test, u32 mar, u32 mor)
{
	struct vfn_zoned *z = kunit_kzalloc(test, sizeof(*z), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, z);
	KUNIT_ASSERT_EQ(test, vfn_zoned_init(z, NR_ZONES * ZSZE, ZSZE, ZCAP,
					     mar, mor), 0);
	test->priv = z;
	return z;
}

static void zns_exit(struct kunit *test)
{
	if (test->priv)
		vfn_zoned_exit(test->priv);
}

static u8 state(struct vfn_zoned *z, u32 i)
{
	return z->zones[i].state;
}

static u16 wr(struct vfn_zoned *z, u64 slba, u32 nlb)
{
	u64 lba;

	return vfn_zone_write(z, slba, nlb, false, &lba);
}

static void geometry_is_checked(struct kunit *test)
{
	struct vfn_zoned z;

	KUNIT_EXPECT_EQ(test, vfn_zoned_init(&z, 1024, 48, 48, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_init(&z, 1024, 64, 65, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_init(&z, 1024, 64, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_init(&z, 1000, 64, 64, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_init(&z, 1024, 64, 64, 2, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_init(&z, 1024, 64, 64, 2, 0), -EINVAL);
	KUNIT_ASSERT_EQ(test, vfn_zoned_init(&z, 1024, 64, 64, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, z.nr_zones, 16U);
	vfn_zoned_exit(&z);
}

/* Writes at the write pointer, up to the capacity; every refusal. */
static void writes_follow_the_write_pointer(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 0);
	u64 lba;

	KUNIT_EXPECT_EQ(test, wr(z, ZSZE + 1, 1),
			SC(NVME_SC_ZONE_INVALID_WRITE));
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE, 8), 0);
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, (u64)ZSZE + 8);
	/* Across the zone's end; past its capacity inside it. */
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE - 4, 8),
			SC(NVME_SC_ZONE_BOUNDARY_ERROR));
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE + 8, ZCAP),
			SC(NVME_SC_ZONE_BOUNDARY_ERROR));
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, (u64)ZSZE + 8);
	/* Zone Append: at the write pointer, named by the zone's start. */
	KUNIT_EXPECT_EQ(test, vfn_zone_write(z, ZSZE + 8, 4, true, &lba),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_zone_write(z, ZSZE, 4, true, &lba), 0);
	KUNIT_EXPECT_EQ(test, lba, (u64)ZSZE + 8);
	KUNIT_EXPECT_EQ(test, vfn_zone_write(z, ZSZE, ZCAP - 12, true, &lba),
			0);
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_FULL);
	KUNIT_EXPECT_EQ(test, z->nr_iopen, 0U);
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE + ZCAP, 1), SC(NVME_SC_ZONE_FULL));
	KUNIT_EXPECT_EQ(test, vfn_zone_write(z, ZSZE, 1, true, &lba),
			SC(NVME_SC_ZONE_FULL));
	/* Read-only and offline zones take no write; reads of offline fail. */
	vfn_zone_set_read_only(z, 2);
	KUNIT_EXPECT_EQ(test, wr(z, 2 * ZSZE, 1), SC(NVME_SC_ZONE_READ_ONLY));
	KUNIT_EXPECT_EQ(test, vfn_zone_read(z, 2 * ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 2 * ZSZE, VFN_ZSA_OFFLINE,
					    false), 0);
	KUNIT_EXPECT_EQ(test, wr(z, 2 * ZSZE, 1), SC(NVME_SC_ZONE_OFFLINE));
	KUNIT_EXPECT_EQ(test, vfn_zone_read(z, 2 * ZSZE - 1, 2),
			SC(NVME_SC_ZONE_OFFLINE));
	/* Reads cross zones and the write pointer. */
	KUNIT_EXPECT_EQ(test, vfn_zone_read(z, ZSZE - 1, ZSZE), 0);
}

/* A zone brought to @s: zone @i, with a block written where it can. */
static void make_state(struct kunit *test, struct vfn_zoned *z, u32 i, u8 s)
{
	u64 start = (u64)i * ZSZE;

	switch (s) {
	case VFN_ZS_EMPTY:
		break;
	case VFN_ZS_IOPEN:
		KUNIT_ASSERT_EQ(test, wr(z, start, 1), 0);
		break;
	case VFN_ZS_EOPEN:
		KUNIT_ASSERT_EQ(test, wr(z, start, 1), 0);
		KUNIT_ASSERT_EQ(test, vfn_zone_send(z, start, VFN_ZSA_OPEN,
						    false), 0);
		break;
	case VFN_ZS_CLOSED:
		KUNIT_ASSERT_EQ(test, wr(z, start, 1), 0);
		KUNIT_ASSERT_EQ(test, vfn_zone_send(z, start, VFN_ZSA_CLOSE,
						    false), 0);
		break;
	case VFN_ZS_FULL:
		KUNIT_ASSERT_EQ(test, vfn_zone_send(z, start, VFN_ZSA_FINISH,
						    false), 0);
		break;
	case VFN_ZS_RDONLY:
		vfn_zone_set_read_only(z, i);
		break;
	case VFN_ZS_OFFLINE:
		vfn_zone_set_read_only(z, i);
		KUNIT_ASSERT_EQ(test, vfn_zone_send(z, start, VFN_ZSA_OFFLINE,
						    false), 0);
		break;
	}
	KUNIT_ASSERT_EQ(test, state(z, i), s);
}

/*
 * Every action from every state: the state it leaves the zone in, or
 * Invalid Zone State Transition (0: refused, the zone unchanged).
 */
static void every_transition(struct kunit *test)
{
	static const u8 states[] = {
		VFN_ZS_EMPTY, VFN_ZS_IOPEN, VFN_ZS_EOPEN, VFN_ZS_CLOSED,
		VFN_ZS_FULL, VFN_ZS_RDONLY, VFN_ZS_OFFLINE,
	};
	static const u8 to[VFN_ZSA_OFFLINE + 1][ARRAY_SIZE(states)] = {
		/* Columns: the states above, in their order. */
		[VFN_ZSA_OPEN] = { VFN_ZS_EOPEN, VFN_ZS_EOPEN, VFN_ZS_EOPEN,
				   VFN_ZS_EOPEN, 0, 0, 0 },
		[VFN_ZSA_CLOSE] = { 0, VFN_ZS_CLOSED, VFN_ZS_CLOSED,
				    VFN_ZS_CLOSED, 0, 0, 0 },
		[VFN_ZSA_FINISH] = { VFN_ZS_FULL, VFN_ZS_FULL, VFN_ZS_FULL,
				     VFN_ZS_FULL, VFN_ZS_FULL, 0, 0 },
		[VFN_ZSA_RESET] = { VFN_ZS_EMPTY, VFN_ZS_EMPTY, VFN_ZS_EMPTY,
				    VFN_ZS_EMPTY, VFN_ZS_EMPTY, 0, 0 },
		[VFN_ZSA_OFFLINE] = { 0, 0, 0, 0, 0, VFN_ZS_OFFLINE,
				      VFN_ZS_OFFLINE },
	};
	u32 a, s;

	for (a = VFN_ZSA_CLOSE; a <= VFN_ZSA_OFFLINE; a++) {
		for (s = 0; s < ARRAY_SIZE(states); s++) {
			struct vfn_zoned *z = zoned(test, 0, 0);
			u64 wp;
			u16 sc;

			make_state(test, z, 3, states[s]);
			wp = z->zones[3].wp;
			sc = vfn_zone_send(z, 3 * ZSZE, a, false);
			if (to[a][s]) {
				KUNIT_EXPECT_EQ_MSG(test, sc, 0,
						    "action %u state %u", a,
						    states[s]);
				KUNIT_EXPECT_EQ_MSG(test, state(z, 3), to[a][s],
						    "action %u state %u", a,
						    states[s]);
			} else {
				KUNIT_EXPECT_EQ_MSG(test, sc,
						    SC(NVME_SC_ZONE_INVALID_TRANSITION),
						    "action %u state %u", a,
						    states[s]);
				KUNIT_EXPECT_EQ(test, state(z, 3), states[s]);
				KUNIT_EXPECT_EQ(test, z->zones[3].wp, wp);
			}
			vfn_zoned_exit(z);
			test->priv = NULL;
		}
	}
}

/*
 * Regression (issue 38): without Select All, an SLBA that is not a zone's
 * first block was taken as the zone holding it (nvme-cli's reset-zone -s
 * 1 reset zone 0). It is Invalid Field in Command, and nothing changes.
 */
static void send_needs_zone_start(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 0);
	u64 lba;
	u32 a;

	KUNIT_ASSERT_EQ(test, vfn_zone_write(z, 0, 4, false, &lba), 0);
	for (a = VFN_ZSA_CLOSE; a <= VFN_ZSA_OFFLINE; a++) {
		KUNIT_EXPECT_EQ_MSG(test, vfn_zone_send(z, 1, a, false),
				    SC(NVME_SC_INVALID_FIELD), "action %u", a);
		KUNIT_EXPECT_EQ_MSG(test, vfn_zone_send(z, ZSZE - 1, a, false),
				    SC(NVME_SC_INVALID_FIELD), "action %u", a);
		KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_IOPEN);
		KUNIT_EXPECT_EQ(test, z->zones[0].wp, 4ULL);
	}
	/* With Select All, SLBA is ignored. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 1, VFN_ZSA_CLOSE, true), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
}

/*
 * Regression (issue 38): a write the zone took and that failed later (an
 * injected Write Fault, no memory for its data, a log without memory)
 * left the write pointer moved past blocks never written. The undo puts
 * the pointer and the state back.
 */
static void failed_write_undone(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 0);
	u64 lba;

	KUNIT_ASSERT_EQ(test, vfn_zone_write(z, 0, 4, false, &lba), 0);
	vfn_zone_write_undo(z, lba, 4, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 0ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 0ULL);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->nr_iopen, 0U);
	KUNIT_EXPECT_EQ(test, z->count[VFN_ZC_IMPLICIT_OPEN], 0ULL);
	/* A write that filled the zone: back to open, not Full. */
	KUNIT_ASSERT_EQ(test, vfn_zone_write(z, 0, ZCAP - 1, false, &lba), 0);
	KUNIT_ASSERT_EQ(test, vfn_zone_write(z, ZCAP - 1, 1, false, &lba), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_FULL);
	vfn_zone_write_undo(z, lba, 1, VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, ZCAP - 1);
	KUNIT_EXPECT_EQ(test, z->nr_iopen, 1U);
}

/* Write pointers after Reset, Finish and Close of an unwritten zone. */
static void write_pointers_of_actions(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 0);

	KUNIT_EXPECT_EQ(test, wr(z, 0, 5), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, (u64)ZCAP);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_RESET, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 0ULL);
	/* Opened explicitly, nothing written, closed: Empty again. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, ZSZE, VFN_ZSA_OPEN, false), 0);
	KUNIT_EXPECT_EQ(test, z->nr_eopen, 1U);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, ZSZE, VFN_ZSA_CLOSE, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->nr_eopen + z->nr_closed, 0U);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, 0x9, false),
			SC(NVME_SC_INVALID_FIELD));
}

/*
 * Resources: 3 active, 2 open. A third implicitly opened zone closes
 * the oldest implicitly open one; a fourth active one is refused; an
 * explicitly open zone is never closed for another.
 */
static void open_and_active_resources(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 3, 2);

	KUNIT_EXPECT_EQ(test, wr(z, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, wr(z, 2 * ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
	KUNIT_EXPECT_EQ(test, state(z, 2), VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, wr(z, 3 * ZSZE, 1),
			SC(NVME_SC_ZONE_TOO_MANY_ACTIVE));
	KUNIT_EXPECT_EQ(test, state(z, 3), VFN_ZS_EMPTY);
	/* A closed zone reopens by closing the next implicitly open one. */
	KUNIT_EXPECT_EQ(test, wr(z, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_CLOSED);
	/* Two explicitly open zones: no room to open a third. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_OPEN, false), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 2 * ZSZE, VFN_ZSA_OPEN, false),
			0);
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE + 1, 1),
			SC(NVME_SC_ZONE_TOO_MANY_OPEN));
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, ZSZE, VFN_ZSA_OPEN, false),
			SC(NVME_SC_ZONE_TOO_MANY_OPEN));
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_CLOSED);
	/* Finishing one frees an open and an active resource. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE + 1, 1), 0);
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, wr(z, 3 * ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_CLOSED);
	/* 3 active again: zone 2 open explicitly, 3 implicitly, 1 closed. */
	KUNIT_EXPECT_EQ(test, wr(z, 4 * ZSZE, 1),
			SC(NVME_SC_ZONE_TOO_MANY_ACTIVE));
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 2 * ZSZE, VFN_ZSA_RESET, false),
			0);
	KUNIT_EXPECT_EQ(test, wr(z, 4 * ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, z->nr_iopen + z->nr_eopen + z->nr_closed, 3U);
}

/*
 * Select All acts on the zones in the action's states when it came:
 * Open opens every Closed zone or, short of open resources, none; an
 * implicit close on the way does not add a zone to the selection.
 */
static void select_all(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 3);
	u32 i;

	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, wr(z, i * ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_CLOSE, true), 0);
	KUNIT_EXPECT_EQ(test, z->nr_closed, 3U);
	KUNIT_EXPECT_EQ(test, wr(z, 5 * ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, wr(z, 6 * ZSZE, 1), 0);
	KUNIT_EXPECT_EQ(test, wr(z, 7 * ZSZE, 1), 0);
	/* 3 closed + 3 implicitly open, 3 open at most: 3 can be opened. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_OPEN, true), 0);
	KUNIT_EXPECT_EQ(test, z->nr_eopen, 3U);
	KUNIT_EXPECT_EQ(test, z->nr_closed, 3U);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, state(z, i), VFN_ZS_EOPEN);
	for (i = 5; i < 8; i++)
		KUNIT_EXPECT_EQ(test, state(z, i), VFN_ZS_CLOSED);
	/* Now 3 open explicitly: the other 3 closed cannot all open. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_OPEN, true),
			SC(NVME_SC_ZONE_TOO_MANY_OPEN));
	KUNIT_EXPECT_EQ(test, z->nr_closed, 3U);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_FINISH, true), 0);
	KUNIT_EXPECT_EQ(test, z->nr_eopen + z->nr_closed + z->nr_iopen, 0U);
	KUNIT_EXPECT_EQ(test, state(z, 4), VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_RESET, true), 0);
	for (i = 0; i < NR_ZONES; i++)
		KUNIT_EXPECT_EQ(test, state(z, i), VFN_ZS_EMPTY);
}

static u64 le64_at(const u8 *p)
{
	return le64_to_cpu(*(const __le64 *)p);
}

/* Report Zones: the header's count, filters, partial reports, fields. */
static void report_zones(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 0);
	u8 *buf = kunit_kzalloc(test, 64 * 5, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE, 3), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 4 * ZSZE, VFN_ZSA_FINISH,
					    false), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_report(z, 0, VFN_ZRAS_ALL, false, buf,
					      64 * 5), 4U);
	KUNIT_EXPECT_EQ(test, le64_at(buf), (u64)NR_ZONES);
	KUNIT_EXPECT_EQ(test, vfn_zone_report(z, 0, VFN_ZRAS_ALL, true, buf,
					      64 * 5), 4U);
	KUNIT_EXPECT_EQ(test, le64_at(buf), 4ULL);
	/* The second descriptor: zone 1, implicitly open, wp 3 blocks in. */
	KUNIT_EXPECT_EQ(test, buf[128], 0x2);
	KUNIT_EXPECT_EQ(test, buf[129], VFN_ZS_IOPEN << 4);
	KUNIT_EXPECT_EQ(test, le64_at(buf + 128 + 8), (u64)ZCAP);
	KUNIT_EXPECT_EQ(test, le64_at(buf + 128 + 16), (u64)ZSZE);
	KUNIT_EXPECT_EQ(test, le64_at(buf + 128 + 24), (u64)ZSZE + 3);
	/* Filtered, from zone 2: only the full one. */
	KUNIT_EXPECT_EQ(test, vfn_zone_report(z, 2 * ZSZE, VFN_ZRAS_FULL,
					      false, buf, 64 * 5), 1U);
	KUNIT_EXPECT_EQ(test, le64_at(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, le64_at(buf + 64 + 16), 4ULL * ZSZE);
	KUNIT_EXPECT_EQ(test, vfn_zone_report(z, 0, VFN_ZRAS_EMPTY, false, buf,
					      64), 0U);
	KUNIT_EXPECT_EQ(test, le64_at(buf), (u64)NR_ZONES - 2);
}

static u32 xorshift(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * A random mix of writes, appends and actions: the counts always match
 * the zones' states, never exceed the limits, and every write pointer
 * stays within its zone's capacity (Full exactly at it).
 */
static void counts_hold_under_random_commands(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 6, 4);
	u32 x = 88172645U, n, i;

	for (n = 0; n < 20000; n++) {
		u32 zi = xorshift(&x) % NR_ZONES, what = xorshift(&x) % 10;
		u64 start = (u64)zi * ZSZE, lba;
		u32 io = 0, eo = 0, c = 0;

		if (what < 5)
			wr(z, z->zones[zi].wp, 1 + xorshift(&x) % 8);
		else if (what < 7)
			vfn_zone_write(z, start, 1 + xorshift(&x) % 8, true,
				       &lba);
		else if (what == 9 && !(xorshift(&x) % 64))
			vfn_zone_set_read_only(z, zi);
		else
			vfn_zone_send(z, start, 1 + xorshift(&x) % 5,
				      !(xorshift(&x) % 16));
		for (i = 0; i < NR_ZONES; i++) {
			struct vfn_zone *zn = &z->zones[i];

			io += zn->state == VFN_ZS_IOPEN;
			eo += zn->state == VFN_ZS_EOPEN;
			c += zn->state == VFN_ZS_CLOSED;
			KUNIT_ASSERT_GE(test, zn->wp, (u64)i * ZSZE);
			KUNIT_ASSERT_LE(test, zn->wp, (u64)i * ZSZE + ZCAP);
			if (zn->state == VFN_ZS_FULL)
				KUNIT_ASSERT_EQ(test, zn->wp,
						(u64)i * ZSZE + ZCAP);
		}
		KUNIT_ASSERT_EQ(test, io, z->nr_iopen);
		KUNIT_ASSERT_EQ(test, eo, z->nr_eopen);
		KUNIT_ASSERT_EQ(test, c, z->nr_closed);
		KUNIT_ASSERT_LE(test, io + eo, 4U);
		KUNIT_ASSERT_LE(test, io + eo + c, 6U);
	}
}

/* Zones with 128-byte descriptor extensions and the limits given (s). */
static struct vfn_zoned *zoned_ext(struct kunit *test, u32 mar, u32 frl_s,
				   u32 rrl_s)
{
	struct vfn_zoned *z = zoned(test, mar, mar);

	KUNIT_ASSERT_EQ(test, vfn_zoned_init_ext(z, 128, frl_s, rrl_s), 0);
	return z;
}

static void ext_sizes_checked(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 0);

	KUNIT_EXPECT_EQ(test, vfn_zoned_init_ext(z, 100, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_init_ext(z, 256 * 64, 0, 0), -EINVAL);
	KUNIT_EXPECT_NULL(test, z->ext);
	KUNIT_EXPECT_EQ(test, vfn_zoned_init_ext(z, 255 * 64, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, z->ext_bytes, 255U * 64);
}

/*
 * Set Zone Descriptor Extension: an Empty zone takes it and goes Closed
 * with ZDEV and an active resource; every other state, no extensions, an
 * SLBA that is no zone start and a missing active resource are refused,
 * nothing changed.
 */
static void set_ext_rules(struct kunit *test)
{
	static const u8 refused[] = {
		VFN_ZS_IOPEN, VFN_ZS_EOPEN, VFN_ZS_CLOSED, VFN_ZS_FULL,
		VFN_ZS_RDONLY, VFN_ZS_OFFLINE,
	};
	struct vfn_zoned *z = zoned_ext(test, 12, 0, 0);
	struct vfn_zoned *none;
	u8 data[128], zero[128] = { };
	u32 k;

	memset(data, 0xa5, sizeof(data));
	for (k = 0; k < ARRAY_SIZE(refused); k++) {
		make_state(test, z, k + 1, refused[k]);
		KUNIT_EXPECT_EQ(test, vfn_zone_set_ext(z, (k + 1) * ZSZE, data),
				SC(NVME_SC_ZONE_INVALID_TRANSITION));
		KUNIT_EXPECT_EQ(test, state(z, k + 1), refused[k]);
		KUNIT_EXPECT_EQ(test, z->zones[k + 1].za & VFN_ZA_ZDEV, 0);
	}
	KUNIT_EXPECT_EQ(test, vfn_zone_set_ext(z, 1, data),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, z->nr_closed, 1U);
	KUNIT_EXPECT_EQ(test, vfn_zone_set_ext(z, 0, data), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
	KUNIT_EXPECT_EQ(test, z->zones[0].za, (u8)VFN_ZA_ZDEV);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 0ULL);
	KUNIT_EXPECT_EQ(test, z->nr_closed, 2U);
	KUNIT_EXPECT_EQ(test, memcmp(z->ext, data, 128), 0);
	/* Once set, the zone is not Empty: a second set is refused. */
	KUNIT_EXPECT_EQ(test, vfn_zone_set_ext(z, 0, zero),
			SC(NVME_SC_ZONE_INVALID_TRANSITION));
	KUNIT_EXPECT_EQ(test, memcmp(z->ext, data, 128), 0);
	/* Active: 1, 2 open, 3 closed, 0 extension: 4 of 12; 8 more. */
	for (k = 8; k < 16 && z->nr_iopen + z->nr_eopen + z->nr_closed < 12;
	     k++)
		KUNIT_ASSERT_EQ(test, vfn_zone_set_ext(z, k * ZSZE, data), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_set_ext(z, 7 * ZSZE, data),
			SC(NVME_SC_ZONE_TOO_MANY_ACTIVE));
	KUNIT_EXPECT_EQ(test, state(z, 7), VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, memcmp(z->ext + 7 * 128, zero, 128), 0);
	/* ZDES 0: Invalid Field. */
	none = kunit_kzalloc(test, sizeof(*none), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, none);
	KUNIT_ASSERT_EQ(test, vfn_zoned_init(none, NR_ZONES * ZSZE, ZSZE, ZCAP,
					     0, 0), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_set_ext(none, 0, data),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, none->zones[0].state, VFN_ZS_EMPTY);
	vfn_zoned_exit(none);
}

/*
 * The extension stays through writes, Close, Finish, Read Only and a cut
 * that takes every block back (Closed, not Empty); Reset and Offline take
 * it away, its bytes zeroed.
 */
static void ext_lifetime(struct kunit *test)
{
	struct vfn_zoned *z = zoned_ext(test, 0, 0, 0);
	u8 data[128], zero[128] = { };
	u64 from, to;

	memset(data, 0x3c, sizeof(data));
	KUNIT_ASSERT_EQ(test, vfn_zone_set_ext(z, 0, data), 0);
	/* Opened and closed again with nothing written: still Closed. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_OPEN, false), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_CLOSE, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
	KUNIT_EXPECT_EQ(test, wr(z, 0, 4), 0);
	/* A cut takes all four blocks back: Closed, extension kept. */
	vfn_zone_lost(z, 0);
	KUNIT_EXPECT_TRUE(test, vfn_zone_cut(z, 0, &from, &to));
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
	KUNIT_EXPECT_EQ(test, z->zones[0].za, (u8)VFN_ZA_ZDEV);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].za, (u8)VFN_ZA_ZDEV);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_RESET, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->zones[0].za, 0);
	KUNIT_EXPECT_EQ(test, memcmp(z->ext, zero, 128), 0);
	/* Read Only keeps it, Offline takes it. */
	KUNIT_ASSERT_EQ(test, vfn_zone_set_ext(z, ZSZE, data), 0);
	vfn_zone_set_read_only(z, 1);
	KUNIT_EXPECT_EQ(test, z->zones[1].za, (u8)VFN_ZA_ZDEV);
	KUNIT_EXPECT_EQ(test, memcmp(z->ext + 128, data, 128), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, ZSZE, VFN_ZSA_OFFLINE, false),
			0);
	KUNIT_EXPECT_EQ(test, z->zones[1].za, 0);
	KUNIT_EXPECT_EQ(test, memcmp(z->ext + 128, zero, 128), 0);
}

/*
 * Extended Report Zones: each descriptor (ZDEV in its attributes)
 * followed by its extension, zeros without one; the filter, Partial
 * Report and a buffer that holds part of an entry.
 */
static void ext_report(struct kunit *test)
{
	struct vfn_zoned *z = zoned_ext(test, 0, 0, 0);
	size_t entry = 64 + 128, len = 64 + 3 * entry;
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);
	u8 data[128];

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(data, 0x77, sizeof(data));
	KUNIT_ASSERT_EQ(test, vfn_zone_set_ext(z, 2 * ZSZE, data), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_report_ext(z, ZSZE, VFN_ZRAS_ALL, false,
						  buf, len), 3U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf), (u64)NR_ZONES - 1);
	/* Zone 1: no extension. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf + 64 + 16), (u64)ZSZE);
	KUNIT_EXPECT_EQ(test, buf[64 + 2], 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(buf + 128, 0, 128));
	/* Zone 2: Closed, ZDEV, its extension. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf + 64 + entry + 16),
			2ULL * ZSZE);
	KUNIT_EXPECT_EQ(test, buf[64 + entry + 1], VFN_ZS_CLOSED << 4);
	KUNIT_EXPECT_EQ(test, buf[64 + entry + 2], (u8)VFN_ZA_ZDEV);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 128 + entry, data, 128), 0);
	/* Report Zones has the attribute, without the extension. */
	KUNIT_EXPECT_EQ(test, vfn_zone_report(z, 2 * ZSZE, VFN_ZRAS_ALL, false,
					      buf, 128), 1U);
	KUNIT_EXPECT_EQ(test, buf[64 + 2], (u8)VFN_ZA_ZDEV);
	/* The filter; Partial Report counts what fits (a part entry: none). */
	KUNIT_EXPECT_EQ(test, vfn_zone_report_ext(z, 0, VFN_ZRAS_CLOSED, false,
						  buf, 64 + entry), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 128, data, 128), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_report_ext(z, 0, VFN_ZRAS_EMPTY, true,
						  buf, 64 + entry + 64), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, vfn_zone_report_ext(z, 0, VFN_ZRAS_EMPTY, false,
						  buf, 64 + entry - 1), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf), (u64)NR_ZONES - 1);
}

#define S(x)	((u64)(x) * NSEC_PER_SEC)

/*
 * Finish Recommended after FRL seconds open or closed, Reset Recommended
 * after RRL seconds open, closed or full, from when the zone left Empty;
 * each reported once; Finish ends FZR, Reset and Read Only both.
 */
static void recommendations(struct kunit *test)
{
	struct vfn_zoned *z = zoned_ext(test, 0, 2, 5);
	u8 buf[128];
	u32 i;

	vfn_zone_clock(z, S(10));
	make_state(test, z, 0, VFN_ZS_IOPEN);
	make_state(test, z, 1, VFN_ZS_FULL);
	make_state(test, z, 2, VFN_ZS_CLOSED);
	vfn_zone_clock(z, S(11));
	make_state(test, z, 3, VFN_ZS_EOPEN);
	make_state(test, z, 4, VFN_ZS_RDONLY);
	for (i = 0; i < NR_ZONES; i++)
		KUNIT_EXPECT_FALSE(test, vfn_zone_recommend(z, i, S(12) - 1));
	KUNIT_EXPECT_TRUE(test, vfn_zone_recommend(z, 0, S(12)));
	KUNIT_EXPECT_FALSE(test, vfn_zone_recommend(z, 0, S(12)));
	KUNIT_EXPECT_EQ(test, z->zones[0].za, (u8)VFN_ZA_FZR);
	KUNIT_EXPECT_FALSE(test, vfn_zone_recommend(z, 1, S(12)));
	KUNIT_EXPECT_TRUE(test, vfn_zone_recommend(z, 2, S(12)));
	KUNIT_EXPECT_FALSE(test, vfn_zone_recommend(z, 3, S(12)));
	KUNIT_EXPECT_TRUE(test, vfn_zone_recommend(z, 3, S(13)));
	/* Reset Recommended at 15 s: open, closed and full zones. */
	KUNIT_EXPECT_TRUE(test, vfn_zone_recommend(z, 0, S(15)));
	KUNIT_EXPECT_EQ(test, z->zones[0].za, (u8)(VFN_ZA_FZR | VFN_ZA_RZR));
	KUNIT_EXPECT_TRUE(test, vfn_zone_recommend(z, 1, S(15)));
	KUNIT_EXPECT_EQ(test, z->zones[1].za, (u8)VFN_ZA_RZR);
	for (i = 4; i < NR_ZONES; i++)
		KUNIT_EXPECT_FALSE(test, vfn_zone_recommend(z, i, S(100)));
	/* The attributes are in the descriptors. */
	vfn_zone_report(z, 0, VFN_ZRAS_ALL, false, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, buf[64 + 2], (u8)(VFN_ZA_FZR | VFN_ZA_RZR));
	/* Finish ends Finish Recommended; Reset both; Read Only both. */
	vfn_zone_clock(z, S(16));
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].za, (u8)VFN_ZA_RZR);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_RESET, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].za, 0);
	vfn_zone_set_read_only(z, 2);
	KUNIT_EXPECT_EQ(test, z->zones[2].za, 0);
	KUNIT_EXPECT_FALSE(test, vfn_zone_recommend(z, 2, S(100)));
	/* A zone's age starts again when it next leaves Empty. */
	make_state(test, z, 0, VFN_ZS_IOPEN);
	KUNIT_EXPECT_FALSE(test, vfn_zone_recommend(z, 0, S(18) - 1));
	KUNIT_EXPECT_TRUE(test, vfn_zone_recommend(z, 0, S(18)));
}

/* ZRWA: a window of 8 blocks, flushed in 2s, 2 resources. */
#define ZRWAS		8
#define ZRWAFG		2

static struct vfn_zoned *zrwa_zoned(struct kunit *test, u32 mar, u32 mor)
{
	struct vfn_zoned *z = zoned(test, mar, mor);

	KUNIT_ASSERT_EQ(test, vfn_zoned_set_zrwa(z, ZRWAS, ZRWAFG, 2), 0);
	return z;
}

/* Zone @i opened with a ZRWA. */
static void zrwa_open(struct kunit *test, struct vfn_zoned *z, u32 i)
{
	KUNIT_ASSERT_EQ(test, vfn_zone_open_zrwa(z, (u64)i * ZSZE, false), 0);
	KUNIT_ASSERT_TRUE(test, z->zones[i].zrwa);
}

/* A refused command left zone @i and the resource counts as they were. */
static void expect_unchanged(struct kunit *test, const struct vfn_zoned *z,
			     u32 i, const struct vfn_zone *was,
			     const struct vfn_zoned *zw)
{
	KUNIT_EXPECT_EQ(test, z->zones[i].wp, was->wp);
	KUNIT_EXPECT_EQ(test, z->zones[i].written, was->written);
	KUNIT_EXPECT_EQ(test, z->zones[i].state, was->state);
	KUNIT_EXPECT_EQ(test, z->zones[i].zrwa, was->zrwa);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, zw->nr_zrwa);
	KUNIT_EXPECT_EQ(test, z->nr_iopen, zw->nr_iopen);
	KUNIT_EXPECT_EQ(test, z->nr_eopen, zw->nr_eopen);
	KUNIT_EXPECT_EQ(test, z->nr_closed, zw->nr_closed);
}

/* The ZRWA's values as the specification bounds them. */
static void zrwa_geometry_is_checked(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 4, 4);

	KUNIT_EXPECT_EQ(test, vfn_zoned_set_zrwa(z, 8, 3, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_set_zrwa(z, 8, 0, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_set_zrwa(z, ZCAP + 2, 2, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfn_zoned_set_zrwa(z, 8, 2, 0), -EINVAL);
	/* No more resources than active zones. */
	KUNIT_EXPECT_EQ(test, vfn_zoned_set_zrwa(z, 8, 2, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, z->zrwas, 0U);
	KUNIT_EXPECT_EQ(test, vfn_zoned_set_zrwa(z, 8, 2, 4), 0);
	KUNIT_EXPECT_EQ(test, z->max_zrwa, 4U);
	KUNIT_EXPECT_EQ(test, vfn_zoned_set_zrwa(z, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, z->zrwas, 0U);
}

/*
 * Open with ZRWAA: an Empty zone takes a resource; every refusal, each
 * leaving the zones as they were; implicit opens take none.
 */
static void zrwa_allocation(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 0, 0);
	struct vfn_zoned zw;
	struct vfn_zone was;

	/* Without ZRWA support: Invalid Field. */
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, 0, false),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_EMPTY);
	KUNIT_ASSERT_EQ(test, vfn_zoned_set_zrwa(z, ZRWAS, ZRWAFG, 2), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, 0, true),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, 1, false),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
	zrwa_open(test, z, 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_EOPEN);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 1U);
	/* Again: still one resource. */
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, 0, false), 0);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 1U);
	/* A write's implicit open allocates none; such a zone takes none. */
	KUNIT_EXPECT_EQ(test, wr(z, ZSZE, 1), 0);
	KUNIT_EXPECT_FALSE(test, z->zones[1].zrwa);
	was = z->zones[1];
	zw = *z;
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, ZSZE, false),
			SC(VFN_SC_ZONE_INVALID_OP));
	expect_unchanged(test, z, 1, &was, &zw);
	/* A plain Open allocates none either. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 2 * ZSZE, VFN_ZSA_OPEN, false),
			0);
	KUNIT_EXPECT_FALSE(test, z->zones[2].zrwa);
	/* Full: Open's own refusal. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 3 * ZSZE, VFN_ZSA_FINISH,
					    false), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, 3 * ZSZE, false),
			SC(NVME_SC_ZONE_INVALID_TRANSITION));
	zrwa_open(test, z, 4);
	/* Both resources held: the next Empty zone is refused, unchanged. */
	was = z->zones[5];
	zw = *z;
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, 5 * ZSZE, false),
			SC(VFN_SC_ZRWA_UNAVAILABLE));
	expect_unchanged(test, z, 5, &was, &zw);
}

/* Open with ZRWAA and the active and open limits. */
static void zrwa_allocation_and_limits(struct kunit *test)
{
	struct vfn_zoned *z = zrwa_zoned(test, 2, 2);
	struct vfn_zoned zw;
	struct vfn_zone was;

	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_OPEN, false), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, ZSZE, VFN_ZSA_OPEN, false), 0);
	was = z->zones[2];
	zw = *z;
	KUNIT_EXPECT_EQ(test, vfn_zone_open_zrwa(z, 2 * ZSZE, false),
			SC(NVME_SC_ZONE_TOO_MANY_ACTIVE));
	expect_unchanged(test, z, 2, &was, &zw);
}

/*
 * Writes anywhere in [wp, wp + 2 x ZRWAS), overwrites too; one that ends
 * above wp + ZRWAS flushes implicitly by ZRWAFG multiples; the rest
 * refused with nothing changed; Zone Append refused.
 */
static void zrwa_window_writes(struct kunit *test)
{
	struct vfn_zoned *z = zrwa_zoned(test, 0, 0);
	struct vfn_zoned zw;
	struct vfn_zone was;
	u64 lba;

	zrwa_open(test, z, 0);
	KUNIT_EXPECT_EQ(test, wr(z, 4, 2), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 0ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 6ULL);
	KUNIT_EXPECT_EQ(test, wr(z, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, wr(z, 4, 1), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 6ULL);
	KUNIT_EXPECT_EQ(test, wr(z, 0, ZRWAS), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 0ULL);
	/* Ends at 12: 4 above the window, the pointer moves 4. */
	KUNIT_EXPECT_EQ(test, wr(z, 10, 2), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 4ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 12ULL);
	/* Ends at 13: 1 above, rounded up to the granularity. */
	KUNIT_EXPECT_EQ(test, wr(z, 12, 1), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 6ULL);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_EOPEN);
	was = z->zones[0];
	zw = *z;
	/* Below the write pointer; past twice the window; Zone Append. */
	KUNIT_EXPECT_EQ(test, wr(z, 5, 1), SC(NVME_SC_ZONE_INVALID_WRITE));
	KUNIT_EXPECT_EQ(test, wr(z, 6 + 2 * ZRWAS - 1, 2),
			SC(NVME_SC_ZONE_INVALID_WRITE));
	KUNIT_EXPECT_EQ(test, vfn_zone_write(z, 0, 1, true, &lba),
			SC(VFN_SC_ZONE_INVALID_OP));
	expect_unchanged(test, z, 0, &was, &zw);
	/* The whole second window at once: the pointer moves a window. */
	KUNIT_EXPECT_EQ(test, wr(z, 6, 2 * ZRWAS), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 6ULL + ZRWAS);
	/* Past the capacity; written up to it, the window stays below it. */
	KUNIT_EXPECT_EQ(test, wr(z, ZCAP - ZRWAS, ZRWAS + 1),
			SC(NVME_SC_ZONE_BOUNDARY_ERROR));
	for (lba = z->zones[0].wp; lba < ZCAP; lba += 2)
		KUNIT_ASSERT_EQ(test, wr(z, lba, 2), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, (u64)ZCAP - ZRWAS);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_EOPEN);
	/* Flushed to the capacity: Full, the resource given back. */
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, ZCAP - 1, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_FULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, (u64)ZCAP);
	KUNIT_EXPECT_FALSE(test, z->zones[0].zrwa);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
}

/*
 * A refused write into a window is put back whole: the implicit flush,
 * the implicit open of a Closed zone, the ZRWA.
 */
static void zrwa_failed_write_undone(struct kunit *test)
{
	struct vfn_zoned *z = zrwa_zoned(test, 0, 0);
	struct vfn_zoned zw;
	struct vfn_zone was;

	zrwa_open(test, z, 0);
	KUNIT_ASSERT_EQ(test, wr(z, 0, 4), 0);
	was = z->zones[0];
	zw = *z;
	KUNIT_ASSERT_EQ(test, wr(z, 4, ZRWAS + 2), 0);
	KUNIT_ASSERT_EQ(test, z->zones[0].wp, 6ULL);
	vfn_zone_write_undo(z, 4, ZRWAS + 2, was.state);
	expect_unchanged(test, z, 0, &was, &zw);
	/* From Closed: implicitly opened and flushed, then put back. */
	KUNIT_ASSERT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_CLOSE, false), 0);
	was = z->zones[0];
	zw = *z;
	KUNIT_ASSERT_EQ(test, wr(z, 2, 12), 0);
	KUNIT_ASSERT_EQ(test, state(z, 0), VFN_ZS_IOPEN);
	KUNIT_ASSERT_EQ(test, z->zones[0].wp, 6ULL);
	vfn_zone_write_undo(z, 2, 12, was.state);
	expect_unchanged(test, z, 0, &was, &zw);
	KUNIT_EXPECT_EQ(test, z->count[VFN_ZC_IMPLICIT_OPEN],
			zw.count[VFN_ZC_IMPLICIT_OPEN]);
	/* A later write's undo never reuses this one. */
	KUNIT_EXPECT_EQ(test, z->undo.zone, U32_MAX);
}

/* Flush Explicit ZRWA Range: the rules on its SLBA, and what it moves. */
static void zrwa_explicit_flush(struct kunit *test)
{
	struct vfn_zoned *z = zrwa_zoned(test, 0, 0);
	struct vfn_zoned zw;
	struct vfn_zone was;
	u64 lba;

	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, 1, false),
			SC(VFN_SC_ZONE_INVALID_OP));
	zrwa_open(test, z, 0);
	KUNIT_ASSERT_EQ(test, wr(z, 0, 6), 0);
	was = z->zones[0];
	zw = *z;
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, 1, true),
			SC(NVME_SC_INVALID_FIELD));
	/* 3 blocks: not a multiple of ZRWAFG. */
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, 2, false),
			SC(NVME_SC_INVALID_FIELD));
	/* At the window's end or above. */
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, ZRWAS, false),
			SC(NVME_SC_ZONE_BOUNDARY_ERROR));
	expect_unchanged(test, z, 0, &was, &zw);
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, 3, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 4ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 6ULL);
	/* Below the write pointer now. */
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, 3, false),
			SC(NVME_SC_ZONE_BOUNDARY_ERROR));
	/* Unwritten blocks of the window may be flushed: they read zeros. */
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, 4 + ZRWAS - 1, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 4ULL + ZRWAS);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 4ULL + ZRWAS);
	/* A Closed zone opens implicitly. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_CLOSE, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
	KUNIT_EXPECT_TRUE(test, z->zones[0].zrwa);
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, 4 + ZRWAS + 1, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_IOPEN);
	/* To the capacity: Full, the resource back. */
	for (lba = z->zones[0].wp; lba < ZCAP; lba += 2)
		KUNIT_ASSERT_EQ(test, wr(z, lba, 2), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, ZCAP - 1, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_FULL);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
	KUNIT_EXPECT_EQ(test, vfn_zone_zrwa_flush(z, ZCAP - 1, false),
			SC(VFN_SC_ZONE_INVALID_OP));
}

/* Close keeps the ZRWA; Finish, Reset, an empty Close, read-only free it. */
static void zrwa_resource_release(struct kunit *test)
{
	struct vfn_zoned *z = zrwa_zoned(test, 0, 0);

	zrwa_open(test, z, 0);
	KUNIT_ASSERT_EQ(test, wr(z, 2, 1), 0);
	/* Nothing flushed, but the window holds data: Closed, kept. */
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_CLOSE, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
	KUNIT_EXPECT_TRUE(test, z->zones[0].zrwa);
	/* A write reopens it implicitly, with its ZRWA. */
	KUNIT_EXPECT_EQ(test, wr(z, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_IOPEN);
	KUNIT_EXPECT_TRUE(test, z->zones[0].zrwa);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, (u64)ZCAP);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 6ULL);
	KUNIT_EXPECT_FALSE(test, z->zones[0].zrwa);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
	/* Close with nothing written: Empty, freed. */
	zrwa_open(test, z, 1);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, ZSZE, VFN_ZSA_CLOSE, false), 0);
	KUNIT_EXPECT_EQ(test, state(z, 1), VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
	/* Reset (Select All too); read-only. */
	zrwa_open(test, z, 1);
	zrwa_open(test, z, 2);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, ZSZE, VFN_ZSA_RESET, false), 0);
	KUNIT_EXPECT_FALSE(test, z->zones[1].zrwa);
	vfn_zone_set_read_only(z, 2);
	KUNIT_EXPECT_FALSE(test, z->zones[2].zrwa);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
	zrwa_open(test, z, 3);
	zrwa_open(test, z, 4);
	KUNIT_EXPECT_EQ(test, vfn_zone_send(z, 0, VFN_ZSA_RESET, true), 0);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
}

/* A power cut: the window flushed with plp, else left to vfn_zone_cut(). */
static void zrwa_power_cut(struct kunit *test)
{
	struct vfn_zoned *z = zrwa_zoned(test, 0, 0);
	u64 from = 0, to = 0;

	zrwa_open(test, z, 0);
	zrwa_open(test, z, 1);
	KUNIT_ASSERT_EQ(test, wr(z, 0, 4), 0);
	KUNIT_ASSERT_EQ(test, vfn_zone_zrwa_flush(z, 1, false), 0);
	KUNIT_ASSERT_EQ(test, wr(z, ZSZE + 3, 2), 0);
	/* Without plp: the ZRWA goes, the window is vfn_zone_cut()'s. */
	KUNIT_EXPECT_FALSE(test, vfn_zone_zrwa_cut(z, 0, false, &from, &to));
	KUNIT_EXPECT_FALSE(test, z->zones[0].zrwa);
	KUNIT_EXPECT_TRUE(test, vfn_zone_cut(z, 0, &from, &to));
	KUNIT_EXPECT_EQ(test, from, 2ULL);
	KUNIT_EXPECT_EQ(test, to, 4ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 2ULL);
	KUNIT_EXPECT_EQ(test, state(z, 0), VFN_ZS_CLOSED);
	/* With plp: flushed to the end of what was written. */
	KUNIT_EXPECT_TRUE(test, vfn_zone_zrwa_cut(z, 1, true, &from, &to));
	KUNIT_EXPECT_EQ(test, from, (u64)ZSZE);
	KUNIT_EXPECT_EQ(test, to, (u64)ZSZE + 5);
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, (u64)ZSZE + 5);
	KUNIT_EXPECT_FALSE(test, vfn_zone_cut(z, 1, &from, &to));
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
}

/* Report Zones: ZRWAV, and the write pointer at the flushed point. */
static void zrwa_report(struct kunit *test)
{
	struct vfn_zoned *z = zrwa_zoned(test, 0, 0);
	u8 *buf = kunit_kzalloc(test, 3 * VFN_ZONE_DESC_BYTES, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	zrwa_open(test, z, 0);
	KUNIT_ASSERT_EQ(test, wr(z, 0, 5), 0);
	KUNIT_EXPECT_EQ(test, vfn_zone_report(z, 0, VFN_ZRAS_ALL, false, buf,
					      3 * VFN_ZONE_DESC_BYTES), 2U);
	KUNIT_EXPECT_EQ(test, buf[64 + 2], (u8)BIT(3));
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf + 64 + 24), 0ULL);
	KUNIT_EXPECT_EQ(test, buf[128 + 2], 0);
	KUNIT_EXPECT_TRUE(test, vfn_zone_in_zrwa(z, 1, 4));
	KUNIT_EXPECT_FALSE(test, vfn_zone_in_zrwa(z, 1, 5));
}

/*
 * ZRWA under a random mix of opens with ZRWAA, writes anywhere near the
 * write pointer, explicit flushes and every action: the resources held
 * match the zones with ZRWAV, only active zones hold one, never more than
 * there are, and a ZRWA zone's window lies in the zone.
 */
static void zrwa_counts_hold_under_random_commands(struct kunit *test)
{
	struct vfn_zoned *z = zoned(test, 6, 4);
	u32 x = 2463534242U, n, i, held;

	KUNIT_ASSERT_EQ(test, vfn_zoned_set_zrwa(z, ZRWAS, ZRWAFG, 3), 0);
	for (n = 0; n < 20000; n++) {
		u32 zi = xorshift(&x) % NR_ZONES, what = xorshift(&x) % 10;
		u64 start = (u64)zi * ZSZE, wp = z->zones[zi].wp;

		if (what < 2)
			vfn_zone_open_zrwa(z, start, false);
		else if (what < 6)
			wr(z, wp + xorshift(&x) % (3 * ZRWAS),
			   1 + xorshift(&x) % 6);
		else if (what < 8)
			vfn_zone_zrwa_flush(z, wp + xorshift(&x) % (2 * ZRWAS),
					    false);
		else if (what == 9 && !(xorshift(&x) % 64))
			vfn_zone_set_read_only(z, zi);
		else
			vfn_zone_send(z, start, 1 + xorshift(&x) % 5,
				      !(xorshift(&x) % 16));
		for (i = 0, held = 0; i < NR_ZONES; i++) {
			struct vfn_zone *zn = &z->zones[i];
			u8 s = zn->state;

			/* A reset's data discarded, as io.c does after it. */
			if (s == VFN_ZS_EMPTY || s == VFN_ZS_OFFLINE)
				zn->written = (u64)i * ZSZE;
			KUNIT_ASSERT_LE(test, zn->wp, (u64)i * ZSZE + ZCAP);
			if (!zn->zrwa)
				continue;
			held++;
			KUNIT_ASSERT_TRUE(test, s == VFN_ZS_IOPEN ||
					  s == VFN_ZS_EOPEN ||
					  s == VFN_ZS_CLOSED);
			KUNIT_ASSERT_LE(test, zn->wp, zn->written);
			KUNIT_ASSERT_LE(test, zn->written, zn->wp + 2 * ZRWAS);
			KUNIT_ASSERT_LE(test, zn->written,
					(u64)i * ZSZE + ZCAP);
		}
		KUNIT_ASSERT_EQ(test, held, z->nr_zrwa);
		KUNIT_ASSERT_LE(test, held, 3U);
	}
}

static struct kunit_case zns_cases[] = {
	KUNIT_CASE(geometry_is_checked),
	KUNIT_CASE(writes_follow_the_write_pointer),
	KUNIT_CASE(every_transition),
	KUNIT_CASE(send_needs_zone_start),
	KUNIT_CASE(failed_write_undone),
	KUNIT_CASE(write_pointers_of_actions),
	KUNIT_CASE(open_and_active_resources),
	KUNIT_CASE(select_all),
	KUNIT_CASE(report_zones),
	KUNIT_CASE(counts_hold_under_random_commands),
	KUNIT_CASE(ext_sizes_checked),
	KUNIT_CASE(set_ext_rules),
	KUNIT_CASE(ext_lifetime),
	KUNIT_CASE(ext_report),
	KUNIT_CASE(recommendations),
	KUNIT_CASE(zrwa_geometry_is_checked),
	KUNIT_CASE(zrwa_allocation),
	KUNIT_CASE(zrwa_allocation_and_limits),
	KUNIT_CASE(zrwa_window_writes),
	KUNIT_CASE(zrwa_failed_write_undone),
	KUNIT_CASE(zrwa_explicit_flush),
	KUNIT_CASE(zrwa_resource_release),
	KUNIT_CASE(zrwa_power_cut),
	KUNIT_CASE(zrwa_report),
	KUNIT_CASE(zrwa_counts_hold_under_random_commands),
	{}
};

static struct kunit_suite zns_suite = {
	.name = "vflash-zns",
	.exit = zns_exit,
	.test_cases = zns_cases,
};

kunit_test_suite(zns_suite);
