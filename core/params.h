/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load-time parameter parsing: pure functions (KUnit tests them); checks
 * that need the running system live in backing.c.
 */
#ifndef VFLASH_PARAMS_H
#define VFLASH_PARAMS_H

#include <linux/types.h>

#include "core/vflash.h"

struct vflash_config;

/* The smallest device: a few flash blocks on every die of any profile. */
#define VFLASH_MIN_SIZE_BYTES	(16ULL << 20)
/* The largest: 16 TiB of logical pages, far beyond any host's memory. */
#define VFLASH_MAX_SIZE_BYTES	(16ULL << 40)

#define VFLASH_DEFAULT_SIZE	"1G"
#define VFLASH_DEFAULT_PROFILE	"qlc-hybrid"
#define VFLASH_DEFAULT_STORE	"full"

/**
 * struct vflash_param_strings - module parameters as the user gave them
 * @frontend: comma-separated frontend names, or NULL
 * @size: device size in memparse syntax, or NULL for the default
 * @memmap_start: physical start of a memmap= range, or NULL
 * @memmap_size: its length, or NULL
 * @profile: flash model name, or NULL for the default
 * @store: full, sparse or none, or NULL for full
 * @channels: geometry override: channels, or NULL for the profile's
 * @dies_per_channel: dies on each channel, or NULL for the profile's
 * @page_size: flash page bytes (memparse syntax), or NULL for the profile's
 * @pages_per_block: flash pages in an erase block, or NULL likewise
 * @op_percent: over-provisioning in percent, or NULL likewise
 * @hold: "1" to create the device held, "0" or NULL not to
 * @alone: check each value on its own (a configfs write), not against
 *	the others
 */
struct vflash_param_strings {
	const char *frontend;
	const char *size;
	const char *memmap_start;
	const char *memmap_size;
	const char *profile;
	const char *store;
	const char *channels;
	const char *dies_per_channel;
	const char *page_size;
	const char *pages_per_block;
	const char *op_percent;
	const char *hold;
	bool alone;
};

/* Bounds of the geometry overrides. */
#define VFLASH_MAX_CHANNELS		64
#define VFLASH_MAX_DIES_PER_CHANNEL	64
#define VFLASH_MIN_PAGE_BYTES		4096
#define VFLASH_MAX_PAGE_BYTES		(64 * 1024)
#define VFLASH_MIN_PAGES_PER_BLOCK	4
#define VFLASH_MAX_PAGES_PER_BLOCK	4096
#define VFLASH_MIN_OP_PCT		1
#define VFLASH_MAX_OP_PCT		100

/**
 * struct vflash_param_error - why a configuration was refused
 * @param: the parameter at fault
 * @value: the value it was given, or NULL if it was missing
 * @why: a human-readable reason
 */
struct vflash_param_error {
	const char *param;
	const char *value;
	char why[160];
};

int vflash_parse_store(const char *s, enum vflash_store_mode *mode);
int vflash_parse_bytes(const char *s, u64 *out);
int vflash_parse_config(const struct vflash_param_strings *in,
			struct vflash_config *cfg,
			struct vflash_param_error *err);

#endif /* VFLASH_PARAMS_H */
