#!/usr/bin/env python3
"""Checks that the CLI outputs shown in the documentation are the real ones.

Every fenced block that opens with ```console in the given Markdown files is
a check. Its first line is one command, `$ prism ARGS...` (a trailing `\\`
continues it on the next line); the lines after it are the expected output:

    ```console
    $ prism code_typed assets/examples/promotion.jl 'ratio(Int, Int)' --optimize=no
    CodeInfo(
    ...
    ```

Conventions:
  * The command is split like a POSIX shell would (quotes, backslashes), but
    it is not run by a shell: no pipes, no variables, no globs. `prism` is
    replaced by the binary under test; the command runs in the repository
    root, so paths are relative to it.
  * Only stdout is compared, unless the command ends in `2>&1`: then stderr
    goes into the same stream, as in a terminal.
  * The exit status must be 0, unless the block's last line is `[exit N]`:
    then it must be N.
  * A line that is exactly `...` stands for any number of lines (zero or
    more), for what differs between runs, such as `time:` lines.
  * Blocks of any other kind (```sh, ```text, ...) are never run: use them
    for excerpts, for output that depends on the machine, and for commands
    that need privileges.

On a mismatch the checker prints a unified diff (expected -> actual) and
exits 1. With --update it rewrites each stale block with the real output
instead, keeping its `...` lines where they still fit (check the result with
`git diff`); blocks that match are left as they are.

Usage:
  check_doc_outputs.py --prism build/app/prism [--root DIR] [--update] [FILE.md ...]

FILEs default to docs/tour.md and README.md, relative to the root (the
repository that holds this script). Only the Python standard library is used.
"""

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FENCE_RE = re.compile(r"^(?P<fence>`{3,})(?P<info>[^`]*)$")
EXIT_RE = re.compile(r"^\[exit (?P<code>\d+)\]$")
WILDCARD = "..."
TIMEOUT_S = 300


class Block:
    """One ```console block: where it is, its command and expectations."""

    def __init__(self, path, first, last, lines):
        self.path = path
        self.first = first  # index of the opening fence line
        self.last = last  # index of the closing fence line
        self.lines = lines  # the lines in between
        self.error = None
        self.command = ""
        self.argv = []
        self.merge_stderr = False
        self.command_lines = 0
        self.expected = []
        self.exit_code = 0
        self._parse()

    @property
    def where(self):
        return "%s:%d" % (self.path, self.first + 1)

    def _parse(self):
        if not self.lines or not self.lines[0].startswith("$ "):
            self.error = "a console block must start with `$ prism ...`"
            return
        cmd = self.lines[0][2:]
        i = 1
        while cmd.endswith("\\") and i < len(self.lines):
            cmd = cmd[:-1] + " " + self.lines[i].strip()
            i += 1
        self.command_lines = i
        self.command = cmd.strip()
        try:
            argv = shlex.split(self.command)
        except ValueError as e:
            self.error = "cannot split the command: %s" % e
            return
        if argv and argv[-1] == "2>&1":
            self.merge_stderr = True
            argv = argv[:-1]
        if not argv or argv[0] != "prism":
            self.error = "a console block must run `prism`, not `%s`" % (argv[0] if argv else "")
            return
        for a in argv[1:]:
            if a in ("|", "||", "&&", ";", ">", ">>", "<", "2>", "&") or a.startswith((">", "2>")):
                self.error = "shell syntax `%s` is not supported in a console block" % a
                return
        self.argv = argv
        out = self.lines[i:]
        if out and EXIT_RE.match(out[-1]):
            self.exit_code = int(EXIT_RE.match(out[-1]).group("code"))
            out = out[:-1]
        self.expected = out

    def render(self, output_lines, exit_code):
        """The block's lines for this output: the command lines, then the output."""
        body = self.lines[: self.command_lines] + list(output_lines)
        if exit_code != 0:
            body.append("[exit %d]" % exit_code)
        return body


def is_closing(line, fence):
    s = line.strip()
    return len(s) >= len(fence) and set(s) == {"`"}


def find_blocks(path, text):
    lines = text.split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i].rstrip())
        if not m:
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info").strip()
        j = i + 1
        while j < len(lines) and not is_closing(lines[j], fence):
            j += 1
        if info.split()[:1] == ["console"]:
            blocks.append(Block(path, i, j, lines[i + 1 : j]))
        i = j + 1
    return lines, blocks


def matches(expected, actual):
    """True when the actual lines match the expected ones; `...` matches any lines."""
    # Dynamic programming over (expected index, actual index).
    n, m = len(expected), len(actual)
    reach = [[False] * (m + 1) for _ in range(n + 1)]
    reach[0][0] = True
    for i in range(n + 1):
        for j in range(m + 1):
            if not reach[i][j] or i == n:
                continue
            e = expected[i]
            if e == WILDCARD:
                reach[i + 1][j] = True  # matches nothing more
                if j < m:
                    reach[i][j + 1] = True  # swallows one more line
            elif j < m and e == actual[j]:
                reach[i + 1][j + 1] = True
    return reach[n][m]


def refresh(expected, actual):
    """The expected lines rewritten to match the actual ones, keeping `...` lines.

    An edit-distance alignment: a literal line is kept, replaced by the actual
    line, dropped, or an actual line is inserted (each change costs 1); a
    `...` line stays and absorbs any run of actual lines (at a tiny cost per
    line, so that it only takes what no literal line can). The result always
    matches `actual`.
    """
    n, m = len(expected), len(actual)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0

    def relax(i, j, c, frm, emit):
        if c < cost[i][j]:
            cost[i][j] = c
            back[i][j] = (frm, emit)

    for i in range(n + 1):
        for j in range(m + 1):
            c = cost[i][j]
            if c == inf:
                continue
            if j < m:  # an actual line no expected line accounts for
                relax(i, j + 1, c + 1, (i, j), [actual[j]])
            if i == n:
                continue
            e = expected[i]
            if e == WILDCARD:
                for k in range(j, m + 1):
                    relax(i + 1, k, c + 0.001 * (k - j), (i, j), [WILDCARD])
                continue
            relax(i + 1, j, c + 1, (i, j), [])  # an expected line that is gone
            if j < m:
                relax(i + 1, j + 1, c + (0 if e == actual[j] else 1), (i, j), [actual[j]])
    out = []
    i, j = n, m
    while (i, j) != (0, 0):
        (pi, pj), emit = back[i][j]
        out[:0] = emit
        i, j = pi, pj
    return out


def run(block, prism, root, env):
    try:
        p = subprocess.run(
            [prism] + block.argv[1:],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if block.merge_stderr else subprocess.PIPE,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return None, None, "timed out after %d s" % TIMEOUT_S
    out = p.stdout.decode("utf-8", errors="replace")
    err = "" if block.merge_stderr else p.stderr.decode("utf-8", errors="replace")
    lines = out.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines, p.returncode, err


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--prism", required=True, help="the prism binary to run")
    ap.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..")),
                    help="repository root: commands run there, FILEs are relative to it")
    ap.add_argument("--update", action="store_true", help="rewrite stale blocks with the real output")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every command as it runs")
    ap.add_argument("files", nargs="*", help="Markdown files (default: docs/tour.md README.md)")
    args = ap.parse_args()

    prism = os.path.abspath(args.prism)
    if not (os.path.isfile(prism) and os.access(prism, os.X_OK)):
        print("check_doc_outputs: not an executable: %s" % prism, file=sys.stderr)
        return 2
    root = os.path.abspath(args.root)
    files = args.files or ["docs/tour.md", "README.md"]

    # Fresh state and cache directories: the outputs must not depend on who
    # ran prism before. No colour: this is not a terminal anyway.
    scratch = tempfile.mkdtemp(prefix="prism-doc-check-")
    try:
        return check(args, prism, root, files, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def check(args, prism, root, files, scratch):
    env = dict(os.environ)
    env.update({
        "XDG_STATE_HOME": os.path.join(scratch, "state"),
        "XDG_CACHE_HOME": os.path.join(scratch, "cache"),
        "XDG_CONFIG_HOME": os.path.join(scratch, "config"),
        "NO_COLOR": "1",
    })

    total = failed = updated = 0
    for rel in files:
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            print("check_doc_outputs: no such file: %s" % rel, file=sys.stderr)
            failed += 1
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lines, blocks = find_blocks(rel, text)
        replacements = []
        for b in blocks:
            total += 1
            if b.error:
                print("FAIL %s: %s" % (b.where, b.error))
                failed += 1
                continue
            if args.verbose:
                print("run  %s: %s" % (b.where, b.command))
            actual, code, err = run(b, prism, root, env)
            if actual is None:
                print("FAIL %s: %s: %s" % (b.where, b.command, err))
                failed += 1
                continue
            same = matches(b.expected, actual) and code == b.exit_code
            if same:
                continue
            if args.update:
                replacements.append((b, b.render(refresh(b.expected, actual), code)))
                print("updated %s: %s" % (b.where, b.command))
                updated += 1
                continue
            failed += 1
            print("FAIL %s: %s" % (b.where, b.command))
            if code != b.exit_code:
                print("  exit status %d, expected %d" % (code, b.exit_code))
            if not matches(b.expected, actual):
                diff = difflib.unified_diff(b.expected, actual, "expected (%s)" % b.where,
                                            "actual", lineterm="", n=3)
                for d in diff:
                    print("  " + d)
                if WILDCARD in b.expected:
                    print("  (an expected `...` line matches any lines)")
            if err.strip():
                print("  stderr:")
                for e in err.rstrip("\n").split("\n")[:20]:
                    print("    " + e)
        if replacements:
            # Replace from the bottom so that earlier indices stay valid.
            for b, new in sorted(replacements, key=lambda r: -r[0].first):
                lines[b.first + 1 : b.last] = new
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))

    if total == 0:
        print("check_doc_outputs: no ```console blocks found in %s" % ", ".join(files), file=sys.stderr)
        return 1
    summary = "%d console block(s) checked, %d failed" % (total, failed)
    if args.update:
        summary += ", %d updated" % updated
    print(summary)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
