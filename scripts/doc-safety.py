#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: scripts/doc-safety.py [--selftest] [-h] [FILE.md...]

No example in the docs may reach a drive that is not vflash's (make
check's doc-safety test). It reads README.md and every docs/**/*.md
(or the FILEs given) and reports file:line for each of:

  (a) literal device path: on a line of a fenced code block, or in an
      inline `code` span, a command word in command position (nvme and
      its subcommands, dd, mkfs and mkfs.*, mount, blkzone, blkdiscard,
      fio, wipefs, sgdisk, parted; not umount) followed in the same
      shell segment by a literal /dev/nvme<digit>... or /dev/ng<digit>...
      path (`nvme smart-log /dev/nvme0`, `dd of=/dev/nvme0n1`);
  (b) unguarded device variable: inside a fenced code block, a device
      argument given as a shell variable (or $(...)) that is unquoted,
      or quoted but not guarded with ${VAR:? at that use or earlier in
      the same block. The device arguments are dd's of=, fio's
      --filename=, and the arguments starting with $ or "$ of nvme,
      blkzone, blkdiscard, mkfs*, mount and wipefs (`dd of=$ns`,
      `blkzone reset -o 0 -c 1 $ns`, `nvme zns report-zones "$ns"`
      with no "${ns:?" before it).

A line is split into shell segments at ; | & && || and ( ) outside
quotes, and into words at white space; a shell comment (a word starting
with #) ends it; a line ending in \\ goes on on the next. A command is
in command position when it is a segment's first word, after sudo, env,
time, nohup, exec, timeout DURATION, xargs, a VAR=value assignment, a
"$ " prompt or a shell keyword (then, do, else, !, {). Command words
match exactly (nvme.sh is not nvme; /usr/sbin/nvme is). Program output
(a `vflashctl list` line naming /dev/nvme0n1) is no command and passes.

The way an example finds its device: ns=$(vflashctl namespace vflash0),
ctrl=$(vflashctl namespace --controller vflash0), then "${ns:?...}".

--selftest runs the built-in bad snippets (each must be reported; among
them the historical ones of docs/fdp.md, zns.md, faults.md) and good
ones (none may be); the normal run does the selftest first.
Exit status 0 when nothing is reported, 1 otherwise, 2 on a usage error.
"""
import glob
import os
import re
import sys

COMMANDS = {"nvme", "dd", "mkfs", "mount", "blkzone", "blkdiscard", "fio",
            "wipefs", "sgdisk", "parted"}
# rule (b): commands whose arguments starting with $ are device arguments
VAR_POSITIONAL = {"nvme", "blkzone", "blkdiscard", "mkfs", "mount", "wipefs"}
PREFIXES = {"sudo", "env", "time", "nohup", "exec", "xargs", "nice",
            "ionice", "command", "builtin", "then", "do", "else", "elif",
            "if", "while", "until", "!", "{", "$"}
# prefixes whose first non-option argument is not the command
PREFIX_WITH_ARG = {"timeout"}
SEPARATORS = {";", "|", "||", "&", "&&", "(", ")", ";;", "`"}
LITERAL_DEV = re.compile(r"/dev/(nvme|ng)[0-9]")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
GUARD = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):\?")
VARREF = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
INLINE = re.compile(r"(`+)(.+?)\1")


def tokenize(line):
    """Words and separators of a shell line, each word as written (its
    quotes kept); a word starting with # ends the line."""
    out = []
    cur = ""
    i = 0
    quote = None      # ' or "
    depth = 0         # inside $( ... ) or ${ ... }
    n = len(line)
    while i < n:
        c = line[i]
        if quote:
            cur += c
            if c == "\\" and quote == '"' and i + 1 < n:
                cur += line[i + 1]
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
            continue
        if depth:
            cur += c
            if c in "({":
                depth += 1
            elif c in ")}":
                depth -= 1
            elif c in "'\"":
                # a quoted string inside $( ): to its end
                j = line.find(c, i + 1)
                if j < 0:
                    j = n - 1
                cur += line[i + 1:j + 1]
                i = j
            i += 1
            continue
        if c == "\\" and i + 1 < n:
            cur += line[i:i + 2]
            i += 2
            continue
        if c in "'\"":
            quote = c
            cur += c
            i += 1
            continue
        if c == "$" and i + 1 < n and line[i + 1] in "({":
            cur += line[i:i + 2]
            depth = 1
            i += 2
            continue
        if c == "#" and cur == "":
            break
        if c.isspace():
            if cur:
                out.append(cur)
                cur = ""
            i += 1
            continue
        if c in ";|&()`":
            if cur:
                out.append(cur)
                cur = ""
            two = line[i:i + 2]
            if two in ("&&", "||", ";;"):
                out.append(two)
                i += 2
            else:
                out.append(c)
                i += 1
            continue
        if c in "<>":
            # a redirection: its own word (2>/dev/null, >file)
            if cur and not cur.isdigit():
                out.append(cur)
                cur = ""
            cur += c
            i += 1
            continue
        cur += c
        i += 1
    if cur:
        out.append(cur)
    return out


def substitutions(word):
    """The text inside each outermost $( ... ) of WORD (to its end if
    the ) is on a later line)."""
    out = []
    i = word.find("$(")
    while i >= 0:
        depth = 1
        j = i + 2
        while j < len(word) and depth:
            if word[j] == "(":
                depth += 1
            elif word[j] == ")":
                depth -= 1
            j += 1
        out.append(word[i + 2:j - 1 if depth == 0 else j])
        i = word.find("$(", j)
    return out


def segments(tokens):
    seg = []
    for t in tokens:
        if t in SEPARATORS:
            if seg:
                yield seg
            seg = []
        else:
            seg.append(t)
    if seg:
        yield seg


def command_of(seg):
    """(index, command name) of the segment's command, or (None, None)."""
    i = 0
    skip_arg = False
    while i < len(seg):
        w = seg[i]
        base = w.rsplit("/", 1)[-1] if w.startswith("/") else w
        if skip_arg:
            if not w.startswith("-"):
                skip_arg = False
            i += 1
            continue
        if w in PREFIXES or ASSIGNMENT.match(w) or (i > 0 and w.startswith("-")
                                                      and seg[0] in PREFIXES | PREFIX_WITH_ARG):
            i += 1
            continue
        if w in PREFIX_WITH_ARG:
            skip_arg = True
            i += 1
            continue
        if base in COMMANDS or re.fullmatch(r"mkfs\.[A-Za-z0-9_]+", base):
            return i, ("mkfs" if base.startswith("mkfs") else base)
        return None, None
    return None, None


def var_problem(value, guarded):
    """What is wrong with VALUE as a device argument, or None: it is a
    shell variable or $(...) unquoted, or quoted and not guarded."""
    if value.startswith("$"):
        return "unquoted"
    if not value.startswith('"$'):
        return None
    inner = value[1:]
    for g in GUARD.findall(inner):
        guarded.add(g)
    m = VARREF.match(inner)
    if m and m.group(1) in guarded:
        return None
    return "not guarded with ${VAR:?...}"


def check_line(code, in_fence, guarded):
    """The problems of one line of code: a list of messages. GUARDED is
    the block's set of variables guarded so far (added to)."""
    problems = []
    tokens = tokenize(code)
    # a command inside $( ... ) is checked as a line of its own
    for w in tokens:
        for inner in substitutions(w):
            problems += check_line(inner, in_fence, guarded)
    for seg in segments(tokens):
        idx, cmd = command_of(seg)
        if idx is None:
            if in_fence:
                for w in seg:
                    guarded.update(GUARD.findall(w))
            continue
        if in_fence:
            for w in seg[:idx]:
                guarded.update(GUARD.findall(w))
        args = seg[idx + 1:]
        for w in args:
            if LITERAL_DEV.search(w):
                problems.append("%s given a literal device path (%s): find "
                                "vflash's with vflashctl namespace" % (cmd, w))
                break
        if not in_fence:
            continue
        prev = None
        for w in args:
            value = None
            if cmd == "dd" and w.startswith("of="):
                value = w[3:]
            elif cmd == "fio" and w.startswith("--filename="):
                value = w[len("--filename="):]
            elif cmd == "fio" and prev == "--filename":
                value = w
            elif cmd in VAR_POSITIONAL and w[:1] in "$\"":
                value = w
            prev = w
            if value is None:
                guarded.update(GUARD.findall(w))
                continue
            why = var_problem(value, guarded)
            if why:
                problems.append("%s's device argument %s is %s" % (cmd, w, why))
    return problems


def check_text(text, name="-"):
    """Every problem of a markdown text, as "name:line: message"."""
    found = []
    fence = None
    guarded = set()
    pending = None  # (first line number, text so far) of a \ continuation
    for num, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m and (fence is None or m.group(1)[0] == fence[0]
                  and len(m.group(1)) >= len(fence)):
            if fence is None:
                fence = m.group(1)
                guarded = set()
            else:
                fence = None
            pending = None
            continue
        if fence is not None:
            if pending:
                start, code = pending[0], pending[1] + " " + line.strip()
            else:
                start, code = num, line
            if code.rstrip().endswith("\\"):
                pending = (start, code.rstrip()[:-1])
                continue
            pending = None
            for p in check_line(code, True, guarded):
                found.append("%s:%d: %s" % (name, start, p))
            continue
        for span in INLINE.finditer(line):
            for p in check_line(span.group(2).strip(), False, set()):
                found.append("%s:%d: %s" % (name, num, p))
    return found


def fenced(*lines):
    return "```sh\n" + "\n".join(lines) + "\n```\n"


# (rule, snippet): each must be reported
BAD = [
    # the historical ones
    ("a", fenced("nvme fdp configs /dev/nvme0 -e 1       # one configuration, 8 handles")),
    ("a", fenced("nvme fdp status /dev/nvme0n1           # per handle: RUAMW")),
    ("a", fenced("nvme write /dev/nvme0n1 -s 0 -c 0 -z 4096 -d data.bin --dir-type=2 --dir-spec=3")),
    ("a", "- delete namespace 1 (`nvme delete-ns /dev/nvme0 -n 1`; its data goes).\n"),
    ("a", fenced("nvme id-ctrl /dev/nvme0 | grep -E '^(nn|tnvmcap|unvmcap) '")),
    ("a", fenced("nvme create-ns /dev/nvme0 --nsze=65536 --ncap=65536 --flbas=0")),
    ("a", fenced("nvme attach-ns /dev/nvme0 --namespace-id=2 --controllers=1")),
    ("a", fenced("nvme list-ns /dev/nvme0            # active: 1, 2, 3 (--all: allocated)")),
    ("a", fenced("nvme detach-ns /dev/nvme0 --namespace-id=2 --controllers=1")),
    ("a", fenced("mkfs.f2fs -f -m -c $zoned /dev/nvme0n1")),
    ("a", fenced("mount -t f2fs /dev/nvme0n1 /mnt")),
    ("a", fenced("cat $S/stats/bad_blocks $S/stats/spare_blocks; nvme smart-log /dev/nvme0")),
    ("b", fenced("dd if=/dev/urandom of=$ns bs=1M count=16 oflag=direct     # zone 0 full")),
    ("b", fenced("blkzone reset -o 0 -c 1 $ns")),
    ("b", fenced("ns=$(vflashctl namespace vflash0)",
                 "blkzone report \"${ns:?no vflash namespace}\" | head -3")
     + fenced("nvme zns report-zones \"$ns\" | head -3")),
    ("b", fenced("mkfs.f2fs -f -m -c \"$zoned\" \"${ns:?}\"")),
    # one of each other kind
    ("a", fenced("sudo dd if=/dev/zero of=/dev/nvme1n1 bs=1M count=1")),
    ("a", fenced("fio --name=r --filename=/dev/nvme0n1 --rw=randread")),
    ("a", fenced("fio --name=r \\", "  --filename=/dev/nvme0n1 --rw=randread")),
    ("a", fenced("x=1; blkdiscard /dev/nvme2n1 && echo done")),
    ("a", fenced("wipefs -a /dev/nvme0n1p1")),
    ("a", fenced("sgdisk -Z /dev/nvme0n1")),
    ("a", fenced("parted /dev/nvme0n1 mklabel gpt")),
    ("a", fenced("mkfs /dev/nvme0n1")),
    ("a", fenced("mkfs.ext4 \"/dev/nvme0n1\"")),
    ("a", fenced("blkzone report /dev/nvme0n2")),
    ("a", fenced("nvme io-passthru /dev/ng0n1 --opcode=2")),
    ("a", fenced("$ sudo nvme format /dev/nvme0n1")),
    ("a", fenced("timeout 10 /usr/sbin/nvme smart-log /dev/nvme0")),
    ("a", "Run `sudo env X=1 fio --filename /dev/nvme0n1 job.fio` as root.\n"),
    ("a", "`for d in 1 2; do nvme reset /dev/nvme0; done`\n"),
    ("a", fenced("iops=$(fio --name=r --filename=/dev/nvme0n1 --output-format=json | jq .)")),
    ("b", fenced("fio --name=w --filename=$DISK --rw=write")),
    ("b", fenced("fio --name=w --filename=\"$DISK\" --rw=write")),
    ("b", fenced("fio --name=w --filename \"$DISK\" --rw=write")),
    ("b", fenced("nvme format $(vflashctl namespace)")),
    ("b", fenced("wipefs -a \"$dev\"")),
    ("b", fenced("blkdiscard $ns")),
    ("b", fenced("mount \"$ns\" /mnt")),
    ("b", fenced("nvme id-ctrl \"${ctrl}\"")),
    ("b", fenced("nvme id-ctrl ${ctrl:?no controller}")),
    ("b", fenced("nvme zns report-zones \"$ns\"",
                 "blkzone report \"${ns:?}\"")),  # guarded only after its use
]

# each must pass
GOOD = [
    fenced("ns=$(vflashctl namespace vflash0)",
           "dd if=/dev/urandom of=\"${ns:?no vflash namespace}\" bs=1M count=16 oflag=direct",
           "blkzone reset -o 0 -c 1 \"$ns\"   # guarded above"),
    fenced("ctrl=$(vflashctl namespace --controller vflash0)",
           "nvme create-ns \"${ctrl:?no vflash controller}\" --nsze=65536 --ncap=65536 --flbas=0",
           "nvme attach-ns \"$ctrl\" --namespace-id=2 --controllers=1"),
    fenced("ns=$(nvme list -o json | jq -r '.Devices[] |",
           "\tselect(.ModelNumber | startswith(\"vflash\")) | .DevicePath')",
           "cat /sys/block/${ns#/dev/}/queue/zoned        # host-managed",
           "blkzone report \"${ns:?no vflash namespace}\" | head -3",
           "nvme zns report-zones \"$ns\" | head -3"),
    fenced("fio --name=r --filename=\"${DISK:?}\" --rw=randread"),
    fenced("mkfs.f2fs -f -m -c \"${zoned:?no NSID 2}\" \"${ns:?no vflash namespace}\"",
           "mount -t f2fs \"$ns\" /mnt",
           "umount /mnt; umount /dev/nvme0n1"),
    # program output and commands that are not on the list
    fenced("vflash0   nvme      32.0MiB    qlc-hybrid  module               /dev/nvme0n1",
           "  node: /dev/nvme0n1",
           "/dev/nvme0n1          vflash-0        vflash NVMe frontend"),
    fenced("vflashctl namespace /dev/nvme0n1     # not vflash's: exit 1, and says so",
           "scripts/bench/nvme.sh -d \"$ns\" -n /dev/nullb0",
           "nvme.sh -d /dev/nvme0n1",
           "ls /sys/block/nvme0n1 /dev/nvme0n1; cat /sys/class/nvme/nvme0/model",
           "echo 'nvme smart-log /dev/nvme0' # a comment: nvme format /dev/nvme0n1",
           "nvme list",
           "nvme list -o json | jq -r '.Devices[].DevicePath'"),
    "Linux numbers its disks (`nvme0nX`); `/sys/block/nvme0nX/nsid` says which;"
    " `vflashctl namespace /dev/nvme1n1` checks a path.\n",
    "`nvme smart-log \"${ctrl:?}\"` and `dd of=\"$ns\"` in prose (rule b is for blocks)\n",
    fenced("for b in /sys/block/\"${ns#/dev/}\"; do :; done",
           "nvme id-ns \"${ns:?}\" -n 1"),
]


def selftest():
    bad = 0
    for i, (rule, text) in enumerate(BAD):
        want = "literal device path" if rule == "a" else "device argument"
        if not any(want in p for p in check_text(text, "bad%d" % i)):
            print("doc-safety: selftest: bad snippet %d (rule %s) not reported:\n%s"
                  % (i, rule, text), file=sys.stderr)
            bad += 1
    for i, text in enumerate(GOOD):
        got = check_text(text, "good%d" % i)
        if got:
            print("doc-safety: selftest: good snippet %d reported:\n%s\n%s"
                  % (i, text, "\n".join(got)), file=sys.stderr)
            bad += 1
    if bad:
        return False
    print("doc-safety: selftest: %d bad snippets reported, %d good ones passed"
          % (len(BAD), len(GOOD)))
    return True


def doc_files(repo):
    files = [os.path.join(repo, "README.md")]
    files += sorted(glob.glob(os.path.join(repo, "docs", "**", "*.md"),
                              recursive=True))
    return [f for f in files if os.path.isfile(f)]


def main(argv):
    args = argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__.rstrip())
        return 0
    only_selftest = "--selftest" in args
    args = [a for a in args if a != "--selftest"]
    for a in args:
        if a.startswith("-"):
            print("doc-safety: unknown option '%s'" % a, file=sys.stderr)
            return 2
    if not selftest():
        return 1
    if only_selftest:
        return 0
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = args or doc_files(repo)
    found = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        found += check_text(text, os.path.relpath(f, repo) if not args else f)
    for p in found:
        print(p)
    if found:
        print("doc-safety: %d unsafe example(s) in %d file(s): find the device "
              "with vflashctl namespace [--controller] DEV and use it as "
              "\"${ns:?no vflash namespace}\"" % (len(found), len(files)),
              file=sys.stderr)
        return 1
    print("doc-safety: %d files, no example touches a device it did not find"
          % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
