#!/usr/bin/env python3
"""run_tests.py — builds tests/cudart/*.cu with `nvcc -cudart shared` and runs
each under `warpsim exec`: it must exit 0 and print its PASS line.  Some
programs are also checked on stderr (the unsupported call's one line, the
kernel fault's message) or stdout (device printf).  Exits 77 (meson:
skipped) when nvcc is not found.

Builds are cached in the build directory: a program is rebuilt only when
its source or a header next to it is newer than the executable.  At most
two programs build or run at a time (nvcc is slow and CI machines small).

usage: run_tests.py --warpsim BIN --build-dir DIR --source-root DIR
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys


def find_nvcc():
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def config_value(source_root, name, key):
    """A bundled config's value (plain or {"value": V})."""
    with open(os.path.join(source_root, "configs", name + ".json")) as f:
        v = json.load(f)[key]
    return v["value"] if isinstance(v, dict) else v


def expectations(source_root):
    """Per program: (extra args, stderr checks[, stdout checks[, warpsim exec options]])."""
    sms = config_value(source_root, "h200", "num_sms")
    cc = str(config_value(source_root, "h200", "compute_capability"))
    major, minor = cc.split(".") if "." in cc else (cc[:-1], cc[-1])
    return {
        "device_props": ([str(sms), major, minor], []),
        "unsupported": ([], [("cudaMalloc3D is not supported", 1), ("cudaGraphCreate is not supported", 1)]),
        "kernel_fault": ([], [("error: invalid global write of size 4", 1)]),
        "async_streams": ([], [], [("device: block 0 of 64 scaled 16384 values by 3, first now 78", 1)]),
        # the summary names kernels demangled, template arguments and all
        "runtime_extras": ([], [("void fillPattern<int, 7>(int*, int, int)", 1),
                                ("void fillPattern<float, 3>(float*, int, float)", 1)], [], ["--summary"]),
    }


def up_to_date(exe, src, headers):
    """The executable is newer than its source and every shared header."""
    if not os.path.exists(exe):
        return False
    built = os.path.getmtime(exe)
    return all(os.path.getmtime(f) <= built for f in [src] + headers)


def program_environment():
    """The environment of `warpsim exec`.  In a sanitizer build the runtime
    library is instrumented but the program is not, so the sanitizer's
    runtime must be loaded first (CUDART_TEST_PRELOAD, set by meson); only
    the programs get it, not nvcc."""
    env = dict(os.environ)
    preload = env.pop("CUDART_TEST_PRELOAD", "")
    if preload:
        env["LD_PRELOAD"] = preload
        env["ASAN_OPTIONS"] = env.pop("CUDART_TEST_ASAN_OPTIONS", env.get("ASAN_OPTIONS", ""))
    return env


def build_and_run(prog, nvcc, src_dir, headers, build_dir, warpsim, special):
    """Returns (prog, problems, report text)."""
    src = os.path.join(src_dir, prog + ".cu")
    exe = os.path.join(build_dir, prog)
    if not up_to_date(exe, src, headers):
        build = subprocess.run([nvcc, "-cudart", "shared", "-o", exe + ".tmp", src], capture_output=True, text=True)
        if build.returncode != 0:
            return prog, ["nvcc failed"], build.stdout + build.stderr
        os.replace(exe + ".tmp", exe)
    extra, stderr_checks, *rest = special.get(prog, ([], []))
    stdout_checks = rest[0] if rest else []
    options = rest[1] if len(rest) > 1 else []
    run = subprocess.run([warpsim, "exec"] + options + [exe] + extra, capture_output=True, text=True, timeout=600,
                         env=program_environment())
    problems = []
    if run.returncode != 0:
        problems.append(f"exit status {run.returncode}")
    if f"PASS {prog}" not in run.stdout.splitlines():
        problems.append(f"no 'PASS {prog}' line")
    for stream, checks in (("stderr", stderr_checks), ("stdout", stdout_checks)):
        text_lines = getattr(run, stream).splitlines()
        for text, count in checks:
            seen = sum(text in line for line in text_lines)
            if seen != count:
                problems.append(f"{stream} has {seen} lines with '{text}', expected {count}")
    return prog, problems, f"--- stdout\n{run.stdout}--- stderr\n{run.stderr}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpsim", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--source-root", required=True)
    ap.add_argument("only", nargs="*", help="run only these programs")
    args = ap.parse_args()
    nvcc = find_nvcc()
    if not nvcc:
        print("nvcc not found: skipping the CUDA runtime tests")
        return 77
    src_dir = os.path.join(args.source_root, "tests", "cudart")
    os.makedirs(args.build_dir, exist_ok=True)
    programs = sorted(f[:-3] for f in os.listdir(src_dir) if f.endswith(".cu"))
    if args.only:
        programs = [p for p in programs if p in args.only]
    special = expectations(args.source_root)
    headers = [os.path.join(src_dir, f) for f in os.listdir(src_dir) if f.endswith(".h")]
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(build_and_run, prog, nvcc, src_dir, headers, args.build_dir, args.warpsim, special)
                for prog in programs]
        for job in jobs:  # report in name order
            prog, problems, text = job.result()
            if problems:
                print(f"FAIL {prog}: {'; '.join(problems)}\n{text}", flush=True)
                failed.append(prog)
            else:
                print(f"ok   {prog}", flush=True)
    print(f"{len(programs) - len(failed)} of {len(programs)} CUDA programs passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
