// SPDX-License-Identifier: GPL-2.0
/*
 * Flexible Data Placement (TP4146; docs/design/fdp.md): configuration,
 * events, logs 20h-23h, features 1Dh and 1Eh, placement directives and
 * I/O Management on the controller.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/nvme.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "core/compat.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define SC(x)			VFN_SC(x)

/* Log 20h: header, one configuration descriptor, a RUH descriptor each. */
#define CFG_HDR_BYTES		16
#define CFG_DESC_BYTES		64
#define CFG_RUH_BYTES		4
/* FDP Attributes: the descriptor is valid; a volatile write cache. */
#define FDPA_VALID		BIT(7)
#define FDPA_FDPVWC		BIT(4)
#define RUHT_INITIALLY_ISOLATED	0x1
/* Log 21h: header, a usage descriptor per handle. */
#define USAGE_HDR_BYTES		8
#define USAGE_DESC_BYTES	8
/* Log 23h: the event count, then events from byte 64. */
#define EVENTS_HDR_BYTES	64
/* RUH Status: header, a 32-byte descriptor per handle. */
#define RUHS_HDR_BYTES		16
#define RUHS_DESC_BYTES		32
/* Features 1Dh: CDW12 (Set) and the result (Get). */
#define FDP_FDPE		BIT(0)
#define FDP_IDX(x)		(((x) >> 8) & 0xff)
/* Features 1Eh: CDW11 placement handle and event type count, CDW12. */
#define EV_PHNDL(x)		((x) & 0xffff)
#define EV_NOET(x)		(((x) >> 16) & 0xff)
#define EV_ENABLE		BIT(0)
/* Get Log Page CDW11 bits 31:16: Log Specific Identifier. */
#define LOG_LSI(x)		((x) >> 16)

/* The event types vflash reports, and their bit in vfn_fdp.ev_enabled. */
static const u8 ev_types[] = { VFN_FDP_EVT_RU_NOT_FULL,
			       VFN_FDP_EVT_INVALID_PID,
			       VFN_FDP_EVT_MEDIA_REALLOC,
			       VFN_FDP_EVT_IMPLICIT_RUH };

static int ev_bit(u8 type)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ev_types); i++)
		if (ev_types[i] == type)
			return i;
	return -1;
}

/**
 * vfn_fdp_events_default() - every supported event enabled on every handle
 * @fdp: the FDP state
 *
 * The state at power-on and after every controller reset.
 */
void vfn_fdp_events_default(struct vfn_fdp *fdp)
{
	memset(fdp->ev_enabled, (1 << ARRAY_SIZE(ev_types)) - 1,
	       sizeof(fdp->ev_enabled));
}

/**
 * vfn_fdp_init() - FDP on (or off) for a controller
 * @fdp: the state to set up
 * @nruh: reclaim unit handles, 1 to VFN_FDP_MAX_RUH; 0 for FDP off
 * @runs_bytes: reclaim unit nominal size
 */
void vfn_fdp_init(struct vfn_fdp *fdp, u16 nruh, u64 runs_bytes)
{
	memset(fdp, 0, sizeof(*fdp));
	fdp->nruh = min_t(u16, nruh, VFN_FDP_MAX_RUH);
	fdp->runs_bytes = runs_bytes;
	vfn_fdp_events_default(fdp);
}

/* The oldest event makes room; NULL if @type is not enabled on @ruh. */
static struct vfn_fdp_event *new_event(struct vfn_fdp *fdp, u8 type,
				       u8 flags, u16 pid, u16 ruh, u32 nsid,
				       u64 ms)
{
	struct vfn_fdp_ring *ring = type >= VFN_FDP_EVT_CTRL ? &fdp->ctrl :
							       &fdp->host;
	struct vfn_fdp_event *e;
	int bit = ev_bit(type);

	if (bit < 0 || ruh >= fdp->nruh || !(fdp->ev_enabled[ruh] & BIT(bit)))
		return NULL;
	e = &ring->ev[ring->next];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->flags = flags;
	e->pid = cpu_to_le16(pid);
	e->timestamp = cpu_to_le64(ms & GENMASK_ULL(47, 0));
	e->nsid = cpu_to_le32(nsid);
	e->ruhid = ruh;
	ring->next = (ring->next + 1) % VFN_FDP_EVENTS;
	ring->nr = min(ring->nr + 1, (u32)VFN_FDP_EVENTS);
	return e;
}

/**
 * vfn_fdp_event() - log an event, if it is enabled on its handle
 * @fdp: the FDP state
 * @type: the event type: a host event (below 80h) or a controller event
 * @flags: VFN_FDP_EVF_*
 * @pid: the placement identifier it concerns
 * @ruh: the reclaim unit handle it concerns
 * @nsid: the namespace it concerns
 * @ms: the controller's time, in milliseconds
 *
 * Host and controller events are kept apart, the newest VFN_FDP_EVENTS
 * of each.
 *
 * Return: true if it was logged.
 */
bool vfn_fdp_event(struct vfn_fdp *fdp, u8 type, u8 flags, u16 pid,
		   u16 ruh, u32 nsid, u64 ms)
{
	return new_event(fdp, type, flags, pid, ruh, nsid, ms);
}

/**
 * vfn_fdp_media_reallocated() - log a Media Reallocated event (80h), if
 *	it is enabled on its handle
 * @fdp: the FDP state
 * @ruh: the reclaim unit handle whose reclaim units held the data the
 *	device moved (RUHID, LV)
 * @pid: the placement identifier of @nsid that names @ruh (PIV), or -1
 *	for none
 * @nlbam: the logical blocks moved; FFFFh stands for FFFFh or more
 * @nsid: the namespace of @lba, or 0 for none (NSIDV clear)
 * @lbav: @lba is one of the blocks moved (LBAV)
 * @lba: that block, in @nsid
 * @ms: the controller's time, in milliseconds
 *
 * Every handle is initially isolated, so every move of the host's data
 * to another reclaim unit (GC included) qualifies for this event.
 *
 * Return: true if it was logged.
 */
bool vfn_fdp_media_reallocated(struct vfn_fdp *fdp, u16 ruh, int pid,
			       u64 nlbam, u32 nsid, bool lbav, u64 lba, u64 ms)
{
	struct vfn_fdp_event *e;
	u8 flags = VFN_FDP_EVF_LV | (pid >= 0 ? VFN_FDP_EVF_PIV : 0) |
		   (nsid ? VFN_FDP_EVF_NSIDV : 0);

	e = new_event(fdp, VFN_FDP_EVT_MEDIA_REALLOC, flags,
		      pid >= 0 ? pid : 0, ruh, nsid, ms);
	if (!e)
		return false;
	e->type_specific[0] = lbav ? VFN_FDP_REALLOC_LBAV : 0;
	put_unaligned_le16(min_t(u64, nlbam, VFN_FDP_NLBAM_MAX),
			   e->type_specific + 2);
	put_unaligned_le64(lbav ? lba : 0, e->type_specific + 4);
	return true;
}

/**
 * vfn_fdp_handle() - the reclaim unit handle a placed write goes to
 * @fdp: the FDP state
 * @ns: the write's namespace
 * @pid: the write's placement identifier (DSPEC)
 * @ms: the controller's time, for the event
 *
 * With one reclaim group the identifier indexes the namespace's Placement
 * Handle List. One past its handles is not an error: placement handle 0,
 * and an Invalid Placement Identifier event.
 *
 * Return: the reclaim unit handle.
 */
u16 vfn_fdp_handle(struct vfn_fdp *fdp, const struct vfn_ns *ns, u16 pid,
		   u64 ms)
{
	if (pid < ns->nr_ph)
		return ns->ruh[pid];
	vfn_fdp_event(fdp, VFN_FDP_EVT_INVALID_PID,
		      VFN_FDP_EVF_PIV | VFN_FDP_EVF_NSIDV | VFN_FDP_EVF_LV,
		      pid, ns->ruh[0], ns->id, ms);
	return ns->ruh[0];
}

/**
 * vfn_fdp_configs_log() - log 20h, FDP Configurations
 * @fdp: the FDP state (on)
 * @buf: VFN_FDP_LOG_BYTES, zeroed
 *
 * Return: the log's size.
 */
u32 vfn_fdp_configs_log(const struct vfn_fdp *fdp, void *buf)
{
	u32 desc = CFG_DESC_BYTES + CFG_RUH_BYTES * fdp->nruh;
	u32 size = CFG_HDR_BYTES + desc;
	u8 *d = buf + CFG_HDR_BYTES;
	u32 i;

	put_unaligned_le16(0, buf);		/* NUMFDPC, 0's based */
	put_unaligned_le32(size, buf + 4);
	put_unaligned_le16(desc, d);
	d[2] = FDPA_VALID | FDPA_FDPVWC;	/* RGIF 0 */
	put_unaligned_le32(1, d + 4);		/* NRG */
	put_unaligned_le16(fdp->nruh, d + 8);
	/* MAXPIDS: a namespace's list may name every handle. */
	put_unaligned_le16(fdp->nruh - 1, d + 10);
	/* NNSS: every namespace the controller can make may use it. */
	put_unaligned_le32(VFN_MAX_NS, d + 12);
	put_unaligned_le64(fdp->runs_bytes, d + 16);
	/* ERUTL 0: reclaim units have no time limit. */
	for (i = 0; i < fdp->nruh; i++)
		d[CFG_DESC_BYTES + i * CFG_RUH_BYTES] = RUHT_INITIALLY_ISOLATED;
	return size;
}

/**
 * vfn_fdp_usage_log() - log 21h, Reclaim Unit Handle Usage
 * @fdp: the FDP state (on)
 * @buf: VFN_FDP_LOG_BYTES, zeroed
 * @ruha: per reclaim unit handle, its attributes (ruh_usage())
 *
 * Return: the log's size.
 */
u32 vfn_fdp_usage_log(const struct vfn_fdp *fdp, void *buf, const u8 *ruha)
{
	u8 *p = buf;
	u32 i;

	put_unaligned_le16(fdp->nruh, p);
	for (i = 0; i < fdp->nruh; i++)
		p[USAGE_HDR_BYTES + i * USAGE_DESC_BYTES] = ruha[i];
	return USAGE_HDR_BYTES + USAGE_DESC_BYTES * fdp->nruh;
}

/**
 * vfn_fdp_stats_log() - log 22h, FDP Statistics
 * @buf: VFN_FDP_LOG_BYTES, zeroed
 * @hbmw: host bytes with metadata written
 * @mbmw: media bytes with metadata written
 * @mbe: media bytes erased
 *
 * Return: the log's size.
 */
u32 vfn_fdp_stats_log(void *buf, u64 hbmw, u64 mbmw, u64 mbe)
{
	/* 128-bit little-endian counters: the high halves stay 0. */
	put_unaligned_le64(hbmw, buf);
	put_unaligned_le64(mbmw, buf + 16);
	put_unaligned_le64(mbe, buf + 32);
	return 64;
}

/**
 * vfn_fdp_events_log() - log 23h, FDP Events
 * @fdp: the FDP state (on)
 * @buf: VFN_FDP_LOG_BYTES, zeroed
 * @ctrl: the controller events (LSP bit 0 clear) rather than the host
 *	ones
 *
 * Oldest event first.
 *
 * Return: the log's size.
 */
u32 vfn_fdp_events_log(const struct vfn_fdp *fdp, void *buf, bool ctrl)
{
	const struct vfn_fdp_ring *ring = ctrl ? &fdp->ctrl : &fdp->host;
	u32 n = ring->nr, i;
	u32 first = (ring->next + VFN_FDP_EVENTS - n) % VFN_FDP_EVENTS;

	BUILD_BUG_ON(sizeof(struct vfn_fdp_event) != 64);
	BUILD_BUG_ON(EVENTS_HDR_BYTES + 64 * VFN_FDP_EVENTS != VFN_FDP_LOG_BYTES);
	put_unaligned_le32(n, buf);
	for (i = 0; i < n; i++)
		memcpy(buf + EVENTS_HDR_BYTES + i * 64,
		       &ring->ev[(first + i) % VFN_FDP_EVENTS], 64);
	return EVENTS_HDR_BYTES + 64 * n;
}

/**
 * vfn_fdp_check_lsi() - is a Get Log Page of an FDP log for our group?
 * @fdp: the FDP state
 * @cdw11: the command's CDW11 (LSI in bits 31:16)
 *
 * Return: 0, Invalid Log Page without FDP, Invalid Field for another
 * endurance group.
 */
u16 vfn_fdp_check_lsi(const struct vfn_fdp *fdp, u32 cdw11)
{
	if (!fdp->nruh)
		return SC(NVME_SC_INVALID_LOG_PAGE);
	if (LOG_LSI(cdw11) != VFN_FDP_ENDGID)
		return SC(NVME_SC_INVALID_FIELD);
	return 0;
}

/**
 * vfn_fdp_feature() - Get or Set Features 1Dh, Flexible Data Placement
 * @fdp: the FDP state
 * @set: Set Features
 * @cdw11: the endurance group in bits 15:0
 * @cdw12: Set: FDPE (bit 0) and the configuration index (bits 15:8)
 * @result: Get: the current value (FDPE 1, configuration 0)
 *
 * FDP is on from power-on; a change is Command Sequence Error, since
 * namespace 1 exists in the endurance group.
 *
 * Return: 0 or the status.
 */
u16 vfn_fdp_feature(const struct vfn_fdp *fdp, bool set, u32 cdw11,
		    u32 cdw12, u32 *result)
{
	*result = 0;
	if (!fdp->nruh || (cdw11 & 0xffff) != VFN_FDP_ENDGID)
		return SC(NVME_SC_INVALID_FIELD);
	if (!set) {
		*result = FDP_FDPE;
		return 0;
	}
	if (FDP_IDX(cdw12))
		return SC(NVME_SC_INVALID_FIELD);
	if (!(cdw12 & FDP_FDPE))
		return SC(NVME_SC_CMD_SEQ_ERROR);
	return 0;
}

/**
 * vfn_fdp_events_get() - Get Features 1Eh, FDP Events
 * @fdp: the FDP state
 * @cdw11: the placement handle (bits 15:0) and the most descriptors to
 *	return (bits 23:16)
 * @buf: receives the descriptors: the type, then bit 0 enabled
 * @len: receives the data's length: 2 bytes per descriptor asked for
 * @result: receives the descriptors returned
 *
 * Return: 0, or Invalid Field (FDP off, a handle past the last).
 */
u16 vfn_fdp_events_get(const struct vfn_fdp *fdp, u32 cdw11, u8 *buf,
		       u32 *len, u32 *result)
{
	u32 ph = EV_PHNDL(cdw11), n = min_t(u32, EV_NOET(cdw11),
					    ARRAY_SIZE(ev_types)), i;

	*len = 0;
	*result = 0;
	if (!fdp->nruh || ph >= fdp->nruh)
		return SC(NVME_SC_INVALID_FIELD);
	for (i = 0; i < n; i++) {
		buf[2 * i] = ev_types[i];
		buf[2 * i + 1] = !!(fdp->ev_enabled[ph] & BIT(i));
	}
	*len = 2 * EV_NOET(cdw11);
	*result = n;
	return 0;
}

/**
 * vfn_fdp_events_set() - Set Features 1Eh, FDP Events
 * @fdp: the FDP state
 * @cdw11: the placement handle (bits 15:0) and the types listed (23:16)
 * @cdw12: bit 0: enable them, else disable
 * @types: the listed event types, a byte each
 *
 * All or nothing: one unsupported type changes nothing.
 *
 * Return: 0, or Invalid Field (FDP off, a handle past the last, a type
 * vflash does not report).
 */
u16 vfn_fdp_events_set(struct vfn_fdp *fdp, u32 cdw11, u32 cdw12,
		       const u8 *types)
{
	u32 ph = EV_PHNDL(cdw11), n = EV_NOET(cdw11), i;
	u8 mask = 0;

	if (!fdp->nruh || ph >= fdp->nruh)
		return SC(NVME_SC_INVALID_FIELD);
	for (i = 0; i < n; i++) {
		int bit = ev_bit(types[i]);

		if (bit < 0)
			return SC(NVME_SC_INVALID_FIELD);
		mask |= BIT(bit);
	}
	if (cdw12 & EV_ENABLE)
		fdp->ev_enabled[ph] |= mask;
	else
		fdp->ev_enabled[ph] &= ~mask;
	return 0;
}

/**
 * vfn_fdp_ruh_status() - Reclaim Unit Handle Status (I/O Management
 *	Receive) of a namespace
 * @ns: the namespace (FDP)
 * @buf: at least RUHS_HDR_BYTES + 32 x VFN_FDP_MAX_RUH bytes, zeroed
 * @room_blocks: per reclaim unit handle of the configuration, the logical
 *	blocks its reclaim unit can still take (RUAMW)
 *
 * A descriptor per placement handle of the namespace.
 *
 * Return: the data's size.
 */
u32 vfn_fdp_ruh_status(const struct vfn_ns *ns, void *buf,
		       const u64 *room_blocks)
{
	u32 i;

	put_unaligned_le16(ns->nr_ph, buf + 14);
	for (i = 0; i < ns->nr_ph; i++) {
		u8 *d = buf + RUHS_HDR_BYTES + i * RUHS_DESC_BYTES;

		put_unaligned_le16(i, d);		/* PID */
		put_unaligned_le16(ns->ruh[i], d + 2);	/* RUHID */
		/* EARUTR 0: no time limit. */
		put_unaligned_le64(room_blocks[ns->ruh[i]], d + 8);
	}
	return RUHS_HDR_BYTES + RUHS_DESC_BYTES * ns->nr_ph;
}

/**
 * vfn_fdp_check_pids() - a Reclaim Unit Handle Update's identifiers
 * @ns: the namespace the command names
 * @pids: the placement identifiers, as the host sent them
 * @nr: how many
 *
 * Return: 0 if every one names a placement handle of @ns, else Invalid
 * Field.
 */
u16 vfn_fdp_check_pids(const struct vfn_ns *ns, const __le16 *pids, u32 nr)
{
	u32 i;

	for (i = 0; i < nr; i++)
		if (le16_to_cpu(pids[i]) >= ns->nr_ph)
			return SC(NVME_SC_INVALID_FIELD);
	return 0;
}

/* I/O Management: CDW10 bits 7:0 the operation, 31:16 its specific field. */
#define IOM_MO(cdw10)		((cdw10) & 0xff)
#define IOM_MOS(cdw10)		((cdw10) >> 16)

/**
 * vfn_fdp_decode_directive() - decode a write's directive
 * @cmd: a Write, Write Zeroes or Copy
 * @ns: its namespace
 * @req: the decoded command: @req->placed and @req->pid
 *
 * Only the placement directive (DTYPE 2h) of an FDP namespace, else
 * Invalid Field; the identifier is checked by vfn_fdp_handle().
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_fdp_decode_directive(const struct nvme_command *cmd,
			     const struct vfn_ns *ns, struct vfn_io_req *req)
{
	u32 dtype = VFN_RW_DTYPE(vfn_cdw(cmd, 12));

	if (!dtype)
		return 0;
	if (dtype != VFN_DTYPE_PLACEMENT || !ns->nr_ph)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	req->placed = true;
	req->pid = VFN_RW_DSPEC(vfn_cdw(cmd, 13));
	return 0;
}

/**
 * vfn_fdp_decode() - decode I/O Management Receive or Send
 * @cmd: the command, of an active FDP namespace
 * @ns: that namespace
 * @req: the decoded command (zeroed by vfn_io_decode(), opcode set)
 *
 * Counts are 0's based: Receive's CDW11 at most MDTS, Send's MOS at most
 * the namespace's placement handles.
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_fdp_decode(const struct nvme_command *cmd, const struct vfn_ns *ns,
		   struct vfn_io_req *req)
{
	u32 cdw10 = vfn_cdw(cmd, 10);
	u64 bytes;

	if (req->opcode == VFN_CMD_IO_MGMT_RECV) {
		bytes = ((u64)vfn_cdw(cmd, 11) + 1) * 4;
		if (IOM_MO(cdw10) != VFN_IOMR_RUH_STATUS ||
		    bytes > VFN_MAX_XFER_BYTES)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		req->xfer_bytes = bytes;
		return 0;
	}
	req->nr_pids = IOM_MOS(cdw10) + 1;
	if (IOM_MO(cdw10) != VFN_IOMS_RUH_UPDATE || req->nr_pids > ns->nr_ph)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	req->xfer_bytes = req->nr_pids * sizeof(__le16);
	return 0;
}

/* FDP on the controller. Dispatcher only, as the FDP state. */

/* Get Log Page LSP bit 0 (CDW10 bit 8): FDP Events' host events. */
#define LOG_LSP_HOST		BIT(8)
/* Controller attributes: endurance groups, Flexible Data Placement. */
#define CTRATT_ENDGS		BIT(4)
#define CTRATT_FDPS		BIT(19)
/* Identify Controller: ENDGIDMAX, bytes 341:340. */
#define ID_CTRL_ENDGIDMAX	340
#define FDP_SYNC_NS		(10 * NSEC_PER_MSEC)
/* Log 21h, Reclaim Unit Handle Attributes: unused, host, controller. */
#define RUHA_UNUSED		0x0
#define RUHA_HOST		0x1
#define RUHA_CTRL		0x2

/**
 * vfn_fdp_identify_ctrl() - Identify Controller's FDP fields
 * @c: the controller, with FDP
 * @id: its Identify Controller data
 *
 * One endurance group holds everything (ENDGIDMAX 1).
 */
void vfn_fdp_identify_ctrl(struct vfn_ctrl *c, struct nvme_id_ctrl *id)
{
	id->ctratt = cpu_to_le32(CTRATT_ENDGS | CTRATT_FDPS);
	put_unaligned_le16(VFN_FDP_ENDGID, (u8 *)id + ID_CTRL_ENDGIDMAX);
}

/**
 * vfn_fdp_placement_handles() - a new namespace's placement handles
 * @t: the namespace table
 * @s: what the create asks for
 * @ns: the new conventional namespace: @ns->nr_ph, @ns->ruh, @ns->ruh_ctrl
 *
 * Entry i of the create's Placement Handle List is the reclaim unit handle
 * of placement handle i; at most NRUH distinct handles, else Invalid
 * Placement Handle List. Without a list: reclaim unit handle 0.
 *
 * Return: 0 or the create's status.
 */
u16 vfn_fdp_placement_handles(const struct vfn_nstab *t,
			      const struct vfn_ns_spec *s, struct vfn_ns *ns)
{
	DECLARE_BITMAP(seen, VFLASH_FLASH_MAX_PLACEMENT) = { };
	u32 i;

	if (!s->nphndls) {
		ns->nr_ph = 1;
		ns->ruh[0] = 0;
		ns->ruh_ctrl = true;
		return 0;
	}
	if (s->nphndls > t->nruh || !s->phndl)
		return VFN_SC(VFN_SC_INVALID_PHNDL_LIST);
	for (i = 0; i < s->nphndls; i++) {
		u16 ruh = le16_to_cpu(s->phndl[i]);

		if (ruh >= t->nruh || test_bit(ruh, seen))
			return VFN_SC(VFN_SC_INVALID_PHNDL_LIST);
		__set_bit(ruh, seen);
		ns->ruh[i] = ruh;
	}
	ns->nr_ph = s->nphndls;
	return 0;
}

/*
 * Log 21h attributes per handle: RUHA_HOST if a namespace's list names it,
 * RUHA_CTRL if the controller chose it for a namespace without a list.
 */
static void ruh_usage(const struct vfn_nstab *t, u8 *ruha)
{
	u32 i, j;

	memset(ruha, RUHA_UNUSED, t->nruh);
	for (i = 0; i < VFN_MAX_NS; i++) {
		const struct vfn_ns *ns = &t->nsd[i].ns;

		if (!t->nsd[i].allocated)
			continue;
		for (j = 0; j < ns->nr_ph; j++) {
			u8 *a = &ruha[ns->ruh[j]];

			if (!ns->ruh_ctrl)
				*a = RUHA_HOST;
			else if (*a == RUHA_UNUSED)
				*a = RUHA_CTRL;
		}
	}
}

/* The placement identifier of @ns that names handle @ruh, or -1. */
static int pid_of(const struct vfn_ns *ns, u16 ruh)
{
	int i;

	for (i = 0; i < ns->nr_ph; i++)
		if (ns->ruh[i] == ruh)
			return i;
	return -1;
}

static const struct vfn_nsd *ns_of_page(struct vfn_ctrl *c, u64 lpn)
{
	u32 i;

	for (i = 1; i <= VFN_MAX_NS; i++) {
		const struct vfn_nsd *nd = vfn_ns_find(&c->nst, i, false);

		if (nd && lpn >= nd->ns.base && lpn - nd->ns.base < nd->pages)
			return nd;
	}
	return NULL;
}

/*
 * The controller events since the last look, per handle: one Media
 * Reallocated for the pages the backend moved out of its blocks, one
 * Implicitly Modified RUH if it retired an open block. Each is reported
 * once, logged if enabled.
 */
static void fdp_sync(struct vfn_ctrl *c, u64 now)
{
	struct vflash_flash *f = c->vdev->flash;
	u32 per_page = VFLASH_LPAGE_SHIFT - c->nst.lba_shift;
	struct vfn_fdp *fdp = &c->fdp;
	u64 ms = vfn_ctrl_ms(c, now);
	u16 h;

	for (h = 0; h < fdp->nruh; h++) {
		struct vflash_placement_events ev;
		const struct vfn_nsd *nd;
		u64 moved;
		int pid;

		vflash_flash_placement_events(f, h, &ev);
		if (ev.units_retired != fdp->retired_seen[h]) {
			fdp->retired_seen[h] = ev.units_retired;
			vfn_fdp_event(fdp, VFN_FDP_EVT_IMPLICIT_RUH,
				      VFN_FDP_EVF_PIV | VFN_FDP_EVF_LV, h, h, 0,
				      ms);
		}
		if (ev.moved_pages == fdp->moved_seen[h])
			continue;
		moved = ev.moved_pages - fdp->moved_seen[h];
		fdp->moved_seen[h] = ev.moved_pages;
		nd = ns_of_page(c, ev.moved_lpn);
		pid = nd ? pid_of(&nd->ns, h) : -1;
		vfn_fdp_media_reallocated(fdp, h, pid, moved << per_page,
					  nd ? nd->ns.id : 0, !!nd,
					  nd ? (ev.moved_lpn - nd->ns.base) <<
					       per_page : 0, ms);
	}
}

static u16 fdp_events_feature(struct vfn_ctrl *c,
			      const struct nvme_command *cmd, bool set,
			      u32 *result)
{
	u32 cdw11 = vfn_cdw(cmd, 11), noet = (cdw11 >> 16) & 0xff, len;
	const struct vfn_nsd *nd;
	u16 sc;

	*result = 0;
	/* NSID names a placement handle; without a namespace it is the RUH. */
	nd = vfn_ns_find(&c->nst, le32_to_cpu(cmd->common.nsid), true);
	if (nd) {
		if ((cdw11 & 0xffff) >= nd->ns.nr_ph)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		cdw11 = (cdw11 & ~0xffffU) | nd->ns.ruh[cdw11 & 0xffff];
	}
	memset(c->ident, 0, 4096);
	if (!set) {
		sc = vfn_fdp_events_get(&c->fdp, cdw11, c->ident, &len, result);
		if (sc || !len)
			return sc;
		return vfn_to_host(c, cmd, 0, len, len);
	}
	if (!c->fdp.nruh)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (noet) {
		sc = vfn_map_data(c, cmd, noet);
		if (sc)
			return sc;
		vfn_buf_copy(&c->buf, c->ident, false);
	}
	return vfn_fdp_events_set(&c->fdp, cdw11, vfn_cdw(cmd, 12), c->ident);
}

/* Return: the FDP log's size (in c->ident, zeroed). */
static u32 fdp_log(struct vfn_ctrl *c, const struct nvme_command *cmd, u8 lid,
		   u64 now)
{
	struct vflash_flash *f = c->vdev->flash;
	u8 ruha[VFN_FDP_MAX_RUH];

	switch (lid) {
	case VFN_LOG_FDP_CONFIGS:
		return vfn_fdp_configs_log(&c->fdp, c->ident);
	case VFN_LOG_FDP_USAGE:
		ruh_usage(&c->nst, ruha);
		return vfn_fdp_usage_log(&c->fdp, c->ident, ruha);
	case VFN_LOG_FDP_STATS:
		return vfn_fdp_stats_log(c->ident, c->host_write_units << 9,
					 VFLASH_LPAGE_SIZE *
					 vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES),
					 vflash_flash_erased_bytes(f));
	default:
		if (vfn_cdw(cmd, 10) & LOG_LSP_HOST)
			return vfn_fdp_events_log(&c->fdp, c->ident, false);
		/* Controller events: up to date when read. */
		fdp_sync(c, now);
		return vfn_fdp_events_log(&c->fdp, c->ident, true);
	}
}

static u16 ruh_status(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r)
{
	u32 shift = VFLASH_LPAGE_SHIFT - nd->ns.lba_shift, i, size;
	u64 room[VFN_FDP_MAX_RUH];
	u16 sc = vfn_map_data(c, cmd, r->xfer_bytes);

	if (sc)
		return sc;
	for (i = 0; i < c->fdp.nruh; i++)
		room[i] = vflash_flash_placement_room(c->vdev->flash, i) << shift;
	memset(c->ident, 0, 4096);
	size = vfn_fdp_ruh_status(&nd->ns, c->ident, room);
	vfn_buf_to_host(&c->buf, c->ident, min(size, r->xfer_bytes));
	return 0;
}

/*
 * Reclaim Unit Handle Update: one invalid identifier changes nothing; a
 * reclaim unit left partly written is an event.
 */
static u16 ruh_update(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r, u64 now)
{
	const __le16 *pids = c->ident;
	u16 sc = vfn_map_data(c, cmd, r->xfer_bytes);
	u32 i;

	if (sc)
		return sc;
	vfn_buf_copy(&c->buf, c->ident, false);
	sc = vfn_fdp_check_pids(&nd->ns, pids, r->nr_pids);
	if (sc)
		return sc;
	for (i = 0; i < r->nr_pids; i++) {
		u16 pid = le16_to_cpu(pids[i]), ruh = nd->ns.ruh[pid];

		if (vflash_flash_placement_update(c->vdev->flash, ruh, now))
			vfn_fdp_event(&c->fdp, VFN_FDP_EVT_RU_NOT_FULL,
				      VFN_FDP_EVF_PIV | VFN_FDP_EVF_NSIDV, pid,
				      ruh, nd->ns.id, vfn_ctrl_ms(c, now));
	}
	return 0;
}

/**
 * vfn_fdp_tick() - the dispatcher's periodic look at the backend
 * @c: the controller, with FDP
 * @now: the time of the dispatcher's pass
 */
void vfn_fdp_tick(struct vfn_ctrl *c, u64 now)
{
	if (now < c->fdp.next_sync_ns)
		return;
	c->fdp.next_sync_ns = now + FDP_SYNC_NS;
	fdp_sync(c, now);
}

/**
 * vfn_fdp_features() - Set or Get Features 1Dh (FDP) and 1Eh (FDP Events)
 * @c: the controller
 * @cmd: the command (vfn_admin_decode() checked the feature id, SV, SEL)
 * @set: Set Features, else Get
 * @result: completion dword 0
 *
 * Invalid Field without FDP; FDP itself is not changeable, its events are.
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_fdp_features(struct vfn_ctrl *c, const struct nvme_command *cmd,
		     bool set, u32 *result)
{
	u8 fid = vfn_cdw(cmd, 10) & 0xff;
	u32 sel = (vfn_cdw(cmd, 10) >> 8) & 7;

	if (!c->fdp.nruh)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (!set && sel == 3) {
		*result = fid == VFN_FEAT_FDP ? 0 : VFN_FEAT_CHANGEABLE;
		return 0;
	}
	if (fid == VFN_FEAT_FDP)
		return vfn_fdp_feature(&c->fdp, set, vfn_cdw(cmd, 11),
				       vfn_cdw(cmd, 12), result);
	return fdp_events_feature(c, cmd, set, result);
}

/**
 * vfn_fdp_get_log() - Get Log Page of an FDP log (20h-23h)
 * @c: the controller
 * @cmd: the command, its page, offset and length checked
 * @off: byte offset into the log
 * @len: bytes to transfer; past the log's end, zeros
 * @now: when it was fetched, on the backend's clock
 *
 * Return: 0, or the status of the endurance group (LSI) or the transfer.
 */
u16 vfn_fdp_get_log(struct vfn_ctrl *c, const struct nvme_command *cmd,
		    u32 off, u32 len, u64 now)
{
	u32 size;
	u16 sc;

	memset(c->ident, 0, VFN_FDP_LOG_BYTES);
	sc = vfn_fdp_check_lsi(&c->fdp, vfn_cdw(cmd, 11));
	if (sc)
		return sc;
	size = fdp_log(c, cmd, vfn_cdw(cmd, 10) & 0xff, now);
	return vfn_to_host(c, cmd, off, off < size ? size - off : 0, len);
}

/**
 * vfn_fdp_place() - the placement handle a command's pages go to
 * @c: the controller
 * @nd: the command's namespace, or NULL
 * @r: the decoded command: @r->ph is set
 * @now: when it was fetched, on the backend's clock
 *
 * An invalid placement identifier gets handle 0 and an event; without a
 * directive, the namespace's placement handle 0.
 */
void vfn_fdp_place(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		   struct vfn_io_req *r, u64 now)
{
	if (r->placed)
		r->ph = vfn_fdp_handle(&c->fdp, &nd->ns, r->pid,
				       vfn_ctrl_ms(c, now));
	else if (nd && nd->ns.nr_ph)
		r->ph = nd->ns.ruh[0];
}

/**
 * vfn_fdp_mgmt_recv() - execute I/O Management Receive: Reclaim Unit
 *	Handle Status
 * @c: the controller
 * @nd: the FDP namespace
 * @cmd: the command
 * @r: the command as vfn_fdp_decode() decoded it
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_fdp_mgmt_recv(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r)
{
	return ruh_status(c, nd, cmd, r);
}

/**
 * vfn_fdp_mgmt_send() - execute I/O Management Send: Reclaim Unit Handle
 *	Update
 * @c: the controller
 * @nd: the FDP namespace
 * @cmd: the command
 * @r: the command as vfn_fdp_decode() decoded it
 * @now: when it was fetched, on the backend's clock
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_fdp_mgmt_send(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r, u64 now)
{
	return ruh_update(c, nd, cmd, r, now);
}

static unsigned int fdp_on;
module_param_named(fdp, fdp_on, uint, 0444);
MODULE_PARM_DESC(fdp,
		 "NVMe: 1 gives namespace 1 (every handle) and namespaces created later (their placement handle lists) Flexible Data Placement (NVMe FDP, enabled), 0 none (default 0)");

static unsigned int fdp_ruhs = VFN_FDP_DEFAULT_RUH;
module_param(fdp_ruhs, uint, 0444);
MODULE_PARM_DESC(fdp_ruhs,
		 "NVMe, fdp=1: reclaim unit handles (placement handles), 1 to 16 (default 8)");

/**
 * vfn_fdp_params_load() - the FDP module parameters
 * @p: filled with their values
 */
void vfn_fdp_params_load(struct vfn_fdp_params *p)
{
	p->fdp = fdp_on;
	p->fdp_ruhs = fdp_ruhs;
}

/**
 * vfn_fdp_arg() - where an FDP parameter's value goes
 * @p: the parameters
 * @arg: the parameter
 * @a: filled with its name and field of @p
 *
 * Return: false if @arg is not an FDP parameter.
 */
bool vfn_fdp_arg(struct vfn_fdp_params *p, enum vflash_fe_arg arg,
		 struct vfn_arg *a)
{
	switch (arg) {
	case VFLASH_ARG_FDP:
		return vfn_arg_uint(a, "fdp", &p->fdp);
	case VFLASH_ARG_FDP_RUHS:
		return vfn_arg_uint(a, "fdp_ruhs", &p->fdp_ruhs);
	default:
		return false;
	}
}

/**
 * vfn_fdp_check_arg() - check one FDP parameter on its own
 * @p: the parameters
 * @arg: the parameter; any other is left alone
 *
 * Return: 0, or -EINVAL after one dmesg line naming it.
 */
int vfn_fdp_check_arg(const struct vfn_fdp_params *p, enum vflash_fe_arg arg)
{
	switch (arg) {
	case VFLASH_ARG_FDP:
		if (p->fdp <= 1)
			return 0;
		pr_err("fdp=%u: must be 0 or 1\n", p->fdp);
		return -EINVAL;
	case VFLASH_ARG_FDP_RUHS:
		if (p->fdp_ruhs >= 1 && p->fdp_ruhs <= VFN_FDP_MAX_RUH)
			return 0;
		pr_err("fdp_ruhs=%u: must be 1 to %u\n", p->fdp_ruhs,
		       VFN_FDP_MAX_RUH);
		return -EINVAL;
	default:
		return 0;
	}
}

/**
 * vfn_fdp_write_streams() - the FTL write streams fdp= asks for
 * @p: the parameters
 *
 * Return: one per reclaim unit handle with fdp=1, else 0 (also for a bad
 * value, which the attach refuses).
 */
u32 vfn_fdp_write_streams(const struct vfn_fdp_params *p)
{
	if (p->fdp != 1 || !p->fdp_ruhs || p->fdp_ruhs > VFN_FDP_MAX_RUH)
		return 0;
	return p->fdp_ruhs;
}

/**
 * vfn_fdp_setup() - FDP on @c with fdp=1
 * @c: the controller, not yet started
 * @p: the parameters
 * @zoned: zoned= is set
 *
 * Return: the reclaim unit handles, or -EINVAL after one dmesg line.
 */
int vfn_fdp_setup(struct vfn_ctrl *c, const struct vfn_fdp_params *p,
		  bool zoned)
{
	struct vflash_flash *f = c->vdev->flash;

	if (zoned) {
		pr_err("fdp=1: not with zoned=1 (a zoned namespace places data by zone)\n");
		return -EINVAL;
	}
	if (vflash_flash_placement_handles(f) < p->fdp_ruhs) {
		pr_err("fdp_ruhs=%u: the flash model has %u write streams\n",
		       p->fdp_ruhs, vflash_flash_placement_handles(f));
		return -EINVAL;
	}
	vfn_fdp_init(&c->fdp, p->fdp_ruhs, vflash_flash_placement_ru_bytes(f));
	return p->fdp_ruhs;
}
