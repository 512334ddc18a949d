#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: scripts/doc-xref.py [--selftest] [-h] [ROOT]

The docs name what the code has, and the code has what the docs name
(make check's doc-xref test). It reads the sources of the repository
(ROOT, default the one this script is in) and checks, reporting each
miss as "doc-xref: KIND NAME: what is wrong":

  module parameters   every module_param()/module_param_named() name of
                      the kernel sources is a row of docs/parameters.md's
                      "Module parameters" table, and every row is one
  configfs attributes every CONFIGFS_ATTR*() of core/configfs.c (one per
                      VFLASH_CFS_ATTR() row, power, device) is in
                      docs/devices.md's table under "The tree" (a row may
                      name several, comma-separated), and every name
                      there is one
  sysfs device files  every DEVICE_ATTR*() and BIN_ATTR() of core/device.c
                      (and precondition.c, model.c)
                      and core/precondition.c (frontend, size, profile,
                      store, state, image, precondition, geometry/*) is
                      named in
                      docs/parameters.md's sysfs table, every plain name
                      in its first column is one, and every DIR/ there
                      is a directory vflash makes (geometry, policy,
                      stats, config, placement, faults)
  policy kinds        every kind of policy/registry.c's kind_names is
                      named in docs/parameters.md ("Kinds:")
  stats counters      every stats/ name (backend_flash/stats.c's
                      stat_names, core/sysfs.c's derived_names) is
                      named in docs/parameters.md, design/backend.md, cxl.md,
                      zns.md, faults.md or fdp.md
  config knobs        every config/ name (the names of the knobs[]
                      tables of backend_flash/flash.c, the flash
                      model's, and backend_flash/cache/ctl.c, the
                      device DRAM cache's) likewise
  make targets        every target in the Makefile's .PHONY lines is
                      named as `make TARGET` in README.md or docs/*.md
                      (`make` alone for all),
                      and every `make TARGET` there (a code block line
                      or an inline code span) is a Makefile target
  vflashctl commands  every command (a cmd_NAME() of
                      scripts/vflashctl/vflashctl) has a "## " section of
                      docs/vflashctl.md naming it, and every `vflashctl
                      WORD` in a code block or inline code span of
                      README.md or docs/*.md is a command (or help)

"Named" means in backquotes (`name`, or `name` inside a longer code
span such as `stats/name` or `name=`). --selftest runs the check on
built-in trees with known drift (each miss must be reported) and
without (nothing may be); the normal run does the selftest first.
Exit status 0 when nothing is reported, 1 otherwise, 2 on a usage error.
"""
import glob
import os
import re
import shutil
import sys
import tempfile

KERNEL_DIRS = ("core", "module", "frontend_nvme", "frontend_cxl",
               "backend_flash", "backend_flash/cache", "policy")
# the files whose knobs[] tables name the config/ files
KNOB_TABLES = ("backend_flash/flash.c", "backend_flash/cache/ctl.c")
SYSFS_DIRS = {"geometry", "policy", "stats", "config", "placement", "faults"}
# where stats/ and config/ names are documented: the backend's, the
# cache's, zoned namespaces', fault injection's and FDP's pages
COUNTER_DOCS = ("parameters.md", "design/backend.md", "cxl.md", "zns.md",
                "faults.md", "fdp.md")
COUNTER_WHERE = ", ".join("docs/" + d for d in COUNTER_DOCS)
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"`([^`\n]+)`")


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""


def kernel_sources(root):
    out = []
    for d in KERNEL_DIRS:
        out += sorted(glob.glob(os.path.join(root, d, "*.[ch]")))
    return out


def strip_c_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


# --- what the code has ---------------------------------------------------

def module_params(root):
    names = set()
    for path in kernel_sources(root):
        text = strip_c_comments(read(path))
        for m in re.finditer(r"\bmodule_param(?:_named|_cb|_string|_array)?"
                             r"\s*\(\s*(\w+)", text):
            names.add(m.group(1))
    return names


def configfs_attrs(root):
    text = strip_c_comments(read(os.path.join(root, "core", "configfs.c")))
    names = set(re.findall(r"^\s*VFLASH_CFS_ATTR\s*\(\s*(\w+)\s*\)\s*;",
                           text, flags=re.M))
    names |= set(re.findall(r"\bCONFIGFS_ATTR(?:_RO|_WO)?\s*\(\s*vflash_cfs_"
                            r"\s*,\s*([a-z]\w*)\s*\)", text))
    return names


def device_attrs(root):
    text = "\n".join(strip_c_comments(read(os.path.join(root, "core", f)))
                     for f in ("device.c", "precondition.c", "model.c"))
    names = set(re.findall(
        r"\b(?:DEVICE|BIN)_ATTR(?:_RO|_RW|_WO|_ADMIN_RO)?\s*\(\s*([a-z]\w*)",
        text))
    geom = set(re.findall(r"^\s*VFLASH_GEOM_ATTR\s*\(\s*(\w+)\s*,", text,
                          flags=re.M))
    return names, geom


def string_table(path, array):
    """The string literals of the C array ARRAY in PATH."""
    text = strip_c_comments(read(path))
    m = re.search(r"\b" + array + r"\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};",
                  text, flags=re.S)
    return set(re.findall(r'"([^"]+)"', m.group(1))) if m else set()


def knob_names(root):
    """The names of the knobs[] tables of KNOB_TABLES: an entry's first
    string, `[K] = { "name", min, max }` or `.name = "name"`."""
    names = set()
    for rel in KNOB_TABLES:
        text = strip_c_comments(read(os.path.join(root, rel)))
        m = re.search(r"\bknobs\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};", text,
                      flags=re.S)
        if m:
            names |= set(re.findall(r'(?:\.name\s*=\s*|\]\s*=\s*\{\s*)'
                                    r'"([^"]+)"', m.group(1)))
    return names


def make_targets(root):
    text = read(os.path.join(root, "Makefile"))
    phony = set()
    # .PHONY lines, with their continuations
    for m in re.finditer(r"^\.PHONY\s*:((?:[^\n]*\\\n)*[^\n]*)", text,
                         flags=re.M):
        phony |= set(m.group(1).replace("\\\n", " ").split())
    rules = set()
    for m in re.finditer(r"^([a-z][\w .-]*?)\s*:(?!=)", text, flags=re.M):
        rules |= set(m.group(1).split())
    return phony, phony | rules


def vflashctl_commands(root):
    text = read(os.path.join(root, "scripts", "vflashctl", "vflashctl"))
    return set(re.findall(r"^cmd_([a-z]+)\s*\(\)", text, flags=re.M))


# --- what the docs say ---------------------------------------------------

def section(text, heading):
    """The text under the first heading line starting with HEADING, up to
    the next heading of the same or a higher level."""
    lines = text.split("\n")
    out, level = None, 0
    for line in lines:
        m = re.match(r"^(#+)\s+(.*)$", line)
        if m and out is None and m.group(2).startswith(heading):
            out, level = [], len(m.group(1))
            continue
        if m and out is not None and len(m.group(1)) <= level:
            break
        if out is not None:
            out.append(line)
    return "\n".join(out or [])


def first_column(text):
    """The backquoted names of the first column of the Markdown tables of
    TEXT (a cell may name several: `a`, `b`)."""
    names = []
    for line in text.split("\n"):
        if not line.startswith("|") or re.match(r"^\|[\s:|-]+\|?\s*$", line):
            continue
        cells = line.split("|")
        if len(cells) < 3:
            continue
        names += CODE_SPAN.findall(cells[1])
    # the header row has no code spans
    return names


def spans(text):
    """Every inline code span of TEXT outside fenced blocks, and every line
    of a fenced block."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            # a shell comment is prose
            out.append(re.sub(r"(^|\s)#.*$", "", line))
        else:
            out += CODE_SPAN.findall(line)
    return out


def named(name, text):
    """NAME is in a code span of TEXT, as a whole word."""
    pat = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")
    return any(pat.search(s) for s in CODE_SPAN.findall(text))


def all_docs(root):
    return [os.path.join(root, "README.md")] + \
        sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"),
                         recursive=True))


# --- the checks ----------------------------------------------------------

def check(root):
    errs = []

    def err(kind, name, why):
        errs.append("doc-xref: %s %s: %s" % (kind, name, why))

    params_md = read(os.path.join(root, "docs", "parameters.md"))
    devices_md = read(os.path.join(root, "docs", "devices.md"))
    backend_md = read(os.path.join(root, "docs", "design", "backend.md"))
    cxl_md = read(os.path.join(root, "docs", "cxl.md"))
    vflashctl_md = read(os.path.join(root, "docs", "vflashctl.md"))

    # module parameters <-> parameters.md's table
    code = module_params(root)
    doc = set(first_column(section(params_md, "Module parameters")))
    for n in sorted(code - doc):
        err("module parameter", n, "not a row of docs/parameters.md's "
            "\"Module parameters\" table")
    for n in sorted(doc - code):
        err("module parameter", n, "in docs/parameters.md, but no "
            "module_param() has it")

    # configfs attributes <-> devices.md's table
    code = configfs_attrs(root)
    doc = set(first_column(section(devices_md, "The tree")))
    for n in sorted(code - doc):
        err("configfs attribute", n, "not in docs/devices.md's table "
            "under \"The tree\"")
    for n in sorted(doc - code):
        err("configfs attribute", n, "in docs/devices.md, but "
            "core/configfs.c has no such attribute")

    # sysfs device files <-> parameters.md's sysfs table
    attrs, geom = device_attrs(root)
    sysfs = section(params_md, "sysfs")
    doc = first_column(sysfs)
    for n in sorted(attrs - geom):
        if n not in doc:
            err("sysfs file", n, "not a row of docs/parameters.md's sysfs "
                "table")
    for n in sorted(geom):
        if not named(n, sysfs):
            err("sysfs file", "geometry/" + n, "not named in "
                "docs/parameters.md's sysfs section")
    for n in doc:
        d = n.split("/")[0]
        if "/" in n:
            if d not in SYSFS_DIRS:
                err("sysfs file", n, "in docs/parameters.md, but vflash "
                    "makes no directory %s/" % d)
        elif n not in attrs:
            err("sysfs file", n, "in docs/parameters.md, but core/device.c "
                "has no such attribute")

    # policy kinds
    for n in sorted(string_table(os.path.join(root, "policy", "registry.c"),
                                 "kind_names")):
        if not named(n, sysfs):
            err("policy kind", n, "not named in docs/parameters.md's sysfs "
                "section")

    # stats counters and config knobs: in the doc of their part
    where = "\n".join(read(os.path.join(root, "docs", d))
                      for d in COUNTER_DOCS)
    stats = string_table(os.path.join(root, "backend_flash", "stats.c"),
                         "stat_names")
    stats |= string_table(os.path.join(root, "core", "sysfs.c"),
                          "derived_names")
    for n in sorted(stats):
        if not named(n, where):
            err("stats counter", n, "not named in " + COUNTER_WHERE)
    for n in sorted(knob_names(root)):
        if not named(n, where):
            err("config knob", n, "not named in " + COUNTER_WHERE)

    # make targets <-> `make TARGET` in the docs
    phony, targets = make_targets(root)
    mentioned = {}
    bare_make = False
    for path in all_docs(root):
        for s in spans(read(path)):
            if re.search(r"(?:^|[\s;&|(])make\s*(?:$|&&|;|\|)", s):
                bare_make = True
            for m in re.finditer(r"(?:^|[\s;&|(])(?:sudo\s+)?make\s+"
                                 r"(?:-\S+\s+)*([a-z][a-z0-9_-]*)(?=\s|$|`)",
                                 s):
                mentioned.setdefault(m.group(1),
                                     os.path.relpath(path, root))
    for n in sorted(phony):
        # `make` alone is `make all`
        if n not in mentioned and not (n == "all" and bare_make):
            err("make target", n, "no `make %s` in README.md or docs/" % n)
    for n, path in sorted(mentioned.items()):
        if n not in targets:
            err("make target", n, "`make %s` in %s, but the Makefile has "
                "no such target" % (n, path))

    # vflashctl commands <-> docs/vflashctl.md, and `vflashctl WORD`
    cmds = vflashctl_commands(root)
    heads = set()
    for m in re.finditer(r"^##\s+(.*)$", vflashctl_md, flags=re.M):
        heads |= set(re.split(r"[\s,`]+", m.group(1)))
    for n in sorted(cmds - heads):
        err("vflashctl command", n, "no \"## \" section of "
            "docs/vflashctl.md names it")
    for path in all_docs(root):
        for s in spans(read(path)):
            for m in re.finditer(r"(?:^|[\s;&|(])vflashctl\s+([a-z][a-z-]*)"
                                 r"(?=\s|$|`|\))", s):
                if m.group(1) not in cmds and m.group(1) != "help":
                    err("vflashctl command", m.group(1), "`vflashctl %s` "
                        "in %s, but vflashctl has no such command" %
                        (m.group(1), os.path.relpath(path, root)))
    return sorted(set(errs))


# --- selftest ------------------------------------------------------------

GOOD = {
    "module/main.c": 'static char *size;\nmodule_param(size, charp, 0444);\n'
                     '/* module_param(commented, uint, 0) */\n'
                     'module_param_named(page_size, fps, charp, 0444);\n',
    "frontend_nvme/main.c": "module_param(workers, uint, 0444);\n",
    "core/configfs.c": "VFLASH_CFS_ATTR(size);\nVFLASH_CFS_ATTR(zoned);\n"
                       "CONFIGFS_ATTR(vflash_cfs_, power);\n"
                       "CONFIGFS_ATTR_RO(vflash_cfs_, device);\n"
                       "#define VFLASH_CFS_ATTR(_name) "
                       "CONFIGFS_ATTR(vflash_cfs_, _name)\n",
    "core/device.c": "static DEVICE_ATTR_RO(size);\n"
                     "static DEVICE_ATTR_RO(store);\n"
                     "#define VFLASH_GEOM_ATTR(_name, _f) "
                     "static DEVICE_ATTR_RO(_name)\n"
                     "VFLASH_GEOM_ATTR(channels, channels);\n",
    "policy/registry.c": "static const char * const kind_names[2] = {\n"
                         '\t[0] = "gc",\n\t[1] = "eviction",\n};\n',
    "backend_flash/stats.c": "static const char * const stat_names[2] = {\n"
                             '\t[0] = "gc_runs",\n\t[1] = "misses",\n};\n',
    "core/sysfs.c": "static const char * const derived_names[] = {\n"
                    '\t[0] = "write_amplification",\n};\n',
    "backend_flash/flash.c": "} knobs[1] = {\n\t[0] = { "
                             '"gc_low_pct", 1, 50 },\n};\n',
    "backend_flash/cache/ctl.c": "} knobs[1] = {\n\t[0] = { .name = "
                                 '"cache_ways", },\n};\n',
    "Makefile": ".PHONY: all check \\\n\tvmtest\nall: x\ncheck:\n"
                "vmtest: all\nother:\n",
    "scripts/vflashctl/vflashctl": "cmd_up() {\n}\ncmd_status() {\n}\n",
    "README.md": "```sh\nmake all && make check\nsudo make vmtest VMTEST=x\n"
                 "vflashctl up --size 1G\nmake KDIR=/x\n```\n"
                 "Run `vflashctl help status` or `make other`.\n",
    "docs/parameters.md": "# P\n## Module parameters\n| parameter | v |\n"
                          "|---|---|\n| `size` | bytes |\n| `page_size` | "
                          "x |\n| `workers` | n |\n\n## sysfs: x\n| file |"
                          " c |\n|---|---|\n| `size` | r |\n| `store` | r"
                          " |\n| `geometry/` | `channels` |\n| `policy/"
                          "<kind>` | rw |\n\nKinds: `gc`, `eviction`.\n",
    "docs/devices.md": "# D\n## The tree\n| attribute | mode |\n|---|---|"
                       "\n| `size`, `zoned` | rw |\n| `power` | rw |\n| "
                       "`device` | r |\n\n## Errors\n| `bogus` | x |\n",
    "docs/design/backend.md": "Counters `gc_runs`, `write_amplification`; "
                              "knob `gc_low_pct`.\n",
    "docs/cxl.md": "`stats/misses`, `config/cache_ways`.\n",
    "docs/vflashctl.md": "# vflashctl\n## up, down\n## status\n",
}

# (file, text appended or (old, new) replaced, the report it must cause)
BAD = [
    ("frontend_nvme/main.c", "module_param(spin_us, uint, 0444);\n",
     "module parameter spin_us: not a row"),
    ("docs/parameters.md", ("| `workers` | n |", "| `workers` | n |\n"
                            "| `gone` | x |"),
     "module parameter gone: in docs/parameters.md"),
    ("core/configfs.c", "VFLASH_CFS_ATTR(fdp);\n",
     "configfs attribute fdp: not in docs/devices.md"),
    ("docs/devices.md", ("| `power` | rw |", "| `power`, `ghost` | rw |"),
     "configfs attribute ghost: in docs/devices.md"),
    ("core/device.c", "static DEVICE_ATTR_RO(profile);\n",
     "sysfs file profile: not a row"),
    ("core/device.c", "VFLASH_GEOM_ATTR(op_percent, op_pct);\n",
     "sysfs file geometry/op_percent: not named"),
    ("docs/parameters.md", ("| `store` | r |", "| `store` | r |\n"
                            "| `nosuch` | r |"),
     "sysfs file nosuch: in docs/parameters.md"),
    ("docs/parameters.md", ("| `store` | r |", "| `store` | r |\n"
                            "| `queue/x` | r |"),
     "sysfs file queue/x: in docs/parameters.md, but vflash makes no"),
    ("policy/registry.c", ('"eviction",', '"eviction",\n\t[2] = "prefetch",'),
     "policy kind prefetch: not named"),
    ("backend_flash/stats.c", ('"misses",', '"misses",\n\t[2] = "erases",'),
     "stats counter erases: not named"),
    ("backend_flash/flash.c", ('"gc_low_pct", 1, 50 },',
                               '"gc_low_pct", 1, 50 },\n'
                               '\t[1] = { "spin_ns", 0, 1 },'),
     "config knob spin_ns: not named"),
    ("backend_flash/cache/ctl.c", ('"cache_ways", },', '"cache_ways", },\n'
                                   '\t[1] = { .name = "sample_gap", },'),
     "config knob sample_gap: not named"),
    ("Makefile", (".PHONY: all check", ".PHONY: all check bench-x"),
     "make target bench-x: no `make bench-x`"),
    ("README.md", "```sh\nmake study-nope\n```\n",
     "make target study-nope: `make study-nope` in README.md"),
    ("scripts/vflashctl/vflashctl", "cmd_faults() {\n}\n",
     "vflashctl command faults: no \"## \" section"),
    ("docs/cxl.md", "Then `vflashctl cut vflash0`.\n",
     "vflashctl command cut: `vflashctl cut` in docs/cxl.md"),
]


def make_tree(files):
    root = tempfile.mkdtemp(prefix="doc-xref.")
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return root


def selftest():
    failed = 0
    root = make_tree(GOOD)
    try:
        errs = check(root)
    finally:
        shutil.rmtree(root)
    for e in errs:
        print("doc-xref: selftest: the good tree reported: " + e)
        failed += 1
    for rel, change, want in BAD:
        files = dict(GOOD)
        if isinstance(change, tuple):
            assert change[0] in files[rel], (rel, change[0])
            files[rel] = files[rel].replace(change[0], change[1])
        else:
            files[rel] = files[rel] + change
        root = make_tree(files)
        try:
            errs = check(root)
        finally:
            shutil.rmtree(root)
        if not any(want in e for e in errs):
            print("doc-xref: selftest: not reported: %s (got: %s)" %
                  (want, "; ".join(errs) or "nothing"))
            failed += 1
        elif len(errs) != 1:
            print("doc-xref: selftest: %s: more than the one report: %s" %
                  (want, "; ".join(errs)))
            failed += 1
    print("doc-xref: selftest: %d drifts reported, the good tree passed%s" %
          (len(BAD), "" if not failed else "; %d FAILED" % failed))
    return failed == 0


def main(argv):
    args = argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if args and args[0] == "--selftest":
        return 0 if selftest() else 1
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    root = args[0] if args else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    ok = selftest()
    errs = check(root)
    for e in errs:
        print(e)
    counts = (len(module_params(root)), len(configfs_attrs(root)),
              len(device_attrs(root)[0]), len(make_targets(root)[0]),
              len(vflashctl_commands(root)))
    print("doc-xref: %d module parameters, %d configfs attributes, %d sysfs "
          "device files, %d make targets, %d vflashctl commands: %s" %
          (counts + ("%d reports" % len(errs) if errs else "documented",)))
    return 0 if ok and not errs else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
