#!/usr/bin/env python3
"""Runs the bad-input corpus: every case in cases.json against a `prism` binary.

Each case is one command with a bad input (a malformed source, a bad SIG or
CALL string, an unknown target, a full disk, ...) and what Prism must do with
it: the exit status and a message on stderr. On top of its own expectations
every case checks that Prism did not crash: no death by a signal (nor an exit
status of 128+N from a wrapper such as xvfb-run), no "Assertion", "LLVM
ERROR", "Stack dump", "Segmentation", "terminate called", sanitizer report,
... on stderr, and no hang (each case runs under a timeout, 30 s by default).

A case in cases.json (a JSON array of objects; unknown keys are an error):

  name            unique, [A-Za-z0-9_]+; the ctest is bad_inputs.<name>
  argv            the command, a list of strings with placeholders (an
                  element may also be {"parts": [part, ...]}, parts as in
                  `generate`, for long generated arguments):
                    {PRISM}     the binary under test
                    {DIR}       this directory (tests/bad_inputs)
                    {INPUTS}    {DIR}/inputs, the committed input files
                    {EXAMPLES}  the repository's assets/examples
                    {TMP}       a fresh temporary directory for this case
  exit            expected exit status: an integer or a list of accepted ones
  stderr_has      list of substrings that stderr must contain
  stderr          regex (Python re, MULTILINE) that stderr must match
  stderr_absent   list of regexes that must NOT match stderr
  stderr_max      list of [regex, n]: the regex matches at most n times
  stderr_max_bytes  upper bound on the size of stderr
  stdout          regex that stdout must match
  env             extra environment variables (values take placeholders);
                  by default HOME, XDG_*_HOME and TMPDIR point into {TMP}
  unset_env       environment variables to remove
  timeout         seconds (default 30; scaled by --timeout-scale)
  rlimit_fsize    RLIMIT_FSIZE in bytes for the command (a "full disk");
                  SIGXFSZ is ignored so writes fail with EFBIG instead of
                  killing the process, unless "sigxfsz": "default"
  sigxfsz         "ignore" (default with rlimit_fsize) or "default"; "ignore"
                  alone is for a limit set inside argv (`prlimit --fsize`)
  rlimit_as       RLIMIT_AS in bytes (simulated out-of-memory)
  generate        {relative path under {TMP}: [part, ...]}; a part is a
                  string (UTF-8 text, once) or an object {"text": s} or
                  {"hex": "ff fe"} with optional "repeat": n; with
                  "indexed": true, "{i}" in text becomes 0..n-1
  prepare         list of steps run in {TMP} before the command:
                  {"touch": p}, {"mkdir": p}, {"chmod": [p, "755"]},
                  {"copy": [src, dst]} (placeholders allowed)
  files_present   globs under {TMP} that must match a file afterwards
  files_absent    globs under {TMP} that must match nothing afterwards
                  (e.g. no temporary files left behind)
  requires        list of: "device:NAME" (available in `prism devices
                  --json`), "no-device:NAME" (reported unavailable),
                  "option:COMMAND:--flag" (`prism COMMAND --help` lists
                  it), "tool:NAME" (on PATH), "cpu:FLAG"/"no-cpu:FLAG"
                  (/proc/cpuinfo), "xvfb-run", "not-root",
                  "no-sanitizer", "no-tsan"; an unmet requirement skips the case with
                  the reason
  xfail           a one-line reason: the case shows a known bug. It must
                  fail; if it passes it is reported XPASS, which fails
                  (remove the xfail once the bug is fixed)
  serial          true: heavy case, ctest runs it alone (RUN_SERIAL)
  note            free text

Usage:
  run_cases.py --prism build/app/prism                 # every case, summary
  run_cases.py --prism build/app/prism --case NAME ... # some cases
  run_cases.py --list                                  # names, one a line
  run_cases.py --ctest-info                            # name;timeout;serial

Exit status: 0 when every case passed, xfailed or was skipped; 1 when some
case failed or xpassed; 77 (ctest's SKIP_RETURN_CODE) when every selected
case was skipped; 2 on bad usage or a malformed cases.json. Only the Python
standard library is used.
"""

import argparse
import concurrent.futures
import glob
import io
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CASES_FILE = os.path.join(HERE, "cases.json")
DEFAULT_TIMEOUT = 30.0
SKIP_CODE = 77

# Anything in stderr that means Prism crashed or aborted instead of reporting.
CRASH_MARKERS = [
    r"Assertion", r"Stack dump", r"LLVM ERROR", r"Segmentation", r"terminate called",
    r"AddressSanitizer", r"LeakSanitizer",
    r"ThreadSanitizer", r"UndefinedBehaviorSanitizer", r"\.(?:cpp|h|hpp|cc):\d+:\d+: runtime error:",
    r"double free", r"free\(\): ", r"malloc\(\): ", r"corrupted size vs",
    r"corrupted double-linked", r"stack smashing", r"PLEASE submit a bug report",
    r"UNREACHABLE executed",
]

KEYS = {
    "name", "argv", "exit", "stderr_has", "stderr", "stderr_absent",
    "stderr_max", "stderr_max_bytes", "stdout", "env", "unset_env", "timeout",
    "rlimit_fsize", "sigxfsz", "rlimit_as", "generate", "prepare", "requires",
    "xfail", "serial", "note", "files_present", "files_absent",
}
REQUIREMENTS = re.compile(
    r"^(device:\w+|no-device:\w+|option:\w+:-[-\w]+|tool:[\w.+-]+|cpu:\w+|no-cpu:\w+|xvfb-run|not-root|no-sanitizer|no-tsan)$")


class CaseError(Exception):
    """A malformed case in cases.json."""


def load_cases(path=CASES_FILE):
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    if not isinstance(cases, list):
        raise CaseError(f"{path}: expected a JSON array of cases")
    seen = set()
    for i, c in enumerate(cases):
        where = f"{path}: case #{i}"
        if not isinstance(c, dict):
            raise CaseError(f"{where}: not an object")
        unknown = set(c) - KEYS
        if unknown:
            raise CaseError(f"{where}: unknown keys {sorted(unknown)}")
        name = c.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise CaseError(f"{where}: bad or missing name")
        where = f"{path}: case {name}"
        if name in seen:
            raise CaseError(f"{where}: duplicate name")
        seen.add(name)
        if not isinstance(c.get("argv"), list) or not c["argv"] or \
                not all(isinstance(a, str) or (isinstance(a, dict) and "parts" in a)
                        for a in c["argv"]):
            raise CaseError(f"{where}: argv must be a non-empty list of strings")
        ex = c.get("exit")
        if not (isinstance(ex, int) or (isinstance(ex, list) and ex and
                                        all(isinstance(e, int) for e in ex))):
            raise CaseError(f"{where}: exit must be an integer or a list of them")
        if "stderr" not in c and "stderr_has" not in c and "stdout" not in c:
            raise CaseError(f"{where}: needs an expected message (stderr or stderr_has)")
        for r in c.get("requires", []):
            if not REQUIREMENTS.match(r):
                raise CaseError(f"{where}: unknown requirement {r!r}")
        for key in ("stderr", "stdout"):
            if key in c:
                re.compile(c[key])
        for r in c.get("stderr_absent", []):
            re.compile(r)
        for r, _ in c.get("stderr_max", []):
            re.compile(r)
        if "xfail" in c and (not isinstance(c["xfail"], str) or not c["xfail"]):
            raise CaseError(f"{where}: xfail must be a one-line reason")
    return cases


class Context:
    """What the cases need to know about the binary and the machine."""

    no_gui = False
    tsan = False

    def __init__(self, prism, sanitizer, timeout_scale):
        self.prism = prism
        self.sanitizer = sanitizer
        self.timeout_scale = timeout_scale
        self._devices = None
        self._help = {}
        self._lock = threading.Lock()

    def devices(self):
        """{name: (available, reason)} from `prism devices --json`, asked once."""
        with self._lock:
            if self._devices is None:
                self._devices = self._query_devices()
            return self._devices

    def _query_devices(self):
        devices = {}
        try:
            p = subprocess.run([self.prism, "devices", "--json"],
                               stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=60 * self.timeout_scale)
            for d in json.loads(p.stdout.decode("utf-8", "replace"))["devices"]:
                devices[d["name"]] = (bool(d.get("available")), d.get("reason", ""))
        except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
            devices = {"__error__": (False, f"prism devices --json failed: {e}")}
        return devices

    def help_text(self, command):
        with self._lock:
            if command not in self._help:
                try:
                    p = subprocess.run([self.prism, command, "--help"],
                                       stdin=subprocess.DEVNULL, capture_output=True,
                                       timeout=60 * self.timeout_scale)
                    self._help[command] = p.stdout.decode("utf-8", "replace")
                except (OSError, subprocess.TimeoutExpired):
                    self._help[command] = ""
            return self._help[command]

    def unmet(self, req):
        """None when the requirement holds, else why not."""
        if req.startswith("option:"):
            _, command, flag = req.split(":", 2)
            if re.search(r"(^|[\s,])" + re.escape(flag) + r"\b", self.help_text(command)):
                return None
            return f"`prism {command} --help` lists no {flag} (not in this build)"
        if req.startswith("device:") or req.startswith("no-device:"):
            want_available = req.startswith("device:")
            name = req.split(":", 1)[1]
            devs = self.devices()
            if "__error__" in devs:
                return devs["__error__"][1]
            if name not in devs:
                return f"prism devices --json lists no `{name}` device"
            available, reason = devs[name]
            if want_available and not available:
                return f"{name} device unavailable: {reason}"
            if not want_available and available:
                return f"{name} device is available here (the case needs it missing)"
            return None
        if req.startswith("tool:"):
            tool = req.split(":", 1)[1]
            return None if shutil.which(tool) else f"{tool} not found on PATH"
        if req.startswith("cpu:") or req.startswith("no-cpu:"):
            flag = req.split(":", 1)[1]
            has = flag in cpu_flags()
            if req.startswith("cpu:"):
                return None if has else f"this CPU lacks {flag}"
            return f"this CPU has {flag} (the case needs it missing)" if has else None
        if req == "xvfb-run":
            return None if shutil.which("xvfb-run") else "xvfb-run not found"
        if req == "not-root":
            return "running as root (permissions are not enforced)" if os.geteuid() == 0 else None
        if req == "no-tsan":
            return ("ThreadSanitizer build (its runtime faults with SIGBUS under a small "
                    "RLIMIT_FSIZE)") if self.tsan else None
        if req == "no-sanitizer":
            return "sanitizer build (resource limits break its shadow memory)" if self.sanitizer else None
        return f"unknown requirement {req}"


def cpu_flags():
    """The host CPU's feature flags (/proc/cpuinfo), empty where unknown."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def substitute(s, subs):
    for k, v in subs.items():
        s = s.replace("{" + k + "}", v)
    return s


def write_parts(f, parts):
    """Writes generated content (see `generate` above) to the binary file f."""
    for part in parts:
        if isinstance(part, str):
            f.write(part.encode("utf-8"))
            continue
        n = int(part.get("repeat", 1))
        if "hex" in part:
            f.write(bytes.fromhex(part["hex"]) * n)
        elif part.get("indexed"):
            t = part["text"]
            chunk = []
            for i in range(n):
                chunk.append(t.replace("{i}", str(i)))
                if len(chunk) == 4096:
                    f.write("".join(chunk).encode("utf-8"))
                    chunk = []
            f.write("".join(chunk).encode("utf-8"))
        else:
            f.write(part["text"].encode("utf-8") * n)


def generate(tmp, spec):
    for rel, parts in spec.items():
        path = os.path.join(tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            write_parts(f, parts)


def argument(a, subs):
    if isinstance(a, str):
        return substitute(a, subs)
    buf = io.BytesIO()
    write_parts(buf, a["parts"])
    return substitute(buf.getvalue().decode("utf-8"), subs)


def prepare(tmp, steps, subs):
    for step in steps:
        (op, arg), = step.items()
        if op == "touch":
            p = os.path.join(tmp, substitute(arg, subs))
            open(p, "a").close()
        elif op == "mkdir":
            os.makedirs(os.path.join(tmp, substitute(arg, subs)), exist_ok=True)
        elif op == "chmod":
            os.chmod(os.path.join(tmp, substitute(arg[0], subs)), int(arg[1], 8))
        elif op == "copy":
            shutil.copyfile(substitute(arg[0], subs),
                            os.path.join(tmp, substitute(arg[1], subs)))
        else:
            raise CaseError(f"unknown prepare step {op}")


def crash_reasons(rc, err):
    reasons = []
    if rc < 0:
        try:
            sig = signal.Signals(-rc).name
        except ValueError:
            sig = str(-rc)
        reasons.append(f"killed by signal {sig}")
    elif rc >= 128:
        reasons.append(f"exit status {rc} (a signal through a wrapper?)")
    for m in CRASH_MARKERS:
        found = re.search(m, err)
        if found:
            reasons.append(f"stderr contains {found.group(0)!r}")
    return reasons


class Result:
    def __init__(self, name, status, detail="", seconds=0.0):
        self.name = name
        self.status = status  # PASS FAIL XFAIL XPASS SKIP
        self.detail = detail
        self.seconds = seconds


def run_case(case, ctx, keep=False):
    name = case["name"]
    argv0 = case.get("argv", [])
    runs_gui = any(a == "{PRISM}" and argv0[i + 1:i + 2] == ["gui"] for i, a in enumerate(argv0))
    if ctx.no_gui and runs_gui:
        return Result(name, "SKIP", "this build has no GUI (-DPRISM_BUILD_GUI=OFF)")
    for req in case.get("requires", []):
        why = ctx.unmet(req)
        if why:
            return Result(name, "SKIP", why)

    tmp = tempfile.mkdtemp(prefix=f"prism-bad-{name}-")
    try:
        subs = {
            "PRISM": ctx.prism, "DIR": HERE, "INPUTS": os.path.join(HERE, "inputs"),
            "EXAMPLES": os.path.join(REPO, "assets", "examples"), "TMP": tmp,
        }
        generate(tmp, case.get("generate", {}))
        prepare(tmp, case.get("prepare", []), subs)
        argv = [argument(a, subs) for a in case["argv"]]
        # xvfb-run deletes the temporary directory of its auth file before it
        # stops Xvfb, and that `rm -r` now and then loses a race and makes
        # xvfb-run exit 5 instead of with Prism's status (twice in a row in
        # one CI run). With an auth file of our own it makes no directory.
        if os.path.basename(argv[0]) == "xvfb-run" and not (
                {"-f", "--auth-file"} & set(argv[1:])):
            argv[1:1] = ["-f", os.path.join(tmp, "xvfb-run.auth")]

        env = dict(os.environ)
        # Never touch the real home: the GUI writes imgui.ini and autosaves.
        home = os.path.join(tmp, "home")
        os.makedirs(home, exist_ok=True)
        # Prism's temporary files (PTX for ptxas, ...) stay in {TMP}/tmp too.
        os.makedirs(os.path.join(tmp, "tmp"), exist_ok=True)
        env.update({"HOME": home, "TMPDIR": os.path.join(tmp, "tmp"),
                    "XDG_CONFIG_HOME": os.path.join(home, ".config"),
                    "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
                    "XDG_CACHE_HOME": os.path.join(home, ".cache"),
                    "LC_ALL": "C.UTF-8", "NO_COLOR": "1"})
        for k, v in case.get("env", {}).items():
            env[k] = substitute(v, subs)
        for k in case.get("unset_env", []):
            env.pop(k, None)

        fsize = case.get("rlimit_fsize")
        as_limit = case.get("rlimit_as")
        ignore_xfsz = case.get("sigxfsz", "ignore" if fsize is not None else "default") == "ignore"

        def limits():
            # Runs in the child between fork and exec. An ignored signal stays
            # ignored across exec, so writes past the limit fail with EFBIG.
            if fsize is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
            if ignore_xfsz:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            if as_limit is not None:
                resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))

        timeout = float(case.get("timeout", DEFAULT_TIMEOUT)) * ctx.timeout_scale
        start = time.monotonic()
        timed_out = False
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=env, cwd=tmp, start_new_session=True,
                                    preexec_fn=limits if fsize is not None
                                    or as_limit is not None or ignore_xfsz else None)
        except OSError as e:
            return Result(name, "FAIL", f"cannot start {argv[0]}: {e}")
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = proc.communicate()
        seconds = time.monotonic() - start
        rc = proc.returncode
        err_text = err.decode("utf-8", "surrogateescape")
        out_text = out.decode("utf-8", "surrogateescape")

        problems = []
        if timed_out:
            problems.append(f"timed out after {timeout:.0f} s (a hang?)")
        else:
            problems += crash_reasons(rc, err_text)
            expected = case["exit"] if isinstance(case["exit"], list) else [case["exit"]]
            if rc not in expected:
                problems.append(f"exit status {rc}, expected "
                                + " or ".join(str(e) for e in expected))
        for s in case.get("stderr_has", []):
            s = substitute(s, subs)
            if s not in err_text:
                problems.append(f"stderr lacks {s!r}")
        if "stderr" in case and not re.search(case["stderr"], err_text, re.M):
            problems.append(f"stderr does not match /{case['stderr']}/")
        for r in case.get("stderr_absent", []):
            m = re.search(r, err_text, re.M)
            if m:
                problems.append(f"stderr matches forbidden /{r}/: {m.group(0)[:80]!r}")
        for r, n in case.get("stderr_max", []):
            k = len(re.findall(r, err_text, re.M))
            if k > n:
                problems.append(f"/{r}/ occurs {k} times in stderr, at most {n} expected")
        if "stderr_max_bytes" in case and len(err) > case["stderr_max_bytes"]:
            problems.append(f"stderr has {len(err)} bytes, at most "
                            f"{case['stderr_max_bytes']} expected")
        if "stdout" in case and not re.search(case["stdout"], out_text, re.M):
            problems.append(f"stdout does not match /{case['stdout']}/")
        for g in case.get("files_present", []):
            if not glob.glob(os.path.join(tmp, g)):
                problems.append(f"no file matches {g} in {{TMP}}")
        for g in case.get("files_absent", []):
            left = glob.glob(os.path.join(tmp, g))
            if left:
                problems.append(f"left behind: {', '.join(os.path.relpath(f, tmp) for f in left)}")

        def excerpt(text, limit=1500):
            text = text if len(text) <= limit else text[:limit] + f"... [{len(text)} chars]"
            return "\n".join("    | " + line for line in text.splitlines())

        cmd = " ".join(_quote(a) for a in argv)
        detail = f"  $ {cmd}\n  exit {rc} in {seconds:.2f} s"
        if problems:
            detail += "\n  " + "\n  ".join(problems)
            detail += "\n  stderr:\n" + excerpt(err_text)
            if out_text:
                detail += "\n  stdout:\n" + excerpt(out_text, 400)
        if "xfail" in case:
            if problems:
                return Result(name, "XFAIL", f"known bug: {case['xfail']}\n{detail}", seconds)
            return Result(name, "XPASS", f"passes although marked xfail ({case['xfail']}): "
                          f"remove the xfail\n{detail}", seconds)
        return Result(name, "FAIL" if problems else "PASS", detail, seconds)
    finally:
        if keep:
            print(f"[{name}] kept {tmp}", file=sys.stderr)
        else:
            _rmtree(tmp)


def _rmtree(path):
    # Restore permissions a case may have removed, then delete.
    for root, dirs, files in os.walk(path):
        for d in dirs:
            try:
                os.chmod(os.path.join(root, d), 0o755)
            except OSError:
                pass
        for f in files:
            try:
                os.chmod(os.path.join(root, f), 0o644)
            except OSError:
                pass
    shutil.rmtree(path, ignore_errors=True)


def _quote(a):
    if re.fullmatch(r"[\w@%+=:,./-]+", a):
        return a
    if len(a) > 200:
        a = a[:200] + "..."
    return "'" + a.replace("'", "'\"'\"'") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prism", help="the prism binary under test")
    ap.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("--cases", default=CASES_FILE, help="the manifest (default: cases.json here)")
    ap.add_argument("--list", action="store_true", help="print the case names and exit")
    ap.add_argument("--ctest-info", action="store_true",
                    help="print name;timeout;serial per case (for CMake)")
    ap.add_argument("--sanitizer", action="store_true",
                    help="the binary is built with a sanitizer: skip no-sanitizer cases")
    ap.add_argument("--timeout-scale", type=float, default=1.0,
                    help="multiply every timeout (slow builds, sanitizers)")
    ap.add_argument("--tsan", action="store_true",
                    help="the binary is built with ThreadSanitizer: skip no-tsan cases")
    ap.add_argument("--no-gui", action="store_true",
                    help="the binary was built without the GUI: skip `prism gui` cases")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="cases run in parallel")
    ap.add_argument("-v", "--verbose", action="store_true", help="details of passing cases too")
    ap.add_argument("--keep", action="store_true", help="keep each case's {TMP}")
    args = ap.parse_args()

    try:
        cases = load_cases(args.cases)
    except (OSError, ValueError, CaseError, re.error) as e:
        print(f"run_cases.py: {e}", file=sys.stderr)
        return 2
    if args.list:
        for c in cases:
            print(c["name"])
        return 0
    if args.ctest_info:
        for c in cases:
            print(f"{c['name']};{c.get('timeout', DEFAULT_TIMEOUT)};"
                  f"{1 if c.get('serial') else 0}")
        return 0
    if not args.prism:
        ap.error("--prism is required")
    prism = os.path.abspath(args.prism)
    if not os.access(prism, os.X_OK):
        print(f"run_cases.py: {prism} is not an executable", file=sys.stderr)
        return 2
    if args.case:
        by_name = {c["name"]: c for c in cases}
        missing = [n for n in args.case if n not in by_name]
        if missing:
            print(f"run_cases.py: no such case: {', '.join(missing)}", file=sys.stderr)
            return 2
        cases = [by_name[n] for n in args.case]

    ctx = Context(prism, args.sanitizer, args.timeout_scale)
    ctx.no_gui = args.no_gui
    ctx.tsan = args.tsan
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_case, c, ctx, args.keep) for c in cases]
        for fut in futures:
            r = fut.result()
            results.append(r)
            line = f"{r.status:5} {r.name}  ({r.seconds:.2f} s)"
            if r.status == "SKIP":
                line = f"SKIP  {r.name}: {r.detail}"
            print(line, flush=True)
            if r.status in ("FAIL", "XPASS") or (args.verbose and r.detail and r.status != "SKIP"):
                print(r.detail, flush=True)
            elif r.status == "XFAIL" and len(cases) == 1:
                print(r.detail, flush=True)

    counts = {s: sum(1 for r in results if r.status == s)
              for s in ("PASS", "XFAIL", "SKIP", "FAIL", "XPASS")}
    print(f"\n{len(results)} cases: " + ", ".join(f"{n} {s.lower()}" for s, n in counts.items()))
    if counts["FAIL"] or counts["XPASS"]:
        for r in results:
            if r.status in ("FAIL", "XPASS"):
                print(f"  {r.status} {r.name}")
        return 1
    if results and counts["SKIP"] == len(results):
        return SKIP_CODE
    return 0


if __name__ == "__main__":
    sys.exit(main())
