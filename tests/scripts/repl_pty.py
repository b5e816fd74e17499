#!/usr/bin/env python3
"""The REPL on a pseudo-terminal: Ctrl-C at the prompt clears the
line or the pending block and leaves no interrupt behind; Tab completes
builtins, option names and variables, each where it fits (game kinds after
`game NAME =`, option names only in their own statement); a multi-line block is one history
entry (also after a restart, from ~/.cgt_history); no progress line is left
on the screen.  Usage: repl_pty.py CGT TMPDIR.  Exit 0 when all hold."""
import os
import pty
import re
import select
import sys
import time

CGT, TMP = sys.argv[1], sys.argv[2]
failures = []
# Every step waits for what the REPL shows (a prompt, the echo of the
# typed text), never for a fixed time.  A REPL that hangs waiting for input
# uses no CPU, so only a clock can see it: HANG seconds, hundreds of times
# what any step takes, decide nothing for a REPL that answers.
HANG = 300.0


class Repl:
    def __init__(self):
        env = dict(os.environ, HOME=TMP, TERM="dumb", COLUMNS="80")
        env.pop("NO_COLOR", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(CGT.split()[0], CGT.split() + ["--color=never"], env)
        self.out = b""

    def read_until(self, pattern, timeout=HANG):
        """Read until the regex pattern matches the output after self.mark."""
        end = time.time() + timeout
        rx = re.compile(pattern.encode())
        while True:
            m = rx.search(self.out, self.mark)
            if m:
                self.mark = m.end()
                return True
            left = end - time.time()
            if left <= 0:
                return False
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    data = os.read(self.fd, 4096)
                except OSError:
                    return False
                if not data:
                    return False
                self.out += data

    def send(self, s):
        os.write(self.fd, s.encode())

    def close(self):
        self.send(":quit\n")
        deadline = time.time() + HANG
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    self.out += os.read(self.fd, 4096)
                except OSError:
                    pass
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        return -9

    mark = 0


def expect(repl, pattern, what):
    if not repl.read_until(pattern):
        failures.append("%s: no match for %r in %r" % (what, pattern, repl.out[-400:]))
        return False
    return True


def screen(data):
    """The lines left on a simple terminal: \\r, \\n and erase-line."""
    data = data.decode("utf-8", "replace")
    lines, cur, col = [], [], 0
    i = 0
    while i < len(data):
        c = data[i]
        if data.startswith("\x1b[K", i):
            del cur[col:]
            i += 3
            continue
        if c == "\x1b":  # other escape sequences: skip to the final byte
            m = re.match(r"\x1b\[[0-9;?]*[A-Za-z]", data[i:])
            i += m.end() if m else 1
            continue
        if c == "\r":
            col = 0
        elif c == "\n":
            lines.append("".join(cur))
            cur, col = [], 0
        elif c in "\x07\x08":
            col = max(0, col - 1) if c == "\x08" else col
        else:
            if col < len(cur):
                cur[col] = c
            else:
                cur.append(c)
            col += 1
        i += 1
    lines.append("".join(cur))
    return lines


hist = os.path.join(TMP, ".cgt_history")
if os.path.exists(hist):
    os.remove(hist)

r = Repl()
expect(r, r"cgt> ", "first prompt")
# Ctrl-C on a half-typed line: a new prompt, and the next statement runs
r.send("print 12")
expect(r, r"print 12", "echo of the typed text")  # read by readline: Ctrl-C drops it
r.send("\x03")
expect(r, r"cgt> ", "prompt after Ctrl-C on a line")
r.send("print 7;\n")
if expect(r, r"\n7\r?\n", "statement after Ctrl-C"):
    if b"interrupted" in r.out:
        failures.append("Ctrl-C at the prompt left an interrupt behind: %r" % r.out[-300:])
# Ctrl-C in a pending block drops the block
r.send("for i in [1, 2] {\n")
expect(r, r"\.\.\.> ", "continuation prompt")
r.send("\x03")
expect(r, r"cgt> ", "prompt after Ctrl-C in a block")
r.send("print 8;\n")
expect(r, r"\n8\r?\n", "statement after a dropped block")
if b"error" in r.out:
    failures.append("an error after Ctrl-C: %r" % r.out[-300:])
# Tab completes a builtin, an option name and a variable
r.send("myvariable = 41;\n")
expect(r, r"cgt> ", "prompt after an assignment")
r.send("print myvar\t + 1;\n")
expect(r, r"\n42\r?\n", "Tab completes a variable")
r.send("game dk = octal 0.07;\n")
expect(r, r"cgt> ", "prompt after game")
r.send("quotient q = dk to 5 na\t\"x z\";\n")
expect(r, r"cgt> ", "prompt after quotient")
r.send("prin\tq;\n")
expect(r, r"< x, z \| x\^2 = 1, z\^3 = z >", "Tab completes a builtin keyword and an option")
# after `game NAME =` Tab offers the game kinds; after `subtraction`, allbut
r.send("game g7 = oct\t 0.07;\n")
expect(r, r"cgt> ", "prompt after a completed game kind")
r.send("game s7 = subtr\t all\t {1, 3};\n")
expect(r, r"cgt> ", "prompt after subtraction allbut")
r.send("print g7, s7;\n")
expect(r, r"game 0\.07 game subtraction all but \{1,3\}", "Tab completes game kinds")
# option names only in the arguments of their own statement: `bou` is no
# variable, and `bound` (an option of quotient) is not offered in print
r.send("print bou\t;\n")
expect(r, r"undefined variable 'bou'", "an option name offered outside its statement")
# a multi-line block: one history entry
r.send("for i in [1, 2] {\n")
expect(r, r"\.\.\.> ", "block continuation")
r.send("print 10 * i;\n")
expect(r, r"\.\.\.> ", "block continuation 2")
r.send("}\n")
expect(r, r"\n10\r?\n20\r?\n", "block runs")
# a quotient long enough to show progress: no progress line stays
r.mark = len(r.out)
start = len(r.out)
r.send("quotient q2 = dk to 33;\n")
expect(r, r"cgt> ", "prompt after a long quotient")
rc = r.close()
if rc != 0:
    failures.append("exit status %d" % rc)
if b"[quotient]" not in r.out[start:]:
    failures.append("no progress was shown for the quotient (the test needs it)")
stale = [l for l in screen(r.out[start:]) if "[quotient]" in l]
if stale:
    failures.append("stale progress lines on the screen: %r" % stale[:3])

# after a restart, Up recalls the whole block as one entry (the entries
# after it: the quotient and :quit)
r = Repl()
expect(r, r"cgt> ", "prompt after restart")
r.send("\x1b[A\x1b[A\x1b[A")
expect(r, r"for i in \[1, 2\]", "Up shows the block")
r.send("\n")
expect(r, r"\n10\r?\n20\r?\n", "Up then Enter reruns the multi-line block")
r.close()
try:
    with open(hist) as f:
        entries = [l for l in f.read().split("\n") if l and not l.startswith("#")]
    if "print 10 * i;" not in entries:
        failures.append("history file lacks the block: %r" % entries)
except OSError as e:
    failures.append("no history file: %s" % e)

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
