/* SPDX-License-Identifier: GPL-2.0 */
/* Fault injection rules, per device, checked on the request paths. */
#ifndef VFLASH_FAULTS_H
#define VFLASH_FAULTS_H

#include <linux/atomic.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "backend_flash/fault_rule.h"
#include "core/powerloss.h"

struct dentry;
struct kobject;
struct fault_file_id;
struct vflash_flash;

/**
 * enum vflash_fault - the faults a rule injects
 * @VFLASH_FAULT_READ_ERROR: a read fails (NVMe Unrecovered Read Error)
 * @VFLASH_FAULT_WRITE_FAULT: a write fails (NVMe Write Fault), unstored
 * @VFLASH_FAULT_TIMEOUT: a command is never completed
 * @VFLASH_FAULT_DELAY: a command completes delay_ns after its model time
 * @VFLASH_FAULT_POISON: (CXL) an access gets SIGBUS, BUS_MCEERR_AR
 * @VFLASH_FAULT_READ_ONLY: (NVMe) a write to the range fails with
 *	Namespace Is Write Protected; SMART reports read-only media
 * @VFLASH_FAULT_FATAL: (NVMe) the controller stops with Controller
 *	Fatal Status until the host resets it
 * @VFLASH_FAULT_POWER_CUT: unprogrammed buffered writes are lost (no PLP)
 * @VFLASH_FAULT_PROGRAM_FAIL: (flash) the program of a host page of the
 *	range fails: its block is retired, its data moved and rewritten
 * @VFLASH_FAULT_ERASE_FAIL: (flash) an erase fails: the block is retired
 * @VFLASH_NR_FAULTS: number of faults
 */
enum vflash_fault {
	VFLASH_FAULT_READ_ERROR,
	VFLASH_FAULT_WRITE_FAULT,
	VFLASH_FAULT_TIMEOUT,
	VFLASH_FAULT_DELAY,
	VFLASH_FAULT_POISON,
	VFLASH_FAULT_READ_ONLY,
	VFLASH_FAULT_FATAL,
	VFLASH_FAULT_POWER_CUT,
	VFLASH_FAULT_PROGRAM_FAIL,
	VFLASH_FAULT_ERASE_FAIL,
	VFLASH_NR_FAULTS,
};

/**
 * struct vflash_faults - a device's fault rules
 * @lock: serialises the debugfs writers (arming, disarming, editing)
 *	and readers; held while @armed_hook runs (lock order: @lock, then
 *	the CXL inode's i_mmap_rwsem, which unmap_mapping_range() takes)
 * @rule: one rule per fault
 * @key_held: the rule holds a reference on vflash_faults_armed
 * @flash: the backend, whose stats/ count injections
 * @nr_lpages: the device's logical pages (a range must lie inside)
 * @name: the device's name, for dmesg lines
 * @dir: the debugfs directory faults/
 * @ids: the debugfs files' private data
 * @kdir: the sysfs directory faults/, or NULL
 * @krule: its directory per rule
 * @armed_hook: called under @lock when a rule is armed, or NULL
 * @hook_priv: its argument
 * @cut_hook: cuts the power now, under @lock, or NULL (no power to cut)
 * @cut_priv: its argument
 * @plp: power-loss protection: a cut loses nothing (faults/plp)
 * @pl: the power-loss log, on while power_cut is armed without @plp
 */
struct vflash_faults {
	struct mutex lock;	/* see the kernel-doc above */
	struct vflash_fault_rule rule[VFLASH_NR_FAULTS];
	bool key_held[VFLASH_NR_FAULTS];
	struct vflash_flash *flash;
	u64 nr_lpages;
	char name[16];
	struct dentry *dir;
	struct fault_file_id *ids;
	struct kobject *kdir;
	struct kobject *krule[VFLASH_NR_FAULTS];
	void (*armed_hook)(void *priv, enum vflash_fault fault, u64 first,
			   u64 last);
	void *hook_priv;
	int (*cut_hook)(void *priv);
	void *cut_priv;
	bool plp;
	struct vflash_powerloss pl;
};

bool __vflash_fault(struct vflash_faults *ft, enum vflash_fault fault,
		    u64 lpn, u64 count);

/**
 * vflash_fault() - does @fault fire for a command on pages [@lpn, @lpn + @count)?
 * @ft: the device's rules
 * @fault: the fault
 * @lpn: the command's first logical page
 * @count: its logical pages (0: a command without a range, e.g. Flush)
 *
 * With no rule armed on any device, one static branch.
 */
static inline bool vflash_fault(struct vflash_faults *ft,
				enum vflash_fault fault, u64 lpn, u64 count)
{
	if (!static_branch_unlikely(&vflash_faults_armed))
		return false;
	return __vflash_fault(ft, fault, lpn, count);
}

/**
 * vflash_fault_covers() - is @lpn in the range of @fault's armed rule?
 * @ft: the device's rules
 * @fault: the fault
 * @lpn: a logical page
 *
 * Counts and injects nothing.
 */
static inline bool vflash_fault_covers(struct vflash_faults *ft,
				       enum vflash_fault fault, u64 lpn)
{
	struct vflash_fault_rule *r = &ft->rule[fault];

	if (!static_branch_unlikely(&vflash_faults_armed))
		return false;
	/* Acquire: pairs with arming's release; the range is the armed one. */
	return smp_load_acquire(&r->armed) && lpn >= r->first && lpn <= r->last;
}

/* Whether the rule of @fault is armed (a state, for SMART). */
static inline bool vflash_fault_armed(struct vflash_faults *ft,
				      enum vflash_fault fault)
{
	return vflash_fault_rule_armed(&ft->rule[fault]);
}

int vflash_faults_init(struct vflash_faults *ft, struct vflash_flash *flash,
		       u64 nr_lpages, const char *name);
void vflash_faults_add_debugfs(struct vflash_faults *ft, struct dentry *parent);
int vflash_faults_add_sysfs(struct vflash_faults *ft, struct kobject *parent);
void vflash_faults_remove_sysfs(struct vflash_faults *ft);
void vflash_faults_destroy(struct vflash_faults *ft);
void vflash_faults_set_cut_hook(struct vflash_faults *ft,
				int (*hook)(void *priv), void *priv);
void vflash_fault_disarm(struct vflash_faults *ft, enum vflash_fault fault);
int vflash_fault_set(struct vflash_faults *ft, enum vflash_fault fault,
		     const char *file, const char *val);
void vflash_faults_set_hook(struct vflash_faults *ft,
			    void (*hook)(void *priv, enum vflash_fault fault,
					 u64 first, u64 last),
			    void *priv);

#endif /* VFLASH_FAULTS_H */
