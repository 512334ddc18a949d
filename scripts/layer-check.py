#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/layer-check.py [-v] [--selftest] [-h]
#
# The layering of docs/design/architecture.md, checked over the sources (make
# check's layers test). Every file of a layer folder is a node; file A
# uses file B when A #includes B, or names a function or global variable
# that B (a .c file) defines. Then:
#   1. a file uses only its own folder and the folders of lower layers;
#   2. no two folders use each other, directly or around a circle;
#   3. inside a folder, no circle of #include lines; and in the folders
#      of CALLS_ONE_WAY, no circle of uses between the .c files (the
#      pieces call each other one way, or through an ops table).
# kunit/ and scripts/ are outside the layering: tests include anything;
# any other folder with C sources must be in LAYERS. A layer may be a
# folder inside another one's (backend_flash/cache/): the files of a
# folder are those directly in it, so each file belongs to one folder.
# -v also prints every folder's uses and the circles of uses between
# the .c files of the folders that are not held to rule 3's second part.
# --selftest first plants one breach of each rule in a copy of the
# sources and fails unless each one is reported (make check runs both).
# Exit status 0 when every rule holds, 1 when one does not.
import io
import os
import re
import shutil
import sys
import tempfile
from contextlib import redirect_stdout

# Layers, lowest first: a folder may use its own files and those of the
# folders of lower layers, never a folder of its own layer or above.
LAYERS = [
    ["policy"],
    ["backend_flash"],
    ["backend_flash/cache"],
    ["core"],
    ["frontend_nvme", "frontend_cxl"],
    ["module"],
]
CALLS_ONE_WAY = ["frontend_nvme", "frontend_cxl", "core", "module",
                 "backend_flash", "backend_flash/cache", "policy"]
OUTSIDE = ["kunit", "scripts", "build"]
RANK = {d: i for i, layer in enumerate(LAYERS) for d in layer}


def usage():
    with open(__file__) as f:
        lines = f.read().splitlines()
    for line in lines[2:]:
        if not line.startswith("#"):
            break
        print(line[2:])


def strip(text):
    """The C text without comments, string and character literals."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
# A definition starts at column 0 with its type and ends its head with a
# "{" at column 0 (functions) or is a file-scope variable or DEFINE_*().
FUNC_HEAD = re.compile(r"^(?!static\b|extern\b|typedef\b|#)[A-Za-z_][^;=]*?\b(\w+)\s*\(")
DEFINE = re.compile(r"^DEFINE_[A-Z_]+\((\w+)", re.M)
VAR = re.compile(r"^(?!static\b|extern\b|typedef\b|return\b|#)"
                 r"(?:const\s+)?(?:struct\s+|enum\s+|unsigned\s+)?\w+[\s*]+"
                 r"(?:const\s+)?\**(\w+)(?:\[[^\]]*\])*\s*(?:=|;)")
STATIC_NAME = re.compile(r"^static\b[^;=({]*?\b(\w+)\s*[(\[=;]", re.M)


def definitions(text):
    """Names that a .c file defines for other files."""
    names = set(DEFINE.findall(text))
    head = None
    for line in text.splitlines():
        m = FUNC_HEAD.match(line)
        if m and not line.rstrip().endswith(";"):
            head = m.group(1)
            continue
        if line.startswith("{") and head:
            names.add(head)
            head = None
            continue
        if line.rstrip().endswith(";") or line.startswith("}"):
            head = None
        m = VAR.match(line)
        if m:
            names.add(m.group(1))
    return names


def scc(nodes, edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index = {}
    low = {}
    stack = []
    on = set()
    out = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def one_circle(comp, edges):
    """One circle through the component's first node, for the report."""
    start = comp[0]
    members = set(comp)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


# One planted breach per rule: (file, line appended, the start of what
# must be reported; a circle's members depend on the rest of the tree)
PLANTS = [
    ("policy/registry.c", '#include "core/vflash.h"\n',
     "policy/registry.c uses core/vflash.h (#include): core/ is a higher layer"),
    ("frontend_cxl/mmap.c", "void vfc_selftest(void) { vfn_hostmem_init(NULL); }\n",
     "frontend_cxl/mmap.c uses frontend_nvme/hostmem.c (vfn_hostmem_init()): "
     "frontend_nvme/ is a folder of the same layer"),
    ("backend_flash/request.c", "void vff_selftest(void) { vflash_dev_create(NULL, NULL); }\n",
     "circle of folders: "),
    ("core/faults.h", '#include "core/vflash.h"\n',
     "circle of #include in core/: "),
    ("frontend_nvme/dispatch.c", "void vfn_selftest(void) { vfn_io(NULL, NULL, NULL, 0); }\n",
     "circle of calls in frontend_nvme/ "),
    ("backend_flash/gc.c", '#include "backend_flash/cache/ctl.h"\n',
     "backend_flash/gc.c uses backend_flash/cache/ctl.h (#include): "
     "backend_flash/cache/ is a higher layer"),
    ("backend_flash/stray/stray.c", "int vff_stray;\n",
     "backend_flash/stray/ holds C sources but is in no layer"),
]


def selftest(root):
    """Does check() report each planted breach, and pass without them?"""
    tmp = tempfile.mkdtemp(prefix="layer-check.")
    try:
        for d in RANK:
            if os.path.isdir(os.path.join(root, d)):
                os.makedirs(os.path.join(tmp, d))
                for name in os.listdir(os.path.join(root, d)):
                    if name.endswith((".c", ".h")):
                        shutil.copy(os.path.join(root, d, name),
                                    os.path.join(tmp, d, name))
        out = io.StringIO()
        with redirect_stdout(out):
            clean = check(tmp, False)
        if clean:
            print("layer-check: selftest: the copy fails before any plant:")
            print(out.getvalue(), end="")
            return 1
        for path, line, _ in PLANTS:
            os.makedirs(os.path.dirname(os.path.join(tmp, path)), exist_ok=True)
            with open(os.path.join(tmp, path), "a") as f:
                f.write(line)
        out = io.StringIO()
        with redirect_stdout(out):
            rc = check(tmp, False)
        missed = [want for _, _, want in PLANTS if want not in out.getvalue()]
        for want in missed:
            print("layer-check: selftest: not reported: " + want)
        if rc == 0 or missed:
            print(out.getvalue(), end="")
            return 1
        print("layer-check: selftest: %d planted breaches reported" % len(PLANTS))
        return 0
    finally:
        shutil.rmtree(tmp)


def main():
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        usage()
        return 0
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if "--selftest" in args and selftest(root):
        return 1
    return check(root, "-v" in args)


def check(root, verbose):
    os.chdir(root)
    files = []
    bad = 0
    for top, dirs, names in os.walk("."):
        d = os.path.normpath(top)
        if d == ".":
            dirs[:] = [x for x in dirs
                       if x not in OUTSIDE and not x.startswith(".")]
            continue
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        if (d not in RANK and
                any(n.endswith((".c", ".h")) for n in names)):
            print("layer-check: %s/ holds C sources but is in no layer" % d)
            bad += 1
    for d in RANK:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if name.endswith((".c", ".h")):
                files.append(d + "/" + name)
    if not files:
        print("layer-check: no sources found", file=sys.stderr)
        return 1
    text = {}
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            raw = fh.read()
        text[f] = (raw, strip(raw))

    # Who defines each name; a name defined twice (static twins) is
    # left out, it is no cross-file use.
    owner = {}
    funcs = set()
    for f in files:
        if f.endswith(".c"):
            code = text[f][1]
            for name in definitions(code):
                owner[name] = None if name in owner else f
                if re.search(r"\b%s\s*\(" % name, code):
                    funcs.add(name)
    owner = {k: v for k, v in owner.items() if v}

    includes = {}
    uses = {}
    why = {}
    for f in files:
        raw, code = text[f]
        inc = set()
        for path in INCLUDE.findall(raw):
            for cand in (os.path.normpath(os.path.join(os.path.dirname(f), path)), path):
                if cand in text:
                    inc.add(cand)
                    break
        includes[f] = inc
        mine = set(STATIC_NAME.findall(code)) | (definitions(code) if f.endswith(".c") else set())
        u = set(inc)
        for f2 in inc:
            why[(f, f2)] = "#include"
        for name in sorted(set(IDENT.findall(code)) - mine):
            f2 = owner.get(name)
            if f2 and f2 != f:
                u.add(f2)
                why.setdefault((f, f2), name + ("()" if name in funcs else ""))
        uses[f] = u

    folder = {f: os.path.dirname(f) for f in files}

    # 1. downward only
    for f in files:
        for f2 in sorted(uses[f]):
            a, b = folder[f], folder[f2]
            if a != b and RANK[a] <= RANK[b]:
                rel = "a folder of the same layer" if RANK[a] == RANK[b] else "a higher layer"
                print("layer-check: %s uses %s (%s): %s/ is %s" %
                      (f, f2, why[(f, f2)], b, rel))
                bad += 1

    # 2. no circle of folders
    fedges = {}
    for f in files:
        for f2 in uses[f]:
            if folder[f] != folder[f2]:
                fedges.setdefault(folder[f], set()).add(folder[f2])
    for comp in scc(set(folder.values()), fedges):
        print("layer-check: circle of folders: " + " -> ".join(one_circle(comp, fedges)))
        bad += 1
    if verbose:
        for d in sorted(fedges):
            print("layer-check: %s/ uses %s" % (d, ", ".join(x + "/" for x in sorted(fedges[d]))))

    # 3. no circle inside a folder
    for d in sorted(set(folder.values())):
        mine = [f for f in files if folder[f] == d]
        iedges = {f: {x for x in includes[f] if folder[x] == d} for f in mine}
        for comp in scc(mine, iedges):
            print("layer-check: circle of #include in %s/: %s" %
                  (d, " -> ".join(one_circle(comp, iedges))))
            bad += 1
        srcs = [f for f in mine if f.endswith(".c")]
        cedges = {f: {x for x in uses[f] if x in srcs} for f in srcs}
        for comp in scc(srcs, cedges):
            circle = one_circle(comp, cedges)
            steps = ", ".join("%s uses %s (%s)" % (a, b, why[(a, b)])
                              for a, b in zip(circle, circle[1:]))
            if d in CALLS_ONE_WAY:
                print("layer-check: circle of calls in %s/ among %s: %s" %
                      (d, ", ".join(os.path.basename(x) for x in comp), steps))
                bad += 1
            elif verbose:
                print("layer-check: (not checked) circle of calls in %s/: %s" %
                      (d, " -> ".join(circle)))

    nuses = sum(len(uses[f]) for f in files)
    if bad:
        print("layer-check: %d problems in %d files (%d uses)" % (bad, len(files), nuses))
        return 1
    print("layer-check: %d files, %d uses: every use runs down the layers, no circles" %
          (len(files), nuses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
