# SPDX-License-Identifier: GPL-2.0
"""What the benchmark reports (precondition-report.py, presets-report.py)
share: the "-o OUTDIR" option and gnuplot."""
import shutil
import subprocess
import sys


def outdir_arg(args, doc):
    """Take "-o OUTDIR" out of ARGS (a list, changed in place).

    Return: OUTDIR or None; False (after printing DOC) when -o has no
    value."""
    if "-o" not in args:
        return None
    i = args.index("-o")
    if i + 1 >= len(args):
        print(doc.strip(), file=sys.stderr)
        return False
    outdir = args[i + 1]
    del args[i:i + 2]
    return outdir


def gnuplot(script, png, who):
    """Run gnuplot on SCRIPT, which writes PNG; without gnuplot, say so."""
    if not shutil.which("gnuplot"):
        print(who + ": no gnuplot, no plot", file=sys.stderr)
        return
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print("plot: " + png)
