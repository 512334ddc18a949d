// SPDX-License-Identifier: GPL-2.0
/*
 * Queue ring arithmetic: how many commands a tail doorbell gives, and
 * posting one completion with its phase tag.
 */
#include <linux/compiler.h>

#include <asm/barrier.h>

#include "frontend_nvme/proto.h"

/**
 * vfn_sq_avail() - commands the host has submitted but we have not fetched
 * @sq: the submission queue
 * @tail: the value of its tail doorbell
 *
 * Return: entries from @sq->head up to @tail; 0 for a tail doorbell
 * outside the queue, which the device ignores.
 */
u32 vfn_sq_avail(const struct vfn_queue *sq, u32 tail)
{
	if (tail >= sq->size)
		return 0;
	return tail >= sq->head ? tail - sq->head : sq->size - sq->head + tail;
}

/**
 * vfn_cq_post() - write one completion entry
 * @cq: the completion queue
 * @head: the value of its head doorbell; a value outside the queue is
 *	ignored and the last valid one kept
 * @cqe: the entry: result, SQ head, SQ id and command id are copied
 * @status: status field without the phase tag, host order
 *
 * The entry's status word (with the phase tag) is written last, after a
 * barrier, so the host never sees the new phase with stale contents.
 *
 * Return: true if posted, false if the queue is full.
 */
bool vfn_cq_post(struct vfn_queue *cq, u32 head,
		 const struct nvme_completion *cqe, u16 status)
{
	struct nvme_completion *e;

	if (head < cq->size)
		cq->head = head;
	if (vfn_ring_next(cq->tail, cq->size) == cq->head)
		return false;
	e = (struct nvme_completion *)cq->kva + cq->tail;
	e->result = cqe->result;
	e->sq_head = cqe->sq_head;
	e->sq_id = cqe->sq_id;
	e->command_id = cqe->command_id;
	dma_wmb();
	WRITE_ONCE(e->status, cpu_to_le16(status << 1 | cq->phase));
	cq->tail = vfn_ring_next(cq->tail, cq->size);
	if (!cq->tail)
		cq->phase ^= 1;
	return true;
}
