#!/usr/bin/env python3
"""--format=json: errors and partial results are JSON objects on stdout.

Runs, under --format=json, every script of tests/errors/ (each diagnostic
cgt has a test for), bad calls of every builtin that `help` lists (its
JSON: no argument, a string, a negative integer, too many arguments, an
unknown option, in each of the builtin's forms), and a set of runs that
stop by a limit with a partial result.  Every line of stdout must parse
with Python's json module as one object with a "kind"; a run that fails
ends with exactly one object of kind "error" per error, of the schema of
docs/errors.md ("Errors under --format=json"), whose "exit" is the exit
status of the run and whose "location" and "message" are those of the
human text on stderr.  A run that succeeds prints no error object.

Usage: json_errors.py CGT WORKDIR
"""
import json
import os
import re
import resource
import subprocess
import sys

CGT, WORK = sys.argv[1], sys.argv[2]
CATEGORIES = {"syntax": 3, "name": 1, "type": 1, "domain": 1, "limit": 4, "io": 1,
              "usage": 2, "interrupted": 130, "internal": 70, "check": 1}
failures = []
runs = 0


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(args, what):
    global runs
    runs += 1
    d = os.path.join(WORK, "run%d" % runs)
    os.mkdir(d)
    p = subprocess.run([CGT, "--format=json"] + args, cwd=d, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       preexec_fn=limit_cpu)
    check(p.returncode, p.stdout, p.stderr, what)
    return p


def fail(what, msg):
    failures.append("%s: %s" % (what, msg))


def check(rc, out, err, what):
    if rc < 0 or rc in (70, 152):
        fail(what, "crashed or ran away (exit %d)" % rc)
        return
    errors = []
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        fail(what, "stdout is not UTF-8")
        return
    for n, line in enumerate(text.split("\n")[:-1], 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            fail(what, "stdout line %d is not JSON (%s): %r" % (n, e, line[:120]))
            return
        if not isinstance(obj, dict) or "kind" not in obj:
            fail(what, "stdout line %d is not an object with a kind: %r" % (n, line[:120]))
            return
        if obj["kind"] == "error":
            errors.append(obj)
    if text and not text.endswith("\n"):
        fail(what, "stdout does not end with a line end")
    if rc == 0:
        if errors:
            fail(what, "exit 0 with an error object")
        return
    if not errors:
        fail(what, "exit %d without an error object on stdout" % rc)
        return
    human = err.decode("utf-8", "replace")
    for e in errors:
        keys = ["kind", "category", "message", "hint", "location", "exit", "partial"]
        if list(e) != keys:
            fail(what, "error object keys %s, expected %s" % (list(e), keys))
            return
        if e["category"] not in CATEGORIES:
            fail(what, "unknown category %r" % e["category"])
        if not isinstance(e["message"], str) or not e["message"]:
            fail(what, "message is not a non-empty string")
        if e["hint"] is not None and not isinstance(e["hint"], str):
            fail(what, "hint is neither null nor a string")
        if e["partial"] is not None and (not isinstance(e["partial"], dict)
                                         or "kind" not in e["partial"]):
            fail(what, "partial is neither null nor an object with a kind")
        ex = e["exit"]
        if e["category"] == "interrupted":
            ok = ex in (129, 130, 143)
        else:
            ok = ex == CATEGORIES[e["category"]]
        if not ok:
            fail(what, "category %s with exit %r" % (e["category"], ex))
        loc = e["location"]
        if loc is None:
            head = "cgt: error: %s" % e["message"]
        else:
            if list(loc) != ["file", "line", "col"] or not all(
                    isinstance(loc[k], int) and loc[k] >= 1 for k in ("line", "col")):
                fail(what, "bad location %r" % loc)
                continue
            head = "%s:%d:%d: error: %s" % (loc["file"], loc["line"], loc["col"], e["message"])
        if head not in human:
            fail(what, "stderr lacks the human form %r" % head[:160])
        if e["hint"] and ("hint: " + e["hint"]) not in human:
            fail(what, "stderr lacks the hint %r" % e["hint"][:120])
    if errors[-1]["exit"] != rc:
        fail(what, "the last error says exit %d, the run exited %d" % (errors[-1]["exit"], rc))


root = os.getcwd()
os.makedirs(WORK, exist_ok=True)

# 1. every diagnostic with a test
for name in sorted(os.listdir("tests/errors")):
    if not name.endswith(".cgt"):
        continue
    path = os.path.join(root, "tests/errors", name)
    with open(path, "rb") as f:
        head = f.read(2000).decode("utf-8", "replace")
    extra = []
    for line in head.split("\n"):
        m = re.match(r"#@ args: (.*)", line)
        if m:
            extra = [a for a in m.group(1).split() if a != "--format=json"]
    run(extra + [path], "tests/errors/" + name)

# 2. bad calls of every builtin
p = subprocess.run([CGT, "--format=json", "-e", "help;"], stdout=subprocess.PIPE, check=True)
builtins = json.loads(p.stdout.decode("utf-8").split("\n")[0])["builtins"]
bad_args = ['"x"', "-1", '"x", [1], -2, "y", 5, 6, 7, 8']
for b in builtins:
    n = b["name"]
    codes = []
    if b["function"]:
        codes += ["print %s();" % n] + ["print %s(%s);" % (n, a) for a in bad_args]
        codes.append("print %s(0.07, no_such_option: 1);" % n)
    if b["statement"]:
        codes += ["%s %s;" % (n, a) for a in bad_args]
        codes.append("%s 0.07 no_such_option 1;" % n)
    if b["declaration"]:
        codes += ["%s z = %s;" % (n, a) for a in bad_args]
    for code in codes:
        run(["-e", code], code)

# 3. partial results and errors of the command line
for args in (["-e", "mnk 9 9 5 nodes 1000;"],
             ["-e", "x = mnk(9, 9, 5, nodes: 1000);"],
             ["-e", "game dk = octal 0.07; quotient q = dk to 30 max_size 100;"],
             ["-e", "game dk = octal 0.07; r = quotient(dk, {to: 30, max_size: 100});"],
             ["-e", "monoid B = < a, b | a b a = b a b >; timeout 1 { kb B; }"],
             ["-e", "print 1; print 1/0; print 2;"],
             ["-e", "check 1 == 2; check 2 == 2; print 3;"],
             ["-e", "assert 1 == 2;"],
             ["-e", "print (;"],
             ["--no-such-option"],
             ["no-such-file.cgt"]):
    run(args, " ".join(args))

# the partial result of a stopped search is the error's "partial"
p = run(["-e", "mnk 9 9 5 nodes 1000;"], "mnk partial")
lines = p.stdout.decode("utf-8", "replace").split("\n")
try:
    last = json.loads(lines[-2]) if len(lines) >= 2 else {}
except ValueError:
    last = {}
partial = last.get("partial") if isinstance(last, dict) else None
if not isinstance(partial, dict) or partial.get("kind") != "mnk_stopped" or \
        not isinstance(partial.get("nodes"), int) or partial["nodes"] < 1000:
    fail("mnk 9 9 5 nodes 1000", "no partial mnk_stopped record: %r" % last)

for f in failures[:40]:
    print(f)
if failures:
    print("%d of %d runs failed" % (len(failures), runs))
    sys.exit(1)
print("ok (%d runs)" % runs)
