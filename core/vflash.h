/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vflash core: the device object, its store and the frontend registry,
 * for the frontends and the module entry (docs/design/architecture.md).
 */
#ifndef VFLASH_CORE_H
#define VFLASH_CORE_H

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "backend_flash/cache/ctl.h"
#include "backend_flash/profile.h"
#include "core/faults.h"

#define VFLASH_NAME "vflash"

/* At most this many frontends can drive one device at the same time. */
#define VFLASH_MAX_FRONTENDS	4

struct vflash_config;
struct vflash_dev;
struct vflash_image;
struct vflash_flash;
struct config_item;

/*
 * Frontend parameters a device may set for itself (configfs); a device
 * that leaves one empty gets the module parameter of the same name.
 */
enum vflash_fe_arg {
	VFLASH_ARG_LBA_SIZE,
	VFLASH_ARG_WORKERS,
	VFLASH_ARG_POLL_IDLE_US,
	VFLASH_ARG_SPIN_US,
	VFLASH_ARG_CPUS,
	VFLASH_ARG_CACHE_SIZE,
	VFLASH_ARG_ZONED,
	VFLASH_ARG_ZONE_SIZE,
	VFLASH_ARG_ZONE_CAP,
	VFLASH_ARG_ZONE_MAX_OPEN,
	VFLASH_ARG_ZONE_MAX_ACTIVE,
	VFLASH_ARG_NAP_MAX_US,
	VFLASH_ARG_FDP,
	VFLASH_ARG_FDP_RUHS,
	VFLASH_ARG_NS1_SIZE,
	VFLASH_ARG_ZONE_EXT_BYTES,
	VFLASH_ARG_ZONE_FRL_S,
	VFLASH_ARG_ZONE_RRL_S,
	VFLASH_ARG_ZONE_ZRWA,
	VFLASH_ARG_ZONE_ZRWA_SIZE,
	VFLASH_ARG_ZONE_ZRWA_FG,
	VFLASH_ARG_ZONE_ZRWA_NR,
	VFLASH_NR_ARGS
};

/* Longest value of a frontend parameter, with its NUL. */
#define VFLASH_ARG_LEN		64

/**
 * struct vflash_frontend - a host interface that exposes a vflash device
 * @name: what users pass in frontend=, lower case, unique
 * @attach: makes the device visible to users, once its store and sysfs
 *	directory exist. Returns 0, or a negative errno after one dmesg
 *	line, leaving nothing behind.
 * @detach: undoes @attach; called before the backing memory is released.
 * @char_dev: the class device gets a dev_t, whose cdev @attach adds.
 * @check_arg: optional; checks a value of one of this frontend's
 *	parameters (0 for another's): 0, or -EINVAL with one dmesg line.
 * @quiesce: optional; called before a device is destroyed at run time
 *	(configfs power=0). Returns -EBUSY if users still hold the device
 *	through this frontend (an open /dev/vflash<N>), changing nothing;
 *	else 0, and from then on no new user gets in.
 * @resume: undoes a successful @quiesce when the destroy does not happen.
 * @hold: called before the device is held (state=held: docs/design/image.md),
 *	its frontends detached and attached again later. Returns 0 when no user
 *	holds the device through this frontend and everything it keeps comes
 *	back at its next @attach; else -EBUSY or -EOPNOTSUPP after one dmesg
 *	line, changing nothing (@resume undoes a successful one if another
 *	frontend refuses). A frontend without it cannot be held.
 * @release: optional; frees what the frontend keeps for the device across
 *	holds (from its first @attach on): called when the device is
 *	destroyed, after @detach if it was attached, and when an image's
 *	restore is refused.
 * @img_save: optional; what the frontend keeps for a held device (what
 *	@release frees), as one buffer for its image (docs/design/image.md):
 *	its bytes with *@blob set (kvfree()d by the caller), 0 for nothing,
 *	or a negative errno.
 * @img_load: optional; takes such a buffer into a device made held that
 *	never ran, for its first @attach: 0, or a negative errno after one
 *	dmesg line beginning "image: " (the core then calls @release).
 * @placement_handles: optional; the host write streams the FTL is to keep
 *	apart (0 or 1: one), asked before the flash model is created.
 * @list: entry in the frontend registry, protected by the registry lock.
 *
 * One frontend serves several devices; per-device state is in
 * &vflash_dev.fe_priv.
 */
struct vflash_frontend {
	const char *name;
	int (*attach)(struct vflash_dev *vdev);
	void (*detach)(struct vflash_dev *vdev);
	bool char_dev;
	int (*check_arg)(enum vflash_fe_arg arg, const char *val);
	int (*quiesce)(struct vflash_dev *vdev);
	void (*resume)(struct vflash_dev *vdev);
	int (*hold)(struct vflash_dev *vdev);
	void (*release)(struct vflash_dev *vdev);
	ssize_t (*img_save)(struct vflash_dev *vdev, void **blob);
	int (*img_load)(struct vflash_dev *vdev, const void *blob, size_t len);
	u32 (*placement_handles)(const struct vflash_config *cfg);
	struct list_head list;
};

int vflash_frontend_register(struct vflash_frontend *fe);
void vflash_frontend_unregister(struct vflash_frontend *fe);
const struct vflash_frontend *vflash_frontend_find(const char *name,
						   size_t len);
size_t vflash_frontend_names(char *buf, size_t size);
void vflash_frontends_release(struct vflash_dev *vdev);
size_t vflash_frontend_list(const struct vflash_config *cfg, char *buf,
			    size_t size);
int vflash_frontend_check_arg(enum vflash_fe_arg arg, const char *val);
void **vflash_frontend_priv(struct vflash_dev *vdev,
			    const struct vflash_frontend *fe);

int vflash_frontends_init(struct vflash_frontend *const *fes, unsigned int nr);
void vflash_frontends_exit(void);

/**
 * enum vflash_store_mode - what holds a device's data (store=)
 * @VFLASH_STORE_FULL: every page in memory from the start (the default)
 * @VFLASH_STORE_SPARSE: memory only for pages that hold data, allocated on
 *	their first write and freed when trimmed; the rest read as zeros
 * @VFLASH_STORE_NONE: no data at all: writes are timed and dropped, reads
 *	return zeros (FTL and GC studies at full capacity)
 * @VFLASH_STORE_NR: number of modes
 */
enum vflash_store_mode {
	VFLASH_STORE_FULL,
	VFLASH_STORE_SPARSE,
	VFLASH_STORE_NONE,
	VFLASH_STORE_NR,
};

const char *vflash_store_mode_name(enum vflash_store_mode mode);

/**
 * struct vflash_config - a validated load-time configuration
 * @size_bytes: device capacity, a multiple of PAGE_SIZE
 * @use_memmap: back the device with a boot-reserved physical range
 * @memmap_start: first byte of that range (only with @use_memmap)
 * @fe: frontends that drive the device, in the order given
 * @nr_fe: number of entries in @fe
 * @profile: the flash model as named (profile=)
 * @model: the flash model in force: @profile's figures with the geometry
 *	overrides applied; what the backend is created from
 * @store: what holds the data (store=); memmap ranges are always full
 * @arg: frontend parameters (enum vflash_fe_arg) as strings, each
 *	checked by its frontend's @check_arg; "" for the module parameter
 * @hold: create the device held: no frontend attached, no worker, until
 *	its state is set running (hold=1; docs/design/image.md)
 */
struct vflash_config {
	u64 size_bytes;
	bool use_memmap;
	phys_addr_t memmap_start;
	const struct vflash_frontend *fe[VFLASH_MAX_FRONTENDS];
	unsigned int nr_fe;
	const struct vflash_profile *profile;
	struct vflash_profile model;
	enum vflash_store_mode store;
	char arg[VFLASH_NR_ARGS][VFLASH_ARG_LEN];
	bool hold;
};

/* The value of frontend parameter @arg of @cfg, or NULL if not set. */
static inline const char *vflash_config_arg(const struct vflash_config *cfg,
					    enum vflash_fe_arg arg)
{
	return cfg->arg[arg][0] ? cfg->arg[arg] : NULL;
}

/* Allocated store: chunks of a contiguous block if one is to be had, else pages. */
#define VFLASH_CHUNK_ORDER	9
#define VFLASH_CHUNK_PAGES	BIT(VFLASH_CHUNK_ORDER)

/**
 * struct vflash_chunk - one piece of allocated backing memory
 * @block: an order-VFLASH_CHUNK_ORDER block, or NULL
 * @pages: the chunk's pages one by one, when @block is NULL; with
 *	store=sparse allocated on the chunk's first write, and each entry
 *	NULL until its page is written (set with cmpxchg, cleared with xchg)
 */
struct vflash_chunk {
	struct page *block;
	struct page **pages;
};

/**
 * struct vflash_backing - the store: what holds the device's data
 * @size_bytes: bytes the device holds, a multiple of PAGE_SIZE
 * @mode: full, sparse or none (store=)
 * @keep_pages: a frontend maps pages into user space, so a trimmed sparse
 *	page is zeroed in place, never freed under a mapping
 * @res: our claim on the memmap range, or NULL for allocated memory
 * @kaddr: write-back kernel mapping of the memmap range
 * @chunks: allocated memory, DIV_ROUND_UP(size, chunk) entries (none: NULL)
 * @nr_chunks: entries of @chunks that are set up
 * @scratch: store=none: the page a CXL write fault maps (data lost)
 * @zeros: store=none: the page of zeros a CXL read maps read-only (the
 *	shared zero page may not go into a mapping with pfn_mkwrite on 6.12)
 * @reserve_pages: store=sparse: free pages a write never takes, so the
 *	device, not the OOM killer, reports the shortage (READ_ONCE)
 * @bytes: memory the store holds (stats/store_bytes); atomic
 *
 * The pointers are immutable while the device lives; sparse pages come
 * and go by cmpxchg/xchg of their chunk's entries.
 */
struct vflash_backing {
	u64 size_bytes;
	enum vflash_store_mode mode;
	bool keep_pages;
	struct resource *res;
	void *kaddr;
	struct vflash_chunk *chunks;
	unsigned long nr_chunks;
	struct page *scratch;
	struct page *zeros;
	unsigned long reserve_pages;
	atomic_long_t bytes;
};

int vflash_backing_init(struct vflash_backing *b,
			const struct vflash_config *cfg);

/**
 * vflash_store_allocates() - may a write need memory the store lacks?
 * @b: the store
 *
 * Return: true for store=sparse (not on a reserved range).
 */
static inline bool vflash_store_allocates(const struct vflash_backing *b)
{
	return !b->res && b->mode == VFLASH_STORE_SPARSE;
}

void vflash_backing_exit(struct vflash_backing *b);
const void *vflash_store_read_page(const struct vflash_backing *b,
				   pgoff_t pgoff);
void *vflash_store_write_page(struct vflash_backing *b, pgoff_t pgoff,
			      gfp_t gfp);
int vflash_store_pfn(struct vflash_backing *b, pgoff_t pgoff, bool write,
		     unsigned long *pfn);
bool vflash_store_maps_pfn(const struct vflash_backing *b, pgoff_t pgoff,
			   unsigned long pfn);
void vflash_store_zero(struct vflash_backing *b, pgoff_t pgoff,
		       unsigned int offset, unsigned int len);
u64 vflash_store_bytes(const struct vflash_backing *b);
bool vflash_store_adopt_page(struct vflash_backing *b, pgoff_t pgoff,
			     struct page *page);
bool vflash_store_memory_for(const struct vflash_backing *b, unsigned long n);

static inline bool vflash_store_has_data(const struct vflash_backing *b)
{
	return b->mode != VFLASH_STORE_NONE;
}

/**
 * struct vflash_dev - one emulated device
 * @dev: the class device, /sys/class/vflash/vflash<id>; its release frees
 *	this structure
 * @id: instance number
 * @cfg: the configuration it was created with, immutable
 * @backing: its data
 * @flash: its flash model (backend_flash/flash.h)
 * @cache_ctl: its DRAM cache's control: knobs, policies, statistics and
 *	the cache a frontend attaches (backend_flash/cache/ctl.h)
 * @nr_attached: frontends of @cfg attached so far (attach/detach order)
 * @fe_priv: per-frontend state, indexed like @cfg.fe
 * @debugfs: its debugfs directory (core/debugfs.c)
 * @torture_result: the last torture run's outcome; debugfs.c's lock
 * @faults: its fault-injection rules (core/faults.c)
 * @cfs_item: the configfs directory that created it, or NULL for the
 *	device of the module parameters (core/configfs.c)
 * @held: no frontend attached and the worker stopped (state=held)
 * @ran: its frontends were attached at some time
 * @restored: an image was restored into it
 * @img: a save or restore under way (core/image.c), or NULL
 *
 * Fields are written only while the device is created or destroyed, or
 * (@held, @ran, @restored, @img, @nr_attached, @fe_priv) held and run, all
 * of which vflash_devices_lock serialises; everything else only reads them
 * (@held with READ_ONCE; @cache_ctl has its own lock for what changes
 * inside it).
 */
struct vflash_dev {
	struct device dev;
	int id;
	struct vflash_config cfg;
	struct vflash_backing backing;
	struct vflash_flash *flash;
	struct vflash_cache_ctl cache_ctl;
	unsigned int nr_attached;
	void *fe_priv[VFLASH_MAX_FRONTENDS];
	struct dentry *debugfs;
	char torture_result[192];
	struct vflash_faults faults;
	struct config_item *cfs_item;
	bool held;
	bool ran;
	bool restored;
	struct vflash_image *img;
};

static inline struct vflash_dev *to_vflash_dev(struct device *dev)
{
	return container_of(dev, struct vflash_dev, dev);
}

extern struct class vflash_class;

/* device.c: the devices, their numbers, and the lock of every device */
extern struct mutex vflash_devices_lock;
#define VFLASH_MAX_DEVICES	256
int vflash_devices_init(void);
void vflash_devices_exit(void);
struct vflash_dev *vflash_dev_create(const struct vflash_config *cfg,
				     struct config_item *cfs_item);
int vflash_dev_quiesce(struct vflash_dev *vdev);
int vflash_busy_restart(void);
void vflash_dev_resume(struct vflash_dev *vdev);

/* image.c: a held device's image (docs/design/image.md) */
ssize_t vflash_image_read(struct vflash_dev *vdev, char *buf, loff_t pos,
			  size_t count);
ssize_t vflash_image_write(struct vflash_dev *vdev, const char *buf,
			   loff_t pos, size_t count);
bool vflash_image_incomplete(struct vflash_dev *vdev, u64 *got, u64 *total);
void vflash_image_drop(struct vflash_dev *vdev, bool undo);

/* precondition.c: instant preconditioning (docs/design/precondition.md) */
extern struct device_attribute dev_attr_precondition;

/* model.c: what the model predicts (docs/design/model.md) */
extern struct device_attribute dev_attr_model;
struct vflash_profile;
ssize_t vflash_model_show(const struct vflash_profile *prof,
			  const struct vflash_flash *like, char *buf);

/* configfs.c: devices made at run time */
int vflash_configfs_init(void);
void vflash_configfs_exit(void);
int vflash_dev_hold(struct vflash_dev *vdev);
void vflash_dev_unhold(struct vflash_dev *vdev);

/* sysfs.c: the backend's policy/, stats/ and config/ directories */
extern const struct attribute_group *vflash_backend_groups[5];
int vflash_sysfs_init(void);
void vflash_sysfs_exit(void);

/* debugfs.c: test hooks */
void vflash_debugfs_add(struct vflash_dev *vdev);
void vflash_debugfs_remove(struct vflash_dev *vdev);
void vflash_debugfs_init(void);
void vflash_debugfs_exit(void);
void vflash_dev_destroy(struct vflash_dev *vdev);

#endif /* VFLASH_CORE_H */
