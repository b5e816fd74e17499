#!/usr/bin/env python3
"""read_json and read_csv against Python's json and csv modules.

Generates random JSON documents (nested objects and arrays, integers of
up to 60 digits, strings with escapes and non-ASCII text, booleans, null)
and random CSV tables (quoted fields with commas, quotes and line ends,
CR LF and LF line ends, integer-looking and other fields), has cgt read
each and print it under --format=json, and compares the result with what
Python's json.loads and csv.DictReader make of the same file (a CSV
field that is an optional '-' and digits without a leading zero is an
integer, as docs/language.md "Reading data" says).  Then checks that bad
files are refused with an io error naming the data file's line and
column.

Usage: read_data.py CGT WORKDIR
"""
import csv
import io
import json
import os
import random
import re
import resource
import subprocess
import sys

CGT, WORK = sys.argv[1], sys.argv[2]
rng = random.Random(20261207)
failures = []


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def cgt(code):
    return subprocess.run([CGT, "--format=json", "-e", code], cwd=WORK,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, preexec_fn=limit_cpu)


def plain(obj):
    """cgt's --format=json of a value inside a list: integers of 2^53 and
    more are strings; records are objects."""
    if isinstance(obj, bool) or obj is None:
        return obj
    if isinstance(obj, int):
        return obj if abs(obj) < 2**53 else str(obj)
    if isinstance(obj, list):
        return [plain(x) for x in obj]
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    return obj


CHARS = "abcxyz 019,\"\\/\n\t\u00e9\u4e2d\U0001F600{}[]:"


def rand_str():
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 8)))


def rand_json(depth=0):
    r = rng.random()
    if depth > 4 or r < 0.45:
        k = rng.randint(0, 5)
        if k == 0:
            return rng.randint(-10**rng.randint(1, 60), 10**rng.randint(1, 60))
        if k == 1:
            return rng.randint(-5, 5)
        if k == 2:
            return rand_str()
        if k == 3:
            return rng.choice([True, False])
        if k == 4:
            return None
        return rng.randint(2**53 - 3, 2**53 + 3) * rng.choice([1, -1])
    if r < 0.7:
        return [rand_json(depth + 1) for _ in range(rng.randint(0, 5))]
    keys = set()
    while len(keys) < rng.randint(0, 5):
        keys.add(rand_str())
    return {k: rand_json(depth + 1) for k in keys}


def check_json(i):
    doc = {"top": rand_json()} if rng.random() < 0.5 else rand_json()
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5,
                      indent=rng.choice([None, 1, 2]))
    path = os.path.join(WORK, "d%d.json" % i)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    p = cgt('print [read_json("d%d.json")];' % i)
    if p.returncode != 0:
        failures.append("d%d.json: exit %d: %s" % (i, p.returncode, p.stderr.decode()[:300]))
        return
    got = json.loads(p.stdout.decode("utf-8"))["value"][0]
    want = plain(json.loads(text))
    if got != want:
        failures.append("d%d.json: cgt read %r, python %r" % (i, got, want))


def int_like(s):
    return re.fullmatch(r"(0|-?[1-9][0-9]*)", s) is not None


FIELD = ["0", "7", "-12", "007", "-0", "0.07", "1e3", "", "a,b", 'say "hi"', "two\nlines",
         "x\r\ny", " 5", "5 ", "abc", "\u00e9t\u00e9", "123456789012345678901234567890"]


def check_csv(i):
    ncol = rng.randint(1, 5)
    header = ["c%d_%s" % (k, rng.choice(["x", "y", "name", "a b"])) for k in range(ncol)]
    rows = [[rng.choice(FIELD) if rng.random() < 0.7 else str(rng.randint(-999, 999))
             for _ in range(ncol)] for _ in range(rng.randint(0, 6))]
    rows = [r for r in rows if not (ncol == 1 and r == [""])]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator=rng.choice(["\r\n", "\n"]),
                   quoting=rng.choice([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]))
    w.writerow(header)
    w.writerows(rows)
    text = buf.getvalue()
    if rng.random() < 0.3 and text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    path = os.path.join(WORK, "t%d.csv" % i)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    p = cgt('print read_csv("t%d.csv");' % i)
    if p.returncode != 0:
        failures.append("t%d.csv: exit %d: %s" % (i, p.returncode, p.stderr.decode()[:300]))
        return
    got = json.loads(p.stdout.decode("utf-8"))["value"]
    with open(path, encoding="utf-8", newline="") as f:
        want = [{k: (int(v) if int_like(v) else v) for k, v in r.items()}
                for r in csv.DictReader(f)]
    if got != plain(want):
        failures.append("t%d.csv: cgt read %r, python %r" % (i, got, plain(want)))


for i in range(150):
    check_json(i)
for i in range(150):
    check_csv(i)

# refusals: (file name, contents, function, line, col, words of the message)
BAD = [
    ("f.json", '{"a": [1,\n  2.5]}', "read_json", 2, 3, "2.5 is not an integer"),
    ("e.json", '[1, 2e3]', "read_json", 1, 5, "2e3 is not an integer"),
    ("c.json", '{"a": 1,}', "read_json", 1, 9, ""),
    ("k.json", '{"a": 1, "a": 2}', "read_json", 1, 10, "duplicate"),
    ("t.json", '[1] x', "read_json", 1, 5, ""),
    ("q.csv", 'a,b\n1,"x\n2,3\n', "read_csv", 2, 3, "not closed"),
    ("n.csv", 'a,b\n1,2\n3,4,5\n', "read_csv", 3, 5, "a row of 3 fields under a header of 2"),
    ("m.csv", 'a,b\n1,2\n3\n', "read_csv", 3, 1, "a row of 1 field under a header of 2"),
    ("s.csv", 'a,b\n1,x"y\n', "read_csv", 2, 4, "quote inside a field"),
    ("z.csv", 'a,b\n1,"x"y\n', "read_csv", 2, 6, "closing quote"),
    ("d.csv", 'a,a\n1,2\n', "read_csv", 1, 3, "appears twice"),
    ("h.csv", 'a,,b\n1,2,3\n', "read_csv", 1, 3, "no name"),
]
for name, text, fn, line, col, words in BAD:
    with open(os.path.join(WORK, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)
    p = cgt('x = %s("%s");' % (fn, name))
    err = p.stderr.decode("utf-8", "replace")
    head = "cannot read %s:%d:%d: " % (name, line, col)
    if p.returncode != 1 or head not in err or words not in err:
        failures.append("%s: expected exit 1 and %r ... %r, got exit %d: %s"
                        % (name, head, words, p.returncode, err[:300]))
    obj = json.loads(p.stdout.decode().split("\n")[0]) if p.stdout else {}
    if obj.get("category") != "io":
        failures.append("%s: category %r, expected io" % (name, obj.get("category")))

# file hygiene: a directory, a FIFO, a missing file
os.mkfifo(os.path.join(WORK, "fifo.csv"))
os.mkdir(os.path.join(WORK, "dir.json"))
for code, words in (('read_csv("fifo.csv")', "not a regular file"),
                    ('read_json("dir.json")', "not a regular file"),
                    ('read_json("none.json")', "no such file")):
    p = cgt("x = %s;" % code)
    if p.returncode != 1 or words not in p.stderr.decode():
        failures.append("%s: exit %d: %s" % (code, p.returncode, p.stderr.decode()[:200]))

for f in failures[:20]:
    print(f)
if failures:
    print("%d failures" % len(failures))
    sys.exit(1)
print("ok (150 JSON and 150 CSV files agree with Python, %d refusals)" % (len(BAD) + 3))
