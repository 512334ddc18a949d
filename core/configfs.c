// SPDX-License-Identifier: GPL-2.0
/*
 * Devices made at run time: /sys/kernel/config/vflash/<name>/; power=1
 * creates the device, 0 or rmdir destroys it. Attributes are read-only
 * while powered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/configfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/params.h"
#include "core/vflash.h"

/**
 * struct cfs_row - how one attribute is checked and applied
 * @name: the attribute's name, which is also the parameter's
 * @dflt: its value after mkdir
 * @in_off: core rows: offset of its field in struct vflash_param_strings
 * @arg: frontend rows: the parameter (enum vflash_fe_arg), checked by its
 *	frontend, empty for the module parameter's value; core rows: -1
 */
struct cfs_row {
	const char *name;
	const char *dflt;
	size_t in_off;
	int arg;
};

#define CFS_CORE(_name, _dflt) {					\
	.name = #_name, .dflt = _dflt, .arg = -1,			\
	.in_off = offsetof(struct vflash_param_strings, _name),		\
}

#define CFS_FE(_name, _arg) { .name = #_name, .dflt = "", .arg = _arg }

/* The attributes besides power and device, in the order ls shows them. */
static const struct cfs_row cfs_rows[] = {
	CFS_CORE(frontend, ""),
	CFS_CORE(size, VFLASH_DEFAULT_SIZE),
	CFS_CORE(profile, VFLASH_DEFAULT_PROFILE),
	CFS_CORE(store, "full"),
	CFS_CORE(channels, ""),
	CFS_CORE(dies_per_channel, ""),
	CFS_CORE(page_size, ""),
	CFS_CORE(pages_per_block, ""),
	CFS_CORE(op_percent, ""),
	CFS_CORE(hold, "0"),
	CFS_FE(cache_size, VFLASH_ARG_CACHE_SIZE),
	CFS_FE(lba_size, VFLASH_ARG_LBA_SIZE),
	CFS_FE(workers, VFLASH_ARG_WORKERS),
	CFS_FE(poll_idle_us, VFLASH_ARG_POLL_IDLE_US),
	CFS_FE(spin_us, VFLASH_ARG_SPIN_US),
	CFS_FE(cpus, VFLASH_ARG_CPUS),
	CFS_FE(zoned, VFLASH_ARG_ZONED),
	CFS_FE(zone_size, VFLASH_ARG_ZONE_SIZE),
	CFS_FE(zone_cap, VFLASH_ARG_ZONE_CAP),
	CFS_FE(zone_max_open, VFLASH_ARG_ZONE_MAX_OPEN),
	CFS_FE(zone_max_active, VFLASH_ARG_ZONE_MAX_ACTIVE),
	CFS_FE(nap_max_us, VFLASH_ARG_NAP_MAX_US),
	CFS_FE(fdp, VFLASH_ARG_FDP),
	CFS_FE(fdp_ruhs, VFLASH_ARG_FDP_RUHS),
	CFS_FE(ns1_size, VFLASH_ARG_NS1_SIZE),
	CFS_FE(zone_ext_bytes, VFLASH_ARG_ZONE_EXT_BYTES),
	CFS_FE(zone_frl_s, VFLASH_ARG_ZONE_FRL_S),
	CFS_FE(zone_rrl_s, VFLASH_ARG_ZONE_RRL_S),
	CFS_FE(zone_zrwa, VFLASH_ARG_ZONE_ZRWA),
	CFS_FE(zone_zrwa_size, VFLASH_ARG_ZONE_ZRWA_SIZE),
	CFS_FE(zone_zrwa_fg, VFLASH_ARG_ZONE_ZRWA_FG),
	CFS_FE(zone_zrwa_nr, VFLASH_ARG_ZONE_ZRWA_NR),
};

#define CFS_NR	ARRAY_SIZE(cfs_rows)

/* The row of attribute @name, or CFS_NR (power and device). */
static unsigned int cfs_row_of(const char *name)
{
	unsigned int a;

	for (a = 0; a < CFS_NR; a++)
		if (!strcmp(cfs_rows[a].name, name))
			break;
	return a;
}

/**
 * struct vflash_cfs_dev - one directory of /sys/kernel/config/vflash
 * @item: its configfs item; the release frees this structure
 * @val: each attribute's value as written (no newline), or its default;
 *	vflash_devices_lock
 * @vdev: the device while powered, else NULL; vflash_devices_lock
 */
struct vflash_cfs_dev {
	struct config_item item;
	char val[CFS_NR][VFLASH_ARG_LEN];
	struct vflash_dev *vdev;
};

static struct vflash_cfs_dev *to_cfs_dev(struct config_item *item)
{
	return container_of(item, struct vflash_cfs_dev, item);
}

static void print_param_error(const struct vflash_param_error *err)
{
	if (err->value)
		pr_err("%s=%s: %s\n", err->param, err->value, err->why);
	else
		pr_err("%s: %s\n", err->param, err->why);
}

/* Check value @val of attribute @a on its own (one dmesg line if bad). */
static int cfs_check(unsigned int a, const char *val)
{
	const struct cfs_row *row = &cfs_rows[a];
	struct vflash_param_strings in = { .frontend = "none", .alone = true };
	struct vflash_param_error err;
	struct vflash_config *cfg;
	int ret;

	if (!*val)
		return 0;
	if (row->arg >= 0)
		return vflash_frontend_check_arg(row->arg, val);

	cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	*(const char **)((char *)&in + row->in_off) = val;
	ret = vflash_parse_config(&in, cfg, &err);
	if (ret)
		print_param_error(&err);
	kfree(cfg);
	return ret;
}

static ssize_t cfs_show(struct config_item *item, char *page, unsigned int a)
{
	struct vflash_cfs_dev *cd = to_cfs_dev(item);
	ssize_t len;

	mutex_lock(&vflash_devices_lock);
	len = scnprintf(page, PAGE_SIZE, "%s\n", cd->val[a]);
	mutex_unlock(&vflash_devices_lock);
	return len;
}

static ssize_t cfs_store(struct config_item *item, const char *page,
			 size_t count, unsigned int a)
{
	struct vflash_cfs_dev *cd = to_cfs_dev(item);
	const char *name = cfs_rows[a].name;
	char val[VFLASH_ARG_LEN];
	size_t len = count;
	int ret;

	if (len && page[len - 1] == '\n')
		len--;
	if (len >= sizeof(val) || memchr(page, '\0', len)) {
		pr_err("%s: not a string of at most %zu bytes\n", name,
		       sizeof(val) - 1);
		return -EINVAL;
	}
	memcpy(val, page, len);
	val[len] = '\0';

	mutex_lock(&vflash_devices_lock);
	if (cd->vdev) {
		pr_err("%s: %s is powered; write 0 to its power first\n", name,
		       config_item_name(item));
		ret = -EBUSY;
	} else {
		ret = cfs_check(a, val);
		if (!ret)
			strscpy(cd->val[a], *val ? val : cfs_rows[a].dflt,
				sizeof(cd->val[a]));
	}
	mutex_unlock(&vflash_devices_lock);
	return ret ? ret : count;
}

/* An attribute with a row in cfs_rows: its show and store. */
#define VFLASH_CFS_ATTR(_name)						\
static ssize_t vflash_cfs_##_name##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return cfs_show(item, page, cfs_row_of(#_name));		\
}									\
static ssize_t vflash_cfs_##_name##_store(struct config_item *item,	\
					  const char *page,		\
					  size_t count)			\
{									\
	return cfs_store(item, page, count, cfs_row_of(#_name));	\
}									\
CONFIGFS_ATTR(vflash_cfs_, _name)

VFLASH_CFS_ATTR(frontend);
VFLASH_CFS_ATTR(size);
VFLASH_CFS_ATTR(profile);
VFLASH_CFS_ATTR(store);
VFLASH_CFS_ATTR(channels);
VFLASH_CFS_ATTR(dies_per_channel);
VFLASH_CFS_ATTR(page_size);
VFLASH_CFS_ATTR(pages_per_block);
VFLASH_CFS_ATTR(op_percent);
VFLASH_CFS_ATTR(hold);
VFLASH_CFS_ATTR(cache_size);
VFLASH_CFS_ATTR(lba_size);
VFLASH_CFS_ATTR(workers);
VFLASH_CFS_ATTR(poll_idle_us);
VFLASH_CFS_ATTR(spin_us);
VFLASH_CFS_ATTR(cpus);
VFLASH_CFS_ATTR(zoned);
VFLASH_CFS_ATTR(zone_size);
VFLASH_CFS_ATTR(zone_cap);
VFLASH_CFS_ATTR(zone_max_open);
VFLASH_CFS_ATTR(zone_max_active);
VFLASH_CFS_ATTR(nap_max_us);
VFLASH_CFS_ATTR(fdp);
VFLASH_CFS_ATTR(fdp_ruhs);
VFLASH_CFS_ATTR(ns1_size);
VFLASH_CFS_ATTR(zone_ext_bytes);
VFLASH_CFS_ATTR(zone_frl_s);
VFLASH_CFS_ATTR(zone_rrl_s);
VFLASH_CFS_ATTR(zone_zrwa);
VFLASH_CFS_ATTR(zone_zrwa_size);
VFLASH_CFS_ATTR(zone_zrwa_fg);
VFLASH_CFS_ATTR(zone_zrwa_nr);

/* Create the device of @cd from its attributes. */
static int power_on(struct vflash_cfs_dev *cd)
{
	struct vflash_param_strings in = { NULL };
	struct vflash_param_error err;
	struct vflash_config *cfg;
	struct vflash_dev *vdev;
	unsigned int a;
	int ret;

	lockdep_assert_held(&vflash_devices_lock);
	cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	for (a = 0; a < CFS_NR; a++)
		if (cfs_rows[a].arg < 0 && cd->val[a][0])
			*(const char **)((char *)&in + cfs_rows[a].in_off) =
				cd->val[a];
	ret = vflash_parse_config(&in, cfg, &err);
	if (ret) {
		print_param_error(&err);
		goto out;
	}
	for (a = 0; a < CFS_NR; a++)
		if (cfs_rows[a].arg >= 0)
			strscpy(cfg->arg[cfs_rows[a].arg], cd->val[a],
				sizeof(cfg->arg[0]));

	vdev = vflash_dev_create(cfg, &cd->item);
	if (IS_ERR(vdev)) {
		ret = PTR_ERR(vdev);
		goto out;
	}
	cd->vdev = vdev;
out:
	kfree(cfg);
	return ret;
}

/* Destroy the device of @cd; -EBUSY if users hold it. */
static int power_off(struct vflash_cfs_dev *cd)
{
	int ret;

	lockdep_assert_held(&vflash_devices_lock);
	ret = vflash_dev_quiesce(cd->vdev);
	if (ret)
		return ret;
	vflash_dev_destroy(cd->vdev);
	cd->vdev = NULL;
	return 0;
}

static ssize_t vflash_cfs_power_show(struct config_item *item, char *page)
{
	struct vflash_cfs_dev *cd = to_cfs_dev(item);
	bool on;

	mutex_lock(&vflash_devices_lock);
	on = cd->vdev;
	mutex_unlock(&vflash_devices_lock);
	return scnprintf(page, PAGE_SIZE, "%d\n", on);
}

static ssize_t vflash_cfs_power_store(struct config_item *item,
				      const char *page, size_t count)
{
	struct vflash_cfs_dev *cd = to_cfs_dev(item);
	unsigned int on;
	int ret = 0;

	if (kstrtouint(page, 10, &on) || on > 1) {
		pr_err("power=%.*s: must be 0 or 1\n",
		       (int)strcspn(page, "\n"), page);
		return -EINVAL;
	}
	mutex_lock(&vflash_devices_lock);
	if (on && !cd->vdev) {
		ret = power_on(cd);
	} else if (!on && cd->vdev) {
		ret = power_off(cd);
		if (ret)
			pr_err("power=0: %s is in use (/dev/%s is open or mapped)\n",
			       config_item_name(item), dev_name(&cd->vdev->dev));
	}
	mutex_unlock(&vflash_devices_lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(vflash_cfs_, power);

/* The device's name while powered (vflashN), else an empty line. */
static ssize_t vflash_cfs_device_show(struct config_item *item, char *page)
{
	struct vflash_cfs_dev *cd = to_cfs_dev(item);
	ssize_t len;

	mutex_lock(&vflash_devices_lock);
	len = scnprintf(page, PAGE_SIZE, "%s\n",
			cd->vdev ? dev_name(&cd->vdev->dev) : "");
	mutex_unlock(&vflash_devices_lock);
	return len;
}
CONFIGFS_ATTR_RO(vflash_cfs_, device);

/*
 * What the model predicts for the directory's profile and geometry, with
 * the profile's knobs (docs/design/model.md): the scratch model is private,
 * so only the attributes are read under vflash_devices_lock.
 */
static ssize_t vflash_cfs_model_show(struct config_item *item, char *page)
{
	struct vflash_cfs_dev *cd = to_cfs_dev(item);
	struct vflash_param_strings in = { NULL };
	struct vflash_param_error err;
	struct vflash_config *cfg;
	unsigned int a;
	ssize_t ret;

	cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	mutex_lock(&vflash_devices_lock);
	for (a = 0; a < CFS_NR; a++)
		if (cfs_rows[a].arg < 0 && cd->val[a][0])
			*(const char **)((char *)&in + cfs_rows[a].in_off) =
				cd->val[a];
	/* The model needs no frontend: one not set yet is none. */
	if (!in.frontend)
		in.frontend = "none";
	ret = vflash_parse_config(&in, cfg, &err);
	mutex_unlock(&vflash_devices_lock);
	if (ret)
		print_param_error(&err);
	else
		ret = vflash_model_show(&cfg->model, NULL, page);
	kfree(cfg);
	return ret;
}
CONFIGFS_ATTR_RO(vflash_cfs_, model);

static struct configfs_attribute *vflash_cfs_attrs[] = {
	&vflash_cfs_attr_frontend,
	&vflash_cfs_attr_size,
	&vflash_cfs_attr_profile,
	&vflash_cfs_attr_store,
	&vflash_cfs_attr_channels,
	&vflash_cfs_attr_dies_per_channel,
	&vflash_cfs_attr_page_size,
	&vflash_cfs_attr_pages_per_block,
	&vflash_cfs_attr_op_percent,
	&vflash_cfs_attr_hold,
	&vflash_cfs_attr_cache_size,
	&vflash_cfs_attr_lba_size,
	&vflash_cfs_attr_workers,
	&vflash_cfs_attr_poll_idle_us,
	&vflash_cfs_attr_spin_us,
	&vflash_cfs_attr_cpus,
	&vflash_cfs_attr_zoned,
	&vflash_cfs_attr_zone_size,
	&vflash_cfs_attr_zone_cap,
	&vflash_cfs_attr_zone_max_open,
	&vflash_cfs_attr_zone_max_active,
	&vflash_cfs_attr_nap_max_us,
	&vflash_cfs_attr_fdp,
	&vflash_cfs_attr_fdp_ruhs,
	&vflash_cfs_attr_ns1_size,
	&vflash_cfs_attr_zone_ext_bytes,
	&vflash_cfs_attr_zone_frl_s,
	&vflash_cfs_attr_zone_rrl_s,
	&vflash_cfs_attr_zone_zrwa,
	&vflash_cfs_attr_zone_zrwa_size,
	&vflash_cfs_attr_zone_zrwa_fg,
	&vflash_cfs_attr_zone_zrwa_nr,
	&vflash_cfs_attr_power,
	&vflash_cfs_attr_device,
	&vflash_cfs_attr_model,
	NULL,
};

static void vflash_cfs_release(struct config_item *item)
{
	kfree(to_cfs_dev(item));
}

static struct configfs_item_operations vflash_cfs_item_ops = {
	.release = vflash_cfs_release,
};

static const struct config_item_type vflash_cfs_dev_type = {
	.ct_item_ops = &vflash_cfs_item_ops,
	.ct_attrs = vflash_cfs_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_item *vflash_cfs_make_item(struct config_group *group,
						const char *name)
{
	struct vflash_cfs_dev *cd;
	unsigned int a;

	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd)
		return ERR_PTR(-ENOMEM);
	for (a = 0; a < CFS_NR; a++)
		strscpy(cd->val[a], cfs_rows[a].dflt, sizeof(cd->val[a]));
	config_item_init_type_name(&cd->item, name, &vflash_cfs_dev_type);
	return &cd->item;
}

/*
 * rmdir: a powered device is destroyed first. configfs refuses the rmdir
 * (-EBUSY) while a file of the device holds it (vflash_dev_hold()), and
 * no attribute write runs any more, so the destroy cannot be refused.
 */
static void vflash_cfs_drop_item(struct config_group *group,
				 struct config_item *item)
{
	struct vflash_cfs_dev *cd = to_cfs_dev(item);

	mutex_lock(&vflash_devices_lock);
	if (cd->vdev && WARN_ON(power_off(cd)))
		cd->vdev = NULL;	/* leaked rather than freed under a user */
	mutex_unlock(&vflash_devices_lock);
	config_item_put(item);
}

static struct configfs_group_operations vflash_cfs_group_ops = {
	.make_item = vflash_cfs_make_item,
	.drop_item = vflash_cfs_drop_item,
};

static const struct config_item_type vflash_cfs_group_type = {
	.ct_group_ops = &vflash_cfs_group_ops,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem vflash_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = VFLASH_NAME,
			.ci_type = &vflash_cfs_group_type,
		},
	},
};

/**
 * vflash_dev_hold() - keep a device's configfs directory from removal
 * @vdev: a device, created and not yet destroyed
 *
 * While held, rmdir of the directory fails with -EBUSY. The device of the
 * module parameters has none: holding it does nothing.
 *
 * Return: 0, or a negative errno if the directory is being removed.
 */
int vflash_dev_hold(struct vflash_dev *vdev)
{
	if (!vdev->cfs_item)
		return 0;
	return configfs_depend_item(&vflash_cfs_subsys, vdev->cfs_item);
}

/**
 * vflash_dev_unhold() - undo a successful vflash_dev_hold()
 * @vdev: the device
 */
void vflash_dev_unhold(struct vflash_dev *vdev)
{
	if (vdev->cfs_item)
		configfs_undepend_item(vdev->cfs_item);
}

/**
 * vflash_configfs_init() - add /sys/kernel/config/vflash
 *
 * Every directory made in it holds a reference on the module, so the
 * module is unloaded only once all of them are removed.
 *
 * Return: 0 or a negative errno after one dmesg line.
 */
int vflash_configfs_init(void)
{
	unsigned int i;
	int ret;

	/*
	 * The table and the attributes agree: all but the last three
	 * (power, device, model) have a row.
	 */
	BUILD_BUG_ON(ARRAY_SIZE(vflash_cfs_attrs) != CFS_NR + 4);
	for (i = 0; i < CFS_NR; i++) {
		if (cfs_row_of(vflash_cfs_attrs[i]->ca_name) == CFS_NR) {
			pr_err("configfs attribute %s has no row\n",
			       vflash_cfs_attrs[i]->ca_name);
			return -EINVAL;
		}
	}

	config_group_init(&vflash_cfs_subsys.su_group);
	mutex_init(&vflash_cfs_subsys.su_mutex);
	ret = configfs_register_subsystem(&vflash_cfs_subsys);
	if (ret)
		pr_err("cannot register in configfs (%d)\n", ret);
	return ret;
}

/**
 * vflash_configfs_exit() - remove /sys/kernel/config/vflash, now empty
 */
void vflash_configfs_exit(void)
{
	configfs_unregister_subsystem(&vflash_cfs_subsys);
}
