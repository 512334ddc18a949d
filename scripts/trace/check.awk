# SPDX-License-Identifier: GPL-2.0
#
# The invariants of a vflash trace (scripts/trace/check.sh runs it after
# events.awk). Variables (awk -v):
#   oh=NS      config/host_overhead_ns during the trace: each submit's
#              due_ns must be arrive_ns + model_ns - min(NS, model_ns)
#   whole=1    the trace holds every event since the device was idle and
#              empty of cached pages: every completion has its submit,
#              every fill and writeback its submit, the CXL slots' fills
#              and evictions alternate
#   overlap=all  no two operations of a die overlap (not under the
#              read-priority maintenance policy, where a host read passes
#              background work the trace already showed); default: host
#              operations only
#   dies=N     die numbers must be below N
#   slots=N    CXL slot numbers must be below N
# Prints "KEY VALUE" counts, then "error ..." lines; exit 1 on any error.

function err(msg)
{
	errors++
	if (errors <= 20)
		print "error line " NR ": " msg
}

function num(k)
{
	if (!(k in V) || V[k] !~ /^-?[0-9]+$/) {
		err(EV " without a numeric " k ": " $0)
		return 0
	}
	return V[k] + 0
}

BEGIN {
	late_max = 0
	# Count these even when zero, so that a reader finds every key.
	n = split("events submit submit_read submit_write complete complete_nvme complete_cxl early nand nand_read nand_program nand_erase nand_host nand_gc nand_migrate clean clean_freed clean_gc clean_migrate cxl_miss cxl_fill cxl_prefetch_issue cxl_prefetch_hit cxl_evict cxl_evict_dirty cxl_writeback", keys)
	for (i = 1; i <= n; i++)
		c[keys[i]] = 0
}

/\[LOST [0-9]+ EVENTS\]/ || /CPU [0-9]+ LOST/ {
	err("the trace lost events (a bigger buffer_size_kb, or fewer events)")
	next
}

# The header of a tracefs trace file: fewer entries in the buffer than
# were written means the ring overwrote some.
/^# entries-in-buffer\/entries-written: [0-9]+\/[0-9]+/ {
	split($3, ew, "/")
	if (ew[1] != ew[2])
		err("the trace buffer overwrote " (ew[2] - ew[1]) " events (a bigger buffer_size_kb, or fewer events)")
	next
}

!vflash_event() { next }

{
	c["events"]++
	split(vflash_fields(EV), want, " ")
	if (!(1 in want)) {
		c["unknown"]++
		err("unknown event vflash_" EV)
		next
	}
	for (i = 1; i in want; i++)
		num(want[i])
}

EV == "request_submit" {
	c["submit"]++
	c["submit_" OP]++
	c["submit_" FE]++
	if (FE !~ /^(nvme|cxl|device)$/ || OP !~ /^(read|write|trim|flush)$/)
		err("submit with fe '" FE "' op '" OP "'")
	sum = num("die_wait_ns") + num("array_ns") + num("chan_wait_ns") + num("chan_ns") + num("host_wait_ns") + num("host_ns") + num("fw_ns")
	model = num("model_ns")
	if (sum != model)
		err("model_ns " int_str(model) " is not the sum of its parts " int_str(sum))
	if (num("bg_wait_ns") > num("die_wait_ns"))
		err("bg_wait_ns above die_wait_ns")
	arrive = num("arrive_ns")
	due = num("due_ns")
	if (due < arrive)
		err("due_ns before arrive_ns")
	if (oh != "" && due != arrive + model - (model < oh + 0 ? model : oh + 0))
		err("due_ns " int_str(due) " is not arrive_ns + model_ns - host_overhead_ns " int_str(arrive + model) " - " oh)
	if (OP != "flush" && num("count") < 1)
		err(OP " of " V["count"] " pages")
	sub_due[FE " " int_str(due)] = 1
	sub_req[FE " " OP " " V["lpn"] " " V["arrive_ns"] " " V["due_ns"]] = 1
	next
}

EV == "request_complete" {
	c["complete"]++
	c["complete_" FE]++
	late = num("late_ns")
	if (late != num("actual_ns") - num("due_ns"))
		err("late_ns is not actual_ns - due_ns")
	if (late < 0) {
		c["early"]++
		err("completed " int_str(-late) " ns early")
	}
	if (late > late_max)
		late_max = late
	if (whole)
		want_due[FE " " int_str(num("due_ns"))] = NR
	next
}

EV == "nand" {
	c["nand"]++
	c["nand_" OP]++
	c["nand_" WORK]++
	if (OP !~ /^(read|program|erase)$/ || WORK !~ /^(host|gc|migrate)$/)
		err("nand op '" OP "' work '" WORK "'")
	if (OP == "erase" && WORK == "host")
		err("an erase for the host")
	d = num("die")
	s = num("start_ns")
	e = num("end_ns")
	if (e < s)
		err("nand operation ends before it starts")
	if (dies != "" && d >= dies + 0)
		err("die " d " of " dies)
	# Operations of a die are traced in timeline order, under its lock.
	if (WORK == "host" || overlap == "all") {
		last = overlap == "all" ? die_end[d] : die_host_end[d]
		if (last != "" && s < last + 0)
			err("die " d ": " OP " " WORK " at " int_str(s) " overlaps an operation until " last)
	}
	if (die_end[d] == "" || e > die_end[d] + 0)
		die_end[d] = int_str(e)
	if (WORK == "host" && (die_host_end[d] == "" || e > die_host_end[d] + 0))
		die_host_end[d] = int_str(e)
	if (OP == "erase")
		erased[d " " V["block"] " " WORK " " V["end_ns"]] = 1
	next
}

EV == "clean" {
	c["clean"]++
	c["clean_" WORK]++
	if (WORK !~ /^(gc|migrate)$/)
		err("clean work '" WORK "'")
	if (num("end_ns") < num("start_ns"))
		err("clean ends before it starts")
	f = num("freed")
	if (f != 0 && f != 1)
		err("freed=" f)
	if (f) {
		c["clean_freed"]++
		want_erase[num("die") " " V["block"] " " WORK " " V["end_ns"]] = NR
	}
	if (dies != "" && num("die") >= dies + 0)
		err("die " V["die"] " of " dies)
	next
}

EV ~ /^cxl_/ {
	c[EV]++
	lpn = V["lpn"]
	if (EV != "cxl_writeback") {
		slot = num("slot")
		if (slots != "" && slot >= slots + 0)
			err("slot " slot " of " slots)
	}
}

EV == "cxl_fill" {
	if (num("ready_ns") < num("submit_ns"))
		err("fill ready before it was submitted")
	if (whole && (slot in holds))
		err("fill of slot " slot " with lpn " lpn " while it holds lpn " holds[slot])
	holds[slot] = lpn
	filled[slot] = lpn " " num("prefetch")
	c["cxl_fill_prefetch" num("prefetch")]++
	if (whole)
		want_req["cxl read " lpn " " V["submit_ns"] " " V["ready_ns"]] = NR
	next
}

EV == "cxl_miss" || EV == "cxl_prefetch_issue" {
	pf = EV == "cxl_miss" ? 0 : 1
	if (whole && filled[slot] != lpn " " pf)
		err(EV " of lpn " lpn " in slot " slot ", whose last fill was '" filled[slot] "'")
	next
}

EV == "cxl_prefetch_hit" {
	if (whole && filled[slot] != lpn " 1")
		err("prefetch hit of lpn " lpn " in slot " slot ", whose last fill was '" filled[slot] "'")
	next
}

EV == "cxl_evict" {
	if (num("dirty"))
		c["cxl_evict_dirty"]++
	if (whole && holds[slot] != lpn)
		err("eviction of lpn " lpn " from slot " slot ", which holds '" holds[slot] "'")
	delete holds[slot]
	next
}

EV == "cxl_writeback" {
	if (num("due_ns") < num("submit_ns"))
		err("writeback due before it was submitted")
	if (whole)
		want_req["cxl write " lpn " " V["submit_ns"] " " V["due_ns"]] = NR
	next
}

END {
	for (k in want_due)
		if (!(k in sub_due))
			err("(line " want_due[k] ") a completion without a submit of the same due_ns: " k)
	for (k in want_erase)
		if (!(k in erased))
			err("(line " want_erase[k] ") a clean that freed its block without its erase: " k)
	for (k in want_req)
		if (!(k in sub_req))
			err("(line " want_req[k] ") a fill or writeback without its request_submit: " k)
	if (c["cxl_miss"] != c["cxl_fill_prefetch0"])
		err(c["cxl_miss"] " misses but " c["cxl_fill_prefetch0"] " demand fills")
	if (c["cxl_prefetch_issue"] != c["cxl_fill_prefetch1"])
		err(c["cxl_prefetch_issue"] " prefetches issued but " c["cxl_fill_prefetch1"] " prefetch fills")
	if (c["cxl_writeback"] != c["cxl_evict_dirty"])
		err(c["cxl_evict_dirty"] " dirty evictions but " c["cxl_writeback"] " writebacks")
	if (whole && c["complete_nvme"] > c["submit_nvme"] + 0)
		err("more nvme completions than submits")
	c["late_max"] = int_str(late_max)
	c["errors"] = errors + 0
	delete c["cxl_fill_prefetch0"]
	delete c["cxl_fill_prefetch1"]
	for (k in c)
		print k, c[k] | "sort"
	close("sort")
	exit (errors > 0)
}
