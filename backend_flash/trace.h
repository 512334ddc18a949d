/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of system "vflash"; docs/tracing.md describes each field.
 * Free when off: each call site is a static branch.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vflash

#if !defined(VFLASH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define VFLASH_TRACE_H

#include <linux/tracepoint.h>

#include "backend_flash/flash.h"

TRACE_DEFINE_ENUM(VFLASH_FE_NONE);
TRACE_DEFINE_ENUM(VFLASH_FE_NVME);
TRACE_DEFINE_ENUM(VFLASH_FE_CXL);
TRACE_DEFINE_ENUM(VFLASH_IO_READ);
TRACE_DEFINE_ENUM(VFLASH_IO_WRITE);
TRACE_DEFINE_ENUM(VFLASH_IO_TRIM);
TRACE_DEFINE_ENUM(VFLASH_IO_FLUSH);
TRACE_DEFINE_ENUM(VFLASH_WORK_HOST);
TRACE_DEFINE_ENUM(VFLASH_WORK_GC);
TRACE_DEFINE_ENUM(VFLASH_WORK_MIGRATE);
TRACE_DEFINE_ENUM(VFLASH_NAND_READ);
TRACE_DEFINE_ENUM(VFLASH_NAND_PROGRAM);
TRACE_DEFINE_ENUM(VFLASH_NAND_ERASE);

#define show_vflash_fe(fe)					\
	__print_symbolic(fe, { VFLASH_FE_NONE, "device" },	\
			 { VFLASH_FE_NVME, "nvme" },		\
			 { VFLASH_FE_CXL, "cxl" })
#define show_vflash_op(op)					\
	__print_symbolic(op, { VFLASH_IO_READ, "read" },	\
			 { VFLASH_IO_WRITE, "write" },		\
			 { VFLASH_IO_TRIM, "trim" },		\
			 { VFLASH_IO_FLUSH, "flush" })
#define show_vflash_work(w)					\
	__print_symbolic(w, { VFLASH_WORK_HOST, "host" },	\
			 { VFLASH_WORK_GC, "gc" },		\
			 { VFLASH_WORK_MIGRATE, "migrate" })
#define show_vflash_nand(o)					\
	__print_symbolic(o, { VFLASH_NAND_READ, "read" },	\
			 { VFLASH_NAND_PROGRAM, "program" },	\
			 { VFLASH_NAND_ERASE, "erase" })

/*
 * A request enters the model. @due_ns: the completion the frontend aims at
 * (host_overhead_ns taken off); model_ns: the sum of the parts that follow.
 */
TRACE_EVENT(vflash_request_submit,
	TP_PROTO(u32 dev, enum vflash_fe fe, enum vflash_io op, u64 lpn,
		 u32 count, u64 arrive_ns, u64 due_ns,
		 const struct vflash_latency *lat,
		 const struct vflash_req_tag *tag),
	TP_ARGS(dev, fe, op, lpn, count, arrive_ns, due_ns, lat, tag),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u8, fe)
		__field(u8, op)
		__field(u16, qid)
		__field(u16, cid)
		__field(u32, count)
		__field(u64, id)
		__field(u64, lpn)
		__field(u64, doorbell_ns)
		__field(u64, polled_ns)
		__field(u64, arrive_ns)
		__field(u64, due_ns)
		__field(u64, model_ns)
		__field(u64, die_wait_ns)
		__field(u64, bg_wait_ns)
		__field(u64, array_ns)
		__field(u64, chan_wait_ns)
		__field(u64, chan_ns)
		__field(u64, host_wait_ns)
		__field(u64, host_ns)
		__field(u64, fw_ns)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->fe = fe;
		__entry->op = op;
		__entry->qid = tag->qid;
		__entry->cid = tag->cid;
		__entry->count = count;
		__entry->id = tag->id;
		__entry->lpn = lpn;
		__entry->doorbell_ns = tag->doorbell_ns;
		__entry->polled_ns = tag->polled_ns;
		__entry->arrive_ns = arrive_ns;
		__entry->due_ns = due_ns;
		__entry->model_ns = vflash_latency_total(lat);
		__entry->die_wait_ns = lat->die_wait_ns;
		__entry->bg_wait_ns = lat->bg_wait_ns;
		__entry->array_ns = lat->array_ns;
		__entry->chan_wait_ns = lat->chan_wait_ns;
		__entry->chan_ns = lat->chan_ns;
		__entry->host_wait_ns = lat->host_wait_ns;
		__entry->host_ns = lat->host_ns;
		__entry->fw_ns = lat->fw_ns;
	),
	TP_printk("vflash%u %s %s id=%llu qid=%u cid=%u lpn=%llu count=%u doorbell_ns=%llu polled_ns=%llu arrive_ns=%llu due_ns=%llu model_ns=%llu die_wait_ns=%llu bg_wait_ns=%llu array_ns=%llu chan_wait_ns=%llu chan_ns=%llu host_wait_ns=%llu host_ns=%llu fw_ns=%llu",
		  __entry->dev, show_vflash_fe(__entry->fe),
		  show_vflash_op(__entry->op), __entry->id, __entry->qid,
		  __entry->cid, __entry->lpn, __entry->count,
		  __entry->doorbell_ns, __entry->polled_ns,
		  __entry->arrive_ns, __entry->due_ns, __entry->model_ns,
		  __entry->die_wait_ns, __entry->bg_wait_ns, __entry->array_ns,
		  __entry->chan_wait_ns, __entry->chan_ns,
		  __entry->host_wait_ns, __entry->host_ns, __entry->fw_ns)
);

/*
 * A frontend completed a request. late_ns = actual_ns - due_ns, negative
 * for an early completion (a bug).
 */
TRACE_EVENT(vflash_request_complete,
	TP_PROTO(u32 dev, enum vflash_fe fe, enum vflash_io op, u64 lpn,
		 u32 count, u64 due_ns, u64 actual_ns, u64 id, u16 qid,
		 u16 cid),
	TP_ARGS(dev, fe, op, lpn, count, due_ns, actual_ns, id, qid, cid),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u8, fe)
		__field(u8, op)
		__field(u16, qid)
		__field(u16, cid)
		__field(u32, count)
		__field(u64, id)
		__field(u64, lpn)
		__field(u64, due_ns)
		__field(u64, actual_ns)
		__field(s64, late_ns)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->fe = fe;
		__entry->op = op;
		__entry->qid = qid;
		__entry->cid = cid;
		__entry->count = count;
		__entry->id = id;
		__entry->lpn = lpn;
		__entry->due_ns = due_ns;
		__entry->actual_ns = actual_ns;
		__entry->late_ns = (s64)(actual_ns - due_ns);
	),
	TP_printk("vflash%u %s %s id=%llu qid=%u cid=%u lpn=%llu count=%u due_ns=%llu actual_ns=%llu late_ns=%lld",
		  __entry->dev, show_vflash_fe(__entry->fe),
		  show_vflash_op(__entry->op), __entry->id, __entry->qid,
		  __entry->cid, __entry->lpn, __entry->count,
		  __entry->due_ns, __entry->actual_ns, __entry->late_ns)
);

/*
 * One operation on a die's timeline: [start_ns, end_ns). @id: the request
 * whose submit charged it, 0 for background work.
 */
TRACE_EVENT(vflash_nand,
	TP_PROTO(u32 dev, u32 die, enum vflash_nand_op op,
		 enum vflash_work work, u32 block, u64 start_ns, u64 end_ns,
		 u64 id),
	TP_ARGS(dev, die, op, work, block, start_ns, end_ns, id),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, die)
		__field(u8, op)
		__field(u8, work)
		__field(u32, block)
		__field(u64, id)
		__field(u64, start_ns)
		__field(u64, end_ns)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->die = die;
		__entry->op = op;
		__entry->work = work;
		__entry->block = block;
		__entry->id = id;
		__entry->start_ns = start_ns;
		__entry->end_ns = end_ns;
	),
	TP_printk("vflash%u die=%u %s %s id=%llu block=%u start_ns=%llu end_ns=%llu",
		  __entry->dev, __entry->die, show_vflash_nand(__entry->op),
		  show_vflash_work(__entry->work), __entry->id, __entry->block,
		  __entry->start_ns, __entry->end_ns)
);

/* One block cleaned: its valid pages moved, then erased if @freed. */
TRACE_EVENT(vflash_clean,
	TP_PROTO(u32 dev, u32 die, enum vflash_work work, u32 block,
		 u64 start_ns, u64 end_ns, u32 moved, bool freed),
	TP_ARGS(dev, die, work, block, start_ns, end_ns, moved, freed),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, die)
		__field(u8, work)
		__field(u8, freed)
		__field(u32, block)
		__field(u32, moved)
		__field(u64, start_ns)
		__field(u64, end_ns)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->die = die;
		__entry->work = work;
		__entry->freed = freed;
		__entry->block = block;
		__entry->moved = moved;
		__entry->start_ns = start_ns;
		__entry->end_ns = end_ns;
	),
	TP_printk("vflash%u die=%u %s block=%u moved=%u freed=%u start_ns=%llu end_ns=%llu",
		  __entry->dev, __entry->die, show_vflash_work(__entry->work),
		  __entry->block, __entry->moved, __entry->freed,
		  __entry->start_ns, __entry->end_ns)
);

/* CXL device cache events about one page. */
DECLARE_EVENT_CLASS(vflash_cxl_page,
	TP_PROTO(u32 dev, u64 lpn, u32 slot),
	TP_ARGS(dev, lpn, slot),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, slot)
		__field(u64, lpn)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->slot = slot;
		__entry->lpn = lpn;
	),
	TP_printk("vflash%u lpn=%llu slot=%u", __entry->dev, __entry->lpn,
		  __entry->slot)
);

/* A demand access found its page absent (slot: the one it claimed). */
DEFINE_EVENT(vflash_cxl_page, vflash_cxl_miss,
	TP_PROTO(u32 dev, u64 lpn, u32 slot), TP_ARGS(dev, lpn, slot));
/* A prefetch read was issued for the page. */
DEFINE_EVENT(vflash_cxl_page, vflash_cxl_prefetch_issue,
	TP_PROTO(u32 dev, u64 lpn, u32 slot), TP_ARGS(dev, lpn, slot));
/* The first demand access to a prefetched page. */
DEFINE_EVENT(vflash_cxl_page, vflash_cxl_prefetch_hit,
	TP_PROTO(u32 dev, u64 lpn, u32 slot), TP_ARGS(dev, lpn, slot));

/* A slot was filled: its NAND read was submitted and is ready then. */
TRACE_EVENT(vflash_cxl_fill,
	TP_PROTO(u32 dev, u64 lpn, u32 slot, bool prefetch, u64 submit_ns,
		 u64 ready_ns),
	TP_ARGS(dev, lpn, slot, prefetch, submit_ns, ready_ns),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, slot)
		__field(u64, lpn)
		__field(u64, submit_ns)
		__field(u64, ready_ns)
		__field(u8, prefetch)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->slot = slot;
		__entry->lpn = lpn;
		__entry->submit_ns = submit_ns;
		__entry->ready_ns = ready_ns;
		__entry->prefetch = prefetch;
	),
	TP_printk("vflash%u lpn=%llu slot=%u prefetch=%u submit_ns=%llu ready_ns=%llu",
		  __entry->dev, __entry->lpn, __entry->slot, __entry->prefetch,
		  __entry->submit_ns, __entry->ready_ns)
);

/* A page left the cache; a dirty one is written back (vflash_cxl_writeback). */
TRACE_EVENT(vflash_cxl_evict,
	TP_PROTO(u32 dev, u64 lpn, u32 slot, bool dirty),
	TP_ARGS(dev, lpn, slot, dirty),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, slot)
		__field(u64, lpn)
		__field(u8, dirty)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->slot = slot;
		__entry->lpn = lpn;
		__entry->dirty = dirty;
	),
	TP_printk("vflash%u lpn=%llu slot=%u dirty=%u", __entry->dev,
		  __entry->lpn, __entry->slot, __entry->dirty)
);

/* A dirty page's write to flash: submitted then, complete at due_ns. */
TRACE_EVENT(vflash_cxl_writeback,
	TP_PROTO(u32 dev, u64 lpn, u64 submit_ns, u64 due_ns),
	TP_ARGS(dev, lpn, submit_ns, due_ns),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u64, lpn)
		__field(u64, submit_ns)
		__field(u64, due_ns)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->lpn = lpn;
		__entry->submit_ns = submit_ns;
		__entry->due_ns = due_ns;
	),
	TP_printk("vflash%u lpn=%llu submit_ns=%llu due_ns=%llu",
		  __entry->dev, __entry->lpn, __entry->submit_ns,
		  __entry->due_ns)
);

#endif /* VFLASH_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH backend_flash
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
