// SPDX-License-Identifier: GPL-2.0
/*
 * NVM commands: Read, Write, Flush, Write Zeroes, Dataset Management,
 * Compare. Data moves at once; the completion is due when the flash
 * backend says (never earlier).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define SC(x)		((x) | NVME_STATUS_DNR)
/* Write Zeroes: Deallocate, CDW12 bit 25 (bit 9 of the control field). */
#define WZ_DEAC		BIT(9)

/* Walk the mapped host buffer and the device's pages side by side. */
static bool move_data(struct vfn_ctrl *c, u64 slba, bool to_host,
		      bool compare)
{
	const struct vflash_backing *b = &c->vdev->backing;
	u64 off = 0;
	u32 i;

	for (i = 0; i < c->nr_segs; i++) {
		u8 *host = c->segs[i].kva;
		u32 left = c->segs[i].len;

		while (left) {
			u64 lpn = slba + (off >> VFLASH_LPAGE_SHIFT);
			u32 in = off & (VFLASH_LPAGE_SIZE - 1);
			u32 n = min(left, VFLASH_LPAGE_SIZE - in);
			u8 *dev = (u8 *)vflash_backing_kaddr(b, lpn) + in;

			if (compare) {
				if (memcmp(host, dev, n))
					return false;
			} else if (to_host) {
				memcpy(host, dev, n);
			} else {
				memcpy(dev, host, n);
			}
			host += n;
			off += n;
			left -= n;
		}
	}
	return true;
}

static void zero_pages(struct vfn_ctrl *c, u64 slba, u64 nlb)
{
	u64 i;

	for (i = 0; i < nlb; i++) {
		memset(vflash_backing_kaddr(&c->vdev->backing, slba + i), 0,
		       VFLASH_LPAGE_SIZE);
		if (!(i % 512))
			cond_resched();
	}
}

static u16 check_range(struct vfn_ctrl *c, u64 slba, u64 nlb)
{
	u64 cap = vflash_flash_nr_lpages(c->vdev->flash);

	if (slba >= cap || nlb > cap - slba)
		return SC(NVME_SC_LBA_RANGE);
	return 0;
}

static u16 rw(struct vfn_ctrl *c, const struct nvme_command *cmd,
	      struct vfn_cmd *out, u64 now)
{
	u8 op = cmd->rw.opcode;
	u64 slba = le64_to_cpu(cmd->rw.slba);
	u32 nlb = le16_to_cpu(cmd->rw.length) + 1;
	struct vflash_flash *f = c->vdev->flash;
	u16 sc = check_range(c, slba, nlb);

	if (sc)
		return sc;
	if (nlb > VFN_MAX_XFER_PAGES)
		return SC(NVME_SC_INVALID_FIELD);
	sc = vfn_prp_map(c, le64_to_cpu(cmd->rw.dptr.prp1),
			 le64_to_cpu(cmd->rw.dptr.prp2),
			 nlb << VFLASH_LPAGE_SHIFT);
	if (sc)
		return sc;

	if (op == nvme_cmd_write) {
		c->host_write_cmds++;
		move_data(c, slba, false, false);
		out->due_ns = vflash_flash_submit(f, VFLASH_IO_WRITE, slba, nlb,
						  now);
		if (le16_to_cpu(cmd->rw.control) & NVME_RW_FUA)
			out->due_ns = max(out->due_ns,
					  vflash_flash_submit(f, VFLASH_IO_FLUSH,
							      0, 0, now));
		return 0;
	}
	out->due_ns = vflash_flash_submit(f, VFLASH_IO_READ, slba, nlb, now);
	c->host_read_cmds++;
	if (op == nvme_cmd_read) {
		move_data(c, slba, true, false);
		return 0;
	}
	return move_data(c, slba, false, true) ? 0 :
	       SC(NVME_SC_COMPARE_FAILED);
}

static u16 write_zeroes(struct vfn_ctrl *c, const struct nvme_command *cmd,
			struct vfn_cmd *out, u64 now)
{
	u64 slba = le64_to_cpu(cmd->write_zeroes.slba);
	u32 nlb = le16_to_cpu(cmd->write_zeroes.length) + 1;
	bool deallocate = le16_to_cpu(cmd->write_zeroes.control) &
			  WZ_DEAC;
	u16 sc = check_range(c, slba, nlb);

	if (sc)
		return sc;
	zero_pages(c, slba, nlb);
	out->due_ns = vflash_flash_submit(c->vdev->flash,
					  deallocate ? VFLASH_IO_TRIM :
						       VFLASH_IO_WRITE,
					  slba, nlb, now);
	return 0;
}

static u16 dsm(struct vfn_ctrl *c, const struct nvme_command *cmd,
	       struct vfn_cmd *out, u64 now)
{
	u32 nr = (le32_to_cpu(cmd->dsm.nr) & 0xff) + 1;
	struct nvme_dsm_range *r = c->ident;
	u32 i;
	u16 sc;

	if (!(le32_to_cpu(cmd->dsm.attributes) & NVME_DSMGMT_AD))
		return 0;	/* hints only */
	sc = vfn_prp_map(c, le64_to_cpu(cmd->dsm.dptr.prp1),
			 le64_to_cpu(cmd->dsm.dptr.prp2), nr * sizeof(*r));
	if (sc)
		return sc;
	vfn_segs_copy(c, r, false);
	for (i = 0; i < nr; i++) {
		sc = check_range(c, le64_to_cpu(r[i].slba),
				 le32_to_cpu(r[i].nlb));
		if (sc)
			return sc;
	}
	for (i = 0; i < nr; i++) {
		u64 slba = le64_to_cpu(r[i].slba);
		u32 nlb = le32_to_cpu(r[i].nlb);

		if (!nlb)
			continue;
		/* Deallocated blocks read as zeros (DLFEAT would say so). */
		zero_pages(c, slba, nlb);
		out->due_ns = max(out->due_ns,
				  vflash_flash_submit(c->vdev->flash,
						      VFLASH_IO_TRIM, slba,
						      nlb, now));
	}
	return 0;
}

/**
 * vfn_io() - execute one NVM command
 * @c: the controller
 * @cmd: the command, copied out of its SQ
 * @out: its completion: status in sc, due time in due_ns
 * @now: when it was fetched, on the backend's clock
 */
void vfn_io(struct vfn_ctrl *c, const struct nvme_command *cmd,
	    struct vfn_cmd *out, u64 now)
{
	u32 nsid = le32_to_cpu(cmd->common.nsid);
	u16 sc;

	out->due_ns = now;
	if (cmd->common.flags & (NVME_CMD_FUSE_FIRST | NVME_CMD_FUSE_SECOND |
				 NVME_CMD_SGL_ALL)) {
		sc = SC(NVME_SC_INVALID_FIELD);
	} else if (nsid != 1 && !(cmd->common.opcode == nvme_cmd_flush &&
				  nsid == NVME_NSID_ALL)) {
		sc = SC(NVME_SC_INVALID_NS);
	} else {
		switch (cmd->common.opcode) {
		case nvme_cmd_read:
		case nvme_cmd_write:
		case nvme_cmd_compare:
			sc = rw(c, cmd, out, now);
			break;
		case nvme_cmd_flush:
			out->due_ns = vflash_flash_submit(c->vdev->flash,
							  VFLASH_IO_FLUSH, 0, 0,
							  now);
			sc = 0;
			break;
		case nvme_cmd_write_zeroes:
			sc = write_zeroes(c, cmd, out, now);
			break;
		case nvme_cmd_dsm:
			sc = dsm(c, cmd, out, now);
			break;
		default:
			sc = SC(NVME_SC_INVALID_OPCODE);
			break;
		}
	}
	out->sc = sc;
}
