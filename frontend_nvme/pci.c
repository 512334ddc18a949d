// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual PCI side: a root bus in a PCI domain of our own, one function
 * whose config space lives in memory, and BAR0 in pages we allocate.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cc_platform.h>
#include <linux/dma-map-ops.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>
#include <linux/irqdomain.h>
#include <linux/mm.h>
#include <linux/msi.h>
#include <linux/pci.h>
#include <asm/irqdomain.h>
#include <asm/set_memory.h>

#include "core/compat.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

/* Capability offsets in our configuration space. */
#define CAP_PM		0x40
#define CAP_MSIX	0x50
#define CAP_EXP		0x60

static void cfg_put(u8 *cfg, int off, u32 val, int size)
{
	int i;

	for (i = 0; i < size; i++)
		cfg[off + i] = val >> (8 * i);
}

static u32 cfg_get(const u8 *cfg, int off, int size)
{
	u32 val = 0;
	int i;

	for (i = 0; i < size; i++)
		val |= (u32)cfg[off + i] << (8 * i);
	return val;
}

/*
 * The config half of vfn_raise_irq()'s gate, worked out under cfg_lock at
 * every @c->cfg change so that an interrupt reads one byte, not the lock.
 */
static void irq_gate_update(struct vfn_ctrl *c)
{
	u32 ctl = cfg_get(c->cfg, CAP_MSIX + PCI_MSIX_FLAGS, 2);
	u32 cmd = cfg_get(c->cfg, PCI_COMMAND, 2);

	bool open = (cmd & PCI_COMMAND_MASTER) &&
		    (ctl & PCI_MSIX_FLAGS_ENABLE) &&
		    !(ctl & PCI_MSIX_FLAGS_MASKALL);

	WRITE_ONCE(c->irq_gate, open);
}

static void cfg_init(struct vfn_ctrl *c)
{
	u64 bar = page_to_phys(c->bar_page);
	u8 *cfg = c->cfg, *wm = c->cfg_wmask;

	memset(cfg, 0, VFN_CFG_SIZE);
	memset(wm, 0, VFN_CFG_SIZE);
	cfg_put(cfg, PCI_VENDOR_ID, VFN_VENDOR_ID, 2);
	cfg_put(cfg, PCI_DEVICE_ID, VFN_DEVICE_ID, 2);
	cfg_put(wm, PCI_COMMAND, 0x0546, 2);
	cfg_put(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST, 2);
	cfg_put(cfg, PCI_CLASS_REVISION, PCI_CLASS_STORAGE_EXPRESS << 8, 4);
	cfg_put(wm, PCI_CACHE_LINE_SIZE, 0xff, 1);
	cfg_put(cfg, PCI_BASE_ADDRESS_0, (u32)bar | PCI_BASE_ADDRESS_MEM_TYPE_64,
		4);
	cfg_put(cfg, PCI_BASE_ADDRESS_1, bar >> 32, 4);
	cfg_put(cfg, PCI_SUBSYSTEM_VENDOR_ID, VFN_VENDOR_ID, 2);
	cfg_put(cfg, PCI_SUBSYSTEM_ID, 1, 2);
	cfg_put(cfg, PCI_CAPABILITY_LIST, CAP_PM, 1);
	cfg_put(cfg, PCI_INTERRUPT_LINE, 0xff, 1);
	cfg_put(wm, PCI_INTERRUPT_LINE, 0xff, 1);

	/* Power management, version 3, D0 only, No_Soft_Reset. */
	cfg_put(cfg, CAP_PM, PCI_CAP_ID_PM | CAP_MSIX << 8, 2);
	cfg_put(cfg, CAP_PM + PCI_PM_PMC, 3, 2);
	cfg_put(cfg, CAP_PM + PCI_PM_CTRL, PCI_PM_CTRL_NO_SOFT_RESET, 2);
	cfg_put(wm, CAP_PM + PCI_PM_CTRL, PCI_PM_CTRL_STATE_MASK, 2);

	/* MSI-X: table and PBA in BAR0. */
	cfg_put(cfg, CAP_MSIX, PCI_CAP_ID_MSIX | CAP_EXP << 8, 2);
	cfg_put(cfg, CAP_MSIX + PCI_MSIX_FLAGS, VFN_NR_VEC - 1, 2);
	cfg_put(wm, CAP_MSIX + PCI_MSIX_FLAGS,
		PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL, 2);
	cfg_put(cfg, CAP_MSIX + PCI_MSIX_TABLE, VFN_MSIX_TBL_OFF, 4);
	cfg_put(cfg, CAP_MSIX + PCI_MSIX_PBA, VFN_MSIX_PBA_OFF, 4);

	/* PCI Express v2, root-complex integrated endpoint: no link. */
	cfg_put(cfg, CAP_EXP, PCI_CAP_ID_EXP, 2);
	cfg_put(cfg, CAP_EXP + PCI_EXP_FLAGS,
		2 | PCI_EXP_TYPE_RC_END << 4, 2);
	cfg_put(cfg, CAP_EXP + PCI_EXP_DEVCAP, PCI_EXP_DEVCAP_RBER, 4);
	cfg_put(cfg, CAP_EXP + PCI_EXP_DEVCTL, 0x2810, 2);
	cfg_put(wm, CAP_EXP + PCI_EXP_DEVCTL, 0x7fff, 2);
	cfg_put(wm, CAP_EXP + PCI_EXP_DEVCTL2, 0xffff, 2);
	irq_gate_update(c);
}

static struct vfn_ctrl *ctrl_of(struct pci_bus *bus)
{
	return container_of(bus->sysdata, struct vfn_ctrl, sysdata);
}

static int vfn_cfg_read(struct pci_bus *bus, unsigned int devfn, int where,
			int size, u32 *val)
{
	struct vfn_ctrl *c = ctrl_of(bus);
	unsigned long flags;

	if (devfn) {
		*val = ~0U;
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	/* Without power: what a bus returns for a function that is gone. */
	if (where < 0 || where + size > VFN_CFG_SIZE || READ_ONCE(c->absent)) {
		*val = ~0U;
		return PCIBIOS_SUCCESSFUL;
	}
	raw_spin_lock_irqsave(&c->cfg_lock, flags);
	*val = cfg_get(c->cfg, where, size);
	/* BAR sizing: the dword reads back the size mask. */
	if (where == PCI_BASE_ADDRESS_0 && size == 4 && (c->bar_sizing & 1))
		*val = ~(u32)(VFN_BAR_SIZE - 1) | PCI_BASE_ADDRESS_MEM_TYPE_64;
	if (where == PCI_BASE_ADDRESS_1 && size == 4 && (c->bar_sizing & 2))
		*val = ~0U;
	raw_spin_unlock_irqrestore(&c->cfg_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static int vfn_cfg_write(struct pci_bus *bus, unsigned int devfn, int where,
			 int size, u32 val)
{
	struct vfn_ctrl *c = ctrl_of(bus);
	unsigned long flags;
	int i;

	if (devfn)
		return PCIBIOS_DEVICE_NOT_FOUND;
	if (where < 0 || where + size > VFN_CFG_SIZE || READ_ONCE(c->absent))
		return PCIBIOS_SUCCESSFUL;
	raw_spin_lock_irqsave(&c->cfg_lock, flags);
	if (where == PCI_BASE_ADDRESS_0 || where == PCI_BASE_ADDRESS_1) {
		u8 bit = where == PCI_BASE_ADDRESS_0 ? 1 : 2;

		/* The BAR never moves: only the sizing protocol is honoured. */
		if (size == 4 && val == ~0U)
			c->bar_sizing |= bit;
		else
			c->bar_sizing &= ~bit;
	} else {
		for (i = 0; i < size; i++) {
			u8 m = c->cfg_wmask[where + i];

			c->cfg[where + i] = (c->cfg[where + i] & ~m) |
					    ((val >> (8 * i)) & m);
		}
		irq_gate_update(c);
	}
	raw_spin_unlock_irqrestore(&c->cfg_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops vfn_pci_ops = {
	.read = vfn_cfg_read,
	.write = vfn_cfg_write,
};

/**
 * vfn_raise_irq() - signal a completion queue's MSI-X vector
 * @c: the controller
 * @vector: the vector the host gave the queue
 *
 * Process context only. Does nothing while the gate is closed (Bus
 * Master or MSI-X off, function or vector masked) or the vector has no
 * interrupt: the host polls or times out, as with a lost interrupt.
 * Injected by vflash_msi_inject() (core/compat.h), never through
 * pci_irq_vector(), whose MSI data the driver's unbind frees under us.
 * Without @c->cfg_lock (the PCI core calls our config accessors under
 * pci_lock, and interrupt descriptor locks must not nest inside them),
 * under RCU, which keeps a descriptor being freed valid. A config write
 * closing the gate can overtake at most one injection already past it,
 * as a real device's posted MSI can.
 */
void vfn_raise_irq(struct vfn_ctrl *c, u16 vector)
{
	u32 entry;

	if (vector >= VFN_NR_VEC || !c->msi_domain ||
	    !READ_ONCE(c->irq_gate))
		return;
	entry = VFN_MSIX_TBL_OFF + vector * PCI_MSIX_ENTRY_SIZE;
	if (vfn_reg32(c, entry + PCI_MSIX_ENTRY_VECTOR_CTRL) &
	    PCI_MSIX_ENTRY_CTRL_MASKBIT)
		return;
	rcu_read_lock();
	vflash_msi_inject(c->msi_domain, c->hwirq_base | vector,
			  vfn_reg32(c, entry + PCI_MSIX_ENTRY_LOWER_ADDR),
			  vfn_reg32(c, entry + PCI_MSIX_ENTRY_DATA));
	rcu_read_unlock();
}

/*
 * Our function as the PCI core adds it (attach, rescan): BAR0 is RAM, so
 * keep pci_request_mem_regions() from claiming it (it collides with System
 * RAM) and the rescan from moving it; pci_resource_start() still tells the
 * driver where to ioremap.
 */
static int vfn_pci_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct vfn_ctrl *c = container_of(nb, struct vfn_ctrl, pci_nb);
	struct pci_dev *pdev = to_pci_dev(data);

	if (action != BUS_NOTIFY_ADD_DEVICE || pdev->bus->sysdata != &c->sysdata)
		return NOTIFY_DONE;
	pdev->resource[0].flags &= ~IORESOURCE_MEM;
	pdev->resource[0].flags |= IORESOURCE_PCI_FIXED;
	return NOTIFY_OK;
}

/* A domain number above every existing one and above 0xffff. */
static int free_domain(void)
{
	struct pci_bus *bus = NULL;
	int domain = 0xffff;

	while ((bus = pci_find_next_bus(bus)))
		domain = max(domain, pci_domain_nr(bus));
	return domain + 1;
}

/* Why the host cannot use a device of ours, or NULL if it can. */
static const char *unusable(struct pci_dev *pdev)
{
	struct irq_domain *d = dev_get_msi_domain(&pdev->dev);

	if (!vflash_msi_direct(d))
		return "interrupt remapping is active; boot with intremap=off";
	if (device_iommu_mapped(&pdev->dev))
		return "an IOMMU translates its DMA; boot with iommu=off";
	if (get_dma_ops(&pdev->dev))
		return "DMA is not direct (swiotlb-xen, GART or similar)";
	return NULL;
}

/**
 * vfn_bar_free() - free BAR0 once nothing can touch it
 * @c: the controller, its dispatcher stopped
 */
void vfn_bar_free(struct vfn_ctrl *c)
{
	int i;

	/* The driver's uncached mapping left the direct map UC-. */
	set_memory_wb((unsigned long)c->bar, 1 << VFN_BAR_ORDER);
	for (i = 0; i < (1 << VFN_BAR_ORDER); i++)
		ClearPageReserved(c->bar_page + i);
	__free_pages(c->bar_page, VFN_BAR_ORDER);
	c->bar_page = NULL;
	c->bar = NULL;
}

static void mask_vectors(struct vfn_ctrl *c)
{
	int i;

	for (i = 0; i < VFN_NR_VEC; i++)
		vfn_set_reg32(c, VFN_MSIX_TBL_OFF + i * PCI_MSIX_ENTRY_SIZE +
			      PCI_MSIX_ENTRY_VECTOR_CTRL,
			      PCI_MSIX_ENTRY_CTRL_MASKBIT);
}

/**
 * vfn_bar_alloc() - allocate BAR0 and build the configuration space
 * @c: the controller
 *
 * Return: 0, or a negative errno after one dmesg line.
 */
int vfn_bar_alloc(struct vfn_ctrl *c)
{
	int i;

	if (cc_platform_has(CC_ATTR_MEM_ENCRYPT)) {
		pr_err("frontend=nvme: memory encryption is active, DMA would not be physical\n");
		return -ENODEV;
	}
	c->bar_page = alloc_pages(GFP_KERNEL | __GFP_ZERO, VFN_BAR_ORDER);
	if (!c->bar_page) {
		pr_err("frontend=nvme: no memory for BAR0\n");
		return -ENOMEM;
	}
	for (i = 0; i < (1 << VFN_BAR_ORDER); i++)
		SetPageReserved(c->bar_page + i);
	c->bar = page_address(c->bar_page);
	mask_vectors(c);
	raw_spin_lock_init(&c->cfg_lock);
	cfg_init(c);
	return 0;
}

/**
 * vfn_pci_create() - create the bus and the function; bind nvme
 * @c: the controller, BAR0 allocated; its dispatcher must already run,
 *	since the nvme driver starts talking to BAR0 as soon as it binds
 *
 * Return: 0, or a negative errno after one dmesg line; BAR0 stays.
 */
int vfn_pci_create(struct vfn_ctrl *c)
{
	const char *why;
	int ret;

	c->pci_nb.notifier_call = vfn_pci_notify;
	ret = bus_register_notifier(&pci_bus_type, &c->pci_nb);
	if (ret) {
		pr_err("frontend=nvme: cannot watch the PCI bus (%d)\n", ret);
		return ret;
	}
	pci_lock_rescan_remove();
	c->sysdata.domain = free_domain();
	c->sysdata.node = NUMA_NO_NODE;
	c->bus = pci_scan_bus(0, &vfn_pci_ops, &c->sysdata);
	c->pdev = c->bus ? pci_get_slot(c->bus, 0) : NULL;
	if (!c->pdev) {
		pr_err("frontend=nvme: the virtual PCI function did not appear\n");
		ret = -ENODEV;
		goto err_bus;
	}
	why = unusable(c->pdev);
	if (why) {
		pr_err("frontend=nvme: %s\n", why);
		ret = -ENODEV;
		goto err_bus;
	}
	/* Interrupts: see vfn_raise_irq(); the numbers survive a rescan. */
	c->hwirq_base = (irq_hw_number_t)pci_dev_id(c->pdev) << 11 |
			(irq_hw_number_t)(c->sysdata.domain & 0xffffffff) << 27;
	c->msi_domain = dev_get_msi_domain(&c->pdev->dev);
	pci_bus_add_devices(c->bus);
	pci_unlock_rescan_remove();
	return 0;

err_bus:
	if (c->bus) {
		pci_dev_put(c->pdev);
		c->pdev = NULL;
		pci_stop_root_bus(c->bus);
		pci_remove_root_bus(c->bus);
		c->bus = NULL;
	}
	pci_unlock_rescan_remove();
	bus_unregister_notifier(&pci_bus_type, &c->pci_nb);
	return ret;
}

/**
 * vfn_pci_stop() - unbind the nvme driver
 * @c: the controller; its dispatcher must still run, since the nvme
 *	driver sends its removal-time commands while it unbinds
 */
void vfn_pci_stop(struct vfn_ctrl *c)
{
	pci_lock_rescan_remove();
	pci_stop_root_bus(c->bus);
	pci_unlock_rescan_remove();
}

/**
 * vfn_pci_remove() - remove the function and the bus
 * @c: the controller, unbound (vfn_pci_stop()) and its dispatcher stopped,
 *	so that nothing uses c->pdev any more
 */
void vfn_pci_remove(struct vfn_ctrl *c)
{
	pci_lock_rescan_remove();
	pci_dev_put(c->pdev);
	c->pdev = NULL;
	pci_remove_root_bus(c->bus);
	c->bus = NULL;
	pci_unlock_rescan_remove();
	bus_unregister_notifier(&pci_bus_type, &c->pci_nb);
}

/*
 * BAR0 and the config space as at power-up. The dispatcher leaves an
 * unpowered controller alone; clearing @unpowered (release) hands it back.
 */
static void power_on(struct vfn_ctrl *c)
{
	unsigned long flags;

	memset(c->bar, 0, VFN_BAR_SIZE);
	mask_vectors(c);
	vfn_dispatch_init(c);
	raw_spin_lock_irqsave(&c->cfg_lock, flags);
	c->bar_sizing = 0;
	cfg_init(c);
	raw_spin_unlock_irqrestore(&c->cfg_lock, flags);
	c->power_cycles++;
	WRITE_ONCE(c->absent, false);
	/* Release: the state reset above before the dispatcher acts again. */
	smp_store_release(&c->unpowered, false);
}

/*
 * After a power cut: remove the function (a surprise removal to its
 * driver), power the controller up and rescan, as after a power cycle.
 */
static void power_work(struct work_struct *work)
{
	struct vfn_ctrl *c = container_of(work, struct vfn_ctrl, power_work);
	struct pci_dev *pdev;

	pci_lock_rescan_remove();
	pdev = pci_get_slot(c->bus, 0);
	if (pdev) {
		pci_stop_and_remove_bus_device(pdev);
		pci_dev_put(pdev);
	}
	pci_unlock_rescan_remove();
	if (READ_ONCE(c->dying))
		return;
	power_on(c);
	pci_lock_rescan_remove();
	pci_rescan_bus(c->bus);
	pci_dev_put(c->pdev);
	c->pdev = pci_get_slot(c->bus, 0);
	pci_unlock_rescan_remove();
	dev_info(&c->vdev->dev, "power is back: NVMe controller at %s\n",
		 c->pdev ? pci_name(c->pdev) : "(none)");
}

/**
 * vfn_power_init() - set up power cuts (before the dispatcher starts)
 * @c: the controller
 */
void vfn_power_init(struct vfn_ctrl *c)
{
	init_waitqueue_head(&c->power_wq);
	INIT_WORK(&c->power_work, power_work);
}

/**
 * vfn_cut_power() - cut the power now, for faults/power_cut/cut
 * @priv: the controller
 *
 * Returns once the function was removed and the powered-up controller
 * rescanned.
 *
 * Return: 0, -EBUSY while the device is being detached, -ETIMEDOUT if
 * the dispatcher did not take the request within 10 s (it is withdrawn:
 * no cut happens later).
 */
int vfn_cut_power(void *priv)
{
	struct vfn_ctrl *c = priv;
	int ret;

	if (READ_ONCE(c->dying))
		return -EBUSY;
	ret = vfn_request_cut(c, 10 * HZ);
	if (!ret)
		flush_work(&c->power_work);
	return ret;
}
