#!/usr/bin/env python3
"""Prism's benchmarks against its peers, side by side (issue 11). Run through
scripts/bench; Python 3 standard library only.

Every figure is measured in this run, next to the peer a user would otherwise
use, with the ratio; what this machine cannot measure is skipped with the
reason. Writes RESULTS/BENCHMARKS.md and RESULTS/benchmarks.json (RESULTS is
build/bench by default) and, with --publish, BENCHMARKS.md at the repository
root and docs/images/scaling.png.

Sections (--only takes their names):
  compile      cold compile, whole process: `prism code_ptx` saxpy vs clang-16
               and nvcc -ptx (hyperfine), plus Prism's in-process stage times
               (`prism report --json`)
  quality      ptxas -v registers, spills, stack and PTX instruction counts of
               Prism's PTX vs clang-16's and nvcc's for five kernels
               (assets/peers/*.cu)
  cache        the cache hot path: BUILD/tests/bench/prism_cache_bench (Google
               Benchmark) and a Numba peer script, when present
  host         host-device saxpy over 2^24 Float32 vs the C loop
               (assets/peers/saxpy_host.c, clang-16 -O3), and launch overhead
  scaling      compile time and peak memory vs program size (generated
               programs), plotted with gnuplot
  incremental  recompile latency after an edit (when a benchmark exists)
  gui          GUI frame time with a 20 000-line LLVM IR pane (xvfb-run)

"Median ± spread": the spread is half the interquartile range of the runs.

The cache figures against Numba come from tests/bench/scripts/cache_vs_numba.py
(the cache issue's peer script, run with --json); every benchmark of
prism_cache_bench is listed in the details.
"""

import argparse
import datetime
import glob
import json
import math
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLES = os.path.join(ROOT, "assets", "examples")
PEERS = os.path.join(ROOT, "assets", "peers")
SCRIPTS = os.path.dirname(os.path.abspath(__file__))

SAXPY_SIG = "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})"

# name, example, job signature, CUDA C peer
KERNELS = [
    ("saxpy", "saxpy.jl", SAXPY_SIG, "saxpy.cu"),
    ("block_sum", "reduce.jl", "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
     "block_sum.cu"),
    ("map (square)", "map.jl",
     "map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})", "map_square.cu"),
    ("matmul (tiled)", "matmul.jl",
     "matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, DeviceArray{Float32,2})",
     "matmul.cu"),
    ("stencil", "launch_bounds.jl",
     "stencil!(DeviceArray{Float32,1}, DeviceArray{Float32,1})", "stencil.cu"),
]

SECTIONS = ["compile", "quality", "cache", "host", "scaling", "incremental", "gui"]

# ---------------------------------------------------------------- helpers


def log(msg):
    print(msg, flush=True)


def rel(path):
    return os.path.relpath(path, ROOT)


def run(cmd, timeout=600, **kw):
    """Runs cmd (a list); returns CompletedProcess with text output."""
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def which(name, extra_dirs=()):
    for d in extra_dirs:
        p = os.path.join(d, name)
        if d and os.access(p, os.X_OK):
            return p
    return shutil.which(name)


def cuda_tool(name):
    dirs = [os.path.join(os.environ[v], "bin") for v in ("CUDA_HOME", "CUDA_PATH")
            if os.environ.get(v)]
    return which(name, dirs + ["/usr/local/cuda/bin", "/usr/lib/cuda/bin"])


def quartiles(xs):
    xs = sorted(xs)
    if len(xs) == 1:
        return xs[0], xs[0], xs[0]
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], statistics.median(xs), q[2]


def summary(xs):
    """median, spread (half the interquartile range), n, min, max."""
    lo, med, hi = quartiles(xs)
    return {"median": med, "spread": (hi - lo) / 2, "n": len(xs), "min": min(xs),
            "max": max(xs), "samples": list(xs)}


def fmt_num(v, digits=3):
    if v is None:
        return "—"
    if isinstance(v, int):
        return str(v)
    if v == 0:
        return "0"
    mag = math.floor(math.log10(abs(v)))
    dec = max(0, digits - 1 - mag)
    return "%.*f" % (dec, v)


def fmt_stat(s, unit):
    if s is None:
        return "—"
    if isinstance(s, dict):
        if s["n"] > 1:
            return ("%s ± %s %s" % (fmt_num(s["median"]), fmt_num(s["spread"], 2),
                                    unit)).rstrip() + " (n=%d)" % s["n"]
        return ("%s %s" % (fmt_num(s["median"]), unit)).rstrip() + " (n=1)"
    return "%s %s" % (fmt_num(s), unit) if unit else fmt_num(s)


def med(s):
    return s["median"] if isinstance(s, dict) else s


def loadavg():
    try:
        return list(os.getloadavg())
    except OSError:
        return None


# ---------------------------------------------------------------- results


class Results:
    def __init__(self):
        self.figures = []   # rows of the main table
        self.skipped = []   # {section, figure, reason}
        self.details = {}   # per-section detail (JSON) and markdown
        self.markdown = {}  # section -> markdown text
        self.load = {}      # section -> load averages before it ran

    def figure(self, section, figure, prism, peer, peer_name, unit, ratio, ratio_kind,
               target, met, note=""):
        self.figures.append({
            "section": section, "figure": figure, "prism": prism, "peer": peer,
            "peer_name": peer_name, "unit": unit, "ratio": ratio, "ratio_kind": ratio_kind,
            "target": target, "met": met, "note": note})

    def skip(self, section, figure, reason):
        log("  skipped %s: %s" % (figure, reason))
        self.skipped.append({"section": section, "figure": figure, "reason": reason})


# ---------------------------------------------------------------- machine


def machine_info(prism):
    info = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "hostname": platform.node(), "kernel": platform.release(),
            "cores": os.cpu_count()}
    model = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info["cpu"] = model or platform.processor() or "unknown"
    try:
        with open("/proc/meminfo") as f:
            kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
        info["memory_gib"] = round(kb / 1048576, 1)
    except (OSError, AttributeError):
        pass
    try:
        with open("/etc/os-release") as f:
            m = re.search(r'PRETTY_NAME="([^"]*)"', f.read())
            info["os"] = m.group(1) if m else None
    except OSError:
        pass
    tools = {}

    def version(key, cmd, pick=lambda out: out.strip().splitlines()[0]):
        try:
            r = run(cmd, timeout=60)
            out = r.stdout + r.stderr
            tools[key] = pick(out) if out.strip() else None
        except (OSError, subprocess.SubprocessError, IndexError):
            tools[key] = None

    version("prism", [prism, "--version"])
    if shutil.which("clang-16"):
        version("clang-16", ["clang-16", "--version"])
    nvcc, ptxas = cuda_tool("nvcc"), cuda_tool("ptxas")
    if nvcc:
        version("nvcc", [nvcc, "--version"], lambda o: o.strip().splitlines()[-2])
    if ptxas:
        version("ptxas", [ptxas, "--version"], lambda o: o.strip().splitlines()[-2])
    if shutil.which("hyperfine"):
        version("hyperfine", ["hyperfine", "--version"])
    if shutil.which("gnuplot"):
        version("gnuplot", ["gnuplot", "--version"])
    info["tools"] = tools
    return info


# ---------------------------------------------------------------- timing


def time_commands(named_cmds, runs, warmup, out_json):
    """Whole-process wall times of each command. hyperfine when present
    (--warmup, --export-json), else an interleaved loop (each round runs every
    command once, so drift hits all alike). Returns {name: {wall, cpu}} with
    wall a summary() in ms and cpu the mean user+system ms."""
    res = {}
    if shutil.which("hyperfine"):
        cmd = ["hyperfine", "-N", "--style", "none", "--warmup", str(warmup), "--runs",
               str(runs), "--export-json", out_json]
        for name, c in named_cmds:
            cmd += ["-n", name, shlex.join(c)]
        r = run(cmd, timeout=3600)
        if r.returncode != 0:
            raise RuntimeError("hyperfine failed: " + (r.stderr or r.stdout)[-800:])
        with open(out_json) as f:
            data = json.load(f)
        for b in data["results"]:
            res[b["command"]] = {
                "wall": summary([t * 1e3 for t in b["times"]]),
                "cpu_ms": (b.get("user", 0) + b.get("system", 0)) * 1e3,
                "method": "hyperfine"}
        return res
    walls = {n: [] for n, _ in named_cmds}
    cpus = {n: [] for n, _ in named_cmds}
    for rnd in range(warmup + runs):
        for name, c in named_cmds:
            before = os.times()
            t0 = time.perf_counter()
            r = subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t1 = time.perf_counter()
            after = os.times()
            if r.returncode != 0:
                raise RuntimeError("%s exited %d" % (shlex.join(c), r.returncode))
            if rnd >= warmup:
                walls[name].append((t1 - t0) * 1e3)
                cpus[name].append((after.children_user - before.children_user +
                                   after.children_system - before.children_system) * 1e3)
    for name, _ in named_cmds:
        res[name] = {"wall": summary(walls[name]), "cpu_ms": statistics.mean(cpus[name]),
                     "method": "interleaved loop (hyperfine not installed)"}
    with open(out_json, "w") as f:
        json.dump(res, f, indent=1)
    return res


# ---------------------------------------------------------------- PTX analysis


def strip_ptx_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def ptx_functions(text):
    """[(kind, name, body)] for every .entry/.func with a body."""
    text = strip_ptx_comments(text)
    cut = text.find(".section")  # DWARF sections come last
    if cut >= 0:
        text = text[:cut]
    out = []
    for m in re.finditer(r"\.(entry|func)\s+(\([^)]*\)\s*)?([\w$]+)\s*\(", text):
        i, depth = m.end() - 1, 0
        while i < len(text):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        j = i + 1
        while j < len(text) and (text[j].isspace() or text[j] == "."):
            # launch-bound directives between the parameters and the body
            if text[j] == ".":
                j = text.find("\n", j)
                if j < 0:
                    break
            j += 1
        if j < 0 or j >= len(text) or text[j] != "{":
            continue  # a declaration
        depth, k = 0, j
        while k < len(text):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        out.append((m.group(1), m.group(3), text[j + 1:k]))
    return out


def ptx_instructions(body):
    """The instructions of a function body (directives, labels, braces out)."""
    # .loc/.file carry no semicolon: drop them line by line first.
    body = re.sub(r"^\s*\.(loc|file)\b[^\n]*$", "", body, flags=re.M)
    body = body.replace("{", ";").replace("}", ";")
    insts = []
    for stmt in body.split(";"):
        s = re.sub(r"^(\s*[\w$]+:)+", "", stmt).strip()
        if s and not s.startswith("."):
            insts.append(" ".join(s.split()))
    return insts


INT64_OPS = re.compile(r"^(@!?%\w+\s+)?(add|sub|mul|mad|shl|shr|setp|cvt|min|max|neg|and|or)"
                       r"(\.[a-z0-9]+)*\.(s|u|b)64\b")


def ptx_stats(text):
    funcs = ptx_functions(text)
    entry = next(((n, b) for k, n, b in funcs if k == "entry"), None)
    total = sum(len(ptx_instructions(b)) for _, _, b in funcs)
    st = {"debug_target": bool(re.search(r"^\s*\.target\s+[^\n]*\bdebug\b", text, re.M)),
          "functions": [n for _, n, _ in funcs], "module_instructions": total}
    if entry:
        insts = ptx_instructions(entry[1])
        st.update({
            "entry": entry[0], "instructions": len(insts),
            "int64_ops": sum(1 for i in insts if INT64_OPS.match(i)),
            "fma": sum(1 for i in insts if re.match(r"^(@!?%\w+\s+)?fma\.", i)),
            "fmul": sum(1 for i in insts if re.match(r"^(@!?%\w+\s+)?mul(\.rn)?\.f32", i)),
            "calls": sorted({re.split(r"[\s,]+", re.sub(r"^call(\.uni)?\s*(\([^)]*\)\s*,)?\s*",
                                                          "", i))[0]
                             for i in insts if re.match(r"^call\b", i)}),
            "call_count": sum(1 for i in insts if re.match(r"^call\b", i)),
            "traps": sum(1 for i in insts if i.startswith("trap")),
            # Prism's throw-site table (one `// prism.throw` comment a site).
            "throw_sites": len(re.findall(r"^// prism\.throw ", text, re.M)),
        })
    return st


def ptxas_info(ptxas, ptx_path, arch):
    r = run([ptxas, "-v", "--gpu-name", arch, "-o", os.devnull, ptx_path], timeout=300)
    out = r.stdout + r.stderr
    if r.returncode != 0:
        return {"error": out.strip()[-600:]}
    info = {"functions": {}, "raw": out}
    entry = None
    props = None
    for line in out.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            entry = entry or m.group(1)
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            props = m.group(1)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m and props:
            info["functions"][props] = {"stack": int(m.group(1)), "spill_stores": int(m.group(2)),
                                        "spill_loads": int(m.group(3))}
            props = None
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and "registers" not in info:
            info["registers"] = int(m.group(1))
            sm = re.search(r"(\d+) bytes smem", line)
            info["smem"] = int(sm.group(1)) if sm else 0
            cm = re.findall(r"(\d+) bytes cmem\[\d+\]", line)
            info["cmem"] = sum(int(x) for x in cm)
            lm = re.search(r"(\d+) bytes lmem", line)
            info["lmem"] = int(lm.group(1)) if lm else 0
    info["entry"] = entry
    e = info["functions"].get(entry, {})
    info["stack"] = e.get("stack")
    info["spill_stores"] = e.get("spill_stores")
    info["spill_loads"] = e.get("spill_loads")
    info["other_spills"] = {n: f["spill_stores"] for n, f in info["functions"].items()
                            if n != entry and f["spill_stores"]}
    return info


# ---------------------------------------------------------------- sections


def section_compile(a, R, prism, outdir):
    sec = "compile"
    saxpy = os.path.join(EXAMPLES, "saxpy.jl")
    cu = os.path.join(PEERS, "saxpy.cu")
    work = os.path.join(outdir, "compile")
    os.makedirs(work, exist_ok=True)
    cmds = [("prism", [prism, "code_ptx", saxpy, SAXPY_SIG, "--arch", a.arch])]
    clang = shutil.which("clang-16")
    if clang:
        cmds.append(("clang-16", [clang, "-x", "cuda", "--cuda-device-only",
                                  "--cuda-gpu-arch=" + a.arch, "-nocudalib", "-nocudainc",
                                  "-O3", "-S", "-Wno-unknown-cuda-version", cu, "-o",
                                  os.path.join(work, "saxpy.clang.ptx")]))
    else:
        R.skip(sec, "cold compile vs clang-16", "clang-16 not installed")
    nvcc = cuda_tool("nvcc")
    if nvcc:
        probe = run([nvcc, "-ptx", "-arch=" + a.arch, cu, "-o", os.path.join(work, "probe.ptx")])
        if probe.returncode == 0:
            cmds.append(("nvcc", [nvcc, "-ptx", "-arch=" + a.arch, cu, "-o",
                                  os.path.join(work, "saxpy.nvcc.ptx")]))
        else:
            R.skip(sec, "cold compile vs nvcc", "nvcc -ptx failed: " +
                   (probe.stderr or probe.stdout).strip()[-300:])
    else:
        R.skip(sec, "cold compile vs nvcc", "nvcc not found (CUDA toolkit not installed)")
    log("  timing %s (%d runs, %d warmup)" % (", ".join(n for n, _ in cmds), a.runs, a.warmup))
    t = time_commands(cmds, a.runs, a.warmup, os.path.join(work, "hyperfine.json"))
    p = t["prism"]
    detail = {"commands": {n: shlex.join(c) for n, c in cmds}, "times": t}
    for peer in ("clang-16", "nvcc"):
        if peer not in t:
            continue
        q = t[peer]
        ratio = p["wall"]["median"] / q["wall"]["median"]
        R.figure(sec, "Cold compile saxpy → PTX, whole process (wall)", p["wall"], q["wall"],
                 peer, "ms", ratio, "Prism ÷ %s" % peer,
                 "≤ 1.0×" if peer == "clang-16" else "—",
                 ratio <= 1.0 if peer == "clang-16" else None,
                 "CPU (user+sys, mean): Prism %.0f ms, %s %.0f ms (%.2f×)" % (
                     p["cpu_ms"], peer, q["cpu_ms"], p["cpu_ms"] / q["cpu_ms"]))

    # In-process stages.
    stages = {}
    reports = []
    for _ in range(a.stage_runs):
        r = run([prism, "report", saxpy, SAXPY_SIG, "--target", "ptx", "--arch", a.arch, "--json"])
        if r.returncode != 0:
            R.skip(sec, "in-process stages", "prism report failed: " + r.stderr[-300:])
            break
        d = json.loads(r.stdout)
        reports.append(d)
        for s in d["stages"]:
            stages.setdefault(s["stage"], {"wall_ms": [], "allocs": [], "alloc_bytes": [],
                                           "lines": s.get("lines")})
            stages[s["stage"]]["wall_ms"].append(s["wall_ms"])
            stages[s["stage"]]["allocs"].append(s["allocs"])
            stages[s["stage"]]["alloc_bytes"].append(s["alloc_bytes"])
    md = ["### Cold compile (saxpy → PTX)", "",
          "Whole process, %s: `%s` vs `%s`%s." % (
              p["method"], rel_cmd(cmds[0][1]),
              rel_cmd(cmds[1][1]) if len(cmds) > 1 else "—",
              " and `%s`" % rel_cmd(cmds[2][1]) if len(cmds) > 2 else ""), "",
          "| command | wall median ± spread | min … max | CPU user+sys (mean) |",
          "|---|---|---|---|"]
    for n, _ in cmds:
        w = t[n]["wall"]
        md.append("| %s | %s | %s … %s ms | %.0f ms |" % (
            n, fmt_stat(w, "ms"), fmt_num(w["min"]), fmt_num(w["max"]), t[n]["cpu_ms"]))
    if stages:
        total = sum(statistics.median(v["wall_ms"]) for v in stages.values())
        md += ["", "In-process stages of the same job (`prism report --target ptx --json`, "
               "median of %d runs; the `asm` stage includes running `ptxas -v` for the "
               "resource figures, which `code_ptx` does not do):" % len(reports), "",
               "| stage | wall ms | allocations | allocated bytes | output lines |",
               "|---|---|---|---|---|"]
        for name, v in stages.items():
            md.append("| %s | %s | %d | %d | %s |" % (
                name, fmt_stat(summary(v["wall_ms"]), ""), statistics.median(v["allocs"]),
                statistics.median(v["alloc_bytes"]), v["lines"]))
        md.append("| **sum** | %s | | | |" % fmt_num(total))
        md.append("")
        md.append("`report` also records every pass that changed the IR (`passes_changed`), "
                  "so these stage times are upper bounds for `code_ptx`'s.")
        detail["stages"] = {k: {"wall_ms": summary(v["wall_ms"]),
                                "allocs": statistics.median(v["allocs"]),
                                "alloc_bytes": statistics.median(v["alloc_bytes"]),
                                "lines": v["lines"]} for k, v in stages.items()}
    R.details[sec] = detail
    R.markdown[sec] = "\n".join(md)


def rel_cmd(c):
    return " ".join(shlex.quote(os.path.relpath(x, ROOT) if os.path.isabs(x) and
                                x.startswith(ROOT) else
                                (os.path.basename(x) if os.path.isabs(x) else x)) for x in c)


def section_quality(a, R, prism, outdir):
    sec = "quality"
    ptxas = cuda_tool("ptxas")
    if not ptxas:
        R.skip(sec, "code quality", "ptxas not found (CUDA toolkit not installed)")
        return
    clang, nvcc = shutil.which("clang-16"), cuda_tool("nvcc")
    if not clang:
        R.skip(sec, "code quality vs clang-16", "clang-16 not installed")
    if not nvcc:
        R.skip(sec, "code quality vs nvcc", "nvcc not found")
    work = os.path.join(outdir, "ptx")
    os.makedirs(work, exist_ok=True)
    rows = {}
    for name, jl, sig, cu in KERNELS:
        key = re.sub(r"\W+", "_", name.split()[0])
        k = {}
        variants = []
        out = os.path.join(work, key + ".prism.ptx")
        r = run([prism, "code_ptx", "--raw", "--arch", a.arch, os.path.join(EXAMPLES, jl), sig])
        if r.returncode != 0:
            R.skip(sec, "code quality: " + name, "prism code_ptx failed: " + r.stderr[-300:])
            continue
        with open(out, "w") as f:
            f.write(r.stdout)
        variants.append(("prism", out))

        def prism_variant(label, suffix, *flags):
            v = run([prism, "code_ptx", "--raw", "--arch", a.arch, *flags,
                     os.path.join(EXAMPLES, jl), sig])
            if v.returncode == 0:
                path = os.path.join(work, key + suffix)
                with open(path, "w") as f:
                    f.write(v.stdout)
                variants.append((label, path))

        prism_variant("prism -O3", ".prism-O3.ptx", "-O", "3")
        if re.search(r"^// prism\.throw ", r.stdout, re.M):
            # Diagnostic variant: Julia's --check-bounds=no, every index
            # unchecked, as the C peers index.
            prism_variant("prism --check-bounds=no", ".prism-nochecks.ptx",
                          "--check-bounds=no")
        if re.search(r"^// prism\.throw ", r.stdout, re.M) and "membar.sys;" in r.stdout:
            # Diagnostic variant, not a valid kernel: the throw path without
            # the system-scope fence that gets the exception record to the
            # host before the trap; says what the fence costs in registers.
            nf = os.path.join(work, key + ".prism-nofence.ptx")
            with open(nf, "w") as f:
                f.write(re.sub(r"^\s*membar\.sys;\n", "", r.stdout, flags=re.M))
            variants.append(("prism, throw path without `membar.sys`", nf))
        if re.search(r"^\s*\.target\s+[^\n]*\bdebug\b", r.stdout, re.M):
            # Diagnostic variant: the same PTX with `, debug` dropped from
            # .target, so ptxas optimises it as it does clang's and nvcc's.
            nd = os.path.join(work, key + ".prism-nodebug.ptx")
            with open(nd, "w") as f:
                f.write(re.sub(r"^(\s*\.target\s+[^\n]*?),\s*debug\b", r"\1", r.stdout,
                               flags=re.M))
            variants.append(("prism, `.target` without `debug`", nd))
        src = os.path.join(PEERS, cu)
        if clang:
            o = os.path.join(work, key + ".clang.ptx")
            c = run([clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + a.arch,
                     "-nocudalib", "-nocudainc", "-O3", "-S", "-Wno-unknown-cuda-version", src,
                     "-o", o])
            if c.returncode == 0:
                variants.append(("clang-16", o))
            else:
                R.skip(sec, "code quality: %s (clang-16)" % name, c.stderr[-300:])
        if nvcc:
            o = os.path.join(work, key + ".nvcc.ptx")
            c = run([nvcc, "-ptx", "-O3", "-arch=" + a.arch, src, "-o", o])
            if c.returncode == 0:
                variants.append(("nvcc", o))
            else:
                R.skip(sec, "code quality: %s (nvcc)" % name, c.stderr[-300:])
        for vname, path in variants:
            with open(path) as f:
                text = f.read()
            info = ptxas_info(ptxas, path, a.arch)
            info.pop("raw", None)
            k[vname] = {"ptx": rel(path), "ptxas": info, "ptx_stats": ptx_stats(text)}
        rows[name] = k
        pr = k["prism"]["ptxas"]
        peer = "nvcc" if "nvcc" in k else ("clang-16" if "clang-16" in k else None)
        if "error" in pr:
            R.skip(sec, "code quality: " + name, "ptxas rejected Prism's PTX: " + pr["error"])
            continue
        why = explain(k, peer)
        k["why"] = why
        if peer and "error" not in k[peer]["ptxas"]:
            q = k[peer]["ptxas"]
            ratio = pr["registers"] / q["registers"]
            R.figure(sec, "Registers: %s" % name, pr["registers"], q["registers"], peer, "",
                     ratio, "Prism ÷ %s" % peer, "≤ 1.0×", ratio <= 1.0,
                     "; ".join(why) if ratio > 1.0 else "")
        spills = (pr.get("spill_stores") or 0) + sum(pr["other_spills"].values())
        ndv = k.get("prism, `.target` without `debug`")
        nd_spills = None if not ndv or "error" in ndv["ptxas"] else \
            (ndv["ptxas"].get("spill_stores") or 0) + sum(ndv["ptxas"]["other_spills"].values())
        R.figure(sec, "Spill stores (bytes): %s" % name, spills,
                 ((k[peer]["ptxas"].get("spill_stores") or 0) +
                  sum(k[peer]["ptxas"].get("other_spills", {}).values())) if peer else None,
                 peer, "", None, "", "0", spills == 0,
                 ("in %s%s" % (", ".join("%s (%d B)" % kv for kv in pr["other_spills"].items()),
                               "; none once `.target` has no `debug`" if nd_spills == 0 else ""))
                 if pr["other_spills"] else "")
    md = ["### Generated code quality (`ptxas -v --gpu-name %s`)" % a.arch, "",
          "Static figures for each kernel: Prism's PTX (`prism code_ptx --raw`) against the "
          "CUDA C peers in `assets/peers/` compiled by clang-16 (`-O3`) and nvcc (`-O3`). "
          "Instructions are the PTX instructions of the entry function (directives and "
          "labels not counted); int64 ops are 64-bit integer add/mul/shift/compare/convert.",
          "", "| kernel | compiler | registers | spill st/ld (entry) | spills elsewhere | "
          "stack B | smem B | PTX instr. | int64 ops | fma | calls |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, k in rows.items():
        for vname, v in k.items():
            if vname == "why":
                continue
            p, s = v["ptxas"], v["ptx_stats"]
            if "error" in p:
                md.append("| %s | %s | ptxas error | | | | | | | | |" % (name, vname))
                continue
            md.append("| %s | %s | %s | %s/%s | %s | %s | %s | %s | %s | %s | %s |" % (
                name, vname, p.get("registers"), p.get("spill_stores"), p.get("spill_loads"),
                ", ".join("%s %d B" % kv for kv in p["other_spills"].items()) or "0",
                p.get("stack"), p.get("smem"), s.get("instructions"), s.get("int64_ops"),
                s.get("fma"), ", ".join(s.get("calls", [])) or "—"))
    md += ["", "Where Prism uses more registers than nvcc, from the PTX and ptxas figures above:",
           ""]
    for name, k in rows.items():
        if k.get("why"):
            md.append("- **%s**: %s." % (name, "; ".join(k["why"])))
    R.details[sec] = rows
    R.markdown[sec] = "\n".join(md)


def explain(k, peer):
    """Reasons, read off the PTX and ptxas figures, why Prism's kernel needs
    more registers than the peer's."""
    why = []
    pr, ps = k["prism"]["ptxas"], k["prism"]["ptx_stats"]
    if not peer or "error" in k[peer]["ptxas"]:
        return why
    q, qs = k[peer]["ptxas"], k[peer]["ptx_stats"]
    if pr["registers"] <= q["registers"]:
        return why
    nd = k.get("prism, `.target` without `debug`")
    if ps.get("debug_target"):
        if nd and "error" not in nd["ptxas"] and nd["ptxas"]["registers"] < pr["registers"]:
            r = nd["ptxas"]["registers"]
            why.append("Prism's PTX says `.target …, debug`, so ptxas compiles it as debug "
                       "code; without `debug` the same PTX needs %d registers instead of %d%s" % (
                           r, pr["registers"], " (≤ %s's %d: that is the whole difference)" % (
                               peer, q["registers"]) if r <= q["registers"] else ""))
        elif not nd:
            why.append("Prism's PTX says `.target …, debug`, so ptxas compiles it as debug code")
    whole = bool(why) and "whole difference" in why[0]
    n0 = len(why)
    if ps.get("call_count"):
        why.append("%d call(s) to %s, with a %s-byte stack frame" % (
                       ps["call_count"], ", ".join(ps["calls"]),
                       (nd or k["prism"])["ptxas"].get("stack")))
    nc = k.get("prism --check-bounds=no")
    nc_regs = None if not nc or "error" in nc["ptxas"] else nc["ptxas"]["registers"]
    checks_whole = nc_regs is not None and nc_regs <= q["registers"]
    if ps.get("throw_sites"):
        why.append("bounds checks: %d throw site(s) (the example indexes without "
                   "`@inbounds`; the C peer has no checks): a compare and branch each, and "
                   "a report block that reads the thread and block indices for the "
                   "exception record%s" % (
                       ps["throw_sites"],
                       "; with `--check-bounds=no` the same kernel needs %d registers%s" % (
                           nc_regs, " (= %s's %d: that is the whole difference)" % (
                               peer, q["registers"]) if nc_regs <= q["registers"] else "")
                       if nc_regs is not None else ""))
        nf = k.get("prism, throw path without `membar.sys`")
        nf_regs = None if not nf or "error" in nf["ptxas"] else nf["ptxas"]["registers"]
        if nf_regs is not None and nf_regs < pr["registers"]:
            why.append("the throw path's fence (`membar.sys` between the record's store and "
                       "the trap, which gets the record to host memory) costs %d register(s): "
                       "checks and all, without the fence the same PTX needs %d" % (
                           pr["registers"] - nf_regs, nf_regs))
    if not checks_whole and ps.get("int64_ops", 0) > 2 * max(qs.get("int64_ops", 0), 1):
        why.append("64-bit index arithmetic (Julia's `Int` is Int64, the C peer indexes "
                   "with `int`): %d int64 ops vs %d" % (ps["int64_ops"], qs["int64_ops"]))
    if qs.get("fma", 0) > ps.get("fma", 0):
        why.append("no FMA contraction: %d `fma` in %s's PTX, %d in Prism's (Julia does "
                   "not fuse `a*b + c` without `muladd`/`@fastmath`; CUDA compilers "
                   "contract by default)" % (qs["fma"], peer, ps.get("fma", 0)))
    if whole and len(why) > n0:
        why[n0] = "other differences, which cost no registers once `debug` is gone: " + why[n0]
    return why


def run_gbench(binary, reps, timeout=900):
    r = run([binary, "--benchmark_format=json", "--benchmark_repetitions=%d" % reps,
             "--benchmark_report_aggregates_only=true"], timeout=timeout)
    if r.returncode != 0:
        r = run([binary, "--benchmark_format=json"], timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (binary, r.returncode, r.stderr[-400:]))
    data = json.loads(r.stdout)
    out = {}
    std = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads",
           "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
           "family_index", "per_family_instance_index", "aggregate_unit", "label",
           "error_occurred", "error_message"}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        e = out.setdefault(name, {"time_unit": b.get("time_unit", "ns"), "counters": {}})
        agg = b.get("aggregate_name")
        if agg in (None, "median", "mean", "stddev"):
            key = agg or "single"
            e[key] = {"real_time": b.get("real_time"), "cpu_time": b.get("cpu_time")}
            for c, v in b.items():
                if c not in std and isinstance(v, (int, float)) and agg in (None, "median"):
                    e["counters"][c] = v
    return {"context": data.get("context", {}), "benchmarks": out}


def gb_median(e):
    m = e.get("median") or e.get("single") or e.get("mean")
    return m["real_time"] if m else None


def gb_spread(e):
    s = e.get("stddev")
    return s["real_time"] if s else 0.0


def to_ns(v, unit):
    return v * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}.get(unit, 1)


def section_cache(a, R, prism, outdir):
    sec = "cache"
    binary = os.path.join(a.build_dir, "tests", "bench", "prism_cache_bench")
    if not os.access(binary, os.X_OK):
        R.skip(sec, "Cache hot path", "not built: %s is absent (Google Benchmark binary of "
               "the cache issue; build the project with PRISM_BUILD_BENCHMARKS=ON)" % rel(binary))
        return
    work = os.path.join(outdir, "cache")
    os.makedirs(work, exist_ok=True)
    detail = {}
    # 1. Prism against Numba's cached dispatch, in one invocation, by the
    #    cache issue's own peer script (it runs BM_CacheHit and Numba).
    peer = os.path.join(SCRIPTS, "cache_vs_numba.py")
    if not os.path.exists(peer):
        R.skip(sec, "Cache hit vs Numba", "no peer script %s" % rel(peer))
    else:
        log("  %s" % rel(peer))
        out = os.path.join(work, "cache_vs_numba.json")
        r = run([sys.executable, peer, "--bench", binary, "--json", out,
                 "--repeats", str(a.gbench_reps)], timeout=1800)
        try:
            with open(out) as f:
                cv = json.load(f)
        except (OSError, ValueError):
            cv = None
            R.skip(sec, "Cache hit vs Numba", "%s failed (exit %d): %s" % (
                rel(peer), r.returncode, (r.stdout + r.stderr)[-300:]))
        if cv:
            detail["cache_vs_numba"] = cv
            for why in cv.get("skipped", []):
                R.skip(sec, "Cache hit vs Numba", why)
            nb = cv.get("numba")
            for threads, e in sorted((cv.get("prism") or {}).items()):
                st = {"median": e["median_ns"], "spread": e["spread_ns"], "n": a.gbench_reps,
                      "min": e["median_ns"], "max": e["median_ns"]}
                if nb and threads == "1":
                    ratio = nb["median_ns"] / e["median_ns"]
                    R.figure(sec, "Cache hit, %s thread: lookup time" % threads, st,
                             {"median": nb["median_ns"], "spread": nb["spread_ns"],
                              "n": a.gbench_reps, "min": 0, "max": 0},
                             "Numba %s cached dispatch" % nb.get("version", ""), "ns", ratio,
                             "Numba ÷ Prism (speed-up)", "≥ 3×", ratio >= 3,
                             "the cache issue also asks ≤ 20 ns median: %s; a plain Python "
                             "call in Numba's loop costs %s ns" % (
                                 "met" if e["median_ns"] <= 20 else "missed (%s ns)" %
                                 fmt_num(e["median_ns"]), fmt_num(nb.get("python_call_ns"))))
                else:
                    R.figure(sec, "Cache hit, %s threads: lookup time" % threads, st, None, "",
                             "ns", None, "", "—", None, "per lookup, all threads hitting at once")
                R.figure(sec, "Cache hit, %s thread%s: allocations per hit" % (
                    threads, "" if threads == "1" else "s"),
                         e["allocs_per_hit"], None, "", "", None, "", "0",
                         e["allocs_per_hit"] == 0, "counting allocator in the benchmark")
    # 2. Every benchmark of the binary, for the details (hits and misses).
    log("  %s (all benchmarks, %d repetitions)" % (rel(binary), a.gbench_reps))
    try:
        gb = run_gbench(binary, a.gbench_reps)
    except (RuntimeError, ValueError, subprocess.SubprocessError) as e:
        R.skip(sec, "prism_cache_bench", str(e))
        gb = None
    md = ["### Cache hot path", ""]
    if gb:
        detail["prism_cache_bench"] = gb
        build_type = gb["context"].get("library_build_type")
        md += ["`%s` (Google Benchmark%s; real time, as the benchmarks use `UseRealTime`)." % (
            rel(binary), ", whose library reports it was built as %s" % build_type
            if build_type else ""), "",
            "| benchmark | real time median ± stddev | CPU time median | counters |",
            "|---|---|---|---|"]
        for n, e in gb["benchmarks"].items():
            m = e.get("median") or e.get("single") or {}
            md.append("| %s | %s ± %s %s | %s %s | %s |" % (
                n, fmt_num(gb_median(e)), fmt_num(gb_spread(e), 2), e["time_unit"],
                fmt_num(m.get("cpu_time")), e["time_unit"],
                ", ".join("%s=%s" % (c, fmt_num(v)) for c, v in e["counters"].items()) or "—"))
        def miss_row(key, title, target, note):
            e = next((e for n, e in gb["benchmarks"].items() if key in n), None)
            if not e:
                return
            ms = to_ns(gb_median(e), e["time_unit"]) / 1e6
            R.figure(sec, title,
                     {"median": ms, "spread": to_ns(gb_spread(e), e["time_unit"]) / 1e6,
                      "n": a.gbench_reps, "min": ms, "max": ms}, None, "", "ms", None, "",
                     target, ms <= 5.0 if target != "—" else None, note)
        miss_row("ptx_cold", "Cache miss: cold compile saxpy → PTX in-process (after a first "
                 "job warmed LLVM)", "≤ 5 ms",
                 "a fresh CompilerConfig (TargetMachine) and a fresh inference engine each "
                 "time: inference, the typed optimiser, emission, LLVM -O2, PTX")
        miss_row("ptx_warm", "Cache miss: compile saxpy → PTX in-process (config and "
                 "inference reused)", "—",
                 "codegen, the optimiser and the backend only; figure 1 without process "
                 "start-up")
        miss_row("InferCold", "Cache miss, inference alone: saxpy with a fresh engine "
                 "(part of the cold compile)", "—",
                 "inference of saxpy and every prelude method it calls, the typed "
                 "optimiser's inlining for codegen and the engine's teardown")
    if "cache_vs_numba" in detail:
        md += ["", "Numba's figure comes from `%s` (a trivial `@njit` function called in a "
               "Python loop, so the interpreter's call overhead is part of it)." % rel(peer)]
    R.details[sec] = detail
    R.markdown[sec] = "\n".join(md)


def prism_run_time(prism, args, timeout=900):
    """`prism run ... --json` → (time_ms, last number of the last array's data).
    Reads the (possibly huge) output in chunks and keeps only its end."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([prism, "run"] + args + ["--json"], stdout=subprocess.PIPE,
                             stderr=err)
        tail = b""
        deadline = time.time() + timeout
        while True:
            chunk = p.stdout.read(1 << 20)
            if not chunk:
                break
            tail = (tail + chunk)[-8192:]
            if time.time() > deadline:
                p.kill()
                raise RuntimeError("prism run timed out")
        rc = p.wait()
        if rc != 0:
            err.seek(0)
            raise RuntimeError("prism run exited %d: %s" % (rc, err.read().decode()[-400:]))
    t = tail.decode(errors="replace")
    m = re.search(r'"time_ms":\s*([0-9.eE+-]+)', t)
    if not m:
        raise RuntimeError("no time_ms in prism run --json output")
    last = re.findall(r'([0-9.eE+-]+)\s*\]\s*,\s*"dims"', t)
    val = float(last[-1]) if last else None
    return float(m.group(1)), val


def section_host(a, R, prism, outdir):
    sec = "host"
    work = os.path.join(outdir, "host")
    os.makedirs(work, exist_ok=True)
    n = a.host_n
    threads = 1024 if n % 1024 == 0 else 1
    saxpy = os.path.join(EXAMPLES, "saxpy.jl")
    call = "saxpy!(2.0f0, ones(Float32, %d), ones(Float32, %d))" % (n, n)
    grid = ["--blocks", str(n // threads), "--threads", str(threads)]
    clang = shutil.which("clang-16")
    cdrv = os.path.join(work, "saxpy_host")
    if clang:
        c = run([clang, "-O3", "-march=native", "-pthread", os.path.join(PEERS, "saxpy_host.c"),
                 "-o", cdrv])
        if c.returncode != 0:
            R.skip(sec, "host saxpy vs C", "clang-16 failed: " + c.stderr[-300:])
            clang = None
    else:
        R.skip(sec, "host saxpy vs C", "clang-16 not installed")
    cores = os.cpu_count() or 1
    prism_t, c1, cn, empty_grid = [], [], [], []
    log("  saxpy over %d Float32 on the host device, %d runs (each prints the arrays back "
        "as JSON, so a run takes a while)" % (n, a.host_runs))
    ok = True
    for i in range(a.host_runs):
        # Alternate Prism and the C loops so that drift in machine load hits both.
        try:
            t, last = prism_run_time(prism, [saxpy, call] + grid)
        except (RuntimeError, OSError) as e:
            R.skip(sec, "host saxpy", str(e))
            ok = False
            break
        if last is not None and abs(last - 3.0) > 1e-6:
            R.skip(sec, "host saxpy", "wrong result: y[end] = %r, expected 3" % last)
            ok = False
            break
        prism_t.append(t)
        if clang:
            for th, acc in ((1, c1), (cores, cn)):
                r = run([cdrv, str(n), str(th)])
                if r.returncode == 0:
                    acc.append(json.loads(r.stdout)["time_ms"])
    if not ok:
        return
    gbs = lambda ms: 3 * 4 * n / (ms * 1e-3) / 1e9  # x read, y read + written
    # Launch overheads: an empty kernel, 1×1 and the saxpy grid.
    empty = os.path.join(work, "empty.jl")
    with open(empty, "w") as f:
        f.write("# An empty kernel (scripts/bench): launch overhead.\n"
                "# job: empty!()\n# targets: ptx native\n"
                "function empty!()\n    return nothing\nend\n")
    one = []
    for i in range(a.launch_runs):
        try:
            one.append(prism_run_time(prism, [empty, "empty!()"])[0])
        except (RuntimeError, OSError) as e:
            R.skip(sec, "launch overhead", str(e))
            break
    two = []
    for i in range(max(3, a.host_runs)):
        try:
            two.append(prism_run_time(prism, [empty, "empty!()", "--blocks", "2",
                                              "--threads", "1"])[0])
        except (RuntimeError, OSError) as e:
            R.skip(sec, "empty 2×1 launch", str(e))
            break
    for i in range(max(3, a.host_runs)):
        try:
            empty_grid.append(prism_run_time(prism, [empty, "empty!()"] + grid)[0])
        except (RuntimeError, OSError) as e:
            R.skip(sec, "empty-grid launch", str(e))
            break
    ps = summary(prism_t)
    detail = {"n": n, "grid": grid, "prism_ms": ps, "call": call}
    if c1:
        s1 = summary(c1)
        ratio = s1["median"] / ps["median"]
        R.figure(sec, "Host saxpy 2^%d Float32: time (throughput ratio)" % round(math.log2(n)),
                 ps, s1, "C loop, clang-16 -O3, 1 thread", "ms", ratio,
                 "throughput Prism ÷ C", "≥ 0.8×", ratio >= 0.8,
                 "Prism %.1f GB/s, C %.1f GB/s; Prism's time is one launch of %s×%d threads "
                 "on the host grid runtime (%d cores)" % (gbs(ps["median"]), gbs(s1["median"]),
                                                           grid[1], threads, cores))
        detail["c_1thread_ms"] = s1
    if cn and cores > 1:
        sn = summary(cn)
        ratio = sn["median"] / ps["median"]
        R.figure(sec, "Host saxpy 2^%d Float32 vs C on all %d cores" % (round(math.log2(n)),
                                                                       cores),
                 ps, sn, "C loop, clang-16 -O3, %d pthreads" % cores, "ms", ratio,
                 "throughput Prism ÷ C", "—", None, "")
        detail["c_all_cores_ms"] = sn
    # The launch overhead proper: prism_device_bench launches an empty
    # kernel again and again in one process (Google Benchmark).
    dbench = os.path.join(a.build_dir, "tests", "bench", "prism_device_bench")
    if os.access(dbench, os.X_OK):
        try:
            gb = run_gbench(dbench, 5)
            for name, e in sorted(gb["benchmarks"].items()):
                if "HostSaxpy" in name:
                    ms = to_ns(gb_median(e), e["time_unit"]) / 1e6
                    st = {"median": ms, "spread": to_ns(gb_spread(e), e["time_unit"]) / 1e6,
                          "n": 5}
                    if c1:
                        s1 = summary(c1)
                        ratio = s1["median"] / ms
                        R.figure(sec, "Host saxpy 2^24 Float32, steady state (throughput "
                                 "ratio)", st, s1, "C loop, clang-16 -O3, 1 thread", "ms",
                                 ratio, "throughput Prism ÷ C", "≥ 0.8×", ratio >= 0.8,
                                 "prism_device_bench: the same launch (16384×1024) after the "
                                 "first in one process, its own time (arrays already in the "
                                 "device's buffers); Prism %.1f GB/s" % gbs(ms))
                    else:
                        R.figure(sec, "Host saxpy 2^24 Float32, steady state", st, None, "",
                                 "ms", None, "", "—", None, "prism_device_bench")
                    continue
                if "CudaWorker" in name:
                    ms = to_ns(gb_median(e), e["time_unit"]) / 1e6
                    st = {"median": ms, "spread": to_ns(gb_spread(e), e["time_unit"]) / 1e6,
                          "n": 5}
                    if "StartStop" in name:
                        what = "cuda worker process: start, hello, stop (no driver)"
                        note = ("what each `prism run --device cuda` pays before cuInit: "
                                "posix_spawn, the worker's dynamic loading, its hello, "
                                "closing the socket and reaping it")
                    else:
                        floats = int(name.rsplit(":", 1)[1])
                        what = ("cuda worker request round trip, %s of arguments" %
                                ("no bytes" if not floats else
                                 "%d MiB" % (floats * 4 >> 20)))
                        note = ("one launch request over the worker's socket and its "
                                "answer (an error: no driver); a real launch also sends "
                                "its arrays back")
                    R.figure(sec, what, st, None, "", "ms", None, "", "—", None,
                             "prism_device_bench: " + note)
                    continue
                us = to_ns(gb_median(e), e["time_unit"]) / 1e3
                spread = to_ns(gb_spread(e), e["time_unit"]) / 1e3
                allocs = e["counters"].get("allocs_per_iter")
                one_by_one = "blocks:1/threads:1" in name
                R.figure(sec, "Host launch overhead, empty kernel, %s (steady state)" %
                         name.split("/", 1)[1].replace("/", ", ").replace(":", " "),
                         {"median": us, "spread": spread, "n": 5}, None, "", "µs", None, "",
                         "≤ 2 µs" if one_by_one else "—",
                         us <= 2.0 if one_by_one else None,
                         "prism_device_bench: launches after the first in one process, "
                         "arguments marshalled and read back; %s allocations per launch" %
                         (fmt_num(allocs) if allocs is not None else "?"))
            detail["prism_device_bench"] = gb
        except (RuntimeError, OSError, ValueError) as e:
            R.skip(sec, "host launch overhead (prism_device_bench)", str(e))
    else:
        R.skip(sec, "host launch overhead (prism_device_bench)",
               "not built: %s is absent (Google Benchmark not installed?)" % dbench)
    if one:
        so = summary([x * 1e3 for x in one])
        R.figure(sec, "Host first launch in a fresh `prism run` process, empty 1×1 kernel",
                 so, None, "", "µs", None, "", "—", None,
                 "the only launch of a fresh process (the CLI cannot launch twice in one "
                 "process): first-launch costs included")
        detail["empty_1x1_us"] = so
    if two:
        st = summary(two)
        R.figure(sec, "Host launch of an empty 2×1 kernel (first multi-block launch)", st,
                 None, "", "ms", None, "", "—", None,
                 "what the first launch with more than one block costs in a fresh process "
                 "(the block thread pool starting)")
        detail["empty_2x1_ms"] = st
    if empty_grid:
        se = summary(empty_grid)
        per_thread = ""
        if two:
            per_thread = "; beyond the first-multi-block cost, %.2f ns per thread" % (
                (se["median"] - st["median"]) * 1e6 / n)
        R.figure(sec, "Host launch of an empty kernel on the saxpy grid (%s×%d)" % (
            grid[1], threads), se, None, "", "ms", None, "", "—", None,
            "%.0f%% of the saxpy time goes to the grid runtime, not the loop%s (each "
            "block is one call of its compiled thread loop, jfptr_block_NAME)" % (
                100 * se["median"] / ps["median"], per_thread))
        detail["empty_grid_ms"] = se
    R.details[sec] = detail
    md = ["### Host device saxpy", "",
          "`prism run assets/examples/saxpy.jl '%s' %s --json` (its `time_ms`: the wall "
          "time of the launch, arrays already filled) vs `assets/peers/saxpy_host.c` built "
          "with `clang-16 -O3 -march=native`, which fills its arrays and then times one pass "
          "the same way. Runs alternate between the two. Throughput counts 12 bytes per "
          "element." % (call, " ".join(grid))]
    R.markdown[sec] = "\n".join(md)


def measure_process(cmd, runs, timeout=3600, warmup=0):
    """Whole-process wall seconds and peak RSS MiB (GNU time) of cmd, runs
    times after warmup runs that are not kept. Returns (walls, rss, error)."""
    gtime = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
    walls, rss = [], []
    for i in range(warmup + runs):
        c = ([gtime, "-f", "PRISM_BENCH %e %M"] if gtime else []) + cmd
        t0 = time.perf_counter()
        r = subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
        t1 = time.perf_counter()
        if r.returncode != 0:
            return walls, rss, "%s exited %d: %s" % (os.path.basename(cmd[0]), r.returncode,
                                                     r.stderr[-300:])
        if i < warmup:
            continue
        walls.append(t1 - t0)
        m = re.search(r"PRISM_BENCH ([0-9.]+) (\d+)", r.stderr)
        if m:
            rss.append(int(m.group(2)) / 1024)
    return walls, rss, None


def callgrind_instructions(cmd):
    """Instructions the command executes, counted by callgrind (the same on
    every run: the machine's load and caches do not change it); None and
    why when it cannot be counted."""
    try:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
                           + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if p.returncode != 0 or not m:
        return None, "valgrind exited %d" % p.returncode
    return int(m.group(1)), None


def section_scaling(a, R, prism, outdir):
    sec = "scaling"
    work = os.path.join(outdir, "scaling")
    os.makedirs(work, exist_ok=True)
    sizes = [10, 100, 1000, 10000] if not a.quick else [10, 100, 1000]
    gen = os.path.join(SCRIPTS, "gen_scaling.py")
    clang = shutil.which("clang-16")
    if not clang:
        R.skip(sec, "scaling peer (clang-16)", "clang-16 not installed")
    valgrind = shutil.which("valgrind")
    if not valgrind:
        R.skip(sec, "scaling instruction counts", "valgrind not installed")
    opt = shutil.which("opt-16")
    if not opt:
        R.skip(sec, "pipeline peer (opt-16)", "opt-16 not installed")
    data = {}
    for kind in ("functions", "statements"):
        pts = []
        for n in sizes:
            path = os.path.join(work, "%s_%d.jl" % (kind, n))
            sig = run([sys.executable, gen, kind, str(n), path]).stdout.strip()
            runs = a.scaling_runs if n < 10000 else max(1, a.scaling_runs_big)
            # A run first that is not kept: the exponent subtracts the smallest
            # program's time, and measured right after the 10 000-function
            # runs, 10 statements took 25 % longer than 100.
            walls, rss, err = measure_process([prism, "code_ptx", path, sig, "--arch", a.arch],
                                              runs, warmup=1)
            if err:
                R.skip(sec, "scaling %s %d" % (kind, n), err)
                continue
            pt = {"n": n, "wall_s": summary(walls), "max_rss_mib": summary(rss) if rss else None}
            # The front end alone (parse, infer, emit raw LLVM IR), to tell it
            # apart from LLVM's optimiser and the backend.
            fw, _, err = measure_process([prism, "code_llvm", path, sig, "--target", "ptx",
                                          "--optimize=no"], 1)
            pt["front_end_s"] = summary(fw) if fw and not err else None
            if clang:
                cu = os.path.join(work, "%s_%d.cu" % (kind, n))
                run([sys.executable, gen, kind, str(n), cu])
                cw, crss, err = measure_process(
                    [clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + a.arch,
                     "-nocudalib", "-nocudainc", "-O3", "-S", "-Wno-unknown-cuda-version",
                     "-I", PEERS, cu, "-o", os.path.join(work, "%s_%d.clang.ptx" % (kind, n))],
                    runs, warmup=1)
                if err:
                    R.skip(sec, "scaling peer %s %d" % (kind, n), err)
                else:
                    pt["clang_wall_s"] = summary(cw)
                    pt["clang_max_rss_mib"] = summary(crss) if crss else None
                # With the line tables Prism emits by default (its GUI maps
                # every output line to the source): LLVM's inliner and
                # backends carry a location per instruction.
                lw, _, err = measure_process(
                    [clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + a.arch,
                     "-nocudalib", "-nocudainc", "-O3", "-gline-tables-only", "-S",
                     "-Wno-unknown-cuda-version", "-I", PEERS, cu, "-o",
                     os.path.join(work, "%s_%d.clang-g.ptx" % (kind, n))], runs, warmup=1)
                if not err:
                    pt["clang_lines_wall_s"] = summary(lw)
            # The pass pipeline with every changed pass's diff (what the GUI's
            # Pipeline panel records on each recompile), against LLVM's own
            # `opt -print-changed=diff` on the same raw IR for the sizes it
            # finishes in reasonable time.
            pw, _, err = measure_process([prism, "pipeline", path, sig, "--target", "ptx",
                                          "--arch", a.arch], runs)
            if err:
                R.skip(sec, "pipeline %s %d" % (kind, n), err)
            else:
                pt["pipeline_s"] = summary(pw)
            if opt and n <= 1000 and not err:
                ll = os.path.join(work, "%s_%d.raw.ll" % (kind, n))
                with open(ll, "w") as f:
                    f.write(run([prism, "code_llvm", path, sig, "--target", "ptx", "--arch",
                                 a.arch, "--optimize=no", "--dump-module", "--raw"]).stdout)
                ow, _, err = measure_process([opt, "-O2", "-print-changed=diff",
                                              "-disable-output", ll], runs)
                if err:
                    R.skip(sec, "pipeline peer %s %d" % (kind, n), err)
                else:
                    pt["opt_print_changed_s"] = summary(ow)
            # Instructions executed, for the sizes the exponent compares: a
            # count that load and caches do not move (the wall time pays for
            # the cache misses and page faults of a larger working set too).
            if valgrind and n in (sizes[0], sizes[-2], sizes[-1]):
                count, err = callgrind_instructions([prism, "code_ptx", path, sig,
                                                     "--arch", a.arch])
                if err:
                    R.skip(sec, "instruction count %s %d" % (kind, n), err)
                else:
                    pt["instructions"] = summary([count / 1e6])  # millions
            log("  %s %5d: Prism %.2f s, %s MiB (front end %s s); clang-16 %s s, %s MiB" % (
                kind, n, pt["wall_s"]["median"],
                fmt_num(med(pt["max_rss_mib"])) if pt["max_rss_mib"] else "?",
                fmt_num(med(pt["front_end_s"])) if pt["front_end_s"] else "?",
                fmt_num(med(pt["clang_wall_s"])) if pt.get("clang_wall_s") else "—",
                fmt_num(med(pt["clang_max_rss_mib"])) if pt.get("clang_max_rss_mib") else "—"))
            pts.append(pt)
        data[kind] = pts

    def exponent(pts, key):
        """Growth exponent of the cost above the smallest program, over the
        last decade: log10((c(N) - c(10)) / (c(N/10) - c(10)))."""
        if len(pts) < 3 or pts[-1]["n"] != 10 * pts[-2]["n"]:
            return None
        v = [med(p[key]) if p.get(key) else None for p in (pts[0], pts[-2], pts[-1])]
        if None in v:
            return None
        num, den = v[-1] - v[0], v[-2] - v[0]
        if num <= 0 or den <= 0:
            return None
        return math.log10(num / den)

    for kind, pts in data.items():
        if len(pts) < 3:
            continue
        last = pts[-1]
        for key, label, unit in (("wall_s", "compile time", "s"),
                                 ("max_rss_mib", "peak memory", "MiB")):
            e = exponent(pts, key)
            if e is None:
                continue
            ce = exponent(pts, "clang_" + key)
            note = ("clang-16's exponent on the same program in CUDA C: %s" % fmt_num(ce)
                    if ce is not None else "")
            le = exponent(pts, "clang_lines_wall_s") if key == "wall_s" else None
            if note and le is not None:
                note += (" (with -gline-tables-only, the line tables Prism emits: %s)"
                         % fmt_num(le))
            R.figure(sec, "Scaling, %s: %d %s (growth exponent %d→%d)" % (
                label, last["n"], kind, pts[-2]["n"], last["n"]), last[key], pts[-2][key],
                "%d %s" % (pts[-2]["n"], kind), unit, e, "exponent above the %d-%s "
                "baseline" % (pts[0]["n"], kind), "≤ 1.1 (close to linear)", e <= 1.1, note)
        e = exponent(pts, "instructions")
        if e is not None:
            R.figure(sec, "Scaling, instructions executed (callgrind): %d %s (growth exponent "
                     "%d→%d)" % (last["n"], kind, pts[-2]["n"], last["n"]),
                     last["instructions"], pts[-2]["instructions"],
                     "%d %s" % (pts[-2]["n"], kind), "M instructions", e,
                     "exponent above the %d-%s baseline" % (pts[0]["n"], kind), "—", None,
                     "the work itself, without the machine's noise: the wall-time exponent "
                     "also pays for cache misses and page faults of the larger program")
        # The largest program LLVM's own pass printer was timed on.
        both = [p for p in pts if p.get("pipeline_s") and p.get("opt_print_changed_s")]
        if both:
            p = both[-1]
            big = next((q for q in reversed(pts) if q.get("pipeline_s")), p)
            R.figure(sec, "Pass pipeline with a diff per changed pass, %d %s" % (p["n"], kind),
                     p["pipeline_s"], p["opt_print_changed_s"],
                     "opt-16 -O2 -print-changed=diff on the same raw IR", "s",
                     med(p["pipeline_s"]) / med(p["opt_print_changed_s"]),
                     "Prism ÷ opt-16", "—", None,
                     "`prism pipeline` (the GUI's Pipeline panel records the same on every "
                     "recompile) includes Prism's front end; opt reads the IR Prism emitted. "
                     "%d %s: Prism %s s" % (big["n"], kind, fmt_num(med(big["pipeline_s"])))
                     if big is not p else "")
        if last.get("clang_wall_s"):
            ratio = med(last["wall_s"]) / med(last["clang_wall_s"])
            fe = med(last["front_end_s"]) if last.get("front_end_s") else None
            R.figure(sec, "Compile time, %d %s → PTX" % (last["n"], kind), last["wall_s"],
                     last["clang_wall_s"], "clang-16 -O3, same program in CUDA C", "s", ratio,
                     "Prism ÷ clang-16", "—", None,
                     "Prism's front end (to raw LLVM IR, `code_llvm --optimize=no`) takes %s s "
                     "of it" % fmt_num(fe) if fe is not None else "")
    R.details[sec] = data
    md = ["### Scaling with program size", "",
          "Generated programs (`tests/bench/scripts/gen_scaling.py`): *functions* = N "
          "functions in a binary call tree under one kernel; *statements* = one kernel with "
          "N statements; the same programs in CUDA C for clang-16 (`-O3`). Whole-process "
          "`prism code_ptx` wall time and peak RSS (`/usr/bin/time`); *front end* is "
          "`prism code_llvm --target ptx --optimize=no` (parse, infer, emit raw LLVM IR: "
          "the rest is LLVM's optimiser and the NVPTX backend). The growth exponent is "
          "log10 of the ratio of the cost above the smallest program between the last two "
          "sizes (1 = linear).", "",
          "![compile time and peak memory vs program size](docs/images/scaling.png)", "",
          "| program | N | Prism wall s | Prism front end s | Prism peak RSS MiB | "
          "clang-16 wall s | clang-16 -gline-tables-only wall s | clang-16 peak RSS MiB |",
          "|---|---|---|---|---|---|---|---|"]
    for kind, pts in data.items():
        for p in pts:
            md.append("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
                kind, p["n"], fmt_stat(p["wall_s"], ""),
                fmt_stat(p["front_end_s"], "") if p.get("front_end_s") else "—",
                fmt_stat(p["max_rss_mib"], "") if p["max_rss_mib"] else "—",
                fmt_stat(p["clang_wall_s"], "") if p.get("clang_wall_s") else "—",
                fmt_stat(p["clang_lines_wall_s"], "") if p.get("clang_lines_wall_s") else "—",
                fmt_stat(p["clang_max_rss_mib"], "") if p.get("clang_max_rss_mib") else "—"))
    R.markdown[sec] = "\n".join(md)
    plot_scaling(R, data, work, a)


def plot_scaling(R, data, work, a):
    if not shutil.which("gnuplot"):
        R.skip("scaling", "scaling plot", "gnuplot not installed")
        return
    dat = os.path.join(work, "scaling.dat")
    nan = float("nan")

    def v(p, key):
        return med(p[key]) if p.get(key) else nan

    with open(dat, "w") as f:
        for kind in ("functions", "statements"):
            f.write("# %s: n prism_wall_s prism_rss_mib clang_wall_s clang_rss_mib "
                    "prism_front_end_s\n" % kind)
            for p in data.get(kind, []):
                f.write("%d %g %g %g %g %g\n" % (p["n"], v(p, "wall_s"), v(p, "max_rss_mib"),
                                                 v(p, "clang_wall_s"), v(p, "clang_max_rss_mib"),
                                                 v(p, "front_end_s")))
            f.write("\n\n")
    png = os.path.join(work, "scaling.png")
    # A dashed "linear" guide through Prism's 1 000-function point.
    ref = next((p for p in data.get("functions", []) if p["n"] == 1000), None)
    guide = lambda key: (", (x >= 1000 ? %g*x : NaN) title 'linear from 1000 functions (∝ N)' "
                         "with lines dt 2 lc rgb 'gray50'" % (v(ref, key) / 1000)) \
        if ref and not math.isnan(v(ref, key)) else ""
    series = lambda col, ccol: (
        "plot '%s' index 0 using 1:%d with linespoints lw 2 pt 7 lc rgb '#7b2cbf' "
        "title 'Prism, N functions', "
        "'' index 1 using 1:%d with linespoints lw 2 pt 5 lc rgb '#2a9d8f' "
        "title 'Prism, 1 function with N statements', "
        "'' index 0 using 1:%d with linespoints lw 1 dt 3 pt 6 lc rgb '#7b2cbf' "
        "title 'clang-16, N functions (CUDA C)', "
        "'' index 1 using 1:%d with linespoints lw 1 dt 3 pt 4 lc rgb '#2a9d8f' "
        "title 'clang-16, N statements (CUDA C)'" % (dat, col, col, ccol, ccol))
    script = "\n".join([
        "set terminal pngcairo noenhanced size 1200,500 font 'DejaVu Sans,10'",
        "set output '%s'" % png,
        "set multiplot layout 1,2 title 'Prism code_ptx vs clang-16 -O3 by program size "
        "(%s, %s, %s cores)'" % (datetime.date.today().isoformat(), a.arch, os.cpu_count()),
        "set logscale xy", "set grid", "set key top left font ',9'", "set samples 400",
        "set xlabel 'program size N (functions, or statements in one function)'",
        "set ylabel 'wall time (s)'", "set title 'compile time (whole process)'",
        series(2, 4) + guide("wall_s"),
        "set ylabel 'peak RSS (MiB)'", "set title 'peak memory'",
        series(3, 5),
        "unset multiplot", ""])
    gp = os.path.join(work, "scaling.gp")
    with open(gp, "w") as f:
        f.write(script)
    r = run(["gnuplot", gp])
    if r.returncode != 0 or not os.path.exists(png):
        R.skip("scaling", "scaling plot", "gnuplot failed: " + r.stderr[-300:])
        return
    R.details.setdefault("scaling_plot", rel(png))


def section_incremental(a, R, prism, outdir):
    sec = "incremental"
    cands = sorted(glob.glob(os.path.join(a.build_dir, "tests", "bench", "*incremental*")) +
                   glob.glob(os.path.join(a.build_dir, "tests", "bench", "*workspace*")))
    cands = [c for c in cands if os.access(c, os.X_OK) and os.path.isfile(c)]
    if not cands:
        R.skip(sec, "Incremental recompile (10 watched jobs, leaf edit)",
               "not yet measurable: neither the CLI nor a benchmark binary applies an edit to a "
               "workspace with watched jobs and times the recompile (the machinery is in "
               "core/workspace; a Google Benchmark under tests/bench driving Workspace edits, "
               "e.g. %s/tests/bench/prism_incremental_bench, is picked up here)" %
               rel(a.build_dir))
        return
    detail = {}
    for c in cands:
        try:
            gb = run_gbench(c, a.gbench_reps)
        except (RuntimeError, ValueError, subprocess.SubprocessError) as e:
            R.skip(sec, "Incremental recompile", str(e))
            continue
        detail[rel(c)] = gb
        for n, e in gb["benchmarks"].items():
            ms = to_ns(gb_median(e), e["time_unit"]) / 1e6
            code = e["counters"].get("code_published_ms")
            if code is not None:
                # What the user waits for: the recompiled code on screen.
                R.figure(sec, "Incremental recompile: %s, edit → recompiled code published" % n,
                         {"median": code, "spread": 0.0, "n": a.gbench_reps, "min": code,
                          "max": code}, None, "", "ms", None, "", "≤ 10 ms", code <= 10,
                         "median over repetitions of the mean per edit; the first snapshot "
                         "that shows the edited job recompiled")
            R.figure(sec, "Incremental recompile: %s, edit → workspace idle" % n,
                     {"median": ms, "spread": to_ns(gb_spread(e), e["time_unit"]) / 1e6,
                      "n": a.gbench_reps, "min": ms, "max": ms}, None, "", "ms", None, "",
                     "—" if code is not None else "≤ 10 ms",
                     None if code is not None else ms <= 10,
                     "includes the resource figures measured after the code is shown "
                     "(ptx: a `ptxas -v` process)" if code is not None else "")
    R.details[sec] = detail


def section_gui(a, R, prism, outdir):
    sec = "gui"
    xvfb = shutil.which("xvfb-run")
    have_display = bool(os.environ.get("DISPLAY"))
    if not xvfb and not have_display:
        R.skip(sec, "GUI frame time", "no display and no xvfb-run (Debian: xvfb)")
        return
    work = os.path.join(outdir, "gui")
    os.makedirs(work, exist_ok=True)
    gen = os.path.join(SCRIPTS, "gen_scaling.py")
    # Size the generated program so that its raw LLVM IR pane has at least
    # --gui-lines lines: start from 100 functions and scale up by the line
    # count measured (`prism report --json`), a few times at most.
    def stage_lines(path, sig):
        r = run([prism, "report", path, sig, "--target", "ptx", "--json"], timeout=1800)
        if r.returncode != 0:
            raise RuntimeError("prism report failed: " + r.stderr[-300:])
        return {s["stage"]: s["lines"] for s in json.loads(r.stdout)["stages"]}

    n, lines = 100, {}
    for _ in range(4):
        path = os.path.join(work, "gui_%d.jl" % n)
        sig = run([sys.executable, gen, "functions", str(n), path]).stdout.strip()
        lines = stage_lines(path, sig)
        got = lines.get("llvm-raw", 0)
        if got >= a.gui_lines or got == 0:
            break
        n = int(math.ceil(n * a.gui_lines / got * 1.02))
    cmd = [prism, "gui", path, "--job", sig, "--target", "ptx", "--bench-frames",
           str(a.gui_frames), "--list-windows"]
    if not have_display:
        # Our own auth file: xvfb-run's temporary one is removed before Xvfb
        # stops, a race that sometimes makes it exit 5 (tests/bad_inputs).
        cmd = [xvfb, "-a", "-f", os.path.join(work, "xvfb.auth"),
               "-s", "-screen 0 1600x1000x24"] + cmd
    meds, firsts, windows, raw = [], [], [], []
    for _ in range(a.gui_runs):
        g = run(cmd, timeout=1800)
        out = g.stdout + g.stderr
        raw.append(out[-2000:])
        m = re.search(r"median_ms:\s*([0-9.]+)\s+p95_ms:\s*([0-9.]+).*first_ms:\s*([0-9.]+)", out)
        if g.returncode != 0 or not m:
            R.skip(sec, "GUI frame time", "prism gui --bench-frames failed (exit %d): %s" % (
                g.returncode, out.strip()[-300:]))
            return
        meds.append(float(m.group(1)))
        firsts.append(float(m.group(3)))
        windows = re.findall(r"^window: (.*)$", out, re.M)
    sm, sf = summary(meds), summary(firsts)
    # The same measurement on saxpy (small panes): what a frame costs anyway.
    base_cmd = cmd[:cmd.index(prism)] + [prism, "gui", os.path.join(EXAMPLES, "saxpy.jl"),
                                         "--job", SAXPY_SIG, "--target", "ptx",
                                         "--bench-frames", str(a.gui_frames)]
    base = []
    for _ in range(a.gui_runs):
        g = run(base_cmd, timeout=600)
        m = re.search(r"median_ms:\s*([0-9.]+)", g.stdout + g.stderr)
        if g.returncode == 0 and m:
            base.append(float(m.group(1)))
    note = ("%d functions: LLVM IR %s lines raw, %s optimised; %d frames per run, static "
            "(no scrolling), %s; median of the per-run medians" % (
                n, lines.get("llvm-raw", "?"), lines.get("llvm-opt", "?"), a.gui_frames,
                "Xvfb + Mesa software GL" if not have_display else "display " +
                os.environ["DISPLAY"]))
    R.figure(sec, "GUI frame time, ≥ %d-line LLVM IR pane" % a.gui_lines, sm, None, "", "ms",
             None, "", "≤ 4 ms median", sm["median"] <= 4.0, note)
    if base:
        sb = summary(base)
        d = sm["median"] - sb["median"]
        R.figure(sec, "GUI frame time, saxpy (small panes), for comparison", sb, None, "",
                 "ms", None, "", "—", None, "same window and renderer: %s" % (
                     "the large panes add %s ms a frame" % fmt_num(d) if d > max(sb["spread"], 0.5)
                     else "the large panes add nothing measurable, so the frame time is the "
                     "window's fixed cost on this renderer"))
    R.figure(sec, "GUI first frame (after the job compiled)", sf, None, "", "ms", None, "",
             "≤ 300 ms", sf["median"] <= 300.0,
             "headless mode waits for the compile before the first frame")
    # Scrolling every stage pane, and editing while the jobs recompile: the
    # worst frame drawn during a compile is what the UI must keep short.
    scroll, busy, busy_ui, panels = [], [], [], {}
    for _ in range(a.gui_runs):
        g = run(cmd[:-1] + ["--bench-scroll"], timeout=1800)
        m = re.search(r"^ui: frames:.*?median_ms:\s*([0-9.]+)", g.stdout, re.M)
        if g.returncode == 0 and m:
            scroll.append(float(m.group(1)))
        g = run(cmd[:-1] + ["--bench-edit"], timeout=1800)
        m = re.search(r"^compiling: frames: (\d+)\s+max_frame_ms:\s*([0-9.]+)", g.stdout, re.M)
        if g.returncode == 0 and m and int(m.group(1)) > 0:
            busy.append(float(m.group(2)))
            u = re.search(r"^compiling: .*?max_ui_ms:\s*([0-9.]+)", g.stdout, re.M)
            if u:
                busy_ui.append(float(u.group(1)))
            p = re.search(r"^compiling: max_panel_ms:(.*)$", g.stdout, re.M)
            if p:
                for name, ms in re.findall(r"\s+(\S.*?) ([0-9.]+)(?=\s{2}|$)", p.group(1)):
                    panels.setdefault(name, []).append(float(ms))
    if scroll:
        ss = summary(scroll)
        R.figure(sec, "GUI frame CPU time (UI), scrolling the large panes", ss, None, "", "ms",
                 None, "", "≤ 4 ms median", ss["median"] <= 4.0,
                 "--bench-scroll: every stage pane scrolls 37 lines a frame; the UI's own CPU "
                 "time (snapshot, layout, draw lists), without the software rasteriser")
    if busy:
        sb2 = summary(busy)
        R.figure(sec, "GUI worst frame while a compile runs", sb2, None, "", "ms", None, "",
                 "no frame > 16 ms", sb2["median"] <= 16.0,
                 "--bench-edit: a blank line comes or goes at the top every 20 frames, so "
                 "every job recompiles on the worker; the worst whole frame (rasteriser "
                 "included) among those drawn while a compile was in flight or took its "
                 "result")
    if busy_ui:
        sbu = summary(busy_ui)
        slow = sorted(((med(summary(v)), k) for k, v in panels.items()), reverse=True)[:2]
        R.figure(sec, "GUI work (UI CPU) in the worst frame while a compile runs", sbu, None,
                 "", "ms", None, "", "", None,
                 "--bench-edit, as above, without the software rasteriser; the panels "
                 "slowest in those frames: %s" % (", ".join(
                     "%s %s ms" % (k, fmt_num(v)) for v, k in slow) or "?"))
    R.details[sec] = {"n_functions": n, "stage_lines": lines, "frame_median_ms": sm,
                      "saxpy_frame_median_ms": summary(base) if base else None,
                      "first_frame_ms": sf, "windows": windows, "command": rel_cmd(cmd),
                      "output_tail": raw}
    R.markdown[sec] = "\n".join([
        "### GUI frame time", "",
        "`%s` (%s). Windows drawn: %s." % (rel_cmd(cmd), note, ", ".join(windows) or "?")])


# ---------------------------------------------------------------- report


def verdict(met):
    return {True: "✅ met", False: "❌ missed", None: "—"}[met]


def fmt_value(v, unit):
    if v is None:
        return "—"
    if isinstance(v, dict):
        return fmt_stat(v, unit)
    return ("%s %s" % (fmt_num(v), unit)).strip()


def write_markdown(R, info, args, path, plot_ref):
    L = ["# Prism benchmarks", "",
         "Generated by `scripts/bench` on %s — do not edit by hand; rerun it "
         "(`scripts/bench --publish`) to refresh this file." % info["date"], "",
         "**Machine:** %s, %s cores, %s GiB, %s (Linux %s). **Load average** (1/5/15 min) at "
         "start: %s; at end: %s. Figures measured on a loaded machine are slower and noisier "
         "than on an idle one; the ratios compare runs made side by side." % (
             info["cpu"], info["cores"], info.get("memory_gib", "?"), info.get("os", "?"),
             info["kernel"], fmt_load(R.load.get("start")), fmt_load(R.load.get("end"))), "",
         "**Tools:** " + "; ".join("%s: %s" % (k, v) for k, v in info["tools"].items() if v),
         "", "Values are median ± spread (half the interquartile range) over n runs; single "
         "figures (registers, counts) are exact. Ratio direction is given per row.", "",
         "| # | Figure | Prism | Peer | Ratio | Target | Verdict | Notes |",
         "|---|---|---|---|---|---|---|---|"]
    num = {s: i + 1 for i, s in enumerate(SECTIONS)}
    for f in R.figures:
        peer = "—" if f["peer"] is None and not f["peer_name"] else "%s (%s)" % (
            fmt_value(f["peer"], f["unit"]), f["peer_name"]) if f["peer"] is not None else \
            f["peer_name"]
        ratio = "—" if f["ratio"] is None else "%s× (%s)" % (fmt_num(f["ratio"]), f["ratio_kind"]) \
            if "exponent" not in f["ratio_kind"] else "%s (%s)" % (fmt_num(f["ratio"]),
                                                                 f["ratio_kind"])
        L.append("| %d | %s | %s | %s | %s | %s | %s | %s |" % (
            num[f["section"]], f["figure"], fmt_value(f["prism"], f["unit"]), peer, ratio,
            f["target"] or "—", verdict(f["met"]), f["note"].replace("|", "\\|")))
    if R.skipped:
        L += ["", "## Skipped", ""]
        for s in R.skipped:
            L.append("- %d. **%s**: %s" % (num[s["section"]], s["figure"],
                                           s["reason"].replace("\n", " ")))
    L += ["", "## Details", ""]
    for s in SECTIONS:
        if s in R.markdown:
            text = R.markdown[s]
            if plot_ref:
                text = text.replace("(docs/images/scaling.png)", "(%s)" % plot_ref)
            L += [text, ""]
    L += ["## Reproduce", "", "```sh", "scripts/bench            # results in build/bench/",
          "scripts/bench --publish  # also BENCHMARKS.md and docs/images/scaling.png",
          "scripts/bench --help", "```", "",
          "This run: `scripts/bench %s`." % " ".join(shlex.quote(x) for x in args.argv), ""]
    with open(path, "w") as f:
        f.write("\n".join(L))


def fmt_load(l):
    return " / ".join("%.2f" % x for x in l) if l else "?"


def main(argv):
    ap = argparse.ArgumentParser(prog="scripts/bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prism", default=os.environ.get("PRISM"),
                    help="the prism binary (default: $PRISM, else BUILD/app/prism)")
    ap.add_argument("--build-dir", default=os.environ.get("PRISM_BUILD_DIR",
                                                          os.path.join(ROOT, "build")),
                    help="build directory (default: $PRISM_BUILD_DIR or build)")
    ap.add_argument("--out", help="results directory (default: BUILD/bench)")
    ap.add_argument("--publish", action="store_true",
                    help="also write BENCHMARKS.md at the repository root and "
                         "docs/images/scaling.png")
    ap.add_argument("--only", help="comma-separated sections: " + ",".join(SECTIONS))
    ap.add_argument("--quick", action="store_true",
                    help="fewer runs, scaling up to 1 000 (for trying the script out)")
    ap.add_argument("--arch", default="sm_80", help="PTX architecture (default sm_80)")
    ap.add_argument("--runs", type=int, default=20, help="hyperfine runs per command (20)")
    ap.add_argument("--warmup", type=int, default=3, help="hyperfine warm-up runs (3)")
    ap.add_argument("--host-n", type=int, default=1 << 24, help="host saxpy length (2^24)")
    ap.add_argument("--host-runs", type=int, default=5, help="host saxpy runs (5)")
    ap.add_argument("--gui-frames", type=int, default=120)
    ap.add_argument("--gui-lines", type=int, default=20000)
    args = ap.parse_args(argv)
    args.argv = argv
    a = args
    a.stage_runs = 5
    a.launch_runs = 15
    # The small programs' runs are cheap and their noise moves the exponent
    # (it subtracts the smallest one's time): more of them.
    a.scaling_runs = 7
    # The growth exponent hangs on the biggest program's time: one run of it
    # swung the exponent between 1.07 and 1.19 on a loaded 2-core machine.
    a.scaling_runs_big = 3
    a.gbench_reps = 5
    a.gui_runs = 3
    if a.quick:
        a.runs, a.warmup, a.stage_runs, a.host_runs, a.launch_runs = 5, 1, 2, 2, 5
        a.scaling_runs, a.scaling_runs_big, a.gbench_reps, a.gui_runs = 1, 1, 2, 1
        a.gui_frames = min(a.gui_frames, 30)
    a.build_dir = os.path.abspath(a.build_dir)
    prism = a.prism or os.path.join(a.build_dir, "app", "prism")
    if not os.access(prism, os.X_OK):
        print("scripts/bench: no prism binary at %s; build first (scripts/build) or pass "
              "--prism PATH" % prism, file=sys.stderr)
        return 2
    prism = os.path.abspath(prism)
    outdir = os.path.abspath(a.out or os.path.join(a.build_dir, "bench"))
    os.makedirs(outdir, exist_ok=True)
    only = SECTIONS if not a.only else [s.strip() for s in a.only.split(",")]
    bad = [s for s in only if s not in SECTIONS]
    if bad:
        print("scripts/bench: unknown section(s) %s; known: %s" % (", ".join(bad),
                                                                  ", ".join(SECTIONS)),
              file=sys.stderr)
        return 2

    R = Results()
    info = machine_info(prism)
    R.load["start"] = loadavg()
    log("Prism benchmarks — %s" % info["date"])
    log("machine: %s, %s cores, %s GiB, %s" % (info["cpu"], info["cores"],
                                               info.get("memory_gib"), info.get("os")))
    log("load average at start: %s" % fmt_load(R.load["start"]))
    log("prism: %s (%s)" % (prism, info["tools"].get("prism")))
    fns = {"compile": section_compile, "quality": section_quality, "cache": section_cache,
           "host": section_host, "scaling": section_scaling,
           "incremental": section_incremental, "gui": section_gui}
    for i, s in enumerate(SECTIONS):
        if s not in only:
            continue
        R.load[s] = loadavg()
        log("\n== %d. %s (load %s)" % (i + 1, s, fmt_load(R.load[s])))
        t0 = time.time()
        try:
            fns[s](a, R, prism, outdir)
        except Exception as e:  # a broken section must not lose the others
            R.skip(s, s, "the benchmark script failed: %s: %s" % (type(e).__name__, e))
        log("   (%.0f s)" % (time.time() - t0))
    R.load["end"] = loadavg()

    plot = R.details.get("scaling_plot")
    plot_ref_out = os.path.relpath(os.path.join(ROOT, plot), outdir) if plot else None
    with open(os.path.join(outdir, "benchmarks.json"), "w") as f:
        json.dump({"machine": info, "load": R.load, "figures": R.figures,
                   "skipped": R.skipped, "details": R.details,
                   "args": vars(a) | {"argv": argv}}, f, indent=1, default=str)
    md_out = os.path.join(outdir, "BENCHMARKS.md")
    write_markdown(R, info, a, md_out, plot_ref_out)
    log("\nwrote %s and %s" % (rel(md_out), rel(os.path.join(outdir, "benchmarks.json"))))
    if a.publish:
        if plot:
            dst = os.path.join(ROOT, "docs", "images", "scaling.png")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, plot), dst)
            log("wrote docs/images/scaling.png")
        root_md = os.path.join(ROOT, "BENCHMARKS.md")
        write_markdown(R, info, a, root_md, "docs/images/scaling.png" if plot else None)
        log("wrote BENCHMARKS.md")
    # The table, for the terminal.
    log("")
    with open(md_out) as f:
        text = f.read()
    start = text.find("| # |")
    end = text.find("\n## Details")
    log(text[start:end if end > 0 else None])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
