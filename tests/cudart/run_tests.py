#!/usr/bin/env python3
"""run_tests.py — builds tests/cudart/*.cu with `nvcc -cudart shared` and runs
each under `warpsim exec`: it must exit 0 and print its PASS line.  A
directory tests/cudart/NAME/ holding a main.cu is one program built from
all its .cu files
(e.g. `-rdc=true` with device code across files); tests/cudart/NAME.c is a
C program linked as a CUDA 12 build is (against a stub whose soname is
libcudart.so.12: there is no CUDA 12 nvcc here).  Some
programs are also checked on stderr (the unsupported call's one line, the
kernel fault's message) or stdout (device printf).  Exits 77 (meson:
skipped) when nvcc is not found.

Builds are cached in the build directory: a program is rebuilt only when
its source or a header next to it is newer than the executable.  At most
two programs build or run at a time (nvcc is slow and CI machines small).

usage: run_tests.py --warpsim BIN --build-dir DIR --source-root DIR
(environment CUDART_PROGRAM_DIR, when set, replaces --build-dir)
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import threading


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


def faulted_launch_report(report):
    """Problems with kernel_fault's JSON report (warpsim exec --json)."""
    launches = report.get("launches", [])
    if len(launches) != 1:
        return [f"report has {len(launches)} launches, expected 1"]
    launch, problems = launches[0], []
    if "invalid global write" not in launch.get("error", ""):
        problems.append("report: launch 0 has no 'error' naming the fault")
    if not launch.get("metrics", {}).get("smsp__inst_executed.sum"):
        problems.append("report: the faulted launch has no instruction count")
    return problems


def expectations(source_root):
    """Per program: (extra args, stderr checks[, stdout checks[, warpsim exec options[, report check]]]):
    a report check gets the program's `warpsim exec --json` report and returns its problems."""
    sms = config_value(source_root, "h200", "num_sms")
    with open(os.path.join(source_root, "configs", "h200.json")) as f:
        clock_mhz = json.load(f)["sm"]["clock_mhz"]["value"]
    cc = str(config_value(source_root, "h200", "compute_capability"))
    major, minor = cc.split(".") if "." in cc else (cc[:-1], cc[-1])
    return {
        "device_props": ([str(sms), major, minor], []),
        "cuda12_props": ([str(sms), major, minor, str(int(clock_mhz * 1000))], []),
        "unsupported": ([], [("cudaMalloc3DArray is not supported", 1), ("cudaIpcGetMemHandle is not supported", 1)]),
        # the faulted launch's report entry: the fault, and the counts of what ran before it
        # stopped by its instruction budget, said once, instead of hanging
        "runaway": ([], [("instruction budget of 20000 warp instructions exhausted", 1)], [],
                    ["--max-instructions", "20000"]),
        "kernel_fault": ([], [("error: invalid global write of size 4", 1)], [], [], faulted_launch_report),
        # one line per texture kernel (launched twice or not): kernel, PTX line, instruction
        "texture_kernels": ([], [("cannot run on warpsim", 3),
                                 ("kernel '_Z12fetchTextureyPfi' cannot run on warpsim: it uses 'tex.1d.", 1),
                                 ("kernel '_Z12touchSurfaceyi' cannot run on warpsim: it uses 'suld.b.2d.", 1),
                                 ("kernel '_Z9viaHelperyPf' cannot run on warpsim: it calls '_Z8fetchOneyi', "
                                  "which uses 'tex.1d.", 1),
                                 ("cudaCreateTextureObject is not supported", 1)]),
        "async_streams": ([], [], [("device: block 0 of 64 scaled 16384 values by 3, first now 78", 1)]),
        "device_launch": ([], [("kernel '_Z6parentPi' cannot run on warpsim: it calls '__cudaCDP2", 1),
                               ("the CUDA device runtime (dynamic parallelism, libcudadevrt) is not supported", 1)]),
        # each unit's printf format string is its own
        "rdc_two_units": ([], [], [("main unit: x[0] = 6", 1), ("support unit: 1000 calls", 1)]),
        # device printf's conversions; the failed assertion's one message (and only one)
        "printf_assert": ([], [("error: device-side assertion `data[i] > 0' failed", 1)],
                          [("Value is:10", 32), ("[3, 7]:\t\tValue is:10", 1),
                           ("f=1.500 d=1.23457e+04 ll=-9000000000 u=3054 x=00000bee c=W s=warpsim p=%", 1),
                           ("after the failed assertion: cudaErrorAssert", 1)]),
        # no driver API: the entry point is "not found", said once
        "runtime_limits": ([], [("the driver API function cuMemAlloc is not provided by warpsim", 1)]),
        # the summary names kernels demangled, template arguments and all
        "runtime_extras": ([], [("void fillPattern<int, 7>(int*, int, int)", 1),
                                ("void fillPattern<float, 3>(float*, int, float)", 1)], [], ["--summary"]),
        # the summary is the parent's alone: one table, not one more from the child
        "fork_child": ([], [("add(int*, int, int)", 1)], [], ["--summary"]),
        # every module issued in its PTX order (warpsim exec --issue-order ptx): outputs still right,
        # and the summary says the order was not the default list-scheduled one
        "matrix_mul": ([], [("simulated time, PTX order)", 1)], [], ["--issue-order", "ptx", "--summary"]),
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


def program_sources(src_dir):
    """Program name -> its source files: NAME.cu, NAME/*.cu (with a NAME/main.cu), or NAME.c."""
    programs = {}
    for f in os.listdir(src_dir):
        path = os.path.join(src_dir, f)
        if f.endswith(".cu") or f.endswith(".c"):
            programs[f.rsplit(".", 1)[0]] = [path]
        elif os.path.isfile(os.path.join(path, "main.cu")):  # suites/ has its own runner
            programs[f] = sorted(os.path.join(path, g) for g in os.listdir(path) if g.endswith(".cu"))
    return programs


def cuda12_stub(build_dir, warpsim):
    """A library with soname libcudart.so.12 exporting warpsim's runtime
    functions (as empty stubs, under version libcudart.so.12 like NVIDIA's),
    for C programs to link against as a CUDA 12 build links; at run time
    `warpsim exec` supplies the real one under that name."""
    lib = os.path.join(os.path.dirname(os.path.abspath(warpsim)), "libwarpsim-cudart.so")
    stub_dir = os.path.join(build_dir, "cuda12-stub")
    stub = os.path.join(stub_dir, "libcudart.so.12")
    if os.path.exists(stub) and os.path.getmtime(stub) >= os.path.getmtime(lib):
        return stub_dir, None
    os.makedirs(stub_dir, exist_ok=True)
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    names = [line.split()[-1] for line in nm.stdout.splitlines() if line.split()[1:2] == ["T"]]
    with open(os.path.join(stub_dir, "stub.c"), "w") as f:
        f.writelines(f"void {n}(void) {{}}\n" for n in names if n.startswith(("cuda", "__cuda")))
    with open(os.path.join(stub_dir, "stub.map"), "w") as f:
        f.write("libcudart.so.12 { global: *; };\n")
    build = subprocess.run(["cc", "-shared", "-fPIC", "-o", stub + ".tmp", "-Wl,-soname,libcudart.so.12",
                            "-Wl,--version-script=" + os.path.join(stub_dir, "stub.map"),
                            os.path.join(stub_dir, "stub.c")], capture_output=True, text=True)
    if build.returncode != 0:
        return None, build.stdout + build.stderr
    os.replace(stub + ".tmp", stub)
    return stub_dir, None


def build_and_run(prog, sources, nvcc, headers, build_dir, warpsim, special, stub_lock):
    """Returns (prog, problems, report text)."""
    exe = os.path.join(build_dir, prog)
    local_headers = [os.path.join(os.path.dirname(sources[0]), f) for f in os.listdir(os.path.dirname(sources[0]))
                     if f.endswith(".h")]
    if not all(up_to_date(exe, src, headers + local_headers) for src in sources):
        # a first line `// nvcc-flags: -arch=sm_90` adds flags (a target the program needs;
        # in a directory, each file's, in turn)
        key = "cc-flags:" if sources[0].endswith(".c") else "nvcc-flags:"
        flags = []
        for src in sources:
            with open(src) as f:
                first = f.readline().strip()
            flags += [x for x in first.split(key, 1)[1].split() if x not in flags] if first.startswith("//") and key in first else []
        if sources[0].endswith(".c"):
            with stub_lock:
                stub_dir, why = cuda12_stub(build_dir, warpsim)
            if not stub_dir:
                return prog, ["CUDA 12 link stub failed"], why
            command = ["cc", "-o", exe + ".tmp"] + sources + flags + ["-L" + stub_dir, "-l:libcudart.so.12"]
        else:
            command = [nvcc, "-cudart", "shared"] + flags + ["-o", exe + ".tmp"] + sources
        build = subprocess.run(command, capture_output=True, text=True)
        if build.returncode != 0:
            return prog, [f"{os.path.basename(command[0])} failed"], build.stdout + build.stderr
        os.replace(exe + ".tmp", exe)
    extra, stderr_checks, *rest = special.get(prog, ([], []))
    stdout_checks = rest[0] if rest else []
    options = rest[1] if len(rest) > 1 else []
    check_report = rest[2] if len(rest) > 2 else None
    report_path = exe + ".report.json"
    if check_report:
        options = options + ["--json", report_path]
    run = subprocess.run([warpsim, "exec"] + options + [exe] + extra, capture_output=True, text=True, timeout=600,
                         env=program_environment())
    problems = []
    if check_report:
        try:
            with open(report_path) as f:
                problems += check_report(json.load(f))
        except (OSError, ValueError) as e:
            problems.append(f"report {report_path}: {e}")
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
    # The programs do not depend on how warpsim was built (they load the
    # runtime at run time), so builds of one tree may share them: CI's plain
    # and sanitizer builds compile each program once (nvcc is slow).
    args.build_dir = os.environ.get("CUDART_PROGRAM_DIR") or args.build_dir
    os.makedirs(args.build_dir, exist_ok=True)
    sources = program_sources(src_dir)
    programs = sorted(sources)
    if args.only:
        programs = [p for p in programs if p in args.only]
    special = expectations(args.source_root)
    headers = [os.path.join(src_dir, f) for f in os.listdir(src_dir) if f.endswith(".h")]
    failed = []
    stub_lock = threading.Lock()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(build_and_run, prog, sources[prog], nvcc, headers, args.build_dir, args.warpsim, special,
                            stub_lock)
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
