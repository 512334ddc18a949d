// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection rules, per device, in sysfs faults/<fault>/ (writable
 * under kernel lockdown, unlike debugfs, which has a read-only copy);
 * docs/faults.md. A rule is edited while disarmed. The request paths test
 * one static key (vflash_faults_armed) while no rule anywhere is armed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "backend_flash/flash.h"
#include "core/faults.h"

#define PPM			VFLASH_FAULT_PPM
#define MAX_DELAY_NS		(60ULL * NSEC_PER_SEC)

static const char *const fault_names[VFLASH_NR_FAULTS] = {
	[VFLASH_FAULT_READ_ERROR] = "read_error",
	[VFLASH_FAULT_WRITE_FAULT] = "write_fault",
	[VFLASH_FAULT_TIMEOUT] = "timeout",
	[VFLASH_FAULT_DELAY] = "delay",
	[VFLASH_FAULT_POISON] = "poison",
	[VFLASH_FAULT_READ_ONLY] = "read_only",
	[VFLASH_FAULT_FATAL] = "fatal",
	[VFLASH_FAULT_POWER_CUT] = "power_cut",
	[VFLASH_FAULT_PROGRAM_FAIL] = "program_fail",
	[VFLASH_FAULT_ERASE_FAIL] = "erase_fail",
};

static const enum vflash_stat fault_stats[VFLASH_NR_FAULTS] = {
	[VFLASH_FAULT_READ_ERROR] = VFLASH_STAT_FAULT_READ_ERRORS,
	[VFLASH_FAULT_WRITE_FAULT] = VFLASH_STAT_FAULT_WRITE_FAULTS,
	[VFLASH_FAULT_TIMEOUT] = VFLASH_STAT_FAULT_TIMEOUTS,
	[VFLASH_FAULT_DELAY] = VFLASH_STAT_FAULT_DELAYS,
	[VFLASH_FAULT_POISON] = VFLASH_STAT_FAULT_POISON_SIGNALS,
	[VFLASH_FAULT_READ_ONLY] = VFLASH_STAT_FAULT_READ_ONLY_WRITES,
	[VFLASH_FAULT_FATAL] = VFLASH_STAT_FAULT_FATAL,
	[VFLASH_FAULT_POWER_CUT] = VFLASH_STAT_FAULT_POWER_CUTS,
	[VFLASH_FAULT_PROGRAM_FAIL] = VFLASH_STAT_FAULT_PROGRAM_FAILS,
	[VFLASH_FAULT_ERASE_FAIL] = VFLASH_STAT_FAULT_ERASE_FAILS,
};

enum fault_file {
	FILE_ARMED,
	FILE_RANGE,
	FILE_PROBABILITY,
	FILE_AFTER,
	FILE_TIMES,
	FILE_DELAY_NS,
	FILE_MATCHED,
	FILE_INJECTED,
	FILE_CUT,
	NR_FILES,
};

static const char *const file_names[NR_FILES] = {
	[FILE_ARMED] = "armed",
	[FILE_RANGE] = "range",
	[FILE_PROBABILITY] = "probability",
	[FILE_AFTER] = "after",
	[FILE_TIMES] = "times",
	[FILE_DELAY_NS] = "delay_ns",
	[FILE_MATCHED] = "matched",
	[FILE_INJECTED] = "injected",
	[FILE_CUT] = "cut",
};

/* Whether rule @fault has file @f: delay_ns and cut belong to one each. */
static bool has_file(enum vflash_fault fault, enum fault_file f)
{
	if (f == FILE_DELAY_NS)
		return fault == VFLASH_FAULT_DELAY;
	if (f == FILE_CUT)
		return fault == VFLASH_FAULT_POWER_CUT;
	return true;
}

/**
 * __vflash_fault() - vflash_fault() once some rule is armed somewhere
 * @ft: the device's rules
 * @fault: the fault
 * @lpn: the command's first logical page
 * @count: its logical pages
 *
 * Return: true if the fault is to be injected; it is counted in stats/.
 */
bool __vflash_fault(struct vflash_faults *ft, enum vflash_fault fault,
		    u64 lpn, u64 count)
{
	if (!vflash_fault_rule_check(&ft->rule[fault], lpn, count))
		return false;
	vflash_flash_count(ft->flash, fault_stats[fault], 1);
	return true;
}

/* Take or drop a rule's reference on the static key; under ft->lock. */
static void hold_key(bool *held, bool on)
{
	if (on && !*held)
		static_branch_inc(&vflash_faults_armed);
	else if (!on && *held)
		static_branch_dec(&vflash_faults_armed);
	*held = on;
}

static int bad(struct vflash_faults *ft, enum vflash_fault fault,
	       enum fault_file file, const char *val, const char *why)
{
	pr_err("%s: faults/%s/%s=%s: %s\n", ft->name, fault_names[fault],
	       file_names[file], val, why);
	return -EINVAL;
}

static int set_range(struct vflash_faults *ft, struct vflash_fault_rule *r,
		     enum vflash_fault fault, const char *val)
{
	char buf[48], *dash;
	u64 first, last;

	if (!strcmp(val, "all")) {
		r->first = 0;
		r->last = ft->nr_lpages - 1;
		return 0;
	}
	/* An erase has no logical pages: every erase matches. */
	if (fault == VFLASH_FAULT_ERASE_FAIL)
		return bad(ft, fault, FILE_RANGE, val, "an erase has no range: all only");
	if (strscpy(buf, val, sizeof(buf)) < 0)
		return bad(ft, fault, FILE_RANGE, val, "too long");
	dash = strchr(buf, '-');
	if (!dash)
		return bad(ft, fault, FILE_RANGE, val, "not FIRST-LAST or all");
	*dash = '\0';
	if (kstrtou64(buf, 0, &first) || kstrtou64(dash + 1, 0, &last))
		return bad(ft, fault, FILE_RANGE, val, "not FIRST-LAST or all");
	if (first > last)
		return bad(ft, fault, FILE_RANGE, val, "FIRST is after LAST");
	if (last >= ft->nr_lpages)
		return bad(ft, fault, FILE_RANGE, val,
			   "past the device's last logical page");
	r->first = first;
	r->last = last;
	return 0;
}

/* Write 1 to faults/power_cut/cut; under ft->lock. */
static int cut_power(struct vflash_faults *ft, const char *val, u64 v)
{
	enum vflash_fault fault = VFLASH_FAULT_POWER_CUT;
	int ret;

	if (v != 1)
		return bad(ft, fault, FILE_CUT, val, "only 1 cuts the power");
	if (!READ_ONCE(ft->rule[fault].armed))
		return bad(ft, fault, FILE_CUT, val,
			   "arm the rule first: arming starts the log a cut needs");
	if (!ft->cut_hook) {
		pr_err("%s: faults/power_cut/cut=%s: this device's frontend has no power to cut (frontend=nvme has)\n",
		       ft->name, val);
		return -EOPNOTSUPP;
	}
	ret = ft->cut_hook(ft->cut_priv);
	if (!ret) {
		atomic64_inc(&ft->rule[fault].injected);
		vflash_flash_count(ft->flash, fault_stats[fault], 1);
	}
	if (ret)
		pr_err("%s: faults/power_cut/cut=%s: the power cycle failed (%d)\n",
		       ft->name, val, ret);
	return ret;
}

/**
 * vflash_fault_set() - write one file of a rule
 * @ft: the device's rules
 * @fault: the rule's fault
 * @file: the file's name
 * @val: the value, without its newline
 *
 * Return: 0, -EINVAL (with one dmesg line) for a bad value or file,
 * -EBUSY for a change to an armed rule.
 */
int vflash_fault_set(struct vflash_faults *ft, enum vflash_fault fault,
		     const char *file, const char *val)
{
	struct vflash_fault_rule *r = &ft->rule[fault];
	int f = match_string(file_names, NR_FILES, file);
	int ret = 0;
	u64 v = 0;

	if (f < 0 || f == FILE_MATCHED || f == FILE_INJECTED ||
	    !has_file(fault, f))
		return -EINVAL;
	if (f != FILE_RANGE && kstrtou64(val, 0, &v))
		return bad(ft, fault, f, val, "not a number");

	mutex_lock(&ft->lock);
	if (f == FILE_CUT) {
		ret = cut_power(ft, val, v);
		goto out;
	}
	if (f != FILE_ARMED && READ_ONCE(r->armed)) {
		pr_err("%s: faults/%s/%s=%s: the rule is armed: disarm it first\n",
		       ft->name, fault_names[fault], file_names[f], val);
		ret = -EBUSY;
		goto out;
	}
	switch (f) {
	case FILE_ARMED:
		if (v > 1) {
			ret = bad(ft, fault, f, val, "not 0 or 1");
			break;
		}
		if (v) {
			atomic64_set(&r->matched, 0);
			atomic64_set(&r->injected, 0);
			hold_key(&ft->key_held[fault], true);
			if (fault == VFLASH_FAULT_POWER_CUT && !ft->plp)
				vflash_pl_start(&ft->pl);
			/* Release: the fields and counts before the rule is seen armed. */
			smp_store_release(&r->armed, true);
			if (ft->armed_hook)
				ft->armed_hook(ft->hook_priv, fault, r->first,
					       r->last);
		} else {
			WRITE_ONCE(r->armed, false);
			hold_key(&ft->key_held[fault], false);
			if (fault == VFLASH_FAULT_POWER_CUT)
				vflash_pl_stop(&ft->pl);
		}
		break;
	case FILE_RANGE:
		ret = set_range(ft, r, fault, val);
		break;
	case FILE_PROBABILITY:
		if (v > PPM)
			ret = bad(ft, fault, f, val, "more than 1000000 per million");
		else
			r->ppm = v;
		break;
	case FILE_AFTER:
		r->after = v;
		break;
	case FILE_TIMES:
		r->times = v;
		break;
	case FILE_DELAY_NS:
		if (v > MAX_DELAY_NS)
			ret = bad(ft, fault, f, val, "more than 60 s");
		else
			r->delay_ns = v;
		break;
	}
out:
	mutex_unlock(&ft->lock);
	return ret;
}

static int show(struct vflash_faults *ft, enum vflash_fault fault,
		enum fault_file f, char *buf, size_t size)
{
	struct vflash_fault_rule *r = &ft->rule[fault];

	switch (f) {
	case FILE_ARMED:
		return scnprintf(buf, size, "%d\n", READ_ONCE(r->armed));
	case FILE_RANGE:
		if (r->first == 0 && r->last == ft->nr_lpages - 1)
			return scnprintf(buf, size, "all\n");
		return scnprintf(buf, size, "%llu-%llu\n", r->first, r->last);
	case FILE_PROBABILITY:
		return scnprintf(buf, size, "%u\n", r->ppm);
	case FILE_AFTER:
		return scnprintf(buf, size, "%llu\n", r->after);
	case FILE_TIMES:
		return scnprintf(buf, size, "%llu\n", r->times);
	case FILE_DELAY_NS:
		return scnprintf(buf, size, "%llu\n", r->delay_ns);
	case FILE_MATCHED:
		return scnprintf(buf, size, "%lld\n", atomic64_read(&r->matched));
	case FILE_INJECTED:
		return scnprintf(buf, size, "%lld\n", atomic64_read(&r->injected));
	default:
		return 0;
	}
}

/* A debugfs file's private data: which device, rule and file. */
struct fault_file_id {
	struct vflash_faults *ft;
	u8 fault;
	u8 file;
};

static ssize_t fault_file_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	const struct fault_file_id *id = file_inode(file)->i_private;
	char buf[48];
	int len;

	mutex_lock(&id->ft->lock);
	len = show(id->ft, id->fault, id->file, buf, sizeof(buf));
	mutex_unlock(&id->ft->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* debugfs: read-only (rules are set in sysfs) */
static const struct file_operations fault_file_fops = {
	.owner = THIS_MODULE,
	.read = fault_file_read,
	.llseek = default_llseek,
};

static ssize_t plp_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct vflash_faults *ft = file_inode(file)->i_private;
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(ft->plp));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* faults/plp: only while power_cut is disarmed (arming starts the log). */
static int set_plp(struct vflash_faults *ft, const char *buf)
{
	int ret = 0;
	u8 v;

	if (kstrtou8(buf, 0, &v) || v > 1) {
		pr_err("%s: faults/plp=%s: not 0 or 1\n", ft->name, buf);
		return -EINVAL;
	}
	mutex_lock(&ft->lock);
	if (READ_ONCE(ft->rule[VFLASH_FAULT_POWER_CUT].armed)) {
		pr_err("%s: faults/plp=%s: power_cut is armed: disarm it first\n",
		       ft->name, buf);
		ret = -EBUSY;
	} else {
		ft->plp = v;
	}
	mutex_unlock(&ft->lock);
	return ret;
}

static const struct file_operations plp_fops = {
	.owner = THIS_MODULE,
	.read = plp_read,
	.llseek = default_llseek,
};

/**
 * vflash_faults_init() - a device's rules, all disarmed
 * @ft: the rules
 * @flash: the device's backend (stats/)
 * @nr_lpages: the device's logical pages
 * @name: the device's name, for dmesg lines
 *
 * Return: 0 or -ENOMEM.
 */
int vflash_faults_init(struct vflash_faults *ft, struct vflash_flash *flash,
		       u64 nr_lpages, const char *name)
{
	int i;

	memset(ft, 0, sizeof(*ft));
	mutex_init(&ft->lock);
	ft->flash = flash;
	ft->nr_lpages = nr_lpages;
	strscpy(ft->name, name, sizeof(ft->name));
	vflash_pl_init(&ft->pl, flash, NULL);
	for (i = 0; i < VFLASH_NR_FAULTS; i++) {
		ft->rule[i].last = nr_lpages - 1;
		ft->rule[i].ppm = PPM;
	}
	ft->ids = kcalloc(VFLASH_NR_FAULTS * NR_FILES, sizeof(*ft->ids),
			  GFP_KERNEL);
	if (!ft->ids)
		return -ENOMEM;
	/* The backend asks program_fail and erase_fail itself. */
	if (flash)
		vflash_flash_set_fault_rules(flash,
					     &ft->rule[VFLASH_FAULT_PROGRAM_FAIL],
					     &ft->rule[VFLASH_FAULT_ERASE_FAIL]);
	return 0;
}

/**
 * vflash_faults_add_debugfs() - create faults/ under a device's directory
 * @ft: the rules
 * @parent: the device's debugfs directory (may be an error: optional)
 *
 * A read-only copy of the sysfs tree.
 */
void vflash_faults_add_debugfs(struct vflash_faults *ft, struct dentry *parent)
{
	struct fault_file_id *ids = ft->ids;
	struct dentry *d;
	int i, f;

	ft->dir = debugfs_create_dir("faults", parent);
	for (i = 0; i < VFLASH_NR_FAULTS; i++) {
		d = debugfs_create_dir(fault_names[i], ft->dir);
		for (f = 0; f < NR_FILES; f++) {
			struct fault_file_id *id = &ids[i * NR_FILES + f];

			if (!has_file(i, f) || f == FILE_CUT)
				continue;
			id->ft = ft;
			id->fault = i;
			id->file = f;
			debugfs_create_file(file_names[f], 0400, d, id,
					    &fault_file_fops);
		}
	}
	debugfs_create_file("plp", 0400, ft->dir, ft, &plp_fops);
}

/* sysfs faults/<fault>/: a kobject per rule. */
struct fault_kobj {
	struct kobject kobj;
	struct vflash_faults *ft;
	u8 fault;
};

static ssize_t rule_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf);
static ssize_t rule_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count);

/* One attribute per file, in enum fault_file's order. */
static struct kobj_attribute rule_attrs[NR_FILES] = {
	[FILE_ARMED] = __ATTR(armed, 0600, rule_show, rule_store),
	[FILE_RANGE] = __ATTR(range, 0600, rule_show, rule_store),
	[FILE_PROBABILITY] = __ATTR(probability, 0600, rule_show, rule_store),
	[FILE_AFTER] = __ATTR(after, 0600, rule_show, rule_store),
	[FILE_TIMES] = __ATTR(times, 0600, rule_show, rule_store),
	[FILE_DELAY_NS] = __ATTR(delay_ns, 0600, rule_show, rule_store),
	[FILE_MATCHED] = __ATTR(matched, 0400, rule_show, NULL),
	[FILE_INJECTED] = __ATTR(injected, 0400, rule_show, NULL),
	[FILE_CUT] = __ATTR(cut, 0200, NULL, rule_store),
};

static struct attribute *rule_attr_ptrs[NR_FILES + 1] = {
	&rule_attrs[FILE_ARMED].attr, &rule_attrs[FILE_RANGE].attr,
	&rule_attrs[FILE_PROBABILITY].attr, &rule_attrs[FILE_AFTER].attr,
	&rule_attrs[FILE_TIMES].attr, &rule_attrs[FILE_DELAY_NS].attr,
	&rule_attrs[FILE_MATCHED].attr, &rule_attrs[FILE_INJECTED].attr,
	&rule_attrs[FILE_CUT].attr, NULL,
};

static struct fault_kobj *to_fault_kobj(struct kobject *kobj)
{
	return container_of(kobj, struct fault_kobj, kobj);
}

static ssize_t rule_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct fault_kobj *fk = to_fault_kobj(kobj);
	int len;

	mutex_lock(&fk->ft->lock);
	len = show(fk->ft, fk->fault, attr - rule_attrs, buf, PAGE_SIZE);
	mutex_unlock(&fk->ft->lock);
	return len;
}

static ssize_t rule_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	struct fault_kobj *fk = to_fault_kobj(kobj);
	char val[48];
	int ret;

	if (count >= sizeof(val))
		return -EINVAL;
	strscpy(val, buf, sizeof(val));
	ret = vflash_fault_set(fk->ft, fk->fault,
			       file_names[attr - rule_attrs], strim(val));
	return ret ? ret : count;
}

static umode_t rule_visible(struct kobject *kobj, struct attribute *attr,
			    int n)
{
	return has_file(to_fault_kobj(kobj)->fault, n) ? attr->mode : 0;
}

static const struct attribute_group rule_group = {
	.attrs = rule_attr_ptrs,
	.is_visible = rule_visible,
};

static const struct attribute_group *rule_groups[] = { &rule_group, NULL };

static void rule_release(struct kobject *kobj)
{
	kfree(to_fault_kobj(kobj));
}

static const struct kobj_type rule_ktype = {
	.release = rule_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rule_groups,
};

static ssize_t plp_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	struct vflash_faults *ft = to_fault_kobj(kobj)->ft;

	return sysfs_emit(buf, "%d\n", READ_ONCE(ft->plp));
}

static ssize_t plp_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	char val[24];
	int ret;

	if (count >= sizeof(val))
		return -EINVAL;
	strscpy(val, buf, sizeof(val));
	ret = set_plp(to_fault_kobj(kobj)->ft, strim(val));
	return ret ? ret : count;
}

static struct kobj_attribute plp_attr = __ATTR(plp, 0600, plp_show, plp_store);
static struct attribute *faultdir_attrs[] = { &plp_attr.attr, NULL };
ATTRIBUTE_GROUPS(faultdir);

static const struct kobj_type dir_ktype = {
	.release = rule_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = faultdir_groups,
};

/* A kobject @name under @parent of type @ktype for rule @fault, or NULL. */
static struct kobject *add_kobj(struct vflash_faults *ft, u8 fault,
				const struct kobj_type *ktype,
				struct kobject *parent, const char *name)
{
	struct fault_kobj *fk = kzalloc(sizeof(*fk), GFP_KERNEL);

	if (!fk)
		return NULL;
	fk->ft = ft;
	fk->fault = fault;
	if (kobject_init_and_add(&fk->kobj, ktype, parent, "%s", name)) {
		kobject_put(&fk->kobj);
		return NULL;
	}
	return &fk->kobj;
}

/**
 * vflash_faults_add_sysfs() - create faults/ under a device's sysfs directory
 * @ft: the rules
 * @parent: the device's kobject
 *
 * Return: 0 or -ENOMEM (nothing left behind).
 */
int vflash_faults_add_sysfs(struct vflash_faults *ft, struct kobject *parent)
{
	int i;

	ft->kdir = add_kobj(ft, 0, &dir_ktype, parent, "faults");
	if (!ft->kdir)
		return -ENOMEM;
	for (i = 0; i < VFLASH_NR_FAULTS; i++) {
		ft->krule[i] = add_kobj(ft, i, &rule_ktype, ft->kdir,
					fault_names[i]);
		if (!ft->krule[i]) {
			vflash_faults_remove_sysfs(ft);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * vflash_faults_remove_sysfs() - remove faults/ from sysfs
 * @ft: the rules; a store in progress is waited for
 */
void vflash_faults_remove_sysfs(struct vflash_faults *ft)
{
	int i;

	for (i = 0; i < VFLASH_NR_FAULTS; i++) {
		if (!ft->krule[i])
			continue;
		kobject_del(ft->krule[i]);
		kobject_put(ft->krule[i]);
		ft->krule[i] = NULL;
	}
	if (ft->kdir) {
		kobject_del(ft->kdir);
		kobject_put(ft->kdir);
		ft->kdir = NULL;
	}
}

/**
 * vflash_faults_set_hook() - be told when a rule is armed
 * @ft: the rules
 * @hook: called under the rules' lock, in process context, once a rule is
 *	armed, with its fault and range; NULL to stop
 * @priv: its first argument
 */
void vflash_faults_set_hook(struct vflash_faults *ft,
			    void (*hook)(void *priv, enum vflash_fault fault,
					 u64 first, u64 last),
			    void *priv)
{
	mutex_lock(&ft->lock);
	ft->armed_hook = hook;
	ft->hook_priv = priv;
	mutex_unlock(&ft->lock);
}

/**
 * vflash_faults_set_cut_hook() - offer a way to cut the power
 * @ft: the rules
 * @hook: cuts the power and returns once the device is back (0) or with
 *	an errno; called under the rules' lock, in process context, when
 *	1 is written to faults/power_cut/cut; NULL to withdraw it (waits
 *	for a cut in progress)
 * @priv: its argument
 */
void vflash_faults_set_cut_hook(struct vflash_faults *ft,
				int (*hook)(void *priv), void *priv)
{
	mutex_lock(&ft->lock);
	ft->cut_hook = hook;
	ft->cut_priv = priv;
	mutex_unlock(&ft->lock);
}

/**
 * vflash_fault_disarm() - a rule disarms itself on the request path
 * @ft: the rules
 * @fault: the rule
 *
 * It keeps its static key reference until disarmed by hand. Any context.
 */
void vflash_fault_disarm(struct vflash_faults *ft, enum vflash_fault fault)
{
	WRITE_ONCE(ft->rule[fault].armed, false);
}

/**
 * vflash_faults_destroy() - disarm every rule and free what init took
 * @ft: the rules; their debugfs files are gone (debugfs_remove_recursive()
 *	of the parent waits for readers and writers)
 */
void vflash_faults_destroy(struct vflash_faults *ft)
{
	int i;

	mutex_lock(&ft->lock);
	for (i = 0; i < VFLASH_NR_FAULTS; i++) {
		WRITE_ONCE(ft->rule[i].armed, false);
		hold_key(&ft->key_held[i], false);
	}
	mutex_unlock(&ft->lock);
	vflash_pl_stop(&ft->pl);
	if (ft->flash)
		vflash_flash_set_fault_rules(ft->flash, NULL, NULL);
	kfree(ft->ids);
	ft->ids = NULL;
}
