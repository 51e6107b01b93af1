#!/usr/bin/env python3
"""Prism's compile-cache hit vs Numba's cached dispatch, in one invocation.

Prism: BM_CacheHit of prism_cache_bench (the lookup a kernel launch does:
config + interned function + interned argument types -> compiled artefact).
Numba: calling an already-compiled trivial @njit function from a Python
loop; its dispatcher types the arguments and finds the compiled overload on
every call. A plain Python function called the same way is printed too, so
the share of the interpreter's own call overhead is visible.

Usage: cache_vs_numba.py [--bench PATH] [--json OUT] [--repeats N]
Numba is looked up with Debian's interpreter (/usr/bin/python3, package
python3-numba) and the current one; when absent that half is skipped with
the reason.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

NUMBA_SNIPPET = r"""
import json, statistics, sys, timeit
from numba import njit, __version__

@njit
def add1(x):
    return x + 1

def py_add1(x):
    return x + 1

add1(1)  # compile once; every call below is a cached dispatch
N = 200000
def per_call(fn):
    runs = timeit.repeat(lambda: [fn(1) for _ in range(N)], number=1, repeat=REPEATS)
    return [r / N * 1e9 for r in runs]
numba_ns = per_call(add1)
python_ns = per_call(py_add1)
print(json.dumps({"numba_version": __version__,
                  "python": sys.version.split()[0],
                  "numba_ns": numba_ns, "python_ns": python_ns}))
"""


def find_numba_python():
    candidates = ["/usr/bin/python3", sys.executable, shutil.which("python3")]
    for py in candidates:
        if not py or not os.path.exists(py):
            continue
        ok = subprocess.run([py, "-c", "import numba"], capture_output=True)
        if ok.returncode == 0:
            return py, None
    return None, "numba is not installed (Debian: apt-get install python3-numba)"


def run_prism(bench, repeats):
    if not bench or not os.path.exists(bench):
        return None, f"prism_cache_bench not found at {bench} (build the project)"
    out = subprocess.run(
        [bench, "--benchmark_filter=BM_CacheHit", "--benchmark_format=json",
         f"--benchmark_repetitions={repeats}", "--benchmark_min_time=0.2"],
        capture_output=True, text=True)
    if out.returncode != 0:
        return None, "prism_cache_bench failed: " + out.stderr[-500:]
    data = json.loads(out.stdout)
    result = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        threads = b.get("threads", 1)
        entry = result.setdefault(threads, {"ns": [], "allocs": []})
        entry["ns"].append(b["real_time"])
        entry["allocs"].append(b.get("allocs_per_iter", float("nan")))
    return result, None


def run_numba(py, repeats):
    out = subprocess.run([py, "-c", NUMBA_SNIPPET.replace("REPEATS", str(repeats))],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, "numba run failed: " + out.stderr[-500:]
    return json.loads(out.stdout), None


def spread(xs):
    return (max(xs) - min(xs)) / 2 if len(xs) > 1 else 0.0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    build = os.environ.get("PRISM_BUILD_DIR", os.path.join(root, "build"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default=os.path.join(build, "tests", "bench", "prism_cache_bench"))
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    report = {"prism": None, "numba": None, "skipped": []}
    prism, why = run_prism(args.bench, args.repeats)
    if why:
        report["skipped"].append(why)
    py, why = find_numba_python()
    numba = None
    if why:
        report["skipped"].append(why)
    else:
        numba, why = run_numba(py, args.repeats)
        if why:
            report["skipped"].append(why)

    print("cache hit vs Numba cached dispatch (median of %d runs, ± half range)" % args.repeats)
    if prism:
        for threads, e in sorted(prism.items()):
            print(f"  prism cache hit, {threads} thread(s): {statistics.median(e['ns']):8.1f} ns "
                  f"± {spread(e['ns']):.1f}   allocs/hit {statistics.median(e['allocs']):g}")
        report["prism"] = {str(t): {"median_ns": statistics.median(e["ns"]),
                                    "spread_ns": spread(e["ns"]),
                                    "allocs_per_hit": statistics.median(e["allocs"])}
                           for t, e in prism.items()}
    if numba:
        n, p = statistics.median(numba["numba_ns"]), statistics.median(numba["python_ns"])
        print(f"  numba {numba['numba_version']} dispatch (python {numba['python']}):"
              f" {n:8.1f} ns ± {spread(numba['numba_ns']):.1f}")
        print(f"  plain python call, same loop:   {p:8.1f} ns ± {spread(numba['python_ns']):.1f}")
        report["numba"] = {"median_ns": n, "spread_ns": spread(numba["numba_ns"]),
                           "python_call_ns": p, "version": numba["numba_version"]}
    if prism and numba and 1 in prism:
        ratio = report["numba"]["median_ns"] / statistics.median(prism[1]["ns"])
        report["ratio"] = ratio
        print(f"  ratio numba / prism (1 thread): {ratio:.1f}x  (target >= 3x)")
    for s in report["skipped"]:
        print("  skipped:", s)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
