/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Queues of cache slots linked by index, 8 bytes per slot; a slot is in at
 * most one of the queues sharing a link array.
 */
#ifndef VFLASH_POLICY_SLOTQ_H
#define VFLASH_POLICY_SLOTQ_H

#include <linux/limits.h>
#include <linux/types.h>

#define VFLASH_SLOT_NONE	U32_MAX

/**
 * struct vflash_slot_link - a slot's neighbours in its queue
 * @prev: towards the head, or VFLASH_SLOT_NONE
 * @next: towards the tail, or VFLASH_SLOT_NONE
 */
struct vflash_slot_link {
	u32 prev;
	u32 next;
};

/**
 * struct vflash_slotq - a queue of slots, oldest at the head
 * @head: first slot, or VFLASH_SLOT_NONE
 * @tail: last slot, or VFLASH_SLOT_NONE
 * @len: number of slots in it
 */
struct vflash_slotq {
	u32 head;
	u32 tail;
	u32 len;
};

static inline void vflash_slotq_init(struct vflash_slotq *q)
{
	q->head = VFLASH_SLOT_NONE;
	q->tail = VFLASH_SLOT_NONE;
	q->len = 0;
}

static inline void vflash_slotq_push(struct vflash_slotq *q,
				     struct vflash_slot_link *link, u32 slot)
{
	link[slot].prev = q->tail;
	link[slot].next = VFLASH_SLOT_NONE;
	if (q->tail == VFLASH_SLOT_NONE)
		q->head = slot;
	else
		link[q->tail].next = slot;
	q->tail = slot;
	q->len++;
}

static inline void vflash_slotq_del(struct vflash_slotq *q,
				    struct vflash_slot_link *link, u32 slot)
{
	u32 prev = link[slot].prev, next = link[slot].next;

	if (prev == VFLASH_SLOT_NONE)
		q->head = next;
	else
		link[prev].next = next;
	if (next == VFLASH_SLOT_NONE)
		q->tail = prev;
	else
		link[next].prev = prev;
	q->len--;
}

/* Remove and return the head of @q, or VFLASH_SLOT_NONE if it is empty. */
static inline u32 vflash_slotq_pop_head(struct vflash_slotq *q,
					struct vflash_slot_link *link)
{
	u32 slot = q->head;

	if (slot != VFLASH_SLOT_NONE)
		vflash_slotq_del(q, link, slot);
	return slot;
}

/* Remove and return the tail of @q, or VFLASH_SLOT_NONE if it is empty. */
static inline u32 vflash_slotq_pop_tail(struct vflash_slotq *q,
					struct vflash_slot_link *link)
{
	u32 slot = q->tail;

	if (slot != VFLASH_SLOT_NONE)
		vflash_slotq_del(q, link, slot);
	return slot;
}

#endif /* VFLASH_POLICY_SLOTQ_H */
