#!/usr/bin/env python3
"""--format=json: errors and partial results are JSON objects on stdout.

Runs, under --format=json, every script of tests/errors/ (each diagnostic
cgt has a test for), bad calls of every builtin that `help` lists (its
JSON: no argument, a string, a negative integer, too many arguments, an
unknown option, in each of the builtin's forms), a set of runs that stop
by a limit with a partial result, the command line's own output (--help,
--version, --man, --builtins-markdown as records, every usage error, with
--format=json before or after the other options) and the REPL on a
terminal whose stdout is a pipe.  Every line of stdout must parse
with Python's json module as one object with a "kind"; a run that fails
ends with exactly one object of kind "error" per error, of the schema of
docs/errors.md ("Errors under --format=json"), whose "exit" is the exit
status of the run and whose "location" and "message" are those of the
human text on stderr.  A run that succeeds prints no error object.

Usage: json_errors.py CGT WORKDIR
"""
import json
import os
import pty
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


def run(args, what, env=None, after=False):
    """Run cgt --format=json ARGS (ARGS --format=json when after) and check
    that stdout is JSON objects, one a line."""
    global runs
    runs += 1
    d = os.path.join(WORK, "run%d" % runs)
    os.mkdir(d)
    argv = [CGT] + args + ["--format=json"] if after else [CGT, "--format=json"] + args
    p = subprocess.run(argv, cwd=d, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       preexec_fn=limit_cpu, env=dict(os.environ, **(env or {})))
    check(p.returncode, p.stdout, p.stderr, what)
    return p


def records(p):
    """The objects on stdout of a run that check() accepted."""
    try:
        return [json.loads(l) for l in p.stdout.decode("utf-8").split("\n")[:-1]]
    except ValueError:
        return []


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

# 4. the command line's own text: --help, -h, --version and the documents
# of --man and --builtins-markdown are records whose text is what the text
# format prints; usage errors of every option, the test hooks, help
# statements, --check and --stats print JSON only, whatever the order of
# the options
def text_of(args):
    return subprocess.run([CGT] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          preexec_fn=limit_cpu).stdout.decode("utf-8")


for args, kind, key, text in ((["--help"], "usage", "text", text_of(["--help"])),
                              (["-h"], "usage", "text", text_of(["--help"])),
                              (["--version"], "version", "version",
                               text_of(["--version"])[len("cgt "):-1]),
                              (["--man"], "document", "text", text_of(["--man"])),
                              (["--builtins-markdown"], "document", "text",
                               text_of(["--builtins-markdown"]))):
    for after in (False, True):
        what = " ".join(args) + (" --format=json" if after else "")
        recs = records(run(args, what, after=after))
        if len(recs) != 1 or recs[0].get("kind") != kind or recs[0].get(key) != text:
            fail(what, "expected one %s record holding the text form, got %r" %
                 (kind, [str(r)[:80] for r in recs]))
if not text_of(["--help"]).startswith("usage: cgt"):
    fail("--help", "the text form is not the usage text")
for args in (["-e"], ["--format=xml"], ["--timeout=nan"], ["--timeout-cpu=x"], ["--seed=-1"],
             ["--color=pink"], ["-e", "print 1;", "f.cgt"], ["-x"], ["--verbose=2", "-q", "--bogus"],
             ["--check", "-e", "print (;"], ["--check", "-e", "print 1;"],
             ["--stats", "-e", "print 1;"], ["-v", "-e", "game g = octal 0.07; period g;"],
             ["-e", "help;"], ["-e", "help mex;"], ["-e", "help for;"], ["-e", "help nosuch;"],
             ["-e", "help(\"period\");"], ["-"]):
    run(args, " ".join(args))
    if args != ["-e"]:  # there --format=json would be the code of -e
        run(args, " ".join(args) + " --format=json", after=True)
run(["-e", "print 1;"], "CGT_TEST_LIMIT_AFTER=x", env={"CGT_TEST_LIMIT_AFTER": "x"})
run(["-e", "print 1; print 2;"], "CGT_TEST_LIMIT_AFTER=1", env={"CGT_TEST_LIMIT_AFTER": "1"})

# the REPL on a terminal with stdout a pipe: the banner and the prompts go
# to stderr; :help, :version and the answers are records; its errors are
# error objects
master, slave = pty.openpty()
home = os.path.join(WORK, "repl-home")
os.mkdir(home)
rp = subprocess.Popen([CGT, "--format=json", "--color=never"], stdin=slave,
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit_cpu,
                      env=dict(os.environ, HOME=home, TERM="dumb"))
os.close(slave)
os.write(master, b":help mex\n:help\n:version\n:help nosuch\n:bogus\nprint 6 * 7;\n"
         b":load no-such-file.cgt\n:quit\n")
out, err = rp.communicate()
os.close(master)
runs += 1
kinds = []
for n, line in enumerate(out.decode("utf-8", "replace").split("\n")[:-1], 1):
    try:
        kinds.append(json.loads(line)["kind"])
    except (ValueError, KeyError, TypeError):
        fail("REPL", "stdout line %d is not a JSON record: %r" % (n, line[:120]))
if kinds != ["help", "help", "version", "error", "error", "int", "error"] or rp.returncode != 0:
    fail("REPL", "records %r, exit %d" % (kinds, rp.returncode))
if "cgt> " not in err.decode("utf-8", "replace") or b"impartial games" not in err:
    fail("REPL", "no banner or prompt on stderr")

for f in failures[:40]:
    print(f)
if failures:
    print("%d of %d runs failed" % (len(failures), runs))
    sys.exit(1)
print("ok (%d runs)" % runs)
