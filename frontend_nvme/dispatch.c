// SPDX-License-Identifier: GPL-2.0
/*
 * One dispatcher owns the controller (CC, fetch, execute); each completion
 * waits in a min-heap until its due time and the heap's owner (the
 * dispatcher, or its CQ's completion worker) posts it.
 *
 * Posting happens under the CQ's lock, after checking that the CQ is live
 * and of the command's generation, so no thread writes host memory the
 * driver has taken back; nor while CC.EN or Bus Master Enable is clear.
 * A heap's owner holds its lock while it pops and posts a batch: Delete
 * I/O SQ relies on it. Lock order: heap lock, then a CQ lock.
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "backend_flash/trace.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define FETCH_BURST		32
#define POST_BATCH		16
/* A Delete I/O SQ whose SQ still has completions to post looks again then. */
#define VFN_DELETE_RETRY_NS	10000
#define IDLE_SLEEP_US		100
#define IDLE_SLEEP_MAX_US	1000
/*
 * Idle this long, the naps grow to nap_max_us: an idle device costs a
 * fraction of a percent of a CPU.
 */
#define IDLE_LONG_NS		(250 * NSEC_PER_MSEC)
#define SLACK_NS		5000

/* CAP: MQES 1023, CQR, TO 10 s, CSS NVM (and I/O sets), MPS 4 KiB. */
#define CAP_LO		(VFN_MQES | BIT(16) | 0x14 << 24)
#define CAP_HI		BIT(37 - 32)
#define CAP_HI_CSS_IOCS	BIT(43 - 32)

static __always_inline void heap_swap(struct vfn_cmd *a, struct vfn_cmd *b)
{
	struct vfn_cmd t = *a;

	*a = *b;
	*b = t;
}

/* Add @cmd; true if it became the earliest. Caller holds h->lock. */
static __always_inline bool heap_push(struct vfn_heap *h,
				      const struct vfn_cmd *cmd)
{
	u32 i = h->nr++;

	h->cmd[i] = *cmd;
	while (i && h->cmd[(i - 1) / 2].due_ns > h->cmd[i].due_ns) {
		heap_swap(&h->cmd[(i - 1) / 2], &h->cmd[i]);
		i = (i - 1) / 2;
	}
	return !i;
}

/* Caller holds h->lock. */
static __always_inline void heap_sift_down(struct vfn_heap *h, u32 i)
{
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->nr && h->cmd[l].due_ns < h->cmd[m].due_ns)
			m = l;
		if (r < h->nr && h->cmd[r].due_ns < h->cmd[m].due_ns)
			m = r;
		if (m == i)
			return;
		heap_swap(&h->cmd[i], &h->cmd[m]);
		i = m;
	}
}

/* Caller holds h->lock. */
static __always_inline void heap_pop(struct vfn_heap *h)
{
	if (--h->nr) {
		h->cmd[0] = h->cmd[h->nr];
		heap_sift_down(h, 0);
	}
}

static u32 *doorbell(struct vfn_ctrl *c, u32 qid, bool cq)
{
	return c->bar + VFN_DB_OFF + (2 * qid + cq) * 4;
}

static __always_inline struct vfn_heap *heap_of(struct vfn_ctrl *c,
						u16 cqid)
{
	return &c->heap[c->cq_heap[cqid]];
}

/*
 * Count an I/O completion's lateness against the model. @at is the
 * drain's clock reading, the posting time while *@fresh; later ones read
 * the clock again but never count earlier than @at (KUnit drains at times
 * of its choosing). @final: posted early at shutdown, on purpose: none.
 */
static __always_inline void count_lateness(struct vfn_ctrl *c,
					   const struct vfn_cmd *cmd, u64 at,
					   bool *fresh, bool final)
{
	struct vflash_flash *f = c->vdev->flash;
	u64 now = at;

	if (!*fresh)
		now = max(at, ktime_get_ns());
	*fresh = false;
	if (final && now < cmd->model_due_ns)
		return;
	vflash_flash_record_lateness(f, cmd->model_due_ns, now);
	/* Its arguments are worked out only while the event is on. */
	if (trace_vflash_request_complete_enabled())
		trace_vflash_request_complete(vflash_flash_id(f),
					      VFLASH_FE_NVME, cmd->op,
					      cmd->lpn, cmd->count,
					      cmd->model_due_ns, now, cmd->id,
					      le16_to_cpu(cmd->cqe.sq_id),
					      cmd->cqe.command_id);
}

/*
 * The host may submit again at once: poll for poll_idle_ns, and end a nap
 * (a command fetched a nap late would start late, time the model never
 * charged).
 */
static __always_inline void host_activity(struct vfn_ctrl *c, u64 now)
{
	WRITE_ONCE(c->last_busy_ns, now);
	/* Store, then look at the flag; pairs with vfn_dispatch_sleep(). */
	smp_mb();
	if (READ_ONCE(c->napping) && c->heap[0].task)
		wake_up_process(c->heap[0].task);
}

/*
 * Return: true if done with the completion (posted, or dropped because its
 * CQ was deleted or reset since the fetch); false if its CQ is full or DMA
 * is off: *@retry_ns is the CQ's backoff, doubling up to
 * VFN_CQ_BACKOFF_MAX_NS, so a stuck CQ does not spin a thread.
 */
static __always_inline bool post(struct vfn_ctrl *c, const struct vfn_cmd *cmd,
				 u64 at, bool *fresh, bool final,
				 unsigned long *raise, u64 *retry_ns)
{
	struct vfn_queue *cq = &c->cq[cmd->cqid];
	struct nvme_completion e = cmd->cqe;
	u64 *backoff = &c->cq_backoff_ns[cmd->cqid];
	bool ok = true;

	spin_lock(&c->cq_lock[cmd->cqid]);
	if (cq->live && cq->gen == cmd->gen) {
		e.sq_head = cpu_to_le16(READ_ONCE(c->sq[le16_to_cpu(e.sq_id)].head));
		ok = vfn_host_allows_dma(c) &&
		     vfn_cq_post(cq, READ_ONCE(*doorbell(c, cmd->cqid, true)),
				 &e, cmd->sc);
		if (ok) {
			*backoff = 0;
			if (cmd->timed)
				count_lateness(c, cmd, at, fresh, final);
			if (cq->irq_enabled)
				__set_bit(cmd->cqid, raise);
		} else {
			*backoff = clamp_t(u64, 2 * *backoff,
					   VFN_CQ_BACKOFF_MIN_NS,
					   VFN_CQ_BACKOFF_MAX_NS);
			*retry_ns = *backoff;
		}
	}
	spin_unlock(&c->cq_lock[cmd->cqid]);
	return ok;
}

/**
 * vfn_raise_irqs() - raise the vectors of the CQs marked in @raise
 * @c: the controller
 * @raise: a bitmap of CQ ids, cleared on return
 */
void vfn_raise_irqs(struct vfn_ctrl *c, unsigned long *raise)
{
	u32 w;

	/*
	 * A word at a time, inline: most calls find nothing marked, and
	 * for_each_set_bit() would call find_next_bit() twice for one CQ.
	 */
	for (w = 0; w < BITS_TO_LONGS(VFN_MAX_IOQ + 1); w++) {
		unsigned long bits = raise[w];

		raise[w] = 0;
		while (bits) {
			u32 q = w * BITS_PER_LONG + __ffs(bits);

			bits &= bits - 1;
			c->ops->raise_irq(c, READ_ONCE(c->cq[q].vector));
		}
	}
}

static bool sq_left_in(const struct vfn_heap *h, u16 qid)
{
	u32 i;

	for (i = 0; i < h->nr; i++)
		if (le16_to_cpu(h->cmd[i].cqe.sq_id) == qid &&
		    !h->cmd[i].wait_sq)
			return true;
	return false;
}

/* @held: a heap whose lock the caller holds (heap 0, whose drain asks). */
static bool sq_completions_left(struct vfn_ctrl *c, u16 qid,
				struct vfn_heap *held)
{
	struct vfn_heap *h = heap_of(c, c->sq[qid].cqid);
	bool left;

	if (h == held)
		return sq_left_in(h, qid);
	spin_lock_nested(&h->lock, SINGLE_DEPTH_NESTING);
	left = sq_left_in(h, qid);
	spin_unlock(&h->lock);
	return left;
}

/**
 * vfn_drain() - post the completions of a heap that are due
 * @c: the controller
 * @h: the heap; the caller is its owner (or holds off its owner)
 * @now: post what is due by then: a clock reading taken just before the
 *	call (the first completion's lateness is counted at it), or U64_MAX
 *	with @final
 * @final: drop instead of keeping what cannot be posted (shutdown)
 * @raise: CQs owed an interrupt are marked here
 *
 * Return: the due time of the earliest completion left, or U64_MAX.
 */
u64 vfn_drain(struct vfn_ctrl *c, struct vfn_heap *h, u64 now, bool final,
	      unsigned long *raise)
{
	/* A shutdown drains at U64_MAX: its lateness is on the clock. */
	u64 next, retry_ns, at = final ? ktime_get_ns() : now;
	bool fresh = true;
	u32 n, posted = 0;

	do {
		n = 0;
		spin_lock(&h->lock);
		/*
		 * Post the earliest in place, then pop it: the lock is held
		 * throughout, so no popped entry is on its way to a CQ
		 * outside it. One that must wait gets a later due time.
		 */
		while (h->nr && h->cmd[0].due_ns <= now && n < POST_BATCH) {
			struct vfn_cmd *top = &h->cmd[0];

			n++;
			/* A Delete I/O SQ waits for its SQ's completions. */
			if (unlikely(top->wait_sq) && !final &&
			    sq_completions_left(c, top->wait_sq, h)) {
				top->due_ns = now + VFN_DELETE_RETRY_NS;
				heap_sift_down(h, 0);
				continue;
			}
			if (post(c, top, at, &fresh, final, raise, &retry_ns)) {
				posted++;
				heap_pop(h);
			} else if (final) {
				heap_pop(h);
			} else {
				top->due_ns = now + retry_ns;
				heap_sift_down(h, 0);
			}
		}
		next = h->nr ? h->cmd[0].due_ns : U64_MAX;
		spin_unlock(&h->lock);
	} while (n == POST_BATCH && next <= now);
	if (posted && !final)
		host_activity(c, now);
	return next;
}

/* Make every CQ dead for the threads that post, and forget all pending. */
static void kill_queues(struct vfn_ctrl *c)
{
	u32 q;

	for (q = 0; q <= VFN_MAX_IOQ; q++) {
		spin_lock(&c->cq_lock[q]);
		c->cq[q].live = false;
		c->cq[q].gen++;
		c->cq_backoff_ns[q] = 0;
		spin_unlock(&c->cq_lock[q]);
		c->sq[q].live = false;
	}
	c->sq_scan = 0;
	for (q = 0; q <= c->nr_workers; q++) {
		spin_lock(&c->heap[q].lock);
		c->heap[q].nr = 0;
		spin_unlock(&c->heap[q].lock);
	}
}

static void reset(struct vfn_ctrl *c)
{
	u32 q;

	kill_queues(c);
	for (q = 0; q <= VFN_MAX_IOQ; q++) {
		WRITE_ONCE(*doorbell(c, q, false), 0);
		WRITE_ONCE(*doorbell(c, q, true), 0);
	}
	c->granted_ioq = 0;
	c->nr_aer = 0;
	c->ops->admin_reset(c);
	c->enabled = false;
	memset(&c->bad_enable, 0, sizeof(c->bad_enable));
	c->shutdown = false;
	c->shn_done_ns = 0;
	vfn_set_reg32(c, NVME_REG_CSTS, 0);
}

static void enable(struct vfn_ctrl *c, u32 cc)
{
	u32 aqa = vfn_reg32(c, NVME_REG_AQA);
	u32 sqs = (aqa & 0xfff) + 1, cqs = ((aqa >> 16) & 0xfff) + 1;
	u64 asq = vfn_reg64(c, NVME_REG_ASQ), acq = vfn_reg64(c, NVME_REG_ACQ);
	void *sq = NULL, *cq = NULL;

	c->enabled = true;
	/* In use again: a cut from now on is unsafe until the next shutdown. */
	c->shut_clean = false;
	/* 4 KiB pages, a command set CAP.CSS offers, round robin. */
	c->iocs = (cc & NVME_CC_CSS_MASK) == NVME_CC_CSS_CSI;
	if (!(cc & (0xf << NVME_CC_MPS_SHIFT | 7 << NVME_CC_AMS_SHIFT)) &&
	    ((cc & NVME_CC_CSS_MASK) == NVME_CC_CSS_NVM ||
	     (c->iocs && vfn_nstab_zoned(&c->nst))) &&
	    sqs > 1 && cqs > 1 &&
	    !(asq & (PAGE_SIZE - 1)) && !(acq & (PAGE_SIZE - 1))) {
		sq = vfn_host_kva(c, asq, sqs * sizeof(struct nvme_command));
		cq = vfn_host_kva(c, acq, cqs * sizeof(struct nvme_completion));
	}
	if (!sq || !cq) {
		c->bad_enable.refused = true;
		c->bad_enable.cc = cc;
		c->bad_enable.aqa = aqa;
		c->bad_enable.asq = asq;
		c->bad_enable.acq = acq;
		vfn_set_reg32(c, NVME_REG_CSTS, NVME_CSTS_CFS);
		return;
	}
	c->sq[0] = (struct vfn_queue) { .kva = sq, .size = sqs, .live = true };
	c->sq_scan = max(c->sq_scan, 1U);
	spin_lock(&c->cq_lock[0]);
	c->cq[0] = (struct vfn_queue) {
		.kva = cq, .size = cqs, .phase = 1, .irq_enabled = true,
		.live = true, .gen = c->cq[0].gen + 1,
	};
	spin_unlock(&c->cq_lock[0]);
	vfn_set_reg32(c, NVME_REG_CSTS, NVME_CSTS_RDY);
}

static void abort_aers(struct vfn_ctrl *c)
{
	struct vfn_cmd rec = { .due_ns = 0, .sc = NVME_SC_ABORT_REQ,
			       .gen = c->cq[0].gen };

	while (c->nr_aer) {
		rec.cqe.command_id = c->aer_cid[--c->nr_aer];
		spin_lock(&c->heap[0].lock);
		heap_push(&c->heap[0], &rec);
		spin_unlock(&c->heap[0].lock);
	}
}

/**
 * vfn_aen() - report an asynchronous event
 * @c: the controller
 * @result: completion dword 0 of the Asynchronous Event Request (type,
 *	information, log page)
 *
 * Completes a held request at once, or queues the event once for the
 * next requests, in order. Dispatcher only.
 */
void vfn_aen(struct vfn_ctrl *c, u32 result)
{
	struct vfn_cmd rec = { .due_ns = 0, .gen = c->cq[0].gen };
	u32 i;

	if (!c->nr_aer) {
		for (i = 0; i < c->aen_nr; i++)
			if (c->aen_queue[i] == result)
				return;
		/* Full (more kinds than it holds): the host has the logs. */
		if (c->aen_nr < VFN_AEN_QUEUE)
			c->aen_queue[c->aen_nr++] = result;
		return;
	}
	rec.cqe.command_id = c->aer_cid[--c->nr_aer];
	rec.cqe.result.u32 = cpu_to_le32(result);
	spin_lock(&c->heap[0].lock);
	heap_push(&c->heap[0], &rec);
	spin_unlock(&c->heap[0].lock);
}

/*
 * CC.SHN: fetch nothing more, abort the held AERs and commit the write
 * cache as a Flush does. SHST 01b lasts until those programs and every
 * executed command are done.
 */
static void shutdown_begin(struct vfn_ctrl *c)
{
	struct vflash_req_tag tag = { };
	u64 now = ktime_get_ns(), done;
	u32 q;

	abort_aers(c);
	c->shutdown = true;
	done = vflash_flash_submit_tagged(c->vdev->flash, VFLASH_FE_NVME,
					  VFLASH_IO_FLUSH, 0, 0, now, NULL,
					  &tag);
	for (q = 0; q <= c->nr_workers; q++) {
		struct vfn_heap *h = &c->heap[q];
		u32 i;

		spin_lock(&h->lock);
		for (i = 0; i < h->nr; i++)
			done = max(done, h->cmd[i].due_ns);
		spin_unlock(&h->lock);
	}
	c->shn_done_ns = max(done, 1ULL);
	vfn_set_reg32(c, NVME_REG_CSTS,
		      (vfn_reg32(c, NVME_REG_CSTS) & ~NVME_CSTS_SHST_MASK) |
		      NVME_CSTS_SHST_OCCUR);
}

/* SHST 10b; a power cut from now until the next enable is a safe one. */
static void shutdown_end(struct vfn_ctrl *c, unsigned long *raise)
{
	u32 q;

	for (q = 0; q <= c->nr_workers; q++)
		vfn_drain(c, &c->heap[q], U64_MAX, true, raise);
	vfn_raise_irqs(c, raise);
	kill_queues(c);
	c->shn_done_ns = 0;
	c->shut_clean = true;
	vfn_set_reg32(c, NVME_REG_CSTS,
		      (vfn_reg32(c, NVME_REG_CSTS) & ~NVME_CSTS_SHST_MASK) |
		      NVME_CSTS_SHST_CMPLT);
}

/*
 * A refused enable (CSTS.CFS) whose CC or admin queue registers the host
 * wrote anew: it toggled CC.EN between two of our looks, which a
 * controller that sees every write takes as a reset and a new enable.
 */
static bool enable_again(struct vfn_ctrl *c, u32 cc)
{
	if (!c->bad_enable.refused)
		return false;
	return c->bad_enable.cc != cc ||
	       c->bad_enable.aqa != vfn_reg32(c, NVME_REG_AQA) ||
	       c->bad_enable.asq != vfn_reg64(c, NVME_REG_ASQ) ||
	       c->bad_enable.acq != vfn_reg64(c, NVME_REG_ACQ);
}

/* Return: true if the controller takes commands. */
static bool handle_cc(struct vfn_ctrl *c, unsigned long *raise)
{
	u32 cc;

	/*
	 * Without power no register works (acquire: pairs with the power
	 * work's release). CC is read after: read before, it could be the
	 * CC of before the cut, taken for a refused enable.
	 */
	if (smp_load_acquire(&c->unpowered))
		return false;
	cc = vfn_reg32(c, NVME_REG_CC);
	if ((cc & NVME_CC_ENABLE) && c->enabled && enable_again(c, cc))
		reset(c);
	if ((cc & NVME_CC_ENABLE) && !c->enabled)
		enable(c, cc);
	else if (!(cc & NVME_CC_ENABLE) && c->enabled)
		reset(c);
	if (c->enabled && (cc & NVME_CC_SHN_MASK) && !c->shutdown)
		shutdown_begin(c);
	if (c->shn_done_ns && ktime_get_ns() >= c->shn_done_ns)
		shutdown_end(c, raise);
	return c->enabled && !c->shutdown &&
	       !(vfn_reg32(c, NVME_REG_CSTS) & NVME_CSTS_CFS);
}

static __always_inline void complete_later(struct vfn_ctrl *c,
					   const struct vfn_cmd *rec)
{
	struct vfn_heap *h = heap_of(c, rec->cqid);
	bool first;

	spin_lock(&h->lock);
	first = heap_push(h, rec);
	spin_unlock(&h->lock);
	if (first && h != &c->heap[0] && h->task)
		wake_up_process(h->task);
}

/* While the submit event is traced, note when new commands were seen. */
static __always_inline void doorbell_look(struct vfn_ctrl *c, u32 qid, u32 n)
{
	struct vfn_db_marks *m = &c->sq_db[qid];

	if (trace_vflash_request_submit_enabled())
		vfn_db_look(m, n, ktime_get_ns());
	else if (unlikely(m->looked_ns))
		memset(m, 0, sizeof(*m));
}

static __always_inline void tag_io(struct vfn_ctrl *c, u32 qid,
				   const struct nvme_command *cmd,
				   struct vfn_cmd *rec)
{
	struct vflash_req_tag *t = &c->tag;

	*t = (struct vflash_req_tag) {
		.id = vflash_flash_new_req_id(c->vdev->flash),
		.qid = qid,
		.cid = cmd->common.command_id,
	};
	if (trace_vflash_request_submit_enabled())
		vfn_db_take(&c->sq_db[qid], &t->doorbell_ns, &t->polled_ns);
	rec->id = t->id;
}

/*
 * Fetch and execute up to a burst of SQ @qid's commands while the host
 * allows DMA. A command during which the host took it back gets no
 * completion: the queues are about to be reset.
 */
static bool fetch(struct vfn_ctrl *c, u32 qid)
{
	struct vfn_queue *sq = &c->sq[qid];
	u32 n = vfn_sq_avail(sq, READ_ONCE(*doorbell(c, qid, false)));
	u16 cqid = qid ? sq->cqid : 0;
	struct vfn_heap *h = heap_of(c, cqid);
	u32 done = 0;

	if (qid)
		doorbell_look(c, qid, n);
	n = min_t(u32, n, FETCH_BURST);
	/* Leave room for the aborts of a Delete SQ on a full CQ. */
	while (done < n && READ_ONCE(h->nr) < VFN_INFLIGHT - POST_BATCH &&
	       vfn_host_allows_dma(c)) {
		struct vfn_cmd rec = { .cqid = cqid, .gen = c->cq[cqid].gen };
		struct nvme_command cmd;
		u64 now = ktime_get_ns();

		dma_rmb();
		memcpy(&cmd, (struct nvme_command *)sq->kva + sq->head,
		       sizeof(cmd));
		WRITE_ONCE(sq->head, vfn_ring_next(sq->head, sq->size));
		rec.cqe.command_id = cmd.common.command_id;
		rec.cqe.sq_id = cpu_to_le16(qid);
		done++;
		if (qid) {
			tag_io(c, qid, &cmd, &rec);
			c->ops->io(c, &cmd, &rec, now);
			c->tag.id = 0;
		} else {
			rec.due_ns = now;
			c->ops->admin(c, &cmd, &rec);
		}
		/* Held (AER), an injected timeout, or the controller stopped. */
		if (rec.due_ns == U64_MAX) {
			if (READ_ONCE(c->unpowered) ||
			    (vfn_reg32(c, NVME_REG_CSTS) & NVME_CSTS_CFS))
				break;
			continue;
		}
		if (!vfn_host_allows_dma(c))
			break;
		complete_later(c, &rec);
	}
	return done;
}

/**
 * vfn_sq_delete() - finish an I/O SQ about to be deleted
 * @c: the controller; called by the dispatcher, before the Delete I/O SQ
 *	command's own completion is queued
 * @qid: the SQ, live
 * @now: the clock of the Delete's fetch
 *
 * Commands not fetched complete with Command Aborted due to SQ Deletion;
 * executed ones keep their status and due time (a Flush is not
 * acknowledged before its programs end). The Delete's completion is held
 * until each of them is in the CQ.
 *
 * Return: when the last of the SQ's executed commands is due, or @now.
 */
u64 vfn_sq_delete(struct vfn_ctrl *c, u16 qid, u64 now)
{
	struct vfn_queue *sq = &c->sq[qid];
	struct vfn_heap *h = heap_of(c, sq->cqid);
	struct vfn_cmd rec = {
		.cqid = sq->cqid, .gen = c->cq[sq->cqid].gen,
		.sc = NVME_SC_ABORT_QUEUE,
	};
	u32 n = vfn_sq_avail(sq, READ_ONCE(*doorbell(c, qid, false)));
	bool fresh = false;	/* untimed: no lateness to count */
	u64 retry_ns, last = now;
	u32 i;

	rec.cqe.sq_id = cpu_to_le16(qid);
	spin_lock(&h->lock);
	for (i = 0; i < h->nr; i++)
		if (le16_to_cpu(h->cmd[i].cqe.sq_id) == qid)
			last = max(last, h->cmd[i].due_ns);
	while (n-- && vfn_host_allows_dma(c)) {
		const struct nvme_command *cmd =
			(struct nvme_command *)sq->kva + sq->head;

		dma_rmb();
		rec.cqe.command_id = READ_ONCE(cmd->common.command_id);
		WRITE_ONCE(sq->head, vfn_ring_next(sq->head, sq->size));
		if (!post(c, &rec, 0, &fresh, true, c->raise, &retry_ns) &&
		    h->nr < VFN_INFLIGHT)
			heap_push(h, &rec);
	}
	spin_unlock(&h->lock);
	return last;
}

/**
 * vfn_fatal() - the controller fails: Controller Fatal Status
 * @c: the controller; called by the dispatcher
 *
 * Commands in flight are lost; nothing more is fetched until the host
 * resets the controller.
 */
void vfn_fatal(struct vfn_ctrl *c)
{
	kill_queues(c);
	vfn_set_reg32(c, NVME_REG_CSTS,
		      vfn_reg32(c, NVME_REG_CSTS) | NVME_CSTS_CFS);
}

/**
 * vfn_power_off() - the power is cut, now
 * @c: the controller; called by the dispatcher
 *
 * The controller forgets everything and its registers and config space
 * read all ones. The power-loss log takes back what was not durable at the
 * cut, read once no thread can post: no completion the host saw is due
 * after it. The power work then removes the function and rescans.
 */
void vfn_power_off(struct vfn_ctrl *c)
{
	struct vflash_faults *ft = &c->vdev->faults;
	u64 logged = ft->pl.nr_pages, lost, now;

	/*
	 * Stop every poster first, then read the clock: a worker's posted
	 * completion was due by its clock read, before ours. The other way
	 * round, a Flush falling due in between would be posted, and its
	 * data taken back by the cut.
	 */
	/* SMART counts a cut that no completed shutdown came before. */
	if (!c->shut_clean)
		c->unsafe_shutdowns++;
	c->shut_clean = false;
	reset(c);
	now = c->cut_clock ? c->cut_clock(c) : ktime_get_ns();
	vfn_set_reg32(c, NVME_REG_CSTS, ~0U);
	WRITE_ONCE(c->absent, true);
	WRITE_ONCE(c->unpowered, true);
	lost = c->ops->power_cut(c, now);
	vflash_flash_count(c->vdev->flash, VFLASH_STAT_POWER_CUT_LOST_WRITES,
			   lost);
	dev_info(&c->vdev->dev, "power cut: %llu of %llu logged page writes taken back\n",
		 lost, logged);
	vflash_fault_disarm(ft, VFLASH_FAULT_POWER_CUT);
	/* KUnit's controllers have no PCI function to remove. */
	if (c->power_work.func)
		queue_work(system_unbound_wq, &c->power_work);
}

/* Busy within poll_idle_ns of @now (a worker's clock may be ahead). */
static bool recently_busy(struct vfn_ctrl *c, u64 now)
{
	u64 last = READ_ONCE(c->last_busy_ns);

	return now <= last || now - last <= c->poll_idle_ns;
}

/**
 * vfn_dispatch_sleep() - the dispatcher sleeps until @until_ns, or less
 * @c: the controller
 * @until_ns: CLOCK_MONOTONIC
 * @slack_ns: how much later the timer may end it
 *
 * Idle (TASK_IDLE) until then, unless host_activity(), a cut request or
 * kthread_stop() wakes it. Each is checked after the task state is set: a
 * wake-up that came while it ran was lost; it must not sleep on a request.
 *
 * Return: whether it slept (false: it had a reason to go on at once).
 */
bool vfn_dispatch_sleep(struct vfn_ctrl *c, u64 until_ns, u64 slack_ns)
{
	ktime_t until = ns_to_ktime(until_ns);
	u64 now = ktime_get_ns();
	bool slept = false;

	if (until_ns <= now)
		return false;
	WRITE_ONCE(c->napping, true);
	/*
	 * Flag, then re-check; pairs with the barrier in host_activity()
	 * and with the cmpxchg() of vfn_request_cut().
	 */
	set_current_state(TASK_IDLE);
	if (!kthread_should_stop() &&
	    READ_ONCE(c->cut_state) != VFN_CUT_REQUESTED &&
	    !recently_busy(c, now)) {
		schedule_hrtimeout_range(&until, slack_ns, HRTIMER_MODE_ABS);
		slept = true;
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(c->napping, false);
	return slept;
}

/**
 * vfn_dispatch_once() - one pass of the dispatcher, without sleeping
 * @c: the controller
 * @next: set to the due time of its earliest own completion, or U64_MAX
 *
 * Return: true if any command was fetched.
 */
bool vfn_dispatch_once(struct vfn_ctrl *c, u64 *next)
{
	bool busy = false, on;
	u64 now;
	u32 q;

	/* Take a cut request: from then on its hook waits for the cut. */
	if (unlikely(READ_ONCE(c->cut_state) == VFN_CUT_REQUESTED) &&
	    cmpxchg(&c->cut_state, VFN_CUT_REQUESTED, VFN_CUT_TAKEN) ==
	    VFN_CUT_REQUESTED) {
		if (!c->unpowered)
			vfn_power_off(c);
		/* Release: the cut is done before its hook sees it so. */
		smp_store_release(&c->cut_state, VFN_CUT_NONE);
		wake_up(&c->power_wq);
	}
	on = handle_cc(c, c->raise);
	if (on) {
		/* Only the ids an SQ has had since the reset. */
		for (q = 0; q < c->sq_scan; q++)
			if (c->sq[q].live)
				busy |= fetch(c, q);
	}
	now = ktime_get_ns();
	*next = vfn_drain(c, &c->heap[0], now, false, c->raise);
	if (c->shn_done_ns)
		*next = min(*next, c->shn_done_ns);
	/* Only FDP and zone recommendations need a tick: no indirect call. */
	if (on && (c->fdp.nruh || vfn_zone_recs(c)) && c->ops->tick)
		c->ops->tick(c, now);
	vfn_raise_irqs(c, c->raise);
	return busy;
}

/* No cut asked of the dispatcher or under way. */
static bool no_cut_pending(struct vfn_ctrl *c)
{
	/* Acquire: pairs with the dispatcher's release once the cut is done. */
	return smp_load_acquire(&c->cut_state) == VFN_CUT_NONE;
}

/**
 * vfn_request_cut() - ask the dispatcher to cut the power, and wait
 * @c: the controller
 * @timeout: how long to wait for the dispatcher to take the request, in
 *	jiffies
 *
 * A request not taken by then is withdrawn: nothing happens later. Callers
 * are serialised (faults' lock).
 *
 * Return: 0 once the power was cut, -ETIMEDOUT if the request was
 * withdrawn, -EBUSY if another is pending.
 */
int vfn_request_cut(struct vfn_ctrl *c, unsigned long timeout)
{
	if (cmpxchg(&c->cut_state, VFN_CUT_NONE, VFN_CUT_REQUESTED) !=
	    VFN_CUT_NONE)
		return -EBUSY;
	/* Full barrier above: pairs with vfn_dispatch_sleep()'s re-check. */
	if (c->heap[0].task)
		wake_up_process(c->heap[0].task);
	if (wait_event_timeout(c->power_wq, no_cut_pending(c), timeout))
		return 0;
	if (cmpxchg(&c->cut_state, VFN_CUT_REQUESTED, VFN_CUT_NONE) ==
	    VFN_CUT_REQUESTED)
		return -ETIMEDOUT;
	/* Taken: the cut is under way; wait for its end. */
	wait_event(c->power_wq, no_cut_pending(c));
	return 0;
}

static int dispatch_fn(void *data)
{
	struct vfn_ctrl *c = data;
	u32 idle_us = IDLE_SLEEP_US;

	WRITE_ONCE(c->last_busy_ns, ktime_get_ns());
	while (!kthread_should_stop()) {
		u64 now, next, until, slack_ns;
		bool busy = vfn_dispatch_once(c, &next);

		now = ktime_get_ns();
		if (busy || recently_busy(c, now)) {
			/* Busy, or recently: keep polling the doorbells. */
			if (busy)
				WRITE_ONCE(c->last_busy_ns, now);
			idle_us = IDLE_SLEEP_US;
			cond_resched();
			continue;
		}
		/*
		 * Idle: naps doubling up to IDLE_SLEEP_MAX_US (nap_max_us once
		 * idle for IDLE_LONG_NS), waking spin_ns before an own
		 * completion is due. Never longer: a delayed completion must
		 * not leave the doorbells unpolled until it is due.
		 */
		until = now + (u64)idle_us * NSEC_PER_USEC;
		if (next != U64_MAX && next - c->spin_ns < until) {
			until = next - c->spin_ns;
			slack_ns = SLACK_NS;
		} else {
			u64 last = READ_ONCE(c->last_busy_ns);
			u32 cap = c->nap_max_us ?: IDLE_SLEEP_MAX_US;

			if (now - last <= IDLE_LONG_NS)
				cap = min_t(u32, cap, IDLE_SLEEP_MAX_US);
			slack_ns = (u64)idle_us * NSEC_PER_USEC / 4;
			idle_us = min(2 * idle_us, cap);
		}
		if (!vfn_dispatch_sleep(c, until, slack_ns))
			cond_resched();
	}
	return 0;
}

static int worker_fn(void *data)
{
	struct vfn_heap *h = data;
	struct vfn_ctrl *c = h->ctrl;
	DECLARE_BITMAP(raise, VFN_MAX_IOQ + 1);

	bitmap_zero(raise, VFN_MAX_IOQ + 1);
	while (!kthread_should_stop()) {
		u64 next = vfn_drain(c, h, ktime_get_ns(), false, raise);
		u64 now;
		ktime_t until;

		vfn_raise_irqs(c, raise);
		now = ktime_get_ns();
		if (next <= now + c->spin_ns) {
			/*
			 * Spin on the heap's top without its lock: an earlier
			 * push ends the spin too (a torn read is at worst an
			 * early end); the drain decides under the lock.
			 */
			while (now < next &&
			       READ_ONCE(h->cmd[0].due_ns) >= next &&
			       !need_resched()) {
				cpu_relax();
				now = ktime_get_ns();
			}
			cond_resched();
			continue;
		}
		/* Sleep until a push makes a new earliest entry, or near it. */
		set_current_state(TASK_INTERRUPTIBLE);
		spin_lock(&h->lock);
		next = h->nr ? h->cmd[0].due_ns : U64_MAX;
		spin_unlock(&h->lock);
		if (kthread_should_stop() ||
		    next <= ktime_get_ns() + c->spin_ns) {
			__set_current_state(TASK_RUNNING);
			continue;
		}
		if (next == U64_MAX) {
			schedule();
		} else {
			until = ns_to_ktime(next - c->spin_ns);
			schedule_hrtimeout_range(&until, SLACK_NS,
						 HRTIMER_MODE_ABS);
		}
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static unsigned int nth_cpu(struct vfn_ctrl *c, unsigned int k)
{
	unsigned int cpu = cpumask_first(c->cpus);

	k %= cpumask_weight(c->cpus);
	while (k--)
		cpu = cpumask_next(cpu, c->cpus);
	return cpu;
}

static struct task_struct *vfn_thread_start(struct vfn_ctrl *c,
					    int (*fn)(void *), void *arg,
					    unsigned int k)
{
	struct task_struct *t;

	if (k)
		t = kthread_create(fn, arg, "%s-nvme-c%u",
				   dev_name(&c->vdev->dev), k);
	else
		t = kthread_create(fn, arg, "%s-nvme", dev_name(&c->vdev->dev));
	if (IS_ERR(t))
		return t;
	if (!cpumask_empty(c->cpus))
		set_cpus_allowed_ptr(t, cpumask_of(nth_cpu(c, k)));
	wake_up_process(t);
	return t;
}

static void stop_threads(struct vfn_ctrl *c)
{
	u32 k;

	for (k = 0; k <= c->nr_workers; k++) {
		if (c->heap[k].task)
			kthread_stop(c->heap[k].task);
		c->heap[k].task = NULL;
	}
}

/**
 * vfn_dispatch_init() - the registers and queues of a controller at reset
 * @c: the controller, BAR0, heaps and nr_workers set up
 *
 * Also fixes which thread posts to each CQ (cq_heap).
 */
void vfn_dispatch_init(struct vfn_ctrl *c)
{
	u32 q;

	/* Admin and, without workers, I/O on heap 0; else round-robin. */
	for (q = 0; q <= VFN_MAX_IOQ; q++)
		c->cq_heap[q] = q && c->nr_workers ?
				1 + (q - 1) % c->nr_workers : 0;
	vfn_set_reg32(c, NVME_REG_CAP, CAP_LO);
	vfn_set_reg32(c, NVME_REG_CAP + 4,
		      CAP_HI | (vfn_nstab_zoned(&c->nst) ? CAP_HI_CSS_IOCS : 0));
	vfn_set_reg32(c, NVME_REG_VS, VFN_VERSION);
	reset(c);
}

/**
 * vfn_dispatch_start() - initialise the registers, start the threads
 * @c: the controller, BAR0, heaps, nr_workers and cpus set up
 *
 * Return: 0 or a negative errno (nothing left running).
 */
int vfn_dispatch_start(struct vfn_ctrl *c)
{
	struct task_struct *t;
	int k;

	vfn_dispatch_init(c);
	/* Workers first: the dispatcher wakes them. */
	for (k = c->nr_workers; k >= 0; k--) {
		t = vfn_thread_start(c, k ? worker_fn : dispatch_fn,
				     k ? (void *)&c->heap[k] : c, k);
		if (IS_ERR(t)) {
			stop_threads(c);
			return PTR_ERR(t);
		}
		c->heap[k].task = t;
	}
	return 0;
}

/**
 * vfn_dispatch_stop() - stop the dispatcher and the completion workers
 * @c: the controller; the host driver must be gone
 */
void vfn_dispatch_stop(struct vfn_ctrl *c)
{
	stop_threads(c);
}
