// SPDX-License-Identifier: GPL-2.0
/* The frontend registry: named ops tables, as the block layer's elevators. */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "core/vflash.h"

/* Registered frontends, in registration order. */
static LIST_HEAD(vflash_frontends);
/*
 * Protects vflash_frontends. Never held while a frontend's attach, detach,
 * quiesce or resume runs (check_arg, a pure function, runs under it).
 */
static DEFINE_MUTEX(vflash_frontends_lock);

static struct vflash_frontend *find_locked(const char *name, size_t len)
{
	struct vflash_frontend *fe;

	lockdep_assert_held(&vflash_frontends_lock);
	list_for_each_entry(fe, &vflash_frontends, list)
		if (strlen(fe->name) == len && !strncmp(fe->name, name, len))
			return fe;
	return NULL;
}

/**
 * vflash_frontend_register() - make a frontend available to frontend=
 * @fe: the frontend; must stay valid until unregistered
 *
 * Return: 0, -EINVAL if @fe lacks a name or ops, -EEXIST if the name is
 * taken.
 */
int vflash_frontend_register(struct vflash_frontend *fe)
{
	int ret = 0;

	if (!fe->name || !*fe->name || strchr(fe->name, ',') ||
	    !fe->attach || !fe->detach)
		return -EINVAL;

	mutex_lock(&vflash_frontends_lock);
	if (find_locked(fe->name, strlen(fe->name)))
		ret = -EEXIST;
	else
		list_add_tail(&fe->list, &vflash_frontends);
	mutex_unlock(&vflash_frontends_lock);
	return ret;
}

/**
 * vflash_frontend_unregister() - remove a registered frontend
 * @fe: the frontend; no device may be using it
 */
void vflash_frontend_unregister(struct vflash_frontend *fe)
{
	mutex_lock(&vflash_frontends_lock);
	list_del_init(&fe->list);
	mutex_unlock(&vflash_frontends_lock);
}

/**
 * vflash_frontend_find() - look a frontend up by name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length
 *
 * Return: the frontend, or NULL if none is registered under that name.
 */
const struct vflash_frontend *vflash_frontend_find(const char *name,
						   size_t len)
{
	const struct vflash_frontend *fe;

	mutex_lock(&vflash_frontends_lock);
	fe = find_locked(name, len);
	mutex_unlock(&vflash_frontends_lock);
	return fe;
}

/**
 * vflash_frontend_names() - list the registered frontends
 * @buf: receives the names separated by spaces, or "(none registered)"
 * @size: size of @buf; the list is truncated to fit
 *
 * Return: the length of the string in @buf.
 */
size_t vflash_frontend_names(char *buf, size_t size)
{
	struct vflash_frontend *fe;
	size_t len = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	mutex_lock(&vflash_frontends_lock);
	list_for_each_entry(fe, &vflash_frontends, list)
		len += scnprintf(buf + len, size - len, "%s%s",
				 len ? " " : "", fe->name);
	mutex_unlock(&vflash_frontends_lock);
	if (!len)
		len = scnprintf(buf, size, "(none registered)");
	return len;
}

/**
 * vflash_frontend_list() - a configuration's frontends, as frontend= names them
 * @cfg: the configuration
 * @buf: where to write "nvme,cxl" (NUL-terminated)
 * @size: size of @buf
 *
 * Return: the length written.
 */
size_t vflash_frontend_list(const struct vflash_config *cfg, char *buf,
			    size_t size)
{
	size_t len = 0;
	unsigned int i;

	if (!size)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < cfg->nr_fe; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? "," : "",
				 cfg->fe[i]->name);
	return len;
}

/**
 * vflash_frontend_check_arg() - check a value of a frontend parameter
 * @arg: the parameter
 * @val: its value, a NUL-terminated string
 *
 * The frontend @arg belongs to prints one dmesg line if @val is bad.
 *
 * Return: 0 or -EINVAL.
 */
int vflash_frontend_check_arg(enum vflash_fe_arg arg, const char *val)
{
	struct vflash_frontend *fe;
	int ret = 0;

	mutex_lock(&vflash_frontends_lock);
	list_for_each_entry(fe, &vflash_frontends, list) {
		if (fe->check_arg)
			ret = fe->check_arg(arg, val);
		if (ret)
			break;
	}
	mutex_unlock(&vflash_frontends_lock);
	return ret;
}

/**
 * vflash_frontend_priv() - where a frontend keeps its state for a device
 * @vdev: the device
 * @fe: one of the frontends @vdev was configured with
 *
 * Return: @fe's slot of &vflash_dev.fe_priv (the index @fe has in
 * @vdev's configuration), or NULL if @vdev does not use @fe.
 */
void **vflash_frontend_priv(struct vflash_dev *vdev,
			    const struct vflash_frontend *fe)
{
	unsigned int i;

	for (i = 0; i < vdev->cfg.nr_fe; i++)
		if (vdev->cfg.fe[i] == fe)
			return &vdev->fe_priv[i];
	return NULL;
}

/**
 * vflash_frontends_release() - a device's frontends free what they kept
 *	for it across holds
 * @vdev: the device, its frontends detached
 */
void vflash_frontends_release(struct vflash_dev *vdev)
{
	unsigned int i;

	for (i = 0; i < vdev->cfg.nr_fe; i++)
		if (vdev->cfg.fe[i]->release)
			vdev->cfg.fe[i]->release(vdev);
}

/* "none": no host interface; the core and backend alone, for tests. */
static int none_attach(struct vflash_dev *vdev)
{
	return 0;
}

static void none_detach(struct vflash_dev *vdev)
{
}

static struct vflash_frontend none_frontend = {
	.name = "none",
	.attach = none_attach,
	.detach = none_detach,
};

/* The table vflash_frontends_init() registered, for the exit. */
static struct vflash_frontend *const *builtin_fes;
static unsigned int nr_builtin_fes;

/**
 * vflash_frontends_init() - register the frontends built into the module
 * @fes: a table of them, besides "none" (which the core always has); it
 *	must stay valid until vflash_frontends_exit()
 * @nr: entries in @fes
 *
 * Called once, before any device exists.
 *
 * Return: 0 or a negative errno, with nothing left registered.
 */
int vflash_frontends_init(struct vflash_frontend *const *fes, unsigned int nr)
{
	unsigned int i;
	int ret;

	ret = vflash_frontend_register(&none_frontend);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		ret = vflash_frontend_register(fes[i]);
		if (ret)
			goto err;
	}
	builtin_fes = fes;
	nr_builtin_fes = nr;
	return 0;
err:
	while (i--)
		vflash_frontend_unregister(fes[i]);
	vflash_frontend_unregister(&none_frontend);
	return ret;
}

/**
 * vflash_frontends_exit() - unregister what vflash_frontends_init() did
 */
void vflash_frontends_exit(void)
{
	unsigned int i = nr_builtin_fes;

	while (i--)
		vflash_frontend_unregister(builtin_fes[i]);
	nr_builtin_fes = 0;
	builtin_fes = NULL;
	vflash_frontend_unregister(&none_frontend);
}
