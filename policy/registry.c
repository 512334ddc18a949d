// SPDX-License-Identifier: GPL-2.0
/* The policy registry: one list per kind, under one mutex. */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "policy/policy.h"

static const char * const kind_names[VFLASH_POLICY_NR] = {
	[VFLASH_POLICY_GC] = "gc",
	[VFLASH_POLICY_PLACEMENT] = "placement",
	[VFLASH_POLICY_MIGRATION] = "migration",
	[VFLASH_POLICY_MAINTENANCE] = "maintenance",
	[VFLASH_POLICY_EVICTION] = "eviction",
	[VFLASH_POLICY_PREFETCH] = "prefetch",
};

/* Registered policies of each kind; the first registered is the default. */
static struct list_head policies[VFLASH_POLICY_NR] = {
	LIST_HEAD_INIT(policies[0]), LIST_HEAD_INIT(policies[1]),
	LIST_HEAD_INIT(policies[2]), LIST_HEAD_INIT(policies[3]),
	LIST_HEAD_INIT(policies[4]), LIST_HEAD_INIT(policies[5]),
};

static_assert(VFLASH_POLICY_NR == 6, "one list head per policy kind");

/* Protects policies[]. Never held while a policy's ops run. */
static DEFINE_MUTEX(policies_lock);

/**
 * vflash_policy_kind_name() - the sysfs name of a policy kind
 * @kind: the kind
 *
 * Return: "gc", "placement", ..., or NULL for an invalid kind.
 */
const char *vflash_policy_kind_name(enum vflash_policy_kind kind)
{
	return kind < VFLASH_POLICY_NR ? kind_names[kind] : NULL;
}

static struct vflash_policy *find_locked(enum vflash_policy_kind kind,
					 const char *name)
{
	struct vflash_policy *pol;

	list_for_each_entry(pol, &policies[kind], list)
		if (!strcmp(pol->name, name))
			return pol;
	return NULL;
}

/**
 * vflash_policy_register() - make a policy selectable
 * @pol: the policy; must stay valid until unregistered
 *
 * Return: 0, -EINVAL for a bad kind, name or ops, -EEXIST for a name its
 * kind already has.
 */
int vflash_policy_register(struct vflash_policy *pol)
{
	int ret = 0;

	if (pol->kind >= VFLASH_POLICY_NR || !pol->name || !*pol->name ||
	    strpbrk(pol->name, " []\n") || !pol->ops)
		return -EINVAL;
	mutex_lock(&policies_lock);
	if (find_locked(pol->kind, pol->name))
		ret = -EEXIST;
	else
		list_add_tail(&pol->list, &policies[pol->kind]);
	mutex_unlock(&policies_lock);
	return ret;
}

/**
 * vflash_policy_unregister() - remove a policy
 * @pol: the policy; no device may be using it
 */
void vflash_policy_unregister(struct vflash_policy *pol)
{
	mutex_lock(&policies_lock);
	list_del_init(&pol->list);
	mutex_unlock(&policies_lock);
}

/**
 * vflash_policy_find() - look a policy up
 * @kind: its kind
 * @name: its name; one trailing newline (as from sysfs) is ignored
 *
 * Return: the policy, or NULL.
 */
const struct vflash_policy *vflash_policy_find(enum vflash_policy_kind kind,
					       const char *name)
{
	const struct vflash_policy *pol;
	char buf[32];

	if (kind >= VFLASH_POLICY_NR || strscpy(buf, name, sizeof(buf)) < 0)
		return NULL;
	mutex_lock(&policies_lock);
	pol = find_locked(kind, strim(buf));
	mutex_unlock(&policies_lock);
	return pol;
}

/**
 * vflash_policy_default() - the policy a new device starts with
 * @kind: the kind
 *
 * Return: the first policy registered for @kind, or NULL if there is none.
 */
const struct vflash_policy *vflash_policy_default(enum vflash_policy_kind kind)
{
	const struct vflash_policy *pol;

	if (kind >= VFLASH_POLICY_NR)
		return NULL;
	mutex_lock(&policies_lock);
	pol = list_first_entry_or_null(&policies[kind], struct vflash_policy,
				       list);
	mutex_unlock(&policies_lock);
	return pol;
}

/**
 * vflash_policy_list() - print a kind's policies, the current one in brackets
 * @kind: the kind
 * @current_pol: the one to bracket, or NULL
 * @buf: receives "fifo [clock] lru\n", truncated to fit
 * @size: size of @buf
 *
 * Return: the length of the string in @buf.
 */
ssize_t vflash_policy_list(enum vflash_policy_kind kind,
			   const struct vflash_policy *current_pol, char *buf,
			   size_t size)
{
	const struct vflash_policy *pol;
	size_t len = 0;

	if (kind >= VFLASH_POLICY_NR || !size)
		return 0;
	buf[0] = '\0';
	mutex_lock(&policies_lock);
	list_for_each_entry(pol, &policies[kind], list)
		len += scnprintf(buf + len, size - len,
				 pol == current_pol ? "%s[%s]" : "%s%s",
				 len ? " " : "", pol->name);
	mutex_unlock(&policies_lock);
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}
