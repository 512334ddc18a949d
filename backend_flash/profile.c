// SPDX-License-Identifier: GPL-2.0
/*
 * The flash models vflash ships. Figures come from the systems vflash is
 * compared with (docs/profiles.md gives each figure's source); where a
 * source is silent the value is marked "assumed" and documented too.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "backend_flash/profile.h"

#define US	1000ULL
#define MS	1000000ULL

static const struct vflash_profile vflash_profiles[] = {
	{
		/* The default: the SLC/QLC model of the Dac25_ae study. */
		.name = "qlc-hybrid",
		.desc = "SLC region in front of QLC, per-page-type QLC reads",
		.cell = VFLASH_CELL_QLC,
		.slc_cache = true,
		.channels = 8,
		.dies_per_channel = 2,
		.flash_page_bytes = 16384,
		.pages_per_block = 256,
		.read_ns = 30 * US,
		.qlc_read_ns = { 44600, 104400, 146200, 187900 },
		.xfer_ns_per_4k = 5120,		/* 800 MB/s channel */
		.slc_prog_ns = 185 * US,
		.prog_ns = 740 * US,
		.slc_erase_ns = 2 * MS,
		.erase_ns = 8 * MS,
		.fw_overhead_ns = 0,
	},
	{
		/* CXDVirt's Z-NAND setting. */
		.name = "znand",
		.desc = "Z-NAND-like SLC, tR 3 us",
		.cell = VFLASH_CELL_SLC,
		.channels = 8,			/* assumed */
		.dies_per_channel = 4,		/* assumed */
		.flash_page_bytes = 4096,
		.pages_per_block = 256,		/* assumed */
		.read_ns = 3 * US,
		.xfer_ns_per_4k = 3232,
		.slc_prog_ns = 100 * US,
		.prog_ns = 100 * US,
		.slc_erase_ns = 1 * MS,		/* assumed */
		.erase_ns = 1 * MS,		/* assumed */
	},
	{
		/* Cylon's defaults; its read time includes the transfer. */
		.name = "cylon",
		.desc = "Cylon's defaults: 8x8 dies, 4 KiB pages, read 40 us",
		.cell = VFLASH_CELL_SLC,
		.channels = 8,
		.dies_per_channel = 8,
		.flash_page_bytes = 4096,
		.pages_per_block = 256,
		.read_ns = 40 * US,
		.xfer_ns_per_4k = 0,
		.slc_prog_ns = 200 * US,
		.prog_ns = 200 * US,
		.slc_erase_ns = 2 * MS,
		.erase_ns = 2 * MS,
	},
	{
		/* NVMeVirt's Samsung 970 PRO model. */
		.name = "tlc",
		.desc = "970 PRO-like TLC: 8x2 dies, 32 KiB pages, read 35.76 us",
		.cell = VFLASH_CELL_TLC,
		.channels = 8,
		.dies_per_channel = 2,
		.flash_page_bytes = 32768,
		.pages_per_block = 256,		/* assumed */
		.read_ns = 35760,
		.xfer_ns_per_4k = 5120,		/* 800 MB/s channel */
		.slc_prog_ns = 185 * US,
		.prog_ns = 185 * US,
		.slc_erase_ns = 3 * MS,		/* assumed */
		.erase_ns = 3 * MS,		/* assumed */
		.fw_overhead_ns = 21500,
	},
	{
		/*
		 * NVMeVirt's SAMSUNG_970PRO configuration (its ssd_config.h);
		 * the read is the mean of its LSB/MSB pages.
		 */
		.name = "samsung-970pro",
		.desc = "NVMeVirt's Samsung 970 PRO: MLC, 8x2 dies, 32 KiB pages, read 35.76 us",
		.cell = VFLASH_CELL_MLC,
		.channels = 8,
		.dies_per_channel = 2,
		.flash_page_bytes = 32768,
		.pages_per_block = 256,		/* NVMeVirt's at 1 TiB */
		.read_ns = 35760,
		.xfer_ns_per_4k = 5120,		/* 800 MB/s channel */
		.slc_prog_ns = 185 * US,
		.prog_ns = 185 * US,
		.slc_erase_ns = 3 * MS,		/* assumed: NVMeVirt has none */
		.erase_ns = 3 * MS,		/* assumed: NVMeVirt has none */
		.fw_overhead_ns = 21500,
		.op_pct = 7,
		.write_buffer_bytes = 1 << 20,
	},
	{
		/*
		 * Intel Optane SSD DC P4800X (375 GB), QD1 4 KiB read 8.9 us
		 * measured. 3D XPoint writes in place; the FTL still needs
		 * blocks, so an erase costs one program.
		 */
		.name = "optane",
		.desc = "Optane-class SSD (P4800X-like): 7x4 dies, 4 KiB pages, read 7.7 us",
		.cell = VFLASH_CELL_SLC,
		.channels = 7,
		.dies_per_channel = 4,
		.flash_page_bytes = 4096,
		.pages_per_block = 256,		/* assumed */
		.read_ns = 7700,		/* + 1.219 us host link: 8.9 us */
		.xfer_ns_per_4k = 0,		/* in the read time */
		.slc_prog_ns = 10 * US,
		.prog_ns = 10 * US,
		.slc_erase_ns = 10 * US,	/* assumed: no erase in 3D XPoint */
		.erase_ns = 10 * US,		/* assumed: no erase in 3D XPoint */
		.fw_overhead_ns = 0,
	},
	{
		/* CXDVirt's SAMSUNG_ZNAND configuration in full. */
		.name = "cxdvirt-znand",
		.desc = "CXDVirt's Z-NAND: 8x16 dies, 4 KiB pages, tR 3 us",
		.cell = VFLASH_CELL_SLC,
		.channels = 8,
		.dies_per_channel = 16,
		.flash_page_bytes = 4096,
		.pages_per_block = 256,
		.read_ns = 3 * US,
		.xfer_ns_per_4k = 3232,
		.slc_prog_ns = 100 * US,
		.prog_ns = 100 * US,
		.slc_erase_ns = 1 * MS,
		.erase_ns = 1 * MS,
		.fw_overhead_ns = 0,
	},
	{
		/*
		 * NVMeVirt's WD_ZN540 (its ZNS build); zone capacity and active
		 * zones as the ZNS literature describes the drive.
		 */
		.name = "zn540",
		.desc = "NVMeVirt's WD ZN540 ZNS: TLC, 8x4 dies, 2 GiB zones, read 50 us",
		.cell = VFLASH_CELL_TLC,
		.channels = 8,
		.dies_per_channel = 4,
		.flash_page_bytes = 32768,
		.pages_per_block = 2048,	/* 2 GiB zone / 32 dies */
		.read_ns = 50 * US,
		.xfer_ns_per_4k = 9102,		/* 450 MB/s channel */
		.slc_prog_ns = 561 * US,
		.prog_ns = 561 * US,
		.slc_erase_ns = 3 * MS,		/* assumed: NVMeVirt has none */
		.erase_ns = 3 * MS,		/* assumed: NVMeVirt has none */
		.fw_overhead_ns = 20 * US,
		.write_buffer_bytes = 10 * 96 * 1024,
		.zone_bytes = 2ULL << 30,
		.zone_cap_bytes = 1077ULL << 20,
		.zone_max_active = 14,
	},
};

/**
 * vflash_profile_find() - look up a flash model by name
 * @name: the name, NUL-terminated
 *
 * Return: the model, or NULL if there is none of that name.
 */
const struct vflash_profile *vflash_profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vflash_profiles); i++)
		if (!strcmp(vflash_profiles[i].name, name))
			return &vflash_profiles[i];
	return NULL;
}

/**
 * vflash_profile_at() - the shipped models one by one
 * @i: an index, from 0
 *
 * Return: the @i-th model, or NULL past the last one.
 */
const struct vflash_profile *vflash_profile_at(unsigned int i)
{
	return i < ARRAY_SIZE(vflash_profiles) ? &vflash_profiles[i] : NULL;
}

/**
 * vflash_profile_names() - list the shipped models
 * @buf: receives the names separated by spaces, truncated to fit
 * @size: size of @buf
 *
 * Return: the length of the string in @buf.
 */
size_t vflash_profile_names(char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(vflash_profiles); i++)
		len += scnprintf(buf + len, size - len, "%s%s",
				 i ? " " : "", vflash_profiles[i].name);
	return len;
}
