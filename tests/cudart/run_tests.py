#!/usr/bin/env python3
"""run_tests.py — builds tests/cudart/*.cu with `nvcc -cudart shared` and runs
each under `warpsim exec`: it must exit 0 and print its PASS line.  Some
programs are also checked on stderr (the unsupported call's one line, the
kernel fault's message).  Exits 77 (meson: skipped) when nvcc is not found.

usage: run_tests.py --warpsim BIN --build-dir DIR --source-root DIR
"""
import argparse
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
    """Per program: (extra args, stderr checks)."""
    sms = config_value(source_root, "h200", "num_sms")
    cc = str(config_value(source_root, "h200", "compute_capability"))
    major, minor = cc.split(".") if "." in cc else (cc[:-1], cc[-1])
    return {
        "device_props": ([str(sms), major, minor], []),
        "unsupported": ([], [("cudaMalloc3D is not supported", 1), ("cudaGraphCreate is not supported", 1)]),
        "kernel_fault": ([], [("error: invalid global write of size 4", 1)]),
    }


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
    failed = []
    for prog in programs:
        exe = os.path.join(args.build_dir, prog)
        build = subprocess.run([nvcc, "-cudart", "shared", "-o", exe, os.path.join(src_dir, prog + ".cu")],
                               capture_output=True, text=True)
        if build.returncode != 0:
            print(f"FAIL {prog}: nvcc failed\n{build.stdout}{build.stderr}")
            failed.append(prog)
            continue
        extra, stderr_checks = special.get(prog, ([], []))
        run = subprocess.run([args.warpsim, "exec", exe] + extra, capture_output=True, text=True, timeout=600)
        problems = []
        if run.returncode != 0:
            problems.append(f"exit status {run.returncode}")
        if f"PASS {prog}" not in run.stdout.splitlines():
            problems.append(f"no 'PASS {prog}' line")
        for text, count in stderr_checks:
            seen = sum(text in line for line in run.stderr.splitlines())
            if seen != count:
                problems.append(f"stderr has {seen} lines with '{text}', expected {count}")
        if problems:
            print(f"FAIL {prog}: {'; '.join(problems)}\n--- stdout\n{run.stdout}--- stderr\n{run.stderr}")
            failed.append(prog)
        else:
            print(f"ok   {prog}")
    print(f"{len(programs) - len(failed)} of {len(programs)} CUDA programs passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
