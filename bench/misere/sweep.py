#!/usr/bin/env python3
"""Sweep of misere quotients over small octal codes (docs/misere.md, "The
sweep: where quotients become infinite").

For every code it runs, in a process of its own,

    cgt --format=json --timeout-cpu=BUDGET \
        -e 'game g = octal CODE; quotient q = g to HEAP proof "WORK/CODE.proof"; print q;'

(the infinite-quotient decision is on by default), reads the JSON line of
the result or of the error, measures the child's CPU time and peak RSS
with /usr/bin/time, has every proof file of an infinite verdict checked by
the independent checker (tests/oracle/mq_infcheck) and appends one row to the
CSV.  A re-run skips the codes already in the CSV, so a stopped sweep
resumes where it stopped; lines starting with '#' are comments (the
header names the commit, date, machine and command).

Usage: bench/misere/sweep.py [--heap N] [--budget SECONDS] [--out CSV]
           [--work DIR] [--cgt CMD] [--check PATH] [--extra OPTS] [CODE ...]
Without CODEs: 0.1..0.7, every 0.d1d2 and 0.d1d2d3 (last digit nonzero)
and every 0.d1d2d3d4 with digits 0-3 (703 codes); with CODEs only those,
in that order.  --extra adds options to the quotient statement (the test
uses `max_size`).  /usr/bin/time (Debian package `time`) measures each run.
Run it under `nice -n 19`; the environment is passed to cgt unchanged.
"""
import argparse
import csv
import datetime
import hashlib
import json
import os
import platform
import resource
import shlex
import subprocess
import sys

TIME = "/usr/bin/time"
FIELDS = ["code", "verdict", "heap", "order", "pcount", "partner", "states", "reduce",
          "witness", "pairs", "checker", "proof_sha256", "note", "cpu_s", "peak_rss_kb",
          "exit", "commit"]


def codes_all():
    """The sweep's codes, one-digit first, in increasing order within a length."""
    out = ["0.%d" % d for d in range(1, 8)]
    out += ["0.%d%d" % (a, b) for a in range(8) for b in range(1, 8)]
    out += ["0.%d%d%d" % (a, b, c) for a in range(8) for b in range(8) for c in range(1, 8)]
    out += ["0.%d%d%d%d" % (a, b, c, d) for a in range(4) for b in range(4) for c in range(4)
            for d in range(1, 4)]
    return out


def git_commit(repo):
    """The last commit that changed what cgt and the checker are built from
    (src/, tests/oracle/, Makefile): the rows depend on that, not on later
    commits of docs or of this script, and it survives a rebase of them."""
    try:
        r = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%h", "--abbrev=12", "--",
                            "src", "tests/oracle", "Makefile"],
                           capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain",
                                "--untracked-files=no", "--", "src", "tests/oracle", "Makefile"],
                               capture_output=True, text=True)
        dirty = dirty.stdout.strip()
        return r.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine():
    model = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %s, %d cores" % (platform.node() or "unknown host", model, os.cpu_count() or 0)


def done_codes(path):
    """Codes that already have a row in the CSV."""
    if not os.path.exists(path):
        return set()
    with open(path, newline="") as f:
        rows = csv.reader(line for line in f if not line.startswith("#"))
        header = next(rows, None)
        if header != FIELDS:
            sys.exit("sweep: %s has another header; move it away or pass --out" % path)
        return {r[0] for r in rows if r}


def last_json(text):
    """The last line of TEXT that parses as a JSON object, or None."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return None


def run_child(argv, timefile, cpu_cap=None):
    """Run argv under /usr/bin/time; return (exit status, stdout+stderr, CPU
    seconds, peak RSS in KB).  /usr/bin/time measures the peak RSS of cgt
    itself: wait4 from here would report this Python process's size, which
    a forked child counts until it execs."""
    def limit():
        if cpu_cap:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 5))
    p = subprocess.run([TIME, "-f", "%U %S %M", "-o", timefile] + argv, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, preexec_fn=limit)
    with open(timefile) as f:
        last = f.read().strip().splitlines()[-1].split()
    cpu, rss = float(last[0]) + float(last[1]), int(last[2])
    code = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return code, p.stdout.decode("utf-8", "replace"), cpu, rss


def check_proof(checker, proof):
    """Run the independent checker on a proof file: (accepted, one-line verdict)."""
    timefile = os.path.join(os.path.dirname(proof), "check-time.txt")
    code, out, _, _ = run_child([checker, proof], timefile, cpu_cap=600)
    first = out.strip().splitlines()[0] if out.strip() else ""
    return code == 0, "exit %d: %s" % (code, first)


def one_code(a, code, commit):
    proof = os.path.join(a.work, code + ".proof")
    if os.path.exists(proof):
        os.remove(proof)
    script = 'game g = octal %s; quotient q = g to %d proof "%s"%s; print q;' % (
        code, a.heap, proof, " " + a.extra if a.extra else "")
    argv = shlex.split(a.cgt) + ["--format=json", "--timeout-cpu=%g" % a.budget, "-e", script]
    ex, out, cpu, rss = run_child(argv, os.path.join(a.work, "time.txt"),
                                  cpu_cap=int(a.budget * 4) + 30)
    row = dict.fromkeys(FIELDS, "")
    row.update(code=code, cpu_s="%.2f" % cpu, peak_rss_kb=str(rss), exit=str(ex), commit=commit)
    j = last_json(out)
    if j is None:
        row.update(verdict="error", note=" ".join(out.split())[:300])
        return row
    if j.get("kind") == "quotient" and j.get("infinite"):
        d = j["description"]
        r = d["reduce"]
        w = d["witness"]
        ok, verdict = check_proof(a.check, proof)
        with open(proof, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()
        row.update(verdict="infinite" if ok else "infinite-REJECTED", heap=j["heap"],
                   order=j["finite_part"]["order"], pcount=j["finite_part"]["pcount"],
                   partner=d["partner"], states=d["states"],
                   reduce="%d %d %d %d %d" % (r["t"], r["b0"], r["pb"], r["a0"], r["pa"]),
                   witness="%d %d %s" % (w["offset"], w["from"],
                                         "+".join(str(k) for k in w["context"]) or "-"),
                   pairs=d["pairs"], checker=verdict, proof_sha256=sha,
                   note="finite part Q(%d)" % j["finite_part"]["heap"])
    elif j.get("kind") == "quotient":
        row.update(verdict="finite" if j.get("certified") else "uncertified", heap=j["heap"],
                   order=j["order"], pcount=j["pcount"],
                   note="tame" if j.get("tame") else "")
    elif j.get("kind") == "error":
        part = j.get("partial") or {}
        hint = j.get("hint") or ""
        msg = j.get("message") or ""
        if j.get("category") == "limit" and part.get("kind") == "quotient":
            verdict = "undecided" if "undecided" in hint else "budget"
            row.update(verdict=verdict, heap=part["heap"] + 1, order=part.get("order", ""),
                       pcount=part.get("pcount", ""), note=(msg + "; " + hint).strip("; "))
        else:
            row.update(verdict="error", note=(msg + "; " + hint).strip("; "))
    else:
        row.update(verdict="error", note="unexpected JSON kind %s" % j.get("kind"))
    return row


def main():
    ap = argparse.ArgumentParser(description="misere quotient sweep over octal codes")
    ap.add_argument("--heap", type=int, default=20)
    ap.add_argument("--budget", type=float, default=5.0, help="CPU seconds per code")
    ap.add_argument("--out", default="bench/results/misere-sweep.csv")
    ap.add_argument("--work", default=None, help="proof files (default OUT without .csv, + .d)")
    ap.add_argument("--cgt", default="build/cgt", help="the cgt command (split at blanks)")
    ap.add_argument("--extra", default="", help="more options of the quotient statement")
    ap.add_argument("--check", default="build/oracle/mq_infcheck")
    ap.add_argument("codes", nargs="*")
    a = ap.parse_args()
    for path in (shlex.split(a.cgt)[0], a.check, TIME):
        if not os.access(path, os.X_OK):
            sys.exit("sweep: %s is not an executable (make all builds it)" % path)
    if a.work is None:
        a.work = os.path.splitext(a.out)[0] + ".d"
    os.makedirs(a.work, exist_ok=True)
    if os.path.dirname(a.out):
        os.makedirs(os.path.dirname(a.out), exist_ok=True)
    codes = a.codes or codes_all()
    done = done_codes(a.out)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    commit = git_commit(repo)
    new = not os.path.exists(a.out)
    with open(a.out, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        if new:
            now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            f.write("# misere quotient sweep, started %s, cgt of commit %s\n" % (now, commit))
            f.write("# machine: %s\n" % machine())
            extra = " " + a.extra if a.extra else ""
            f.write("# command: bench/misere/sweep.py --heap %d --budget %g%s (per code: cgt "
                    "--format=json --timeout-cpu=%g -e 'game g = octal CODE; quotient q = g to %d "
                    "proof \"F\"%s; print q;')\n" % (a.heap, a.budget,
                                                    " --extra '%s'" % a.extra if a.extra else "",
                                                    a.budget, a.heap, extra))
            f.write("# cpu_s and peak_rss_kb: the cgt process's user+system CPU and max RSS "
                    "(/usr/bin/time); rows resumed later carry their own commit\n")
            w.writeheader()
            f.flush()
        todo = [c for c in codes if c not in done]
        for i, code in enumerate(todo):
            row = one_code(a, code, commit)
            w.writerow(row)
            f.flush()
            os.fsync(f.fileno())
            print("%d/%d %s %s heap %s (%s s)" % (i + 1, len(todo), code, row["verdict"],
                                                  row["heap"], row["cpu_s"]), flush=True)


if __name__ == "__main__":
    main()
