// SPDX-License-Identifier: GPL-2.0
/*
 * The Zoned Namespace Command Set (NVMe ZNS 1.1; docs/design/zns.md). The
 * zone state machine first: it touches no data and no time (KUnit
 * vflash-zns runs it alone). Then the command set on the controller.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/nvme.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/compat.h"
#include "core/params.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

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
 * Room to open zone @i (Empty or Closed): an implicitly open zone may be
 * closed for it, as the specification's implicit close allows.
 * Return: 0 or the status that refuses the open.
 */
static u16 open_resources(struct vfn_zoned *z, u32 i)
{
	u32 k, j;

	if (z->zones[i].state == VFN_ZS_EMPTY && active_full(z))
		return VFN_SC(NVME_SC_ZONE_TOO_MANY_ACTIVE);
	if (!z->max_open || z->nr_iopen + z->nr_eopen < z->max_open)
		return 0;
	/* A closed zone stays active: the active check above still holds. */
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

/* A write or ZRWA flush opens zone @i implicitly. Return: 0 or the refusal. */
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
 * A write to zone @i, which holds a ZRWA: anywhere from the write pointer to
 * twice the window above it; a write ending above the window flushes
 * implicitly, by ZRWAFG multiples. The zone as it was is kept in @z->undo.
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
 * open or, at its capacity, Full.
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
 * The write pointer goes back to @lba and the zone to @was: a refused write
 * changes nothing (a ZRWA zone gets back pointer, window, state and ZRWA).
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

/* Return: 0 or the status that refuses zone @i's action. */
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
	/* Selected on arrival: an implicit close must not widen the selection. */
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
 * An Empty zone takes a ZRWA resource first; implicit opens never take one.
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
 * ZRWAFG blocks (or end at the zone's capacity). At the capacity the zone
 * is Full and gives its ZRWA back.
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
 * The zone gives its ZRWA back. With @plp the window is flushed first and
 * the caller programs [@from, @to); without, the data beyond the write
 * pointer is lost (vfn_zone_cut() discards it).
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
 * The block's zone is durable up to @lba at most (docs/faults.md).
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
 * The zone keeps what is below its durable point: Empty if nothing is,
 * else Closed (a Read Only zone stays so); a Full zone without an active
 * resource to take stays Full. The caller discards [@from, @to).
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

/* Report Zones; with @ext, each descriptor followed by its extension. */
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
 * Zone attributes on entering state @to (ZNS 1.1 zone attributes): leaving
 * Empty starts the age; Empty and Offline drop extension and attributes.
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
 * An Empty zone takes the extension and an active resource and goes Closed.
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
 * Finish and Reset Zone Recommended are set once a zone has been active for
 * the Finish or Reset Recommended Limit; attrs_enter() clears them.
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

/* The command set on the controller. Dispatcher only, as the zones. */

#define ZMS_SELECT_ALL		BIT(0)
#define ZMS_ZRWAA		BIT(1)

static bool zone_set_ext_one(const struct vfn_io_req *req)
{
	return req->zsa == VFN_ZSA_SET_EXT && !req->select_all;
}

/**
 * vfn_zns_decode() - decode Zone Management Send or Receive
 * @cmd: the command (its opcode one of the two), of an active zoned
 *	namespace
 * @ns: that namespace
 * @req: the decoded command (zeroed by vfn_io_decode(), opcode set)
 *
 * The zone named by SLBA must be in the namespace (but with Select All); a
 * report is at most MDTS (ZNS 1.1, 3.4.2 and 3.4.3).
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_zns_decode(const struct nvme_command *cmd, const struct vfn_ns *ns,
		   struct vfn_io_req *req)
{
	u64 bytes;

	if (cmd->common.opcode == nvme_cmd_zone_mgmt_send) {
		req->slba = le64_to_cpu(cmd->zms.slba);
		req->zsa = cmd->zms.zsa;
		req->select_all = cmd->zms.select_all & ZMS_SELECT_ALL;
		if ((req->zsa < NVME_ZONE_CLOSE ||
		     req->zsa > NVME_ZONE_OFFLINE) && !zone_set_ext_one(req) &&
		    req->zsa != VFN_ZSA_ZRWA_FLUSH)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		/* Open with ZRWAA and the ZRWA flush name one zone: no Select All. */
		req->zrwaa = req->zsa == NVME_ZONE_OPEN &&
			     (cmd->zms.select_all & ZMS_ZRWAA);
		if ((req->zrwaa || req->zsa == VFN_ZSA_ZRWA_FLUSH) &&
		    req->select_all)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		if (!req->select_all && req->slba >= ns->nsze)
			return VFN_SC(NVME_SC_LBA_RANGE);
		return 0;
	}
	req->slba = le64_to_cpu(cmd->zmr.slba);
	req->zsa = cmd->zmr.zra;
	req->zrasf = cmd->zmr.zrasf;
	req->partial = cmd->zmr.pr & NVME_REPORT_ZONE_PARTIAL;
	bytes = (le32_to_cpu(cmd->zmr.numd) + 1ULL) * 4;
	if ((req->zsa != VFN_ZRA_REPORT && req->zsa != VFN_ZRA_EXT_REPORT) ||
	    req->zrasf > NVME_ZRASF_ZONE_STATE_OFFLINE ||
	    bytes > VFN_MAX_XFER_BYTES)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	req->xfer_bytes = bytes;
	if (req->slba >= ns->nsze)
		return VFN_SC(NVME_SC_LBA_RANGE);
	return 0;
}

static void zone_stats(struct vfn_ctrl *c, struct vfn_nsd *nd)
{
	static const enum vflash_stat stat[VFN_ZC_NR] = {
		[VFN_ZC_IMPLICIT_OPEN] = VFLASH_STAT_ZONE_IMPLICIT_OPENS,
		[VFN_ZC_IMPLICIT_CLOSE] = VFLASH_STAT_ZONE_IMPLICIT_CLOSES,
		[VFN_ZC_OPEN] = VFLASH_STAT_ZONE_OPENS,
		[VFN_ZC_CLOSE] = VFLASH_STAT_ZONE_CLOSES,
		[VFN_ZC_FINISH] = VFLASH_STAT_ZONE_FINISHES,
		[VFN_ZC_RESET] = VFLASH_STAT_ZONE_RESETS,
	};
	u32 k;

	for (k = 0; k < VFN_ZC_NR; k++) {
		u64 n = nd->zns.count[k] - nd->zcounted[k];

		if (n)
			vflash_flash_count(c->vdev->flash, stat[k], n);
		nd->zcounted[k] = nd->zns.count[k];
	}
}

/*
 * A zone's own placement handle keeps its pages apart from other zones'
 * while it is active (docs/design/zns.md).
 */

/* Zone @zone's handle: its own, a free one, or 0 (shared) if none is free. */
static u16 zone_handle(struct vfn_ctrl *c, struct vfn_nsd *nd, u32 zone)
{
	struct vfn_zone *zn = &nd->zns.zones[zone];
	struct vfn_io_req r;
	u32 h;

	if (zn->ph)
		return zn->ph;
	for (h = 1; h < c->nr_zph; h++) {
		if (c->zph[h])
			continue;
		c->zph[h] = zn;
		zn->ph = h;
		vfn_lba_range(&nd->ns, (u64)zone * nd->zns.zsze, nd->zns.zcap,
			      &r);
		vflash_flash_zone_bind(c->vdev->flash, h, r.lpn, r.nr_lpages,
				       zone);
		return h;
	}
	return 0;
}

/* Seal handle @h's open blocks so that the next zone starts on fresh ones. */
static void zone_unlend(struct vfn_ctrl *c, u32 h, u64 now)
{
	vflash_flash_placement_update(c->vdev->flash, h, now);
	c->zph[h]->ph = 0;
	c->zph[h] = NULL;
}

static void zone_handles_sweep(struct vfn_ctrl *c, u64 now)
{
	u32 h;

	for (h = 1; h < c->nr_zph; h++) {
		u8 st = c->zph[h] ? c->zph[h]->state : 0;

		if (c->zph[h] && st != VFN_ZS_IOPEN && st != VFN_ZS_EOPEN &&
		    st != VFN_ZS_CLOSED)
			zone_unlend(c, h, now);
	}
}

/**
 * vfn_zns_put_handles() - a zoned namespace's zones give their handles back
 * @c: the controller
 * @nd: the namespace, about to be deleted
 * @now: when, on the backend's clock
 */
void vfn_zns_put_handles(struct vfn_ctrl *c, const struct vfn_nsd *nd,
			 u64 now)
{
	u32 h;

	for (h = 1; h < c->nr_zph; h++)
		if (c->zph[h] >= nd->zns.zones &&
		    c->zph[h] < nd->zns.zones + nd->zns.nr_zones)
			zone_unlend(c, h, now);
}

/**
 * vfn_zns_write() - the write-pointer step of a write to a zoned namespace
 * @c: the controller
 * @nd: the zoned namespace
 * @r: a decoded Write, Write Zeroes, Copy (its destination) or Zone Append
 * @out: its completion
 *
 * The write takes its place at the zone's write pointer and its pages go
 * to the zone's handle; @r keeps what vfn_zns_io_end() needs to undo it. A
 * Zone Append's range moves to where its blocks land.
 *
 */
u16 vfn_zns_write(struct vfn_ctrl *c, struct vfn_nsd *nd,
		  struct vfn_io_req *r, struct vfn_cmd *out)
{
	const struct vfn_zone *zn = &nd->zns.zones[vfn_zone_of(&nd->zns,
							       r->slba)];
	bool append = r->opcode == nvme_cmd_zone_append;
	u64 lba, wp = zn->wp;
	bool zrwa = zn->zrwa;
	u8 was = zn->state;
	u16 sc;

	sc = vfn_zone_write(&nd->zns, r->slba, r->nlb, append, &lba);
	zone_stats(c, nd);
	if (sc)
		return sc;
	r->zone_took = true;
	r->zone_was = was;
	r->zone_lba = lba;
	r->zrwa = zrwa;
	r->zrwa_wp = wp;
	r->ph = zone_handle(c, nd, vfn_zone_of(&nd->zns, r->slba));
	c->tag.ph = r->ph;
	if (!append)
		return 0;
	vflash_flash_count(c->vdev->flash, VFLASH_STAT_ZONE_APPENDS, 1);
	vfn_range_move(&nd->ns, r, lba);
	out->cqe.result.u64 = cpu_to_le64(lba);
	out->lpn = r->lpn;
	out->count = r->nr_lpages;
	return 0;
}

/**
 * vfn_zns_write_check() - may a write of [@slba, @slba + @nlb) take its
 *	zone's write pointer?
 * @c: the controller
 * @nd: the zoned namespace
 * @slba: first block
 * @nlb: blocks, within the namespace
 *
 * Copy checks its whole destination first; the zone is left as it was.
 *
 * Return: 0 or the zone's refusal.
 */
u16 vfn_zns_write_check(struct vfn_ctrl *c, struct vfn_nsd *nd, u64 slba,
			u64 nlb)
{
	u8 was = nd->zns.zones[vfn_zone_of(&nd->zns, slba)].state;
	u64 lba;
	u16 sc;

	sc = vfn_zone_write(&nd->zns, slba, nlb, false, &lba);
	if (!sc)
		vfn_zone_write_undo(&nd->zns, lba, nlb, was);
	zone_stats(c, nd);
	return sc;
}

/**
 * vfn_zrwa_hold() - a write into a zone's ZRWA window
 * @c: the controller
 * @r: the write
 * @store: puts its data in the store (io.c)
 * @now: when, on the backend's clock
 * @due_ns: set to its completion time
 *
 * The window is device DRAM (docs/design/zns.md): nothing is programmed
 * until a flush moves the write pointer past it.
 *
 * Return: 0, or VFN_SC_ABANDONED if @store was cut short.
 */
u16 vfn_zrwa_hold(struct vfn_ctrl *c, const struct vfn_io_req *r,
		  bool (*store)(struct vfn_ctrl *c, const struct vfn_io_req *r),
		  u64 now, u64 *due_ns)
{
	if (!store(c, r))
		return VFN_SC_ABANDONED;
	*due_ns = now + vflash_flash_knob(c->vdev->flash,
					  VFLASH_KNOB_FW_OVERHEAD_NS);
	return 0;
}

/* Blocks a reset or cut leaves unwritten lose their marks: no discard does. */
static void unmark(struct vfn_ctrl *c, const struct vfn_nsd *nd, u64 from,
		   u64 to)
{
	struct vfn_io_req r;

	if (c->nst.uncor.nr && to > from &&
	    !vfn_lba_range(&nd->ns, from, to - from, &r))
		vfn_uncor_clear(&c->nst.uncor, r.pos_bytes >> c->nst.lba_shift,
				to - from);
}

/*
 * The zones of [@first, @last) that a Reset or Offline emptied lose their
 * data as a Deallocate would, and blocks holding only their pages are erased
 * at once. Return: false if the host took DMA back meanwhile.
 */
static bool zones_discard(struct vfn_ctrl *c, struct vfn_nsd *nd, u32 first,
			  u32 last, u64 now, u64 *due_ns)
{
	struct vfn_zoned *z = &nd->zns;
	struct vfn_io_req one;
	u32 i;

	for (i = first; i < last; i++) {
		struct vfn_zone *zn = &z->zones[i];
		u64 start = (u64)i * z->zsze;

		if (zn->state != VFN_ZS_EMPTY && zn->state != VFN_ZS_OFFLINE)
			continue;
		unmark(c, nd, zn->written, start + z->zsze);
		if (zn->written == start)
			continue;
		/* Sealed first, so that the reset can erase them. */
		if (zn->ph)
			zone_unlend(c, zn->ph, now);
		vfn_lba_range(&nd->ns, start, zn->written - start, &one);
		if (!c->ops->discard(c, &one, now, due_ns, true, false))
			return false;
		zn->written = start;
	}
	return true;
}

/* Program what a ZRWA flush moved the write pointer past: data is stored. */
static void zone_program(struct vfn_ctrl *c, struct vfn_nsd *nd, u32 zone,
			 u64 from, u64 to, u64 now, u64 *due_ns)
{
	struct vfn_io_req r = { 0 };
	u64 due = now;

	if (from >= to || vfn_lba_range(&nd->ns, from, to - from, &r))
		return;
	r.ph = zone_handle(c, nd, zone);
	c->tag.ph = r.ph;
	if (c->ops->program(c, nd, &r, now, &due))
		dev_warn_ratelimited(&c->vdev->dev,
				     "zone %u: ZRWA flush of blocks %llu to %llu not programmed\n",
				     zone, from, to - 1);
	*due_ns = max(*due_ns, due);
}

/**
 * vfn_zns_io_start() - a zoned namespace's checks before an I/O command
 * @nd: the zoned namespace
 * @r: the decoded command
 * @sc: its status so far
 * @now: when it was fetched, on the backend's clock
 *
 * An offline zone has nothing to read; a zone leaving Empty now starts its
 * age at @now.
 *
 * Return: @sc, or if it was 0 the status of the zones' read check.
 */
u16 vfn_zns_io_start(struct vfn_nsd *nd, const struct vfn_io_req *r, u16 sc,
		     u64 now)
{
	if (!sc && (r->opcode == nvme_cmd_read ||
		    r->opcode == nvme_cmd_compare ||
		    r->opcode == nvme_cmd_verify ||
		    r->opcode == nvme_cmd_write_uncor))
		sc = vfn_zone_read(&nd->zns, r->slba, r->nlb);
	vfn_zone_clock(&nd->zns, now);
	return sc;
}

/**
 * vfn_zns_io_end() - a zoned namespace's zones after an I/O command
 * @c: the controller
 * @nd: the zoned namespace
 * @r: the command, as executed
 * @out: its completion
 * @sc: its status
 * @now: when it was fetched, on the backend's clock
 *
 * A refused write changes nothing; zones that went inactive give their
 * handles back.
 */
void vfn_zns_io_end(struct vfn_ctrl *c, struct vfn_nsd *nd,
		    struct vfn_io_req *r, struct vfn_cmd *out, u16 sc, u64 now)
{
	u32 i;

	if (sc && r->zone_took) {
		vfn_zone_write_undo(&nd->zns, r->zone_lba, r->nlb, r->zone_was);
		zone_stats(c, nd);
	}
	if (unlikely(r->zrwa)) {
		i = vfn_zone_of(&nd->zns, r->slba);
		zone_program(c, nd, i, r->zrwa_wp, nd->zns.zones[i].wp, now,
			     &out->due_ns);
	}
	zone_handles_sweep(c, now);
}

/* Open with ZRWAA and ZRWA flush. Return: whether @r was one; status in @sc. */
static bool zone_send_zrwa(struct vfn_ctrl *c, struct vfn_nsd *nd,
			   const struct vfn_io_req *r, struct vfn_cmd *out,
			   u64 now, u16 *sc)
{
	struct vfn_zoned *z = &nd->zns;
	u32 i;
	u64 wp;

	/* Neither takes Select All (decoded): SLBA is in the namespace. */
	if (!r->zrwaa && r->zsa != VFN_ZSA_ZRWA_FLUSH)
		return false;
	i = vfn_zone_of(z, r->slba);
	wp = z->zones[i].wp;
	if (r->zrwaa)
		*sc = vfn_zone_open_zrwa(z, r->slba, r->select_all);
	else
		*sc = vfn_zone_zrwa_flush(z, r->slba, r->select_all);
	zone_stats(c, nd);
	if (!*sc)
		zone_program(c, nd, i, wp, z->zones[i].wp, now, &out->due_ns);
	return true;
}

/* Finish programs the ZRWA window's data before the write pointer moves. */
static void zrwa_finish(struct vfn_ctrl *c, struct vfn_nsd *nd,
			const struct vfn_io_req *r, u32 first, u32 last,
			u64 now, u64 *due_ns)
{
	struct vfn_zoned *z = &nd->zns;
	u32 i;

	if (!z->zrwas || (!r->select_all && (r->slba & (z->zsze - 1))))
		return;
	for (i = first; i < last; i++)
		if (z->zones[i].zrwa)
			zone_program(c, nd, i, z->zones[i].wp,
				     z->zones[i].written, now, due_ns);
}

static u16 zone_send(struct vfn_ctrl *c, struct vfn_nsd *nd,
		     const struct vfn_io_req *r, struct vfn_cmd *out, u64 now)
{
	struct vfn_zoned *z = &nd->zns;
	u32 first = r->select_all ? 0 : vfn_zone_of(z, r->slba);
	u32 last = r->select_all ? z->nr_zones : first + 1;
	u16 sc;

	if (zone_send_zrwa(c, nd, r, out, now, &sc))
		return sc;
	if (r->zsa == VFN_ZSA_FINISH)
		zrwa_finish(c, nd, r, first, last, now, &out->due_ns);
	sc = vfn_zone_send(z, r->slba, r->zsa, r->select_all);
	zone_stats(c, nd);
	/* A Select All that failed part way may have reset some zones. */
	if ((r->zsa == VFN_ZSA_RESET || r->zsa == VFN_ZSA_OFFLINE) &&
	    !zones_discard(c, nd, first, last, now, &out->due_ns))
		return VFN_SC_ABANDONED;
	return sc;
}

/* Without extensions Invalid Field, before any transfer. */
static u16 zone_set_ext(struct vfn_ctrl *c, struct vfn_nsd *nd,
			const struct nvme_command *cmd,
			const struct vfn_io_req *r)
{
	struct vfn_zoned *z = &nd->zns;
	u16 sc;

	if (!z->ext_bytes)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	sc = vfn_map_data(c, cmd, z->ext_bytes);
	if (sc)
		return sc;
	vfn_buf_copy(&c->buf, c->zreport, false);
	return vfn_zone_set_ext(z, r->slba, c->zreport);
}

/**
 * vfn_zns_mgmt_send() - execute Zone Management Send
 * @c: the controller
 * @nd: the zoned namespace
 * @cmd: the command
 * @r: the command as vfn_zns_decode() decoded it
 * @out: its completion; its due time moves to the end of the erases and
 *	programs the action causes
 * @now: when it was fetched, on the backend's clock
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_zns_mgmt_send(struct vfn_ctrl *c, struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r, struct vfn_cmd *out,
		      u64 now)
{
	if (r->zsa == VFN_ZSA_SET_EXT)
		return zone_set_ext(c, nd, cmd, r);
	return zone_send(c, nd, r, out, now);
}

/**
 * vfn_zns_mgmt_recv() - execute Zone Management Receive: Report Zones or
 *	Extended Report Zones into the host's buffer
 * @c: the controller
 * @nd: the zoned namespace
 * @cmd: the command
 * @r: the command as vfn_zns_decode() decoded it
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_zns_mgmt_recv(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r)
{
	u16 sc = vfn_map_data(c, cmd, r->xfer_bytes);

	if (r->zsa == VFN_ZRA_EXT_REPORT && !nd->zns.ext_bytes)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (sc)
		return sc;
	if (r->zsa == VFN_ZRA_EXT_REPORT)
		vfn_zone_report_ext(&nd->zns, r->slba, r->zrasf, r->partial,
				    c->zreport, r->xfer_bytes);
	else
		vfn_zone_report(&nd->zns, r->slba, r->zrasf, r->partial,
				c->zreport, r->xfer_bytes);
	vfn_buf_to_host(&c->buf, c->zreport, r->xfer_bytes);
	return 0;
}

/*
 * Zone @zone goes on the Changed Zone List and, if enabled and none is
 * outstanding, a Zone Descriptor Changed event is reported.
 */
static void zone_changed(struct vfn_ctrl *c, struct vfn_nsd *nd, u32 zone)
{
	u64 zslba = (u64)zone * nd->zns.zsze;
	u32 i, n = min_t(u32, nd->nr_zones_changed, VFN_ZONES_CHANGED_MAX);

	for (i = 0; i < n; i++)
		if (nd->zones_changed[i] == zslba)
			goto notify;
	if (nd->nr_zones_changed < VFN_ZONES_CHANGED_MAX)
		nd->zones_changed[nd->nr_zones_changed] = zslba;
	/* One past the maximum means "more than the log holds". */
	if (nd->nr_zones_changed <= VFN_ZONES_CHANGED_MAX)
		nd->nr_zones_changed++;
notify:
	if (c->zone_aen_masked ||
	    !(c->feat.async_event & VFN_AEC_ZONE_CHANGED))
		return;
	c->zone_aen_masked = true;
	vfn_aen(c, NVME_AER_NOTICE | VFN_AER_ZONE_CHANGED << 8 |
		   VFN_LOG_CHANGED_ZONES << 16);
}

/**
 * vfn_zns_read_only() - a write to a read-only range of a zoned namespace
 * @c: the controller
 * @nd: the zoned namespace
 * @slba: the write's first block
 *
 * Its zone goes Read Only, reported on the Changed Zone List.
 *
 * Return: Zone Is Read Only, the write's status.
 */
u16 vfn_zns_read_only(struct vfn_ctrl *c, struct vfn_nsd *nd, u64 slba)
{
	u32 zone = vfn_zone_of(&nd->zns, slba);

	if (nd->zns.zones[zone].state != VFN_ZS_RDONLY &&
	    nd->zns.zones[zone].state != VFN_ZS_OFFLINE) {
		vfn_zone_set_read_only(&nd->zns, zone);
		zone_changed(c, nd, zone);
		vflash_flash_count(c->vdev->flash, VFLASH_STAT_ZONE_READ_ONLY,
				   1);
	}
	return VFN_SC(NVME_SC_ZONE_READ_ONLY);
}

/**
 * vfn_zones_recommend() - Finish and Reset Recommended, every zone
 * @c: the controller
 * @now: the model's time
 *
 * Zones that reached a limit go on the Changed Zone List. Dispatcher only.
 */
void vfn_zones_recommend(struct vfn_ctrl *c, u64 now)
{
	u32 nsid, i;

	for (nsid = 1; nsid <= VFN_MAX_NS; nsid++) {
		struct vfn_nsd *nd = vfn_ns_find(&c->nst, nsid, true);

		if (!nd || !nd->ns.zoned)
			continue;
		for (i = 0; i < nd->zns.nr_zones; i++)
			if (vfn_zone_recommend(&nd->zns, i, now))
				zone_changed(c, nd, i);
	}
}

/*
 * The active zoned namespace for log BFh. Return: it, or NULL with the
 * status in *@sc (Invalid Log Page, Invalid Namespace or Format, Invalid
 * Field).
 */
static struct vfn_nsd *zone_log_ns(struct vfn_ctrl *c,
				   const struct nvme_command *cmd, u16 *sc)
{
	u32 nsid = le32_to_cpu(cmd->common.nsid);
	struct vfn_nsd *nd;

	*sc = VFN_SC(NVME_SC_INVALID_LOG_PAGE);
	if (!vfn_nstab_zoned(&c->nst))
		return NULL;
	if (!vfn_nsid_valid(nsid)) {
		*sc = VFN_SC(NVME_SC_INVALID_NS);
		return NULL;
	}
	nd = vfn_ns_find(&c->nst, nsid, true);
	if (!nd)
		*sc = VFN_SC(NVME_SC_INVALID_FIELD);
	else if (nd->ns.zoned)
		*sc = 0;
	return *sc ? NULL : nd;
}

/**
 * vfn_zns_changed_zones_log() - the Changed Zone List (log BFh) into
 *	c->ident
 * @c: the controller
 * @cmd: the Get Log Page, its page, offset and length checked
 *
 * Read without RAE the list starts over.
 *
 * Return: 0, or the status zone_log_ns() gives (c->ident untouched).
 */
u16 vfn_zns_changed_zones_log(struct vfn_ctrl *c,
			      const struct nvme_command *cmd)
{
	u8 *log = c->ident;
	struct vfn_nsd *nd;
	u32 i, n;
	u16 sc;

	BUILD_BUG_ON(8 + VFN_ZONES_CHANGED_MAX * 8 != VFN_ZONE_LOG_BYTES);
	nd = zone_log_ns(c, cmd, &sc);
	if (sc)
		return sc;
	memset(c->ident, 0, VFN_ZONE_LOG_BYTES);
	n = nd->nr_zones_changed;
	put_unaligned_le16(n > VFN_ZONES_CHANGED_MAX ? 0xffff : n, log);
	for (i = 0; i < min_t(u32, n, VFN_ZONES_CHANGED_MAX); i++)
		put_unaligned_le64(nd->zones_changed[i], log + 8 + 8 * i);
	if (vfn_cdw(cmd, 10) & VFN_LOG_RAE)
		return 0;
	nd->nr_zones_changed = 0;
	c->zone_aen_masked = false;
	return 0;
}

/* A zone limit as MAR and MOR give it: 0's based, all ones for none. */
static __le32 zone_limit(u32 max)
{
	return cpu_to_le32(max ? max - 1 : U32_MAX);
}

/* The zoned namespace data's ZRWA fields (ZNS 1.1, byte offsets). */
#define ID_ZNS_OZCS_ZRWASUP	BIT(1)
#define ID_ZNS_NUMZRWA		44
#define ID_ZNS_ZRWAFG		48
#define ID_ZNS_ZRWAS		50
#define ID_ZNS_ZRWACAP		52
#define ZRWACAP_EXPFLUSHSUP	BIT(0)

/* Identify CNS 05h's ZRWA fields; all 0 without (@zrwas 0). */
static void identify_zrwa(void *ident, u32 zrwas, u32 zrwafg, u32 nr)
{
	struct nvme_id_ns_zns *id = ident;
	u8 *b = ident;

	if (!zrwas)
		return;
	id->ozcs |= cpu_to_le16(ID_ZNS_OZCS_ZRWASUP);
	put_unaligned_le32(nr - 1, b + ID_ZNS_NUMZRWA);
	put_unaligned_le16(zrwafg, b + ID_ZNS_ZRWAFG);
	put_unaligned_le16(zrwas, b + ID_ZNS_ZRWAS);
	b[ID_ZNS_ZRWACAP] = ZRWACAP_EXPFLUSHSUP;
}

/* CNS 05h's ZDES (64-byte units) and FRL/RRL (seconds); RRL1-3, FRL1-3 0. */
static void identify_zns_ext(struct nvme_id_ns_zns *id,
			     const struct vfn_zone_geo *g)
{
	id->lbafe[0].zdes = g->ext_bytes / VFN_ZONE_EXT_UNIT;
	id->rrl = cpu_to_le32(g->rrl_s);
	id->frl = cpu_to_le32(g->frl_s);
}

/**
 * vfn_zns_identify_ns() - Identify CNS 05h, CSI 02h, into c->ident (zeroed)
 * @c: the controller
 * @nd: the zoned namespace or, for NULL (NSID FFFFFFFFh), what every
 *	zoned namespace of the controller gets
 */
void vfn_zns_identify_ns(struct vfn_ctrl *c, const struct vfn_nsd *nd)
{
	struct nvme_id_ns_zns *id = c->ident;
	const struct vfn_zone_geo *g = &c->nst.zgeo;

	BUILD_BUG_ON(sizeof(*id) != 4096);
	/* Reads may cross zone boundaries (OZCS RAZB). */
	id->ozcs = cpu_to_le16(1);
	id->mar = zone_limit(nd ? nd->zns.max_active : g->max_active);
	id->mor = zone_limit(nd ? nd->zns.max_open : g->max_open);
	id->lbafe[0].zsze = cpu_to_le64(nd ? nd->zns.zsze : g->zsze);
	identify_zns_ext(id, g);
	identify_zrwa(c->ident, nd ? nd->zns.zrwas : g->zrwas,
		      nd ? nd->zns.zrwafg : g->zrwafg,
		      nd ? nd->zns.max_zrwa : g->nr_zrwa);
}

/**
 * vfn_zns_identify_ctrl() - Identify CNS 06h, CSI 02h, into c->ident
 *	(zeroed)
 * @c: the controller
 *
 * ZASL: Zone Append takes what MDTS allows.
 */
void vfn_zns_identify_ctrl(struct vfn_ctrl *c)
{
	((u8 *)c->ident)[0] = VFN_MDTS;
}

/**
 * vfn_zns_lost() - a power cut took back the write of device byte @pos
 * @c: the controller, powered off
 * @pos: a byte of the device
 *
 * Its zone is durable up to there at most (vfn_zone_lost()).
 */
void vfn_zns_lost(struct vfn_ctrl *c, u64 pos)
{
	u32 i;

	for (i = 0; i < VFN_MAX_NS; i++) {
		struct vfn_nsd *nd = &c->nst.nsd[i];
		u64 start = nd->ns.base << VFLASH_LPAGE_SHIFT;

		if (!nd->allocated || !nd->ns.zoned || pos < start ||
		    pos - start >= nd->ns.nsze << nd->ns.lba_shift)
			continue;
		vfn_zone_lost(&nd->zns, (pos - start) >> nd->ns.lba_shift);
		return;
	}
}

/**
 * vfn_zns_zrwa_cut() - a power cut and the ZRWA windows (device DRAM)
 * @c: the controller, powered off
 * @now: the instant of the cut
 *
 * With power-loss protection each window is flushed, without it is lost;
 * every ZRWA is given back.
 */
void vfn_zns_zrwa_cut(struct vfn_ctrl *c, u64 now)
{
	bool plp = READ_ONCE(c->vdev->faults.plp);
	u64 from, to, due = now;
	u32 i, z, n = 0;

	for (i = 0; i < VFN_MAX_NS; i++) {
		struct vfn_nsd *nd = &c->nst.nsd[i];

		for (z = 0; nd->allocated && nd->ns.zoned && nd->zns.nr_zrwa &&
		     z < nd->zns.nr_zones; z++) {
			if (!nd->zns.zones[z].zrwa)
				continue;
			n++;
			if (vfn_zone_zrwa_cut(&nd->zns, z, plp, &from, &to))
				zone_program(c, nd, z, from, to, now, &due);
		}
	}
	if (n)
		dev_info(&c->vdev->dev, "power cut: %u zones' ZRWA windows %s\n",
			 n, plp ? "flushed (plp)" : "lost");
}

static void cut_discard(struct vfn_ctrl *c, struct vfn_nsd *nd, u64 from,
			u64 to, u64 now)
{
	struct vfn_io_req r;
	u64 due = now;

	if (!vfn_lba_range(&nd->ns, from, to - from, &r))
		c->ops->discard(c, &r, now, &due, true, true);
	unmark(c, nd, max(from, to), (from / nd->zns.zsze + 1) * nd->zns.zsze);
}

/**
 * vfn_zns_cut() - after a power cut, every zone at its durable point
 * @c: the controller, powered off
 * @now: the instant of the cut
 *
 * A zone that lost a block reads zeros from there on, with no marks, and
 * is Empty or Closed (vfn_zone_cut()).
 */
void vfn_zns_cut(struct vfn_ctrl *c, u64 now)
{
	u64 from, to;
	u32 i, z, moved = 0;

	for (i = 0; i < VFN_MAX_NS; i++) {
		struct vfn_nsd *nd = &c->nst.nsd[i];

		for (z = 0; nd->allocated && nd->ns.zoned &&
		     z < nd->zns.nr_zones; z++) {
			if (!vfn_zone_cut(&nd->zns, z, &from, &to))
				continue;
			cut_discard(c, nd, from, to, now);
			moved++;
		}
	}
	if (moved)
		dev_info(&c->vdev->dev, "power cut: %u zones' write pointers back at their durable point\n",
			 moved);
}

static unsigned int zoned;
module_param(zoned, uint, 0444);
MODULE_PARM_DESC(zoned,
		 "NVMe: 1 makes namespace 1 a zoned namespace (NVMe ZNS), 0 a conventional one (default 0)");

static char *zone_size;
module_param(zone_size, charp, 0444);
MODULE_PARM_DESC(zone_size,
		 "NVMe, zoned namespaces (zoned=1, Namespace Management): zone size in bytes (K, M, G suffixes), a power of two from 64K (default 16M)");

static char *zone_cap;
module_param(zone_cap, charp, 0444);
MODULE_PARM_DESC(zone_cap,
		 "NVMe, zoned namespaces: writable bytes of each zone, a multiple of the block size up to zone_size (default zone_size)");

static unsigned int zone_max_open;
module_param(zone_max_open, uint, 0444);
MODULE_PARM_DESC(zone_max_open,
		 "NVMe, zoned namespaces: most zones open at once, 0 for no limit (default 0; with zone_max_active, at most that)");

static unsigned int zone_max_active;
module_param(zone_max_active, uint, 0444);
MODULE_PARM_DESC(zone_max_active,
		 "NVMe, zoned namespaces: most zones open or closed at once, 0 for no limit (default 0)");

static unsigned int zone_ext_bytes;
module_param(zone_ext_bytes, uint, 0444);
MODULE_PARM_DESC(zone_ext_bytes,
		 "NVMe, zoned namespaces: zone descriptor extension size in bytes (ZDES), a multiple of 64 up to 16320, 0 for none (default 0)");

static unsigned int zone_frl_s;
module_param(zone_frl_s, uint, 0444);
MODULE_PARM_DESC(zone_frl_s,
		 "NVMe, zoned namespaces: Finish Recommended Limit in seconds (FRL): an open or closed zone that old gets Finish Zone Recommended, 0 for none (default 0)");

static unsigned int zone_rrl_s;
module_param(zone_rrl_s, uint, 0444);
MODULE_PARM_DESC(zone_rrl_s,
		 "NVMe, zoned namespaces: Reset Recommended Limit in seconds (RRL): an open, closed or full zone that old gets Reset Zone Recommended, 0 for none (default 0)");

static unsigned int zone_zrwa;
module_param(zone_zrwa, uint, 0444);
MODULE_PARM_DESC(zone_zrwa,
		 "NVMe, zoned namespaces: 1 gives them a Zone Random Write Area (ZRWA: Open with ZRWAA, writes anywhere in a window, flushes), 0 none (default 0)");

static char *zone_zrwa_size;
module_param(zone_zrwa_size, charp, 0444);
MODULE_PARM_DESC(zone_zrwa_size,
		 "NVMe, zone_zrwa=1: the ZRWA window (ZRWAS) in bytes (K, M suffixes), a multiple of zone_zrwa_fg up to zone_cap and 65535 blocks (default 64K)");

static char *zone_zrwa_fg;
module_param(zone_zrwa_fg, charp, 0444);
MODULE_PARM_DESC(zone_zrwa_fg,
		 "NVMe, zone_zrwa=1: the ZRWA flush granularity (ZRWAFG) in bytes (K suffix), a multiple of the block size (default 16K)");

static unsigned int zone_zrwa_nr;
module_param(zone_zrwa_nr, uint, 0444);
MODULE_PARM_DESC(zone_zrwa_nr,
		 "NVMe, zone_zrwa=1: ZRWA resources per zoned namespace (NUMZRWA + 1), at most zone_max_active; 0 for the active limit, 16 without one (default 0)");

#define DEFAULT_ZONE_SIZE	"16M"
#define MIN_ZONE_BYTES		(64U << 10)
#define DEFAULT_ZRWA_SIZE	"64K"
#define DEFAULT_ZRWA_FG		"16K"
#define DEFAULT_ZRWA_NR		16U

/**
 * vfn_zns_params_load() - the ZNS module parameters
 * @p: filled with their values
 */
void vfn_zns_params_load(struct vfn_zns_params *p)
{
	*p = (struct vfn_zns_params) {
		.zoned = zoned,
		.zone_size = zone_size,
		.zone_cap = zone_cap,
		.zone_max_open = zone_max_open,
		.zone_max_active = zone_max_active,
		.zone_ext_bytes = zone_ext_bytes,
		.zone_frl_s = zone_frl_s,
		.zone_rrl_s = zone_rrl_s,
		.zone_zrwa = zone_zrwa,
		.zone_zrwa_size = zone_zrwa_size,
		.zone_zrwa_fg = zone_zrwa_fg,
		.zone_zrwa_nr = zone_zrwa_nr,
	};
}

/**
 * vfn_zns_arg() - where a ZNS parameter's value goes
 * @p: the parameters
 * @arg: the parameter
 * @a: filled with its name and field of @p
 *
 * Return: false if @arg is not a ZNS parameter.
 */
bool vfn_zns_arg(struct vfn_zns_params *p, enum vflash_fe_arg arg,
		 struct vfn_arg *a)
{
	switch (arg) {
	case VFLASH_ARG_ZONED:
		return vfn_arg_uint(a, "zoned", &p->zoned);
	case VFLASH_ARG_ZONE_SIZE:
		return vfn_arg_str(a, "zone_size", &p->zone_size);
	case VFLASH_ARG_ZONE_CAP:
		return vfn_arg_str(a, "zone_cap", &p->zone_cap);
	case VFLASH_ARG_ZONE_MAX_OPEN:
		return vfn_arg_uint(a, "zone_max_open", &p->zone_max_open);
	case VFLASH_ARG_ZONE_MAX_ACTIVE:
		return vfn_arg_uint(a, "zone_max_active", &p->zone_max_active);
	case VFLASH_ARG_ZONE_EXT_BYTES:
		return vfn_arg_uint(a, "zone_ext_bytes", &p->zone_ext_bytes);
	case VFLASH_ARG_ZONE_FRL_S:
		return vfn_arg_uint(a, "zone_frl_s", &p->zone_frl_s);
	case VFLASH_ARG_ZONE_RRL_S:
		return vfn_arg_uint(a, "zone_rrl_s", &p->zone_rrl_s);
	case VFLASH_ARG_ZONE_ZRWA:
		return vfn_arg_uint(a, "zone_zrwa", &p->zone_zrwa);
	case VFLASH_ARG_ZONE_ZRWA_SIZE:
		return vfn_arg_str(a, "zone_zrwa_size", &p->zone_zrwa_size);
	case VFLASH_ARG_ZONE_ZRWA_FG:
		return vfn_arg_str(a, "zone_zrwa_fg", &p->zone_zrwa_fg);
	case VFLASH_ARG_ZONE_ZRWA_NR:
		return vfn_arg_uint(a, "zone_zrwa_nr", &p->zone_zrwa_nr);
	default:
		return false;
	}
}

static int check_bytes(const char *name, const char *val)
{
	u64 bytes;

	if (!val || !*val)
		return 0;
	if (vflash_parse_bytes(val, &bytes) || !bytes) {
		pr_err("%s=%s: not a size in bytes\n", name, val);
		return -EINVAL;
	}
	return 0;
}

/**
 * vfn_zns_check_arg() - check one ZNS parameter on its own
 * @p: the parameters
 * @arg: the parameter; any other is left alone
 *
 * Return: 0, or -EINVAL after one dmesg line naming it.
 */
int vfn_zns_check_arg(const struct vfn_zns_params *p, enum vflash_fe_arg arg)
{
	u64 bytes;

	switch (arg) {
	case VFLASH_ARG_ZONED:
		if (p->zoned <= 1)
			return 0;
		pr_err("zoned=%u: must be 0 or 1\n", p->zoned);
		return -EINVAL;
	case VFLASH_ARG_ZONE_SIZE:
		if (!p->zone_size || !*p->zone_size)
			return 0;
		if (vflash_parse_bytes(p->zone_size, &bytes) ||
		    bytes < MIN_ZONE_BYTES || !is_power_of_2(bytes)) {
			pr_err("zone_size=%s: must be a power of two from 64K\n",
			       p->zone_size);
			return -EINVAL;
		}
		return 0;
	case VFLASH_ARG_ZONE_CAP:
		return check_bytes("zone_cap", p->zone_cap);
	case VFLASH_ARG_ZONE_EXT_BYTES:
		if (!(p->zone_ext_bytes % VFN_ZONE_EXT_UNIT) &&
		    p->zone_ext_bytes <= VFN_ZONE_EXT_MAX)
			return 0;
		pr_err("zone_ext_bytes=%u: must be a multiple of %u up to %u\n",
		       p->zone_ext_bytes, VFN_ZONE_EXT_UNIT, VFN_ZONE_EXT_MAX);
		return -EINVAL;
	case VFLASH_ARG_ZONE_ZRWA:
		if (p->zone_zrwa <= 1)
			return 0;
		pr_err("zone_zrwa=%u: must be 0 or 1\n", p->zone_zrwa);
		return -EINVAL;
	case VFLASH_ARG_ZONE_ZRWA_SIZE:
		return check_bytes("zone_zrwa_size", p->zone_zrwa_size);
	case VFLASH_ARG_ZONE_ZRWA_FG:
		return check_bytes("zone_zrwa_fg", p->zone_zrwa_fg);
	default:
		return 0;
	}
}

/**
 * vfn_zns_write_streams() - the FTL write streams zoned= asks for
 * @p: the parameters
 *
 * Return: handle 0 and one for each of 15 active zones with zoned=1
 * (docs/design/zns.md), else 0.
 */
u32 vfn_zns_write_streams(const struct vfn_zns_params *p)
{
	return p->zoned == 1 ? VFLASH_FLASH_MAX_PLACEMENT : 0;
}

/* The ZRWA geometry (zone_zrwa=1), checked against the zones and limits. */
static int zrwa_geometry(const struct vfn_zns_params *p, u8 shift,
			 struct vfn_zone_geo *zg)
{
	u64 size, fg, blk = 1ULL << shift;
	u32 nr = p->zone_zrwa_nr;

	if (!p->zone_zrwa)
		return 0;
	vflash_parse_bytes(p->zone_zrwa_size && *p->zone_zrwa_size ?
			   p->zone_zrwa_size : DEFAULT_ZRWA_SIZE, &size);
	vflash_parse_bytes(p->zone_zrwa_fg && *p->zone_zrwa_fg ?
			   p->zone_zrwa_fg : DEFAULT_ZRWA_FG, &fg);
	if (fg & (blk - 1) || fg >> shift > U16_MAX) {
		pr_err("zone_zrwa_fg=%llu: must be a multiple of the %llu-byte block, at most 65535 blocks\n",
		       fg, blk);
		return -EINVAL;
	}
	if (size % fg || size >> shift > U16_MAX || size >> shift > zg->zcap) {
		pr_err("zone_zrwa_size=%llu: must be a multiple of zone_zrwa_fg (%llu), at most zone_cap (%llu) and 65535 blocks\n",
		       size, fg, zg->zcap << shift);
		return -EINVAL;
	}
	if (!nr)
		nr = zg->max_active ? zg->max_active : DEFAULT_ZRWA_NR;
	if (zg->max_active && nr > zg->max_active) {
		pr_err("zone_zrwa_nr=%u: more than zone_max_active (%u)\n",
		       nr, zg->max_active);
		return -EINVAL;
	}
	zg->zrwas = size >> shift;
	zg->zrwafg = fg >> shift;
	zg->nr_zrwa = nr;
	return 0;
}

/* The zones of every zoned namespace, checked against the block size. */
static int zone_geometry(const struct vflash_profile *prof,
			 const struct vfn_zns_params *p, u8 shift,
			 struct vfn_zone_geo *zg)
{
	u32 max_active = p->zone_max_active;
	u32 max_open = p->zone_max_open;
	u64 zsze = 0, zcap = 0;

	if (p->zone_size && *p->zone_size)
		vflash_parse_bytes(p->zone_size, &zsze);
	else if (prof->zone_bytes)
		zsze = prof->zone_bytes;
	else
		vflash_parse_bytes(DEFAULT_ZONE_SIZE, &zsze);
	if (p->zone_cap && *p->zone_cap)
		vflash_parse_bytes(p->zone_cap, &zcap);
	else if (prof->zone_cap_bytes && zsze == prof->zone_bytes)
		zcap = prof->zone_cap_bytes;
	if (!zcap)
		zcap = zsze;
	if (!max_active)
		max_active = prof->zone_max_active;
	if (zcap > zsze || zcap & ((1ULL << shift) - 1)) {
		pr_err("zone_cap=%llu: must be a multiple of the %u-byte block, at most zone_size (%llu)\n",
		       zcap, 1U << shift, zsze);
		return -EINVAL;
	}
	if (max_active && max_open > max_active) {
		pr_err("zone_max_open=%u: more than zone_max_active (%u)\n",
		       max_open, max_active);
		return -EINVAL;
	}
	/* MOR may not exceed MAR: no open limit of its own, the active one. */
	if (!max_open)
		max_open = max_active;
	*zg = (struct vfn_zone_geo) {
		.zsze = zsze >> shift, .zcap = zcap >> shift,
		.max_active = max_active, .max_open = max_open,
		.ext_bytes = p->zone_ext_bytes,
		.frl_s = p->zone_frl_s, .rrl_s = p->zone_rrl_s,
	};
	return zrwa_geometry(p, shift, zg);
}

/**
 * vfn_zns_setup() - the zones of every zoned namespace @c makes
 * @c: the controller, not yet started
 * @p: the parameters
 * @shift: log2 of the block size
 * @ns1: bytes of namespace 1 of the load
 * @size: bytes of the device
 * @zg: filled with the zone geometry
 *
 * With zoned=1, also lends the FTL's handles 1 and up to active zones.
 *
 * Return: 0, or -EINVAL after one dmesg line naming the parameter at fault.
 */
int vfn_zns_setup(struct vfn_ctrl *c, const struct vfn_zns_params *p,
		  u8 shift, u64 ns1, u64 size, struct vfn_zone_geo *zg)
{
	struct vflash_flash *f = c->vdev->flash;
	int ret;

	ret = zone_geometry(c->vdev->cfg.profile, p, shift, zg);
	if (ret || !p->zoned)
		return ret;
	vflash_flash_set_zone_handles(f, true);
	if (vflash_flash_zone_handles(f))
		c->nr_zph = vflash_flash_placement_handles(f);
	if (zg->zsze << shift > ns1) {
		pr_err("zone_size=%llu: larger than the %s (%llu bytes)\n",
		       zg->zsze << shift, ns1 == size ? "device" : "namespace",
		       ns1);
		return -EINVAL;
	}
	return 0;
}
