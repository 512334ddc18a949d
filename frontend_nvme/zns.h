/* SPDX-License-Identifier: GPL-2.0 */
/* Zoned Namespace Command Set 1.1 (zns.c, docs/design/zns.md). */
#ifndef VFN_ZNS_H
#define VFN_ZNS_H

#include <linux/bits.h>
#include <linux/log2.h>
#include <linux/types.h>

#include "core/vflash.h"

/* Zone states, as Report Zones gives them (ZNS 1.1, figure 37). */
enum vfn_zone_state {
	VFN_ZS_EMPTY = 0x1,
	VFN_ZS_IOPEN = 0x2,
	VFN_ZS_EOPEN = 0x3,
	VFN_ZS_CLOSED = 0x4,
	VFN_ZS_RDONLY = 0xd,
	VFN_ZS_FULL = 0xe,
	VFN_ZS_OFFLINE = 0xf,
};

/* Zone Send Actions (Zone Management Send, CDW13 bits 7:0). */
enum vfn_zone_action {
	VFN_ZSA_CLOSE = 0x1,
	VFN_ZSA_FINISH = 0x2,
	VFN_ZSA_OPEN = 0x3,
	VFN_ZSA_RESET = 0x4,
	VFN_ZSA_OFFLINE = 0x5,
	VFN_ZSA_SET_EXT = 0x10,	/* Set Zone Descriptor Extension */
};

/* Zone Receive Actions (Zone Management Receive, CDW13 bits 7:0). */
#define VFN_ZRA_REPORT		0x0
#define VFN_ZRA_EXT_REPORT	0x1	/* Extended Report Zones */

/* Zone Attributes, byte 2 of a zone descriptor (ZNS 1.1, figure 37). */
#define VFN_ZA_FZR		BIT(1)	/* Finish Zone Recommended */
#define VFN_ZA_RZR		BIT(2)	/* Reset Zone Recommended */
#define VFN_ZA_ZDEV		BIT(7)	/* Zone Descriptor Extension Valid */

/* ZDES: extension size in units of 64 bytes, at most 255 of them. */
#define VFN_ZONE_EXT_UNIT	64
#define VFN_ZONE_EXT_MAX	(255 * VFN_ZONE_EXT_UNIT)
/* Zone Send Action Flush Explicit ZRWA Range: vfn_zone_zrwa_flush(). */
#define VFN_ZSA_ZRWA_FLUSH	0x11

/* Report Zones' Zone Receive Action Specific filter (CDW13 bits 15:8). */
enum vfn_zone_filter {
	VFN_ZRAS_ALL = 0x0,
	VFN_ZRAS_EMPTY = 0x1,
	VFN_ZRAS_IOPEN = 0x2,
	VFN_ZRAS_EOPEN = 0x3,
	VFN_ZRAS_CLOSED = 0x4,
	VFN_ZRAS_FULL = 0x5,
	VFN_ZRAS_RDONLY = 0x6,
	VFN_ZRAS_OFFLINE = 0x7,
};

/* Zone transitions vfn_zoned counts (struct vfn_zoned.count). */
enum vfn_zone_count {
	VFN_ZC_IMPLICIT_OPEN,	/* a write opened an Empty or Closed zone */
	VFN_ZC_IMPLICIT_CLOSE,	/* an open resource was taken back */
	VFN_ZC_OPEN,		/* Open actions that opened a zone */
	VFN_ZC_CLOSE,		/* Close actions that closed a zone */
	VFN_ZC_FINISH,		/* Finish actions that filled a zone */
	VFN_ZC_RESET,		/* Reset actions that emptied a zone */
	VFN_ZC_NR
};

/* ZNS 1.1 statuses Linux does not name. */
#define VFN_SC_ZONE_INVALID_OP		0x1b6
#define VFN_SC_ZRWA_UNAVAILABLE		0x1b7

/* A zone descriptor and the report header are 64 bytes each. */
#define VFN_ZONE_DESC_BYTES	64

/**
 * struct vfn_zone - one zone
 * @wp: its write pointer, in logical blocks
 * @written: blocks from the zone start to here hold written data; Reset
 *	and Offline leave it for the caller to discard and set back
 * @state: an enum vfn_zone_state
 * @picked: selected by a Select All action in progress
 * @ph: the backend placement handle lent to it while active, or 0 (shared)
 * @za: its Zone Attributes (VFN_ZA_*) as Report Zones gives them
 * @since_ns: when it last left Empty: the age of Finish and Reset
 *	Recommended
 * @zrwa: it holds a Zone Random Write Area (ZRWAV): @wp is the flushed
 *	point, [@wp, @written) the window's data
 */
struct vfn_zone {
	u64 wp;
	u64 written;
	u8 state;
	bool picked;
	u8 ph;
	u8 za;
	u64 since_ns;
	bool zrwa;
};

/**
 * struct vfn_zone_undo - a zone as it was before a write, to put back
 * @zone: its number, U32_MAX: nothing to put back
 * @was: the zone then
 */
struct vfn_zone_undo {
	u32 zone;
	struct vfn_zone was;
};

/**
 * struct vfn_zoned - the zones of a zoned namespace
 * @zones: @nr_zones zones; zone i starts at block i * @zsze
 * @nr_zones: zones in the namespace
 * @zsze: zone size in logical blocks, a power of two
 * @zcap: writable blocks of each zone, 1 to @zsze
 * @max_active: most zones open or closed at once, 0: no limit (MAR + 1)
 * @max_open: most zones open at once, 0: no limit (MOR + 1)
 * @nr_iopen: zones implicitly open
 * @nr_eopen: zones explicitly open
 * @nr_closed: zones closed
 * @close_next: where the round-robin search for a zone to close starts
 * @count: transitions so far, by kind, for the device's stats/
 * @ext_bytes: zone descriptor extension size (ZDES x 64), 0: none
 * @ext: @ext_bytes per zone, zone i's at i * @ext_bytes (NULL without)
 * @frl_ns: Finish Recommended Limit, 0: none
 * @rrl_ns: Reset Recommended Limit, 0: none
 * @now_ns: the model's time of the command being executed
 *	(vfn_zone_clock()); stamps @since_ns
 * @zrwas: ZRWA window in blocks (ZRWAS), 0: no ZRWA (OZCS ZRWASUP 0)
 * @zrwafg: ZRWA flush granularity in blocks (ZRWAFG), divides @zrwas
 * @max_zrwa: ZRWA resources (NUMZRWA + 1)
 * @nr_zrwa: ZRWA resources held by zones
 * @undo: a write to a ZRWA zone, as vfn_zone_write_undo() puts it back
 *
 * Owned by the controller's dispatcher, which executes every command: no
 * lock of its own.
 */
struct vfn_zoned {
	struct vfn_zone *zones;
	u32 nr_zones;
	u64 zsze;
	u64 zcap;
	u32 max_active;
	u32 max_open;
	u32 nr_iopen;
	u32 nr_eopen;
	u32 nr_closed;
	u32 close_next;
	u64 count[VFN_ZC_NR];
	u32 ext_bytes;
	u8 *ext;
	u64 frl_ns;
	u64 rrl_ns;
	u64 now_ns;
	u32 zrwas;
	u32 zrwafg;
	u32 max_zrwa;
	u32 nr_zrwa;
	struct vfn_zone_undo undo;
};

int vfn_zoned_init(struct vfn_zoned *z, u64 nsze, u64 zsze, u64 zcap,
		   u32 max_active, u32 max_open);
void vfn_zoned_exit(struct vfn_zoned *z);
int vfn_zoned_set_zrwa(struct vfn_zoned *z, u32 zrwas, u32 zrwafg, u32 nr);

/* Return: the number of @lba's zone. */
static inline u32 vfn_zone_of(const struct vfn_zoned *z, u64 lba)
{
	return lba >> ilog2(z->zsze);
}

u16 vfn_zone_write(struct vfn_zoned *z, u64 slba, u32 nlb, bool append,
		   u64 *lba);
void vfn_zone_write_undo(struct vfn_zoned *z, u64 lba, u32 nlb, u8 was);
u16 vfn_zone_read(const struct vfn_zoned *z, u64 slba, u32 nlb);
u16 vfn_zone_send(struct vfn_zoned *z, u64 slba, enum vfn_zone_action act,
		  bool all);
void vfn_zone_set_read_only(struct vfn_zoned *z, u32 zone);
void vfn_zone_lost(struct vfn_zoned *z, u64 lba);
bool vfn_zone_cut(struct vfn_zoned *z, u32 i, u64 *from, u64 *to);
u16 vfn_zone_open_zrwa(struct vfn_zoned *z, u64 slba, bool all);
u16 vfn_zone_zrwa_flush(struct vfn_zoned *z, u64 slba, bool all);
bool vfn_zone_in_zrwa(const struct vfn_zoned *z, u64 slba, u64 nlb);
bool vfn_zone_zrwa_cut(struct vfn_zoned *z, u32 i, bool plp, u64 *from,
		       u64 *to);
u32 vfn_zone_report(const struct vfn_zoned *z, u64 slba,
		    enum vfn_zone_filter filter, bool partial, void *buf,
		    size_t len);

/* Zone descriptor extensions and recommendations (zns.c). */
int vfn_zoned_init_ext(struct vfn_zoned *z, u32 ext_bytes, u32 frl_s,
		       u32 rrl_s);
u16 vfn_zone_set_ext(struct vfn_zoned *z, u64 slba, const void *data);
u32 vfn_zone_report_ext(const struct vfn_zoned *z, u64 slba,
			enum vfn_zone_filter filter, bool partial, void *buf,
			size_t len);
bool vfn_zone_recommend(struct vfn_zoned *z, u32 i, u64 now);

/* The command set on the controller (zns.c; the dispatcher only). */
struct nvme_command;
struct vfn_cmd;
struct vfn_ctrl;
struct vfn_io_req;
struct vfn_ns;
struct vfn_nsd;

u16 vfn_zns_decode(const struct nvme_command *cmd, const struct vfn_ns *ns,
		   struct vfn_io_req *req);
u16 vfn_zns_io_start(struct vfn_nsd *nd, const struct vfn_io_req *r, u16 sc,
		     u64 now);
void vfn_zns_io_end(struct vfn_ctrl *c, struct vfn_nsd *nd,
		    struct vfn_io_req *r, struct vfn_cmd *out, u16 sc, u64 now);
u16 vfn_zns_write(struct vfn_ctrl *c, struct vfn_nsd *nd,
		  struct vfn_io_req *r, struct vfn_cmd *out);
u16 vfn_zns_write_check(struct vfn_ctrl *c, struct vfn_nsd *nd, u64 slba,
			u64 nlb);
u16 vfn_zrwa_hold(struct vfn_ctrl *c, const struct vfn_io_req *r,
		  bool (*store)(struct vfn_ctrl *c, const struct vfn_io_req *r),
		  u64 now, u64 *due_ns);
u16 vfn_zns_read_only(struct vfn_ctrl *c, struct vfn_nsd *nd, u64 slba);
u16 vfn_zns_mgmt_send(struct vfn_ctrl *c, struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r, struct vfn_cmd *out,
		      u64 now);
u16 vfn_zns_mgmt_recv(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		      const struct nvme_command *cmd,
		      const struct vfn_io_req *r);
void vfn_zns_put_handles(struct vfn_ctrl *c, const struct vfn_nsd *nd,
			 u64 now);
void vfn_zones_recommend(struct vfn_ctrl *c, u64 now);
u16 vfn_zns_changed_zones_log(struct vfn_ctrl *c,
			      const struct nvme_command *cmd);
void vfn_zns_identify_ns(struct vfn_ctrl *c, const struct vfn_nsd *nd);
void vfn_zns_identify_ctrl(struct vfn_ctrl *c);
void vfn_zns_lost(struct vfn_ctrl *c, u64 pos);
void vfn_zns_zrwa_cut(struct vfn_ctrl *c, u64 now);
void vfn_zns_cut(struct vfn_ctrl *c, u64 now);

/**
 * struct vfn_zns_params - the ZNS parameters of one device, as given
 * @zoned: zoned=
 * @zone_size: zone_size=, NULL or "" for the default
 * @zone_cap: zone_cap=, NULL or "" for the default
 * @zone_max_open: zone_max_open=
 * @zone_max_active: zone_max_active=
 * @zone_ext_bytes: zone_ext_bytes=
 * @zone_frl_s: zone_frl_s=
 * @zone_rrl_s: zone_rrl_s=
 * @zone_zrwa: zone_zrwa=
 * @zone_zrwa_size: zone_zrwa_size=, NULL or "" for the default
 * @zone_zrwa_fg: zone_zrwa_fg=, NULL or "" for the default
 * @zone_zrwa_nr: zone_zrwa_nr=
 */
struct vfn_zns_params {
	unsigned int zoned;
	const char *zone_size;
	const char *zone_cap;
	unsigned int zone_max_open;
	unsigned int zone_max_active;
	unsigned int zone_ext_bytes;
	unsigned int zone_frl_s;
	unsigned int zone_rrl_s;
	unsigned int zone_zrwa;
	const char *zone_zrwa_size;
	const char *zone_zrwa_fg;
	unsigned int zone_zrwa_nr;
};

struct vfn_arg;
struct vfn_zone_geo;

void vfn_zns_params_load(struct vfn_zns_params *p);
bool vfn_zns_arg(struct vfn_zns_params *p, enum vflash_fe_arg arg,
		 struct vfn_arg *a);
int vfn_zns_check_arg(const struct vfn_zns_params *p, enum vflash_fe_arg arg);
u32 vfn_zns_write_streams(const struct vfn_zns_params *p);
int vfn_zns_setup(struct vfn_ctrl *c, const struct vfn_zns_params *p,
		  u8 shift, u64 ns1, u64 size, struct vfn_zone_geo *zg);

/* Set the model's time (ns) of the command about to act on zones. */
static inline void vfn_zone_clock(struct vfn_zoned *z, u64 now)
{
	z->now_ns = now;
}

#endif /* VFN_ZNS_H */
