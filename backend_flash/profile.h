/* SPDX-License-Identifier: GPL-2.0 */
/* Named flash models selected with profile=. */
#ifndef VFLASH_PROFILE_H
#define VFLASH_PROFILE_H

#include <linux/types.h>

/**
 * enum vflash_cell - how many bits a flash cell stores
 * @VFLASH_CELL_SLC: one
 * @VFLASH_CELL_MLC: two
 * @VFLASH_CELL_TLC: three
 * @VFLASH_CELL_QLC: four
 */
enum vflash_cell {
	VFLASH_CELL_SLC,
	VFLASH_CELL_MLC,
	VFLASH_CELL_TLC,
	VFLASH_CELL_QLC,
};

/**
 * struct vflash_profile - a flash model
 * @name: what profile= takes
 * @desc: one line for the docs and for modinfo
 * @cell: cell type of the main region
 * @slc_cache: an SLC region in front of the main region takes host writes
 * @channels: channels
 * @dies_per_channel: dies (LUNs) on each channel
 * @flash_page_bytes: bytes one program writes on one plane
 * @pages_per_block: flash pages in an erase block
 * @read_ns: tR of an SLC page, or of the main region's fastest page type
 * @qlc_read_ns: QLC read time by page type (L, CL, CU, U); else zero
 * @xfer_ns_per_4k: channel transfer time of 4 KiB
 * @slc_prog_ns: program time of an SLC page
 * @prog_ns: program time of a main-region page (QLC: a wordline)
 * @slc_erase_ns: erase time of an SLC block
 * @erase_ns: erase time of a block of the main region
 * @fw_overhead_ns: controller firmware time added to every command
 * @op_pct: over-provisioning in percent of the capacity; 0 for
 *	VFLASH_DEFAULT_OP_PCT
 * @write_buffer_bytes: the controller's write buffer; 0 for the default
 * @zone_bytes: a ZNS drive's zone size (zone_size='s default); 0 for the
 *	frontend's default
 * @zone_cap_bytes: its zone capacity (with @zone_bytes only)
 * @zone_max_active: its most active (and open) zones, 0 for no limit
 * @placement_handles: host write streams the FTL keeps apart, 1 to
 *	VFLASH_FLASH_MAX_PLACEMENT, 0 for one; set by the device's frontends,
 *	not by a named model
 */
struct vflash_profile {
	const char *name;
	const char *desc;
	enum vflash_cell cell;
	bool slc_cache;
	u32 channels;
	u32 dies_per_channel;
	u32 flash_page_bytes;
	u32 pages_per_block;
	u64 read_ns;
	u64 qlc_read_ns[4];
	u64 xfer_ns_per_4k;
	u64 slc_prog_ns;
	u64 prog_ns;
	u64 slc_erase_ns;
	u64 erase_ns;
	u64 fw_overhead_ns;
	u32 op_pct;
	u64 write_buffer_bytes;
	u64 zone_bytes;
	u64 zone_cap_bytes;
	u32 zone_max_active;
	u32 placement_handles;
};

/* Over-provisioning of a profile that gives none (@op_pct 0), percent. */
#define VFLASH_DEFAULT_OP_PCT	7

const struct vflash_profile *vflash_profile_find(const char *name);
const struct vflash_profile *vflash_profile_at(unsigned int i);
size_t vflash_profile_names(char *buf, size_t size);

#endif /* VFLASH_PROFILE_H */
