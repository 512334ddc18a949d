// SPDX-License-Identifier: GPL-2.0
/*
 * The power-loss log. While it is on, a frontend logs each write before
 * its data reach the backing memory: for every page the write touches, a
 * copy of the page as it was (a shadow) and a struct vflash_undo that the
 * backend stamps with the end of the program that makes the page durable
 * (backend_flash/undo.c). A power cut at T takes back every logged page
 * whose program had not ended by T: the page gets the contents of the
 * newest durable write before it, or what it held before logging began,
 * which is what a drive whose write buffer lost power returns. Entries
 * whose pages are all durable are freed as writes go on, so the log holds
 * about the write buffer's worth of pages.
 *
 * Logical page N always lives in store page N: the restore copies the
 * shadow back there (store=sparse may give it memory again; store=none
 * keeps no shadows, it has no data to take back).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "core/powerloss.h"
#include "core/vflash.h"

/* Free durable entries after this many logged writes. */
#define PRUNE_EVERY	64

/**
 * vflash_pl_init() - an empty log, off
 * @pl: the log
 * @flash: the device's backend
 * @backing: its memory, or NULL to log without shadows
 */
void vflash_pl_init(struct vflash_powerloss *pl, struct vflash_flash *flash,
		    struct vflash_backing *backing)
{
	mutex_init(&pl->lock);
	INIT_LIST_HEAD(&pl->entries);
	pl->on = false;
	pl->since_prune = 0;
	pl->nr_pages = 0;
	pl->flash = flash;
	pl->backing = backing;
}

static void free_entry(struct vflash_powerloss *pl, struct vflash_pl_entry *e)
{
	u32 i;

	for (i = 0; i < e->count; i++)
		if (e->page[i].shadow)
			__free_page(e->page[i].shadow);
	pl->nr_pages -= e->count;
	list_del(&e->node);
	kvfree(e);
}

/* Drop every entry; the backend must hold none of their records. */
static void free_all(struct vflash_powerloss *pl)
{
	struct vflash_pl_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, &pl->entries, node)
		free_entry(pl, e);
}

/* Free the entries whose every page was durable by @now_ns. */
static void prune(struct vflash_powerloss *pl, u64 now_ns)
{
	struct vflash_pl_entry *e, *tmp;
	u32 i;

	list_for_each_entry_safe(e, tmp, &pl->entries, node) {
		for (i = 0; i < e->count; i++)
			if (READ_ONCE(e->page[i].u.end_ns) > now_ns)
				break;
		if (i == e->count)
			free_entry(pl, e);
	}
	pl->since_prune = 0;
}

/**
 * vflash_pl_start() - log writes from now on
 * @pl: the log
 *
 * Writes before it count as durable (a cut never takes them back).
 */
void vflash_pl_start(struct vflash_powerloss *pl)
{
	mutex_lock(&pl->lock);
	pl->on = true;
	mutex_unlock(&pl->lock);
}

/**
 * vflash_pl_stop() - stop logging and free the log
 * @pl: the log
 */
void vflash_pl_stop(struct vflash_powerloss *pl)
{
	mutex_lock(&pl->lock);
	if (pl->on) {
		vflash_flash_undo_forget(pl->flash);
		free_all(pl);
		pl->on = false;
	}
	mutex_unlock(&pl->lock);
}

/**
 * vflash_pl_lock() - about to write: is the log on?
 * @pl: the log
 *
 * Return: true with the log's lock held, to be released with
 * vflash_pl_unlock() once the backend has the write's records; false
 * (nothing held) if writes are not logged.
 */
bool vflash_pl_lock(struct vflash_powerloss *pl)
{
	if (!READ_ONCE(pl->on))
		return false;
	mutex_lock(&pl->lock);
	if (pl->on)
		return true;
	mutex_unlock(&pl->lock);
	return false;
}

/**
 * vflash_pl_unlock() - the backend has the logged write's records
 * @pl: the log, locked by vflash_pl_lock()
 */
void vflash_pl_unlock(struct vflash_powerloss *pl)
{
	mutex_unlock(&pl->lock);
}

/**
 * vflash_pl_log() - log a write of pages [@lpn, @lpn + @count)
 * @pl: the log, locked by vflash_pl_lock()
 * @lpn: first logical page
 * @count: pages, at least 1
 *
 * Copies each page's current contents; the write's data may be stored
 * once this returns, and its records (entry->undo) go to
 * vflash_flash_submit_undo() before the lock is dropped. May sleep.
 *
 * Return: the entry, or NULL if memory ran out (nothing logged).
 */
struct vflash_pl_entry *vflash_pl_log(struct vflash_powerloss *pl, u64 lpn,
				      u32 count)
{
	struct vflash_pl_entry *e;
	u32 i;

	lockdep_assert_held(&pl->lock);
	if (++pl->since_prune >= PRUNE_EVERY)
		prune(pl, ktime_get_ns());
	e = kvzalloc(struct_size(e, page, count) + count * sizeof(*e->undo),
		     GFP_KERNEL);
	if (!e)
		return NULL;
	e->count = count;
	e->undo = (struct vflash_undo **)&e->page[count];
	for (i = 0; i < count; i++) {
		struct vflash_pl_page *p = &e->page[i];

		p->lpn = lpn + i;
		p->u.end_ns = U64_MAX;
		e->undo[i] = &p->u;
		if (!pl->backing || !vflash_store_has_data(pl->backing))
			continue;
		p->shadow = alloc_page(GFP_KERNEL);
		if (!p->shadow)
			goto err;
		copy_page(page_address(p->shadow),
			  (void *)vflash_store_read_page(pl->backing, p->lpn));
	}
	list_add_tail(&e->node, &pl->entries);
	pl->nr_pages += count;
	return e;
err:
	while (i--)
		__free_page(e->page[i].shadow);
	kvfree(e);
	return NULL;
}

/* Put a page's shadow back into the store. */
static void restore(struct vflash_backing *b, struct vflash_pl_page *p)
{
	void *dst = vflash_store_write_page(b, p->lpn, GFP_KERNEL |
					    __GFP_RETRY_MAYFAIL);

	if (!IS_ERR_OR_NULL(dst))
		copy_page(dst, page_address(p->shadow));
	else if (dst)
		pr_err_ratelimited("power cut: no memory to put page %llu back\n",
				   p->lpn);
}

/**
 * vflash_pl_cut() - power is cut at @now_ns: take back what was not durable
 * @pl: the log
 * @now_ns: the time of the cut, on the backend's clock
 *
 * Walks the log from the newest write back: a page's newest durable write
 * decides it (its data are what the page holds now, or what the next
 * write's shadow holds); every later write is undone, newest first, so
 * the page ends with the oldest undone write's shadow. Then the log is
 * freed and logging stops (arm the rule again to log again). The caller
 * makes sure no write runs meanwhile.
 *
 * Return: the logged page writes taken back.
 */
u64 vflash_pl_cut(struct vflash_powerloss *pl, u64 now_ns)
{
	struct vflash_pl_entry *e;
	struct xarray decided;
	u64 lost = 0;
	u32 i;

	xa_init(&decided);
	mutex_lock(&pl->lock);
	if (!pl->on)
		goto out;
	/* No backend pointer to a record survives: none is stamped later. */
	vflash_flash_undo_forget(pl->flash);
	list_for_each_entry_reverse(e, &pl->entries, node) {
		for (i = 0; i < e->count; i++) {
			struct vflash_pl_page *p = &e->page[i];

			if (xa_load(&decided, p->lpn))
				continue;
			if (READ_ONCE(p->u.end_ns) <= now_ns) {
				if (xa_err(xa_store(&decided, p->lpn,
						    xa_mk_value(1), GFP_KERNEL)))
					pr_err_ratelimited("power cut: no memory to track page %llu\n",
							   p->lpn);
				continue;
			}
			lost++;
			if (p->shadow)
				restore(pl->backing, p);
		}
	}
	free_all(pl);
	pl->on = false;
out:
	mutex_unlock(&pl->lock);
	xa_destroy(&decided);
	return lost;
}
