// SPDX-License-Identifier: GPL-2.0
/*
 * The zone state machine of a zoned namespace (NVMe Zoned Namespace
 * Command Set 1.1; docs/zns-design.md): writes at the write pointer,
 * Zone Append, the Zone Management Send actions with Select All, the
 * active and open resources with implicit open and implicit close, and
 * Report Zones. Every refusal is the status the specification gives it;
 * nothing here touches data or time, which the NVM command path and the
 * flash backend own.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/nvme.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "frontend_nvme/proto.h"
#include "frontend_nvme/zns.h"

/* Zone type in a descriptor: sequential write required. */
#define ZT_SEQ_WRITE_REQUIRED	0x2
/* Zone attributes (descriptor byte 2): the zone holds a ZRWA. */
#define ZA_ZRWAV		BIT(3)

/**
 * vfn_zoned_init() - every zone empty
 * @z: the zones
 * @nsze: the namespace's size in logical blocks
 * @zsze: zone size, a power of two dividing @nsze
 * @zcap: writable blocks per zone, 1 to @zsze
 * @max_active: most active zones, 0 for no limit
 * @max_open: most open zones, 0 for no limit; at most @max_active
 *
 * Return: 0, -EINVAL for a geometry the specification does not allow,
 * or -ENOMEM.
 */
int vfn_zoned_init(struct vfn_zoned *z, u64 nsze, u64 zsze, u64 zcap,
		   u32 max_active, u32 max_open)
{
	u32 i;

	memset(z, 0, sizeof(*z));
	if (!is_power_of_2(zsze) || !zcap || zcap > zsze || !nsze ||
	    nsze % zsze || nsze / zsze > U32_MAX ||
	    (max_active && max_open > max_active) ||
	    (max_active && !max_open))
		return -EINVAL;
	z->nr_zones = nsze / zsze;
	z->zones = kvcalloc(z->nr_zones, sizeof(*z->zones), GFP_KERNEL);
	if (!z->zones)
		return -ENOMEM;
	z->zsze = zsze;
	z->zcap = zcap;
	z->max_active = max_active;
	z->max_open = max_open;
	z->undo.zone = U32_MAX;
	for (i = 0; i < z->nr_zones; i++) {
		z->zones[i].wp = (u64)i * zsze;
		z->zones[i].written = z->zones[i].wp;
		z->zones[i].state = VFN_ZS_EMPTY;
	}
	return 0;
}

/**
 * vfn_zoned_exit() - free the zones
 * @z: the zones
 */
void vfn_zoned_exit(struct vfn_zoned *z)
{
	kvfree(z->zones);
	kvfree(z->ext);
	z->ext = NULL;
	z->zones = NULL;
	z->nr_zones = 0;
}

/**
 * vfn_zoned_set_zrwa() - give the zones a Zone Random Write Area
 * @z: the zones, every one Empty
 * @zrwas: the window in blocks (ZRWAS), 0 for none
 * @zrwafg: the flush granularity in blocks (ZRWAFG), dividing @zrwas
 * @nr: ZRWA resources, 1 to the active limit (if there is one)
 *
 * Return: 0, or -EINVAL for values the specification does not allow
 * (ZRWAS and ZRWAFG are 16-bit fields; the window fits a zone's capacity).
 */
int vfn_zoned_set_zrwa(struct vfn_zoned *z, u32 zrwas, u32 zrwafg, u32 nr)
{
	if (!zrwas) {
		z->zrwas = 0;
		z->zrwafg = 0;
		z->max_zrwa = 0;
		return 0;
	}
	if (!zrwafg || zrwas % zrwafg || zrwas > U16_MAX || zrwas > z->zcap ||
	    !nr || (z->max_active && nr > z->max_active))
		return -EINVAL;
	z->zrwas = zrwas;
	z->zrwafg = zrwafg;
	z->max_zrwa = nr;
	return 0;
}

static u64 zslba(const struct vfn_zoned *z, u32 i)
{
	return (u64)i * z->zsze;
}

static void attrs_enter(struct vfn_zoned *z, struct vfn_zone *zn, u8 to);
/* The zone gives its ZRWA back, if it holds one. */
static void zrwa_release(struct vfn_zoned *z, struct vfn_zone *zn)
{
	if (!zn->zrwa)
		return;
	zn->zrwa = false;
	z->nr_zrwa--;
}

/* Leave the state's count, enter @to's; the write pointer is the caller's. */
static void set_state(struct vfn_zoned *z, struct vfn_zone *zn, u8 to)
{
	switch (zn->state) {
	case VFN_ZS_IOPEN:
		z->nr_iopen--;
		break;
	case VFN_ZS_EOPEN:
		z->nr_eopen--;
		break;
	case VFN_ZS_CLOSED:
		z->nr_closed--;
		break;
	}
	switch (to) {
	case VFN_ZS_IOPEN:
		z->nr_iopen++;
		break;
	case VFN_ZS_EOPEN:
		z->nr_eopen++;
		break;
	case VFN_ZS_CLOSED:
		z->nr_closed++;
		break;
	default:
		/* Only an active zone holds a ZRWA. */
		zrwa_release(z, zn);
		break;
	}
	attrs_enter(z, zn, to);
	zn->state = to;
}

/*
 * Whether zone @i, not written (nor its ZRWA window), goes Empty: not if
 * it has a descriptor extension, which only a Reset takes away (ZNS 1.1,
 * 3.4.2.2.6).
 */
static bool unused(const struct vfn_zoned *z, u32 i)
{
	const struct vfn_zone *zn = &z->zones[i];

	return max(zn->wp, zn->written) == zslba(z, i) &&
	       !(zn->za & VFN_ZA_ZDEV);
}

/*
 * Close an open zone: Closed, or Empty if nothing was written to it (nor
 * to its ZRWA window, which stays with a Closed zone) and it has no
 * descriptor extension.
 */
static void close_zone(struct vfn_zoned *z, u32 i)
{
	struct vfn_zone *zn = &z->zones[i];

	set_state(z, zn, unused(z, i) ? VFN_ZS_EMPTY : VFN_ZS_CLOSED);
}

static bool active_full(const struct vfn_zoned *z)
{
	return z->max_active &&
	       z->nr_iopen + z->nr_eopen + z->nr_closed >= z->max_active;
}

/*
 * Room to open zone @i (Empty or Closed): an Empty zone needs an active
 * resource; every zone an open one, for which an implicitly open zone
 * may be closed (the oldest in round-robin order), as the specification's
 * implicit close allows, if that leaves the active resources enough.
 * Return: 0 or the status that refuses the open.
 */
static u16 open_resources(struct vfn_zoned *z, u32 i)
{
	u32 k, j;

	if (z->zones[i].state == VFN_ZS_EMPTY && active_full(z))
		return VFN_SC(NVME_SC_ZONE_TOO_MANY_ACTIVE);
	if (!z->max_open || z->nr_iopen + z->nr_eopen < z->max_open)
		return 0;
	/*
	 * A closed zone stays active: the active check above holds after
	 * the close too.
	 */
	for (k = 0; z->nr_iopen && k < z->nr_zones; k++) {
		j = (z->close_next + k) % z->nr_zones;
		if (j == i || z->zones[j].state != VFN_ZS_IOPEN)
			continue;
		close_zone(z, j);
		z->close_next = (j + 1) % z->nr_zones;
		z->count[VFN_ZC_IMPLICIT_CLOSE]++;
		return 0;
	}
	return VFN_SC(NVME_SC_ZONE_TOO_MANY_OPEN);
}

/*
 * A write (or a ZRWA flush) opens zone @i implicitly, if the resources
 * allow (open_resources()). Return: 0 or the status that refuses it.
 */
static u16 implicit_open(struct vfn_zoned *z, u32 i)
{
	u16 sc = open_resources(z, i);

	if (sc)
		return sc;
	set_state(z, &z->zones[i], VFN_ZS_IOPEN);
	z->count[VFN_ZC_IMPLICIT_OPEN]++;
	return 0;
}

/* The status of a write to a zone in a state that takes none, or 0. */
static u16 unwritable(u8 state)
{
	switch (state) {
	case VFN_ZS_FULL:
		return VFN_SC(NVME_SC_ZONE_FULL);
	case VFN_ZS_RDONLY:
		return VFN_SC(NVME_SC_ZONE_READ_ONLY);
	case VFN_ZS_OFFLINE:
		return VFN_SC(NVME_SC_ZONE_OFFLINE);
	}
	return 0;
}

/*
 * A write of [@slba, @slba + @nlb) to zone @i, which holds a ZRWA: anywhere
 * from the write pointer (the flushed point) to twice the window above
 * it; a write that ends above the window flushes implicitly, the write
 * pointer moving up by ZRWAFG multiples until the write's end is in the
 * window. The zone as it was is kept in @z->undo.
 */
static u16 zrwa_write(struct vfn_zoned *z, u32 i, u64 slba, u32 nlb,
		      bool append, u64 *lba)
{
	struct vfn_zone *zn = &z->zones[i];
	u64 end = slba + nlb, cap = zslba(z, i) + z->zcap;
	u16 sc;

	if (append)
		return VFN_SC(VFN_SC_ZONE_INVALID_OP);
	if (end > cap)
		return VFN_SC(NVME_SC_ZONE_BOUNDARY_ERROR);
	if (slba < zn->wp || end > zn->wp + 2ULL * z->zrwas)
		return VFN_SC(NVME_SC_ZONE_INVALID_WRITE);
	z->undo.was = *zn;
	if (zn->state == VFN_ZS_CLOSED) {
		sc = implicit_open(z, i);
		if (sc)
			return sc;
	}
	z->undo.zone = i;
	*lba = slba;
	zn->written = max(zn->written, end);
	if (end > zn->wp + z->zrwas)
		zn->wp = min(cap, zn->wp + roundup(end - zn->wp - z->zrwas,
						   (u64)z->zrwafg));
	if (zn->wp == cap)
		set_state(z, zn, VFN_ZS_FULL);
	return 0;
}

/**
 * vfn_zone_write() - a Write, Write Zeroes or Zone Append of blocks
 * @z: the zones
 * @slba: the command's first block (Zone Append: the zone's first block)
 * @nlb: blocks, at least 1, within the namespace (checked before)
 * @append: Zone Append: the blocks go to the write pointer
 * @lba: receives the first block written (Zone Append's result)
 *
 * On success the write pointer has moved past the blocks and the zone is
 * open (implicitly, unless it was opened explicitly) or, at its
 * capacity, Full.
 *
 * A zone with a ZRWA takes writes anywhere in its window (zrwa_write()).
 *
 * Return: 0, or the status that refuses the write (nothing changed).
 */
u16 vfn_zone_write(struct vfn_zoned *z, u64 slba, u32 nlb, bool append,
		   u64 *lba)
{
	u32 i = vfn_zone_of(z, slba);
	struct vfn_zone *zn = &z->zones[i];
	u64 end = zslba(z, i) + z->zcap;
	u16 sc;

	z->undo.zone = U32_MAX;
	if (zn->zrwa && vfn_zone_of(z, slba + nlb - 1) == i)
		return zrwa_write(z, i, slba, nlb, append, lba);
	if (append && slba != zslba(z, i))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (vfn_zone_of(z, slba + nlb - 1) != i)
		return VFN_SC(NVME_SC_ZONE_BOUNDARY_ERROR);
	sc = unwritable(zn->state);
	if (sc)
		return sc;
	if (!append && slba != zn->wp)
		return VFN_SC(NVME_SC_ZONE_INVALID_WRITE);
	if (zn->wp + nlb > end)
		return VFN_SC(NVME_SC_ZONE_BOUNDARY_ERROR);
	if (zn->state == VFN_ZS_EMPTY || zn->state == VFN_ZS_CLOSED) {
		sc = implicit_open(z, i);
		if (sc)
			return sc;
	}
	*lba = zn->wp;
	zn->wp += nlb;
	zn->written = zn->wp;
	if (zn->wp == end)
		set_state(z, zn, VFN_ZS_FULL);
	return 0;
}

/**
 * vfn_zone_write_undo() - a write vfn_zone_write() took failed later
 * @z: the zones
 * @lba: the first block it was given
 * @nlb: its blocks
 * @was: the zone's state before it
 *
 * The write pointer goes back to @lba and the zone to @was (an implicit
 * open is no longer counted): a refused write changes nothing. (An
 * implicitly open zone that the write's implicit open closed stays
 * closed: that left its data alone.) A write to a ZRWA zone puts back the
 * zone as zrwa_write() kept it: pointer, window, state and ZRWA.
 */
void vfn_zone_write_undo(struct vfn_zoned *z, u64 lba, u32 nlb, u8 was)
{
	struct vfn_zone *zn = &z->zones[vfn_zone_of(z, lba)];

	if (z->undo.zone == vfn_zone_of(z, lba)) {
		const struct vfn_zone *old = &z->undo.was;

		if (zn->state != old->state)
			set_state(z, zn, old->state);
		if (old->state == VFN_ZS_CLOSED &&
		    z->count[VFN_ZC_IMPLICIT_OPEN])
			z->count[VFN_ZC_IMPLICIT_OPEN]--;
		zn->wp = old->wp;
		zn->written = old->written;
		if (!zn->zrwa) {
			zn->zrwa = true;
			z->nr_zrwa++;
		}
		z->undo.zone = U32_MAX;
		return;
	}
	if (zn->wp != lba + nlb)
		return;
	zn->wp = lba;
	zn->written = lba;
	if ((was == VFN_ZS_EMPTY || was == VFN_ZS_CLOSED) &&
	    z->count[VFN_ZC_IMPLICIT_OPEN])
		z->count[VFN_ZC_IMPLICIT_OPEN]--;
	if (zn->state != was)
		set_state(z, zn, was);
}

/**
 * vfn_zone_read() - may blocks [@slba, @slba + @nlb) be read?
 * @z: the zones
 * @slba: first block
 * @nlb: blocks, within the namespace
 *
 * Reads may cross zone boundaries and go past a zone's write pointer
 * (the blocks read as zeros); only an offline zone has nothing to read.
 *
 * Return: 0 or Zone Is Offline.
 */
u16 vfn_zone_read(const struct vfn_zoned *z, u64 slba, u32 nlb)
{
	u32 i, last = vfn_zone_of(z, slba + nlb - 1);

	for (i = vfn_zone_of(z, slba); i <= last; i++)
		if (z->zones[i].state == VFN_ZS_OFFLINE)
			return VFN_SC(NVME_SC_ZONE_OFFLINE);
	return 0;
}

/* One zone's action. Return: 0 or the status that refuses it. */
static u16 send_one(struct vfn_zoned *z, u32 i, enum vfn_zone_action act)
{
	struct vfn_zone *zn = &z->zones[i];
	u8 s = zn->state;
	u16 sc;

	switch (act) {
	case VFN_ZSA_OPEN:
		if (s == VFN_ZS_EOPEN)
			return 0;
		if (s == VFN_ZS_EMPTY || s == VFN_ZS_CLOSED) {
			sc = open_resources(z, i);
			if (sc)
				return sc;
		} else if (s != VFN_ZS_IOPEN) {
			break;
		}
		set_state(z, zn, VFN_ZS_EOPEN);
		z->count[VFN_ZC_OPEN]++;
		return 0;
	case VFN_ZSA_CLOSE:
		if (s == VFN_ZS_CLOSED)
			return 0;
		if (s != VFN_ZS_IOPEN && s != VFN_ZS_EOPEN)
			break;
		close_zone(z, i);
		z->count[VFN_ZC_CLOSE]++;
		return 0;
	case VFN_ZSA_FINISH:
		if (s == VFN_ZS_FULL)
			return 0;
		if (s != VFN_ZS_EMPTY && s != VFN_ZS_IOPEN &&
		    s != VFN_ZS_EOPEN && s != VFN_ZS_CLOSED)
			break;
		zn->wp = zslba(z, i) + z->zcap;
		set_state(z, zn, VFN_ZS_FULL);
		z->count[VFN_ZC_FINISH]++;
		return 0;
	case VFN_ZSA_RESET:
		if (s == VFN_ZS_RDONLY || s == VFN_ZS_OFFLINE)
			break;
		if (s != VFN_ZS_EMPTY)
			z->count[VFN_ZC_RESET]++;
		zn->wp = zslba(z, i);
		set_state(z, zn, VFN_ZS_EMPTY);
		return 0;
	case VFN_ZSA_OFFLINE:
		if (s == VFN_ZS_OFFLINE)
			return 0;
		if (s != VFN_ZS_RDONLY)
			break;
		zn->wp = zslba(z, i);
		set_state(z, zn, VFN_ZS_OFFLINE);
		return 0;
	default:
		return VFN_SC(NVME_SC_INVALID_FIELD);
	}
	return VFN_SC(NVME_SC_ZONE_INVALID_TRANSITION);
}

/* Whether Select All applies @act to a zone in state @s. */
static bool selected(enum vfn_zone_action act, u8 s)
{
	switch (act) {
	case VFN_ZSA_OPEN:
		return s == VFN_ZS_CLOSED;
	case VFN_ZSA_CLOSE:
		return s == VFN_ZS_IOPEN || s == VFN_ZS_EOPEN;
	case VFN_ZSA_FINISH:
		return s == VFN_ZS_IOPEN || s == VFN_ZS_EOPEN ||
		       s == VFN_ZS_CLOSED;
	case VFN_ZSA_RESET:
		return s == VFN_ZS_IOPEN || s == VFN_ZS_EOPEN ||
		       s == VFN_ZS_CLOSED || s == VFN_ZS_FULL;
	case VFN_ZSA_OFFLINE:
		return s == VFN_ZS_RDONLY;
	default:
		return false;
	}
}

/**
 * vfn_zone_send() - a Zone Management Send action
 * @z: the zones
 * @slba: the zone's first block (ignored with @all); any other block is
 *	Invalid Field in Command
 * @act: the action
 * @all: Select All: every zone in a state the action applies to
 *
 * Open with Select All opens every Closed zone or, if the open or active
 * resources do not allow that many, none.
 *
 * Return: 0, or the status that refuses the action (the zone unchanged).
 */
u16 vfn_zone_send(struct vfn_zoned *z, u64 slba, enum vfn_zone_action act,
		  bool all)
{
	u32 i, n = 0;
	u16 sc;

	if (act < VFN_ZSA_CLOSE || act > VFN_ZSA_OFFLINE)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	/* Without Select All, SLBA must be a zone's first block (ZNS 1.1). */
	if (!all && (slba & (z->zsze - 1)))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (!all)
		return send_one(z, vfn_zone_of(z, slba), act);
	if (act == VFN_ZSA_OPEN) {
		/* Closed zones are active already: only open resources. */
		for (i = 0; i < z->nr_zones; i++)
			n += z->zones[i].state == VFN_ZS_CLOSED;
		if (z->max_open && z->nr_eopen + n > z->max_open)
			return VFN_SC(NVME_SC_ZONE_TOO_MANY_OPEN);
	}
	/*
	 * The zones in a selected state when the command came: an implicit
	 * close on the way must not bring another zone into the selection.
	 */
	for (i = 0; i < z->nr_zones; i++)
		z->zones[i].picked = selected(act, z->zones[i].state);
	for (i = 0, sc = 0; i < z->nr_zones; i++) {
		if (z->zones[i].picked && !sc)
			sc = send_one(z, i, act);
		z->zones[i].picked = false;
	}
	return sc;
}

/**
 * vfn_zone_open_zrwa() - Open with ZRWAA: open a zone with a ZRWA
 * @z: the zones
 * @slba: the zone's first block
 * @all: Select All (refused: a ZRWA is allocated to one zone)
 *
 * An Empty zone takes a ZRWA resource, then opens as Open does (active
 * and open resources); a zone that holds a ZRWA already just opens.
 * Implicit opens never allocate one.
 *
 * Return: 0, or the status that refuses it (nothing changed): Invalid
 * Field without ZRWA support, with Select All or an SLBA that is not a
 * zone's first block; Invalid Zone State Transition from Full, Read Only,
 * Offline; Invalid Zone Operation Request from another state but Empty;
 * ZRWA Resources Unavailable with every resource held; Open's statuses.
 */
u16 vfn_zone_open_zrwa(struct vfn_zoned *z, u64 slba, bool all)
{
	struct vfn_zone *zn;
	u32 i;
	u16 sc;

	if (!z->zrwas || all || (slba & (z->zsze - 1)))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	i = vfn_zone_of(z, slba);
	zn = &z->zones[i];
	if (zn->zrwa || unwritable(zn->state))
		return send_one(z, i, VFN_ZSA_OPEN);
	if (zn->state != VFN_ZS_EMPTY)
		return VFN_SC(VFN_SC_ZONE_INVALID_OP);
	/* Before the open: a refusal must not close another zone. */
	if (z->nr_zrwa >= z->max_zrwa)
		return VFN_SC(VFN_SC_ZRWA_UNAVAILABLE);
	sc = send_one(z, i, VFN_ZSA_OPEN);
	if (sc)
		return sc;
	zn->zrwa = true;
	z->nr_zrwa++;
	return 0;
}

/**
 * vfn_zone_zrwa_flush() - Flush Explicit ZRWA Range (action 11h)
 * @z: the zones
 * @slba: the last block to flush; the write pointer moves past it
 * @all: Select All (refused)
 *
 * [write pointer, @slba] must be in the zone's window and a multiple of
 * ZRWAFG blocks (or end at the zone's capacity, which may not be one). A
 * Closed zone opens implicitly, as a write would open it; at the
 * capacity the zone is Full and gives its ZRWA back.
 *
 * Return: 0, or the status that refuses it (nothing changed): Invalid
 * Field without ZRWA support, with Select All, or off the granularity;
 * Invalid Zone Operation Request for a zone without a ZRWA; Zone
 * Boundary Error for @slba below the write pointer or past the window or
 * the capacity; the open resources' statuses.
 */
u16 vfn_zone_zrwa_flush(struct vfn_zoned *z, u64 slba, bool all)
{
	struct vfn_zone *zn;
	u64 cap;
	u32 i;
	u16 sc;

	if (!z->zrwas || all)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	i = vfn_zone_of(z, slba);
	zn = &z->zones[i];
	cap = zslba(z, i) + z->zcap;
	if (!zn->zrwa)
		return VFN_SC(VFN_SC_ZONE_INVALID_OP);
	if (slba < zn->wp || slba >= zn->wp + z->zrwas || slba >= cap)
		return VFN_SC(NVME_SC_ZONE_BOUNDARY_ERROR);
	if ((slba + 1 - zn->wp) % z->zrwafg && slba + 1 != cap)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (zn->state == VFN_ZS_CLOSED) {
		sc = implicit_open(z, i);
		if (sc)
			return sc;
	}
	zn->wp = slba + 1;
	zn->written = max(zn->written, zn->wp);
	if (zn->wp == cap)
		set_state(z, zn, VFN_ZS_FULL);
	return 0;
}

/**
 * vfn_zone_in_zrwa() - do blocks [@slba, @slba + @nlb) lie in a ZRWA window?
 * @z: the zones
 * @slba: first block
 * @nlb: blocks, at least 1, within the namespace
 *
 * Return: true if all of them are in one zone's window data, [write
 * pointer, end of the highest block written): device DRAM holds them.
 */
bool vfn_zone_in_zrwa(const struct vfn_zoned *z, u64 slba, u64 nlb)
{
	const struct vfn_zone *zn = &z->zones[vfn_zone_of(z, slba)];

	return zn->zrwa && slba >= zn->wp && slba + nlb <= zn->written;
}

/**
 * vfn_zone_zrwa_cut() - a power cut and zone @i's ZRWA
 * @z: the zones
 * @i: a zone
 * @plp: power-loss protection: the window is flushed
 * @from: with @plp, set to the first block flushed
 * @to: with @plp, set to the end of the blocks flushed
 *
 * The window is device DRAM: the zone gives its ZRWA back. With @plp the
 * window's data is flushed first (the write pointer moves to the end of
 * the highest block written; Full at the capacity) and the caller
 * programs [@from, @to); without, the data beyond the write pointer is
 * lost, which vfn_zone_cut() then discards.
 *
 * Return: true if [@from, @to) is to be programmed.
 */
bool vfn_zone_zrwa_cut(struct vfn_zoned *z, u32 i, bool plp, u64 *from,
		       u64 *to)
{
	struct vfn_zone *zn = &z->zones[i];
	bool flush = plp && zn->zrwa && zn->written > zn->wp;

	if (!zn->zrwa)
		return false;
	if (flush) {
		*from = zn->wp;
		*to = zn->written;
		zn->wp = zn->written;
	}
	zrwa_release(z, zn);
	if (zn->wp == zslba(z, i) + z->zcap)
		set_state(z, zn, VFN_ZS_FULL);
	return flush;
}

/**
 * vfn_zone_set_read_only() - a zone's media went read-only
 * @z: the zones
 * @zone: its number
 *
 * The zone keeps its data and write pointer; it gives up its resources.
 */
void vfn_zone_set_read_only(struct vfn_zoned *z, u32 zone)
{
	if (zone < z->nr_zones && z->zones[zone].state != VFN_ZS_OFFLINE)
		set_state(z, &z->zones[zone], VFN_ZS_RDONLY);
}

/**
 * vfn_zone_lost() - a power cut took back block @lba's data
 * @z: the zones
 * @lba: a block of the namespace
 *
 * The block's zone is durable up to @lba at most: its write pointer goes
 * back there if it was beyond (docs/faults.md, zoned namespaces); the
 * rest is vfn_zone_cut()'s, once every block the cut took back was told.
 */
void vfn_zone_lost(struct vfn_zoned *z, u64 lba)
{
	struct vfn_zone *zn;

	if (lba >= (u64)z->nr_zones * z->zsze)
		return;
	zn = &z->zones[vfn_zone_of(z, lba)];
	if (zn->state != VFN_ZS_OFFLINE && lba < zn->wp)
		zn->wp = lba;
}

/**
 * vfn_zone_cut() - after a power cut, a zone at its durable point
 * @z: the zones
 * @i: a zone
 * @from: set to the zone's new write pointer, if it moved
 * @to: set to the end of the data written beyond it
 *
 * A zone whose write pointer vfn_zone_lost() moved back below its
 * written data keeps what is below: it is Empty if nothing is, else
 * Closed (its open resource went with the power; a Read Only zone stays
 * so). A Full zone that would take an active resource the zones do not
 * have stays Full (its write pointer at the capacity's end, as a Finish
 * leaves it). The caller discards [@from, @to).
 *
 * Return: true if the zone lost data: [@from, @to) is to be discarded.
 */
bool vfn_zone_cut(struct vfn_zoned *z, u32 i, u64 *from, u64 *to)
{
	struct vfn_zone *zn = &z->zones[i];

	if (zn->wp >= zn->written)
		return false;
	*from = zn->wp;
	*to = zn->written;
	zn->written = zn->wp;
	if (zn->state == VFN_ZS_RDONLY)
		return true;
	if (unused(z, i))
		set_state(z, zn, VFN_ZS_EMPTY);
	else if (zn->state == VFN_ZS_FULL && active_full(z))
		zn->wp = zslba(z, i) + z->zcap;
	else
		set_state(z, zn, VFN_ZS_CLOSED);
	return true;
}

static bool matches(enum vfn_zone_filter f, u8 s)
{
	static const u8 state_of[] = {
		[VFN_ZRAS_EMPTY] = VFN_ZS_EMPTY,
		[VFN_ZRAS_IOPEN] = VFN_ZS_IOPEN,
		[VFN_ZRAS_EOPEN] = VFN_ZS_EOPEN,
		[VFN_ZRAS_CLOSED] = VFN_ZS_CLOSED,
		[VFN_ZRAS_FULL] = VFN_ZS_FULL,
		[VFN_ZRAS_RDONLY] = VFN_ZS_RDONLY,
		[VFN_ZRAS_OFFLINE] = VFN_ZS_OFFLINE,
	};

	if (f == VFN_ZRAS_ALL)
		return true;
	return f < ARRAY_SIZE(state_of) && state_of[f] == s;
}

/*
 * Report Zones, or with @ext (the extension size) Extended Report Zones:
 * each descriptor followed by @ext bytes of its zone's extension.
 */
static u32 report(const struct vfn_zoned *z, u64 slba,
		  enum vfn_zone_filter filter, bool partial, u32 ext,
		  void *buf, size_t len)
{
	size_t entry = VFN_ZONE_DESC_BYTES + ext;
	size_t room = len >= VFN_ZONE_DESC_BYTES ?
		      (len - VFN_ZONE_DESC_BYTES) / entry : 0;
	u64 count = 0;
	u32 i, put = 0;
	u8 *d;

	memset(buf, 0, len);
	for (i = vfn_zone_of(z, slba); i < z->nr_zones; i++) {
		const struct vfn_zone *zn = &z->zones[i];

		if (!matches(filter, zn->state))
			continue;
		count++;
		if (put >= room)
			continue;
		d = (u8 *)buf + VFN_ZONE_DESC_BYTES + (size_t)put * entry;
		d[0] = ZT_SEQ_WRITE_REQUIRED;
		d[1] = zn->state << 4;
		d[2] = zn->za;
		if (zn->zrwa)
			d[2] |= ZA_ZRWAV;
		*(__le64 *)(d + 8) = cpu_to_le64(z->zcap);
		*(__le64 *)(d + 16) = cpu_to_le64(zslba(z, i));
		*(__le64 *)(d + 24) = cpu_to_le64(zn->wp);
		if (ext && (zn->za & VFN_ZA_ZDEV))
			memcpy(d + VFN_ZONE_DESC_BYTES,
			       z->ext + (size_t)i * ext, ext);
		put++;
	}
	if (len >= 8)
		*(__le64 *)buf = cpu_to_le64(partial ? put : count);
	return put;
}

/**
 * vfn_zone_report() - Report Zones
 * @z: the zones
 * @slba: a block of the first zone to look at
 * @filter: which zones to report
 * @partial: Partial Report: the count is of the descriptors that fit
 * @buf: the report: a 64-byte header (its first 8 bytes the count,
 *	little-endian), then 64-byte descriptors (zone type, state in bits
 *	7:4 of byte 1, attributes in byte 2, capacity, first block, write
 *	pointer)
 * @len: bytes of @buf; descriptors that do not fit are left out
 *
 * Return: the descriptors written.
 */
u32 vfn_zone_report(const struct vfn_zoned *z, u64 slba,
		    enum vfn_zone_filter filter, bool partial, void *buf,
		    size_t len)
{
	return report(z, slba, filter, partial, 0, buf, len);
}

/**
 * vfn_zoned_init_ext() - descriptor extensions and recommendation limits
 * @z: the zones, from vfn_zoned_init()
 * @ext_bytes: extension size: 0 (none) or a multiple of 64 up to 16320
 * @frl_s: Finish Recommended Limit in seconds, 0 for none
 * @rrl_s: Reset Recommended Limit in seconds, 0 for none
 *
 * Return: 0, -EINVAL for an extension size ZDES cannot give, or -ENOMEM
 * (the zones then have no extensions).
 */
int vfn_zoned_init_ext(struct vfn_zoned *z, u32 ext_bytes, u32 frl_s,
		       u32 rrl_s)
{
	if (ext_bytes % VFN_ZONE_EXT_UNIT || ext_bytes > VFN_ZONE_EXT_MAX)
		return -EINVAL;
	z->frl_ns = (u64)frl_s * NSEC_PER_SEC;
	z->rrl_ns = (u64)rrl_s * NSEC_PER_SEC;
	if (!ext_bytes)
		return 0;
	z->ext = kvcalloc(z->nr_zones, ext_bytes, GFP_KERNEL);
	if (!z->ext)
		return -ENOMEM;
	z->ext_bytes = ext_bytes;
	return 0;
}

/*
 * Zone attributes on entering state @to: a zone that leaves Empty starts
 * its age; Empty (a Reset) and Offline take the extension and every
 * attribute away; Full ends Finish Recommended, Read Only both
 * recommendations (neither action can follow).
 */
static void attrs_enter(struct vfn_zoned *z, struct vfn_zone *zn, u8 to)
{
	if (zn->state == VFN_ZS_EMPTY && to != VFN_ZS_EMPTY)
		zn->since_ns = z->now_ns;
	switch (to) {
	case VFN_ZS_EMPTY:
	case VFN_ZS_OFFLINE:
		if (zn->za & VFN_ZA_ZDEV)
			memset(z->ext + (size_t)(zn - z->zones) * z->ext_bytes,
			       0, z->ext_bytes);
		zn->za = 0;
		break;
	case VFN_ZS_FULL:
		zn->za &= ~VFN_ZA_FZR;
		break;
	case VFN_ZS_RDONLY:
		zn->za &= ~(VFN_ZA_FZR | VFN_ZA_RZR);
		break;
	}
}

/**
 * vfn_zone_set_ext() - Set Zone Descriptor Extension
 * @z: the zones
 * @slba: the zone's first block
 * @data: the extension, @z->ext_bytes of it
 *
 * An Empty zone takes the extension and an active resource and goes
 * Closed, its Zone Descriptor Extension Valid attribute set.
 *
 * Return: 0, or the status that refuses it (nothing changed): Invalid
 * Field without extensions (ZDES 0) or for an SLBA that is no zone's
 * first block, Zone Invalid State Transition for a zone not Empty, Too
 * Many Active Zones without an active resource.
 */
u16 vfn_zone_set_ext(struct vfn_zoned *z, u64 slba, const void *data)
{
	u32 i = vfn_zone_of(z, slba);

	if (!z->ext_bytes || (slba & (z->zsze - 1)))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (z->zones[i].state != VFN_ZS_EMPTY)
		return VFN_SC(NVME_SC_ZONE_INVALID_TRANSITION);
	if (active_full(z))
		return VFN_SC(NVME_SC_ZONE_TOO_MANY_ACTIVE);
	memcpy(z->ext + (size_t)i * z->ext_bytes, data, z->ext_bytes);
	set_state(z, &z->zones[i], VFN_ZS_CLOSED);
	z->zones[i].za |= VFN_ZA_ZDEV;
	return 0;
}

/**
 * vfn_zone_report_ext() - Extended Report Zones
 * @z: the zones, with extensions
 * @slba: a block of the first zone to look at
 * @filter: which zones to report
 * @partial: Partial Report: the count is of the descriptors that fit
 * @buf: the report: vfn_zone_report()'s, each descriptor followed by its
 *	zone's extension (zeros where Zone Descriptor Extension Valid is
 *	clear)
 * @len: bytes of @buf; a descriptor and extension that do not fit
 *	whole are left out
 *
 * Return: the descriptors written.
 */
u32 vfn_zone_report_ext(const struct vfn_zoned *z, u64 slba,
			enum vfn_zone_filter filter, bool partial, void *buf,
			size_t len)
{
	return report(z, slba, filter, partial, z->ext_bytes, buf, len);
}

/**
 * vfn_zone_recommend() - Finish and Reset Recommended of one zone
 * @z: the zones
 * @i: a zone
 * @now: the model's time
 *
 * A zone Implicitly Open, Explicitly Open or Closed for the Finish
 * Recommended Limit since it left Empty gets Finish Zone Recommended; a
 * zone in one of those states or Full for the Reset Recommended Limit
 * since then gets Reset Zone Recommended. The attributes stay until the
 * zone leaves the states they apply to (attrs_enter()).
 *
 * Return: true if the zone's attributes changed (its descriptor changed:
 * the caller reports it on the Changed Zone List).
 */
bool vfn_zone_recommend(struct vfn_zoned *z, u32 i, u64 now)
{
	struct vfn_zone *zn = &z->zones[i];
	u8 was = zn->za, s = zn->state;
	u64 age = now - min(now, zn->since_ns);
	bool active = s == VFN_ZS_IOPEN || s == VFN_ZS_EOPEN ||
		      s == VFN_ZS_CLOSED;

	if (z->frl_ns && active && age >= z->frl_ns)
		zn->za |= VFN_ZA_FZR;
	if (z->rrl_ns && (active || s == VFN_ZS_FULL) && age >= z->rrl_ns)
		zn->za |= VFN_ZA_RZR;
	return zn->za != was;
}
