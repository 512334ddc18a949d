// SPDX-License-Identifier: GPL-2.0
/*
 * Flexible Data Placement (TP4146): the endurance group's one FDP
 * configuration, placement identifiers, events, the log pages 20h-23h,
 * the features 1Dh and 1Eh and Reclaim Unit Handle Status. Protocol logic
 * only: no thread, no backend (KUnit vflash-nvme runs it as it is).
 * docs/fdp-design.md.
 */
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/nvme.h>
#include <linux/string.h>

#include "core/compat.h"
#include "frontend_nvme/fdp.h"
#include "frontend_nvme/proto.h"

#define SC(x)			VFN_SC(x)

/* Log 20h: header, one configuration descriptor, a RUH descriptor each. */
#define CFG_HDR_BYTES		16
#define CFG_DESC_BYTES		64
#define CFG_RUH_BYTES		4
/* FDP Attributes: the descriptor is valid; a volatile write cache. */
#define FDPA_VALID		BIT(7)
#define FDPA_FDPVWC		BIT(4)
/* Reclaim unit handle type: initially isolated. */
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

/*
 * A new event of @type on handle @ruh in its ring (host or controller),
 * the oldest making room once VFN_FDP_EVENTS are held; NULL if the type
 * is not enabled on the handle.
 */
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
 * out of its reclaim unit to another (garbage collection included) is
 * one: the specification's condition for this event type.
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
 * With one reclaim group the identifier is the namespace's placement
 * handle, and placement handle i is the i-th entry of the namespace's
 * Placement Handle List. One past the namespace's handles is not an
 * error: the write goes to its placement handle 0 and an Invalid
 * Placement Identifier event is logged (if enabled on that handle).
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
 * @ruha: per reclaim unit handle, its attributes (vfn_ns_ruh_usage())
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
 * The events in the order they happened, oldest first.
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
 * FDP is on from power-on (the factory's configuration). Setting what is
 * in force succeeds; a change is Command Sequence Error, since namespace
 * 1 exists in the endurance group.
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
 * A descriptor per placement handle of the namespace: its placement
 * identifier and the reclaim unit handle its list names.
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
 * Only the placement directive (DTYPE 2h) of an FDP namespace; any other,
 * or one without FDP, is Invalid Field. The placement identifier is
 * checked when the write runs (vfn_fdp_handle()).
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
 * Receive: Reclaim Unit Handle Status, CDW11 the dwords to return (0's
 * based, at most MDTS). Send: Reclaim Unit Handle Update, MOS the
 * placement identifiers in the buffer (0's based, at most the
 * namespace's placement handles).
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
