// SPDX-License-Identifier: GPL-2.0
/*
 * The power-loss log (docs/faults.md). While on, each write logs, per
 * page, a shadow of the page as it was and a struct vflash_undo that the
 * backend stamps with the time the page is durable. A cut at T takes
 * back, per page (dies finish in any order), every write not durable at
 * T. A page's records form a chain, newest first, in an xarray; its
 * newest durable record ends the chain for good, so older ones are
 * pruned and the log holds about a write buffer's worth of pages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/powerloss.h"
#include "core/vflash.h"

/* Prune durable records after this many logged writes. */
#define PRUNE_EVERY	64

/* Log memory never wakes the OOM killer: a write is refused instead. */
#define PL_GFP		(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

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
	xa_init(&pl->pages);
	pl->undo = NULL;
	pl->on = false;
	pl->since_prune = 0;
	pl->nr_pages = 0;
	pl->flash = flash;
	pl->backing = backing;
}

static bool has_data(const struct vflash_powerloss *pl)
{
	return pl->backing && vflash_store_has_data(pl->backing);
}

/* Free one record; the backend lets go of it first. */
static void free_rec(struct vflash_powerloss *pl, struct vflash_pl_rec *r)
{
	vflash_flash_undo_detach(pl->flash, &r->u);
	if (r->shadow)
		__free_page(r->shadow);
	pl->nr_pages--;
	kfree(r);
}

/* Free @r and every older record of its page. */
static void free_chain(struct vflash_powerloss *pl, struct vflash_pl_rec *r)
{
	struct vflash_pl_rec *older;

	for (; r; r = older) {
		older = r->older;
		free_rec(pl, r);
	}
}

/* Drop every record. */
static void free_all(struct vflash_powerloss *pl)
{
	struct vflash_pl_rec *r;
	unsigned long lpn;

	xa_for_each(&pl->pages, lpn, r) {
		xa_erase(&pl->pages, lpn);
		free_chain(pl, r);
		cond_resched();
	}
}

static bool durable(const struct vflash_pl_rec *r, u64 now_ns)
{
	return READ_ONCE(r->u.end_ns) <= now_ns;
}

/*
 * Per page, free the newest record durable by @now_ns and all older ones:
 * whatever the cut time (later than now), that record decides the page.
 */
static void prune(struct vflash_powerloss *pl, u64 now_ns)
{
	struct vflash_pl_rec *r, *newer;
	unsigned long lpn;

	xa_for_each(&pl->pages, lpn, r) {
		for (newer = NULL; r && !durable(r, now_ns); r = r->older)
			newer = r;
		if (!r)
			continue;
		if (newer)
			newer->older = NULL;
		else
			xa_erase(&pl->pages, lpn);
		free_chain(pl, r);
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
	kvfree(pl->undo);
	pl->undo = NULL;
	mutex_unlock(&pl->lock);
}

/* Whether @n more shadow pages leave the store's reserve untouched. */
static bool room_for(struct vflash_powerloss *pl, u32 n)
{
	return !has_data(pl) || vflash_store_memory_for(pl->backing, n);
}

/* A new record of page @lpn: its shadow copied, not yet linked. */
static struct vflash_pl_rec *new_rec(struct vflash_powerloss *pl, u64 lpn)
{
	struct vflash_pl_rec *r = kzalloc(sizeof(*r), PL_GFP);
	const void *old;

	if (!r)
		return NULL;
	r->u.end_ns = U64_MAX;
	r->u.die = U32_MAX;
	if (!has_data(pl))
		return r;
	old = vflash_store_read_page(pl->backing, lpn);
	/* A page of zeros needs no copy: the restore zeroes it. */
	if (!memchr_inv(old, 0, PAGE_SIZE))
		return r;
	r->shadow = alloc_page(PL_GFP);
	if (!r->shadow) {
		kfree(r);
		return NULL;
	}
	copy_page(page_address(r->shadow), (void *)old);
	return r;
}

static struct vflash_pl_rec *rec_of(struct vflash_undo *u)
{
	return container_of(u, struct vflash_pl_rec, u);
}

/**
 * vflash_pl_log() - log a write of pages [@lpn, @lpn + @count)
 * @pl: the log, locked by vflash_pl_lock()
 * @lpn: first logical page
 * @count: pages, at least 1
 * @first_off: the write's first byte in page @lpn (below a page)
 *
 * The write's data may be stored once this returns; its records go to
 * vflash_flash_submit_undo() before the lock is dropped. May sleep.
 *
 * Return: @count records for the backend, valid until vflash_pl_unlock();
 * NULL if memory ran out (nothing logged, nothing changed).
 */
struct vflash_undo *const *vflash_pl_log(struct vflash_powerloss *pl,
					 u64 lpn, u32 count, u32 first_off)
{
	struct vflash_pl_rec *r;
	u32 i, linked;

	lockdep_assert_held(&pl->lock);
	if (++pl->since_prune >= PRUNE_EVERY)
		prune(pl, ktime_get_ns());
	if (!room_for(pl, count))
		return NULL;
	kvfree(pl->undo);
	pl->undo = kvcalloc(count, sizeof(*pl->undo), PL_GFP);
	if (!pl->undo)
		return NULL;
	for (i = 0; i < count; i++) {
		r = new_rec(pl, lpn + i);
		if (!r)
			goto free;
		pl->undo[i] = &r->u;
		r->off = i ? 0 : first_off;
		pl->nr_pages++;
		if (!(i % 512))
			cond_resched();
	}
	/* Each page's newest record; a failed store undoes the others. */
	for (linked = 0; linked < count; linked++) {
		r = rec_of(pl->undo[linked]);
		r->older = xa_load(&pl->pages, lpn + linked);
		if (xa_err(xa_store(&pl->pages, lpn + linked, r, PL_GFP)))
			goto unlink;
	}
	return pl->undo;
unlink:
	while (linked--) {
		r = rec_of(pl->undo[linked]);
		/* Replacing or erasing a present entry allocates nothing. */
		if (r->older)
			xa_store(&pl->pages, lpn + linked, r->older, GFP_NOWAIT);
		else
			xa_erase(&pl->pages, lpn + linked);
	}
	i = count;
free:
	while (i--) {
		r = rec_of(pl->undo[i]);
		r->older = NULL;
		free_rec(pl, r);
	}
	kvfree(pl->undo);
	pl->undo = NULL;
	return NULL;
}

/**
 * vflash_pl_settle() - pages [@lpn, @lpn + @count) are durable as they are
 * @pl: the log, locked by vflash_pl_lock()
 * @lpn: first logical page
 * @count: pages
 *
 * For what is durable at once (Deallocate, Write Zeroes with DEAC, Write
 * Uncorrectable, a CXL store on a dual device). Allocates nothing.
 */
void vflash_pl_settle(struct vflash_powerloss *pl, u64 lpn, u64 count)
{
	struct vflash_pl_rec *r;
	unsigned long i;

	lockdep_assert_held(&pl->lock);
	if (!count)
		return;
	xa_for_each_range(&pl->pages, i, r, lpn, lpn + count - 1) {
		xa_erase(&pl->pages, i);
		free_chain(pl, r);
	}
}

/**
 * vflash_pl_keep_marks() - the frontend's state of a logged page
 * @pl: the log, locked by vflash_pl_lock(), after vflash_pl_log()
 * @i: the page's index in the write (0 for its first page)
 * @marks: its blocks' marks before the write, handed back by a cut
 */
void vflash_pl_keep_marks(struct vflash_powerloss *pl, u32 i, u8 marks)
{
	lockdep_assert_held(&pl->lock);
	rec_of(pl->undo[i])->marks = marks;
}

/* Put a page's contents before record @r back into the store. */
static void restore(struct vflash_backing *b, u64 lpn,
		    struct vflash_pl_rec *r)
{
	void *dst;

	if (!r->shadow) {
		vflash_store_zero(b, lpn, 0, PAGE_SIZE);
		return;
	}
	dst = vflash_store_write_page(b, lpn, PL_GFP);
	if (!IS_ERR_OR_NULL(dst)) {
		copy_page(dst, page_address(r->shadow));
		return;
	}
	/* No memory (store=sparse): the shadow page becomes the page. */
	if (vflash_store_adopt_page(b, lpn, r->shadow))
		r->shadow = NULL;
	else
		pr_err_ratelimited("power cut: no memory to put page %llu back\n",
				   lpn);
}

/**
 * vflash_pl_cut() - power is cut at @now_ns: take back what was not durable
 * @pl: the log
 * @now_ns: the time of the cut, on the backend's clock
 * @taken: NULL, or called under the log's lock for every restored page
 *	with the first byte and the marks of the oldest write it lost
 * @arg: its first argument
 *
 * Then the log is freed and off. No write may run meanwhile.
 *
 * Return: the logged page writes taken back.
 */
u64 vflash_pl_cut(struct vflash_powerloss *pl, u64 now_ns,
		  void (*taken)(void *arg, u64 lpn, u32 off, u8 marks),
		  void *arg)
{
	struct vflash_pl_rec *r, *oldest_lost;
	unsigned long lpn;
	u64 lost = 0;

	mutex_lock(&pl->lock);
	if (!pl->on)
		goto out;
	/* No backend pointer to a record survives: none is stamped later. */
	vflash_flash_undo_forget(pl->flash);
	xa_for_each(&pl->pages, lpn, r) {
		for (oldest_lost = NULL; r && !durable(r, now_ns);
		     r = r->older) {
			oldest_lost = r;
			lost++;
		}
		if (oldest_lost && has_data(pl))
			restore(pl->backing, lpn, oldest_lost);
		if (oldest_lost && taken)
			taken(arg, lpn, oldest_lost->off, oldest_lost->marks);
		cond_resched();
	}
	free_all(pl);
	pl->on = false;
out:
	mutex_unlock(&pl->lock);
	return lost;
}
