/* SPDX-License-Identifier: GPL-2.0 */
/* NVMe Flexible Data Placement (TP4146, NVMe Base 2.1); docs/design/fdp.md. */
#ifndef VFN_FDP_H
#define VFN_FDP_H

#include <linux/types.h>

#include "backend_flash/flash.h"
#include "core/vflash.h"

struct nvme_command;
struct nvme_id_ctrl;
struct vfn_ctrl;
struct vfn_io_req;
struct vfn_ns;
struct vfn_ns_spec;
struct vfn_nsd;
struct vfn_nstab;

#define VFN_FDP_MAX_RUH		VFLASH_FLASH_MAX_PLACEMENT
#define VFN_FDP_DEFAULT_RUH	8
#define VFN_FDP_ENDGID		1	/* the one endurance group */
#define VFN_FDP_EVENTS		63	/* events a log 23h holds */

/* Log pages (LSI = the endurance group). */
#define VFN_LOG_FDP_CONFIGS	0x20
#define VFN_LOG_FDP_USAGE	0x21
#define VFN_LOG_FDP_STATS	0x22
#define VFN_LOG_FDP_EVENTS	0x23
/* Every FDP log fits this; what a log does not fill reads as zeros. */
#define VFN_FDP_LOG_BYTES	4096U

#define VFN_FEAT_FDP		0x1d
#define VFN_FEAT_FDP_EVENTS	0x1e

/* I/O commands and their one management operation each. */
#define VFN_CMD_IO_MGMT_RECV	0x12
#define VFN_CMD_IO_MGMT_SEND	0x1d
#define VFN_IOMR_RUH_STATUS	0x1
#define VFN_IOMS_RUH_UPDATE	0x1

/* Write CDW12 bits 23:20: the directive type of a placed write. */
#define VFN_DTYPE_PLACEMENT	0x2

/* FDP event types vflash reports: host events, then controller events. */
#define VFN_FDP_EVT_RU_NOT_FULL	0x00
#define VFN_FDP_EVT_INVALID_PID	0x03
#define VFN_FDP_EVT_MEDIA_REALLOC	0x80
#define VFN_FDP_EVT_IMPLICIT_RUH	0x81
#define VFN_FDP_EVT_CTRL	0x80

/* Event flags: placement identifier, namespace, location valid. */
#define VFN_FDP_EVF_PIV		BIT(0)
#define VFN_FDP_EVF_NSIDV	BIT(1)
#define VFN_FDP_EVF_LV		BIT(2)

/**
 * struct vfn_fdp_event - an FDP event as log 23h gives it (64 bytes)
 * @type: event type
 * @flags: VFN_FDP_EVF_*
 * @pid: placement identifier
 * @timestamp: milliseconds since the controller came up, in bits 47:0
 * @nsid: namespace
 * @type_specific: event type specific information (none here)
 * @rgid: reclaim group
 * @ruhid: reclaim unit handle
 * @rsvd35: reserved
 * @vs: vendor specific
 */
struct vfn_fdp_event {
	u8 type;
	u8 flags;
	__le16 pid;
	__le64 timestamp;
	__le32 nsid;
	u8 type_specific[16];
	__le16 rgid;
	u8 ruhid;
	u8 rsvd35[5];
	u8 vs[24];
} __packed;

/* Media Reallocated, event type specific: LBA Valid, NLBAM, LBA. */
#define VFN_FDP_REALLOC_LBAV	BIT(0)
#define VFN_FDP_NLBAM_MAX	0xffff

/**
 * struct vfn_fdp_ring - the newest VFN_FDP_EVENTS events of one kind
 * @ev: the events
 * @next: where the next one goes
 * @nr: events held
 */
struct vfn_fdp_ring {
	struct vfn_fdp_event ev[VFN_FDP_EVENTS];
	u32 next;
	u32 nr;
};

/**
 * struct vfn_fdp - the endurance group's FDP state
 * @nruh: reclaim unit handles of the configuration; 0 when FDP is off
 * @runs_bytes: reclaim unit nominal size
 * @ev_enabled: per reclaim unit handle, the enabled event types (bit i:
 *	the i-th type of fdp.c's ev_types[]: 00h, 03h, 80h, 81h)
 * @host: the host events (log 23h, LSP bit 0 set)
 * @ctrl: the controller events (LSP bit 0 clear)
 * @moved_seen: per handle, the backend's count of pages moved out of its
 *	blocks already reported
 * @retired_seen: per handle, its retired open blocks already reported
 * @next_sync_ns: when the dispatcher next looks at those counts
 *
 * Owned by the NVMe dispatcher thread, which runs every command and the
 * periodic look at the backend: no lock.
 */
struct vfn_fdp {
	u16 nruh;
	u64 runs_bytes;
	u8 ev_enabled[VFN_FDP_MAX_RUH];
	struct vfn_fdp_ring host;
	struct vfn_fdp_ring ctrl;
	u64 moved_seen[VFN_FDP_MAX_RUH];
	u64 retired_seen[VFN_FDP_MAX_RUH];
	u64 next_sync_ns;
};

void vfn_fdp_init(struct vfn_fdp *fdp, u16 nruh, u64 runs_bytes);
void vfn_fdp_events_default(struct vfn_fdp *fdp);
bool vfn_fdp_event(struct vfn_fdp *fdp, u8 type, u8 flags, u16 pid,
		   u16 ruh, u32 nsid, u64 ms);
bool vfn_fdp_media_reallocated(struct vfn_fdp *fdp, u16 ruh, int pid,
			       u64 nlbam, u32 nsid, bool lbav, u64 lba, u64 ms);
u16 vfn_fdp_handle(struct vfn_fdp *fdp, const struct vfn_ns *ns, u16 pid,
		   u64 ms);
u32 vfn_fdp_configs_log(const struct vfn_fdp *fdp, void *buf);
u32 vfn_fdp_usage_log(const struct vfn_fdp *fdp, void *buf, const u8 *ruha);
u32 vfn_fdp_stats_log(void *buf, u64 hbmw, u64 mbmw, u64 mbe);
u32 vfn_fdp_events_log(const struct vfn_fdp *fdp, void *buf, bool ctrl);
u16 vfn_fdp_check_lsi(const struct vfn_fdp *fdp, u32 cdw11);
u16 vfn_fdp_feature(const struct vfn_fdp *fdp, bool set, u32 cdw11,
		    u32 cdw12, u32 *result);
u16 vfn_fdp_events_get(const struct vfn_fdp *fdp, u32 cdw11, u8 *buf,
		       u32 *len, u32 *result);
u16 vfn_fdp_events_set(struct vfn_fdp *fdp, u32 cdw11, u32 cdw12,
		       const u8 *types);
u32 vfn_fdp_ruh_status(const struct vfn_ns *ns, void *buf,
		       const u64 *room_blocks);
u16 vfn_fdp_check_pids(const struct vfn_ns *ns, const __le16 *pids, u32 nr);
u16 vfn_fdp_decode_directive(const struct nvme_command *cmd,
			     const struct vfn_ns *ns, struct vfn_io_req *req);
u16 vfn_fdp_decode(const struct nvme_command *cmd, const struct vfn_ns *ns,
		   struct vfn_io_req *req);
u16 vfn_fdp_placement_handles(const struct vfn_nstab *t,
			      const struct vfn_ns_spec *s, struct vfn_ns *ns);

/* FDP on the controller (fdp.c; the dispatcher only). */
void vfn_fdp_identify_ctrl(struct vfn_ctrl *c, struct nvme_id_ctrl *id);
void vfn_fdp_tick(struct vfn_ctrl *c, u64 now);
u16 vfn_fdp_features(struct vfn_ctrl *c, const struct nvme_command *cmd,
		     bool set, u32 *result);
u16 vfn_fdp_get_log(struct vfn_ctrl *c, const struct nvme_command *cmd,
		    u32 off, u32 len, u64 now);
void vfn_fdp_place(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		   struct vfn_io_req *r, u64 now);
u16 vfn_fdp_mgmt_recv(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r);
u16 vfn_fdp_mgmt_send(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r, u64 now);

/**
 * struct vfn_fdp_params - the FDP parameters of one device, as given
 * @fdp: fdp=
 * @fdp_ruhs: fdp_ruhs=
 */
struct vfn_fdp_params {
	unsigned int fdp;
	unsigned int fdp_ruhs;
};

struct vfn_arg;

void vfn_fdp_params_load(struct vfn_fdp_params *p);
bool vfn_fdp_arg(struct vfn_fdp_params *p, enum vflash_fe_arg arg,
		 struct vfn_arg *a);
int vfn_fdp_check_arg(const struct vfn_fdp_params *p, enum vflash_fe_arg arg);
u32 vfn_fdp_write_streams(const struct vfn_fdp_params *p);
int vfn_fdp_setup(struct vfn_ctrl *c, const struct vfn_fdp_params *p,
		  bool zoned);

#endif /* VFN_FDP_H */
