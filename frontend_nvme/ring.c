// SPDX-License-Identifier: GPL-2.0
/* The dispatcher's doorbell marks (the submit trace event's times). */
#include <linux/compiler.h>
#include <linux/minmax.h>

#include <asm/barrier.h>

#include "frontend_nvme/proto.h"

/**
 * vfn_db_look() - note a look at an SQ's tail doorbell
 * @m: the SQ's marks
 * @avail: commands the look found (vfn_sq_avail())
 * @now_ns: when it looked
 *
 * Commands beyond those seen before were submitted since the last look:
 * a mark says when they were first seen, and when the look before was.
 */
void vfn_db_look(struct vfn_db_marks *m, u32 avail, u64 now_ns)
{
	u32 end = m->seq + avail, i;
	u64 gap = m->looked_ns ? now_ns - m->looked_ns : 0;

	if ((s32)(end - m->seen) > 0) {
		if (m->nr < VFN_DB_MARKS) {
			i = (m->first + m->nr++) % VFN_DB_MARKS;
			m->seen_ns[i] = now_ns;
			m->gap_ns[i] = min_t(u64, gap, U32_MAX);
		} else {
			i = (m->first + m->nr - 1) % VFN_DB_MARKS;
		}
		m->end[i] = end;
		m->seen = end;
	}
	m->looked_ns = now_ns;
}

/**
 * vfn_db_take() - the command at the SQ's head is taken: when was it seen?
 * @m: the SQ's marks
 * @seen_ns: receives when a look first found it, or 0
 * @polled_ns: receives when the look before that was, or 0
 *
 * Return: whether a mark covered it (false for a command submitted before
 * the marks were kept).
 */
bool vfn_db_take(struct vfn_db_marks *m, u64 *seen_ns, u64 *polled_ns)
{
	bool found = false;
	u32 i;

	*seen_ns = 0;
	*polled_ns = 0;
	while (m->nr && (s32)(m->end[m->first] - m->seq) <= 0) {
		m->first = (m->first + 1) % VFN_DB_MARKS;
		m->nr--;
	}
	if (m->nr) {
		i = m->first;
		*seen_ns = m->seen_ns[i];
		if (m->gap_ns[i])
			*polled_ns = m->seen_ns[i] - m->gap_ns[i];
		found = true;
	}
	m->seq++;
	return found;
}
