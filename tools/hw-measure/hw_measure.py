#!/usr/bin/env python3
"""hw_measure.py — measure warpsim's workloads on a real GPU with Nsight Compute.

Three steps, the middle one on the GPU machine:

  hw_measure.py prepare [--out .hwmeasure] [--clock-control none|base]
                        [--deadline-s 420] [--priority W1,W2] [MANIFEST...]
      Here.  Builds every manifest (default: traces/*/*.json and
      traces/*/sweep/*.json that are manifests) into a case folder with
      tools/gpu-check/gpucheck.py's `prepare` (inputs rebuilt from the init
      definitions), stores each distinct input once (blobs/), packs it all
      into OUT/payload.tgz, records the registers ptxas gives every kernel
      (`ptxas -arch=sm_90 -v`, the SASS register count), and writes
      OUT/run.sh.  OUT is the folder to carry to the GPU machine; the repo
      ignores .hwmeasure/ (.gitignore), so name it in the device tool's
      carry.

  bash OUT/run.sh           (on the GPU machine, from the repo root)
      Builds tools/gpu-check/gpu_run.cu and device_query.cu with nvcc,
      records the device (device_query JSON, nvidia-smi -q, ncu --version,
      the SM/memory clocks sampled every 200 ms while it runs), checks the
      metric names against `ncu --query-metrics` and a probe run and drops
      the invalid ones, then runs every case as
          ncu --csv --page raw --print-units base --clock-control C
              --metrics LIST gpu_run spec out
      and packs results/ and facts/ into $OUT/hw-results.tgz (./hw-out/
      without $OUT).  Cases still waiting when the deadline passes are
      skipped and listed in results/skipped.txt, so the archive is always
      written.

  hw_measure.py collect [--prepared .hwmeasure] RESULTS
      Here.  RESULTS is hw-results.tgz or its unpacked folder.  Writes one
      file per measured manifest, <manifest folder>/hw/<stem>.h200.json:
        {"device": NAME, "ncu_version": ..., "clock_control": ...,
         "cache_control": "all", "manifest": PATH,
         "device_facts": {device_query's JSON},
         "ncu_device_attributes": {device__attribute_*: value},
         "ptxas_registers": {kernel: n}, "units": {metric: unit},
         "kernels": [{"kernel": NAME, "launch": I,
                      "metrics": {metric: value, ...}}]}
      one "kernels" entry per launch, in launch order.  `metrics` holds
      everything ncu's raw page printed for the launch: each requested
      metric with its .sum/.avg/.min/.max roll-ups and the launch__*
      attributes (launch__registers_per_thread is the SASS register count
      of the driver-compiled kernel; ptxas_registers is what the local
      `ptxas -arch=sm_90` gives for the same PTX).  Values are numbers in
      ncu's base units (ns, byte, cycle, hz, %), listed in `units`.

Clock control: ncu's default (`base`) locks the GPU clocks at base for the
measurement; the lent machine's rules say to leave the card's clocks
alone, so `prepare` defaults to `--clock-control none` and every kernel
also records sm__cycles_elapsed.avg.per_second (the SM clock it ran at).
Cycle counts are the comparable quantity either way.

Python 3 standard library only.
"""
import argparse
import csv
import glob
import hashlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GPUCHECK = os.path.join(ROOT, 'tools', 'gpu-check')

# What every case is measured with.  Names a given ncu does not know are
# dropped on the GPU machine (filter-metrics, probe-metrics), never fatal.
METRICS = [
    # time and cycles
    'gpu__time_duration.sum',
    'sm__cycles_elapsed.max', 'sm__cycles_elapsed.avg', 'sm__cycles_elapsed.avg.per_second',
    'sm__cycles_active.avg', 'gpc__cycles_elapsed.max', 'dram__cycles_elapsed.avg.per_second',
    # instructions
    'smsp__inst_executed.sum', 'smsp__thread_inst_executed.sum', 'sm__inst_executed.sum',
    'smsp__sass_thread_inst_executed.sum',
    'smsp__sass_inst_executed_op_global_ld.sum', 'smsp__sass_inst_executed_op_global_st.sum',
    'smsp__sass_inst_executed_op_shared_ld.sum', 'smsp__sass_inst_executed_op_shared_st.sum',
    'smsp__inst_executed_op_shared_ld.sum', 'smsp__inst_executed_op_shared_st.sum',
    'smsp__sass_inst_executed_op_shared_atom.sum', 'smsp__inst_executed_op_shared_atom.sum',
    'sm__inst_executed.avg.per_cycle_active', 'smsp__issue_active.avg.per_cycle_active',
    # which pipe they went to (traces/README-hw.md, "Pipes")
    *['sm__inst_executed_pipe_%s.sum' % p for p in (
        'alu', 'fma', 'fmaheavy', 'fmalite', 'fp64', 'lsu', 'adu', 'cbu', 'uniform', 'xu')],
    'sm__pipe_alu_cycles_active.sum', 'sm__pipe_fma_cycles_active.sum',
    # occupancy
    'sm__warps_active.avg.pct_of_peak_sustained_active',
    'sm__warps_active.avg.per_cycle_active',
    'sm__maximum_warps_per_active_cycle_pct',
    'sm__ctas_launched.sum',
    'launch__registers_per_thread', 'launch__occupancy_limit_registers',
    'launch__occupancy_limit_shared_mem', 'launch__occupancy_limit_warps',
    'launch__occupancy_limit_blocks', 'launch__waves_per_multiprocessor',
    'launch__grid_size', 'launch__block_size',
    'launch__shared_mem_per_block_static', 'launch__shared_mem_per_block_dynamic',
    # global memory through L1
    'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum',
    'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum',
    'l1tex__t_sector_hit_rate.pct',
    # shared memory
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum',
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum',
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum',
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum',
    'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum',
    # why warps did not issue, as warpsim's stall states (docs/metrics.md)
    *['smsp__warp_issue_stalled_%s_per_warp_active.pct' % r for r in (
        'barrier', 'branch_resolving', 'lg_throttle', 'long_scoreboard', 'math_pipe_throttle',
        'mio_throttle', 'not_selected', 'selected', 'short_scoreboard', 'wait', 'no_instruction',
        'dispatch_stall', 'drain', 'imc_miss', 'membar', 'misc', 'sleeping', 'tex_throttle')],
    # L2 and DRAM
    'lts__t_sector_hit_rate.pct',
    'lts__t_sectors_srcunit_tex_op_read.sum', 'lts__t_sectors_srcunit_tex_op_write.sum',
    'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum',
    'dram__bytes_read.sum', 'dram__bytes_write.sum',
    # the device, as ncu sees it
    'device__attribute_multiprocessor_count', 'device__attribute_l2_cache_size',
    'device__attribute_max_shared_memory_per_multiprocessor',
    'device__attribute_clock_rate', 'device__attribute_display_name',
]
# Kept if the probe cannot tell which names ncu rejected.
FALLBACK_METRICS = ['gpu__time_duration.sum', 'sm__cycles_elapsed.max',
                    'smsp__inst_executed.sum', 'launch__registers_per_thread']


def load_gpucheck():
    spec = importlib.util.spec_from_file_location('gpucheck',
                                                  os.path.join(GPUCHECK, 'gpucheck.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def is_manifest(path):
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(m, dict) and (isinstance(m.get('kernel'), str) or
                                    isinstance(m.get('launches'), list))


def default_manifests():
    found = glob.glob(os.path.join(ROOT, 'traces', '*', '*.json')) + \
        glob.glob(os.path.join(ROOT, 'traces', '*', 'sweep', '*.json'))
    return sorted(p for p in found if is_manifest(p))


def launch_kernels(man):
    """Kernel names in launch order, repetitions expanded (as gpu_run runs)."""
    out = []
    for l in man.get('launches', [man]):
        out += [l.get('kernel', man.get('kernel'))] * l.get('repeat', man.get('repeat', 1))
    return out


# ------------------------------------------------------------------ prepare

def ptxas_registers(ptx_path):
    """{kernel: registers} from `ptxas -arch=sm_90 -v`, or {} without ptxas."""
    ptxas = shutil.which('ptxas') or '/usr/local/cuda/bin/ptxas'
    if not os.path.exists(ptxas):
        return {}
    r = subprocess.run([ptxas, '-arch=sm_90', '-v', ptx_path, '-o', os.devnull],
                       capture_output=True, text=True)
    regs, entry = {}, None
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            entry = m.group(1)
        m = re.search(r'Used (\d+) registers', line)
        if m and entry:
            regs[entry] = int(m.group(1))
    return regs


def dedupe_inputs(cases_dir, blobs_dir):
    """Move every *.init into blobs/<sha>.init once; point the specs there."""
    os.makedirs(blobs_dir, exist_ok=True)
    for case in sorted(os.listdir(cases_dir)):
        d = os.path.join(cases_dir, case)
        renamed = {}
        for name in sorted(os.listdir(d)):
            if not name.endswith('.init'):
                continue
            path = os.path.join(d, name)
            with open(path, 'rb') as f:
                digest = hashlib.sha256(f.read()).hexdigest()[:24]
            blob = os.path.join(blobs_dir, digest + '.init')
            if os.path.exists(blob):
                os.remove(path)
            else:
                shutil.move(path, blob)
            renamed[name] = '../../blobs/%s.init' % digest
        spec_path = os.path.join(d, 'spec')
        lines = open(spec_path).read().splitlines()
        for i, line in enumerate(lines):
            w = line.split()
            if w and w[0] in ('buffer', 'global') and w[-1] in renamed:
                w[-1] = renamed[w[-1]]
                lines[i] = ' '.join(w)
        with open(spec_path, 'w') as f:
            f.write('\n'.join(lines) + '\n')


RUN_SH_HEAD = r'''#!/bin/bash
# run.sh — written by tools/hw-measure/hw_measure.py prepare; do not edit.
# On the GPU machine, from the repo root:  bash %(rel)s/run.sh
# Results: $OUT/hw-results.tgz (or ./hw-out/ without $OUT); bring them back
# and run `hw_measure.py collect`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dest=${OUT:-$PWD/hw-out}
mkdir -p "$dest"
deadline=$((SECONDS + ${HW_DEADLINE_S:-%(deadline)d}))
clock_control=%(clock_control)s
work=$(mktemp -d /tmp/hwmeasure.XXXXXX)
cd "$work" || exit 1
mkdir -p results facts
tar xzf "$here/payload.tgz"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,temperature.gpu,utilization.gpu --format=csv -lms 200 > facts/clock-log.csv 2>&1 &
clock_logger=$!
nvidia-smi -q > facts/nvidia-smi-q.txt 2>&1
nvidia-smi -q -d CLOCK > facts/clocks-before.txt 2>&1
nvcc --version > facts/nvcc-version.txt 2>&1
nvcc -O2 -o gpu_run "$here/gpu_run.cu" -lcuda > facts/build.txt 2>&1 || echo "gpu_run build failed" >> facts/build.txt
nvcc -O2 -o device_query "$here/device_query.cu" >> facts/build.txt 2>&1
./device_query > facts/device_query.json 2> facts/device_query.err
ncu --version > facts/ncu-version.txt 2>&1
ncu --query-metrics > facts/query-metrics.txt 2>&1
python3 "$here/hw_measure.py" filter-metrics "$here/metrics.txt" facts/query-metrics.txt > facts/metrics-filtered.txt 2> facts/metrics-dropped.txt
python3 "$here/hw_measure.py" probe-metrics --case "cases/%(probe)s" --clock-control "$clock_control" facts/metrics-filtered.txt > facts/metrics-used.txt 2>> facts/metrics-dropped.txt
metrics=$(cat facts/metrics-used.txt)
echo "clock_control $clock_control" > facts/settings.txt
echo "cache_control all (ncu default)" >> facts/settings.txt
run_case() {
    if (( SECONDS >= deadline )); then echo "$1" >> results/skipped.txt; return; fi
    mkdir -p "cases/$1/out"
    (cd "cases/$1" && timeout 120 ncu --csv --page raw --print-units base \
        --clock-control "$clock_control" --metrics "$metrics" ../../gpu_run spec out) \
        > "results/$1.csv" 2> "results/$1.err"
    echo "$1 $?" >> results/status.txt
}
'''

RUN_SH_TAIL = r'''
nvidia-smi -q -d CLOCK > facts/clocks-after.txt 2>&1
kill "$clock_logger" 2>/dev/null
wait "$clock_logger" 2>/dev/null
tar czf "$dest/hw-results.tgz" results facts
echo "cases: $(wc -l < results/status.txt) run, $(awk '$2 != 0' results/status.txt | wc -l) failed, $(cat results/skipped.txt 2>/dev/null | wc -l) skipped"
awk '$2 != 0' results/status.txt | head -20
cat facts/device_query.json
grep -E "Graphics|SM  |Memory  " facts/clocks-before.txt | head -12
'''


def cmd_prepare(args):
    os.chdir(ROOT)  # gpucheck names cases after the manifest's relative path
    manifests = [os.path.relpath(os.path.abspath(m)) for m in args.manifests] or \
        [os.path.relpath(m) for m in default_manifests()]
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    stage = tempfile.mkdtemp(prefix='hwmeasure-')
    try:
        cases_dir = os.path.join(stage, 'cases')
        load_gpucheck().prepare(cases_dir, manifests)
        index, regs_cache = {}, {}
        for path in manifests:
            case = path.replace('/', '_').replace('.json', '')
            man = json.load(open(path))
            regs = {}
            for l in man.get('launches', [man]):
                ptx = os.path.join(os.path.dirname(path), l.get('ptx', man.get('ptx')))
                key = hashlib.sha256(open(ptx, 'rb').read()).hexdigest()
                if key not in regs_cache:
                    regs_cache[key] = ptxas_registers(ptx)
                kernel = l.get('kernel', man.get('kernel'))
                if kernel in regs_cache[key]:
                    regs[kernel] = regs_cache[key][kernel]
            index[case] = {'manifest': path, 'kernels': launch_kernels(man),
                           'ptxas_registers': regs}
        dedupe_inputs(cases_dir, os.path.join(stage, 'blobs'))
        with tarfile.open(os.path.join(out, 'payload.tgz'), 'w:gz') as tar:
            tar.add(cases_dir, 'cases')
            tar.add(os.path.join(stage, 'blobs'), 'blobs')
    finally:
        shutil.rmtree(stage)
    with open(os.path.join(out, 'index.json'), 'w') as f:
        json.dump({'clock_control': args.clock_control, 'cases': index}, f, indent=1)
    with open(os.path.join(out, 'metrics.txt'), 'w') as f:
        f.write('\n'.join(METRICS) + '\n')
    shutil.copy(os.path.join(GPUCHECK, 'gpu_run.cu'), out)
    shutil.copy(os.path.join(HERE, 'device_query.cu'), out)
    shutil.copy(os.path.abspath(__file__), os.path.join(out, 'hw_measure.py'))
    # Cases of the --priority workloads run first, in case the deadline
    # cuts the list short.
    first = [w for w in args.priority.split(',') if w]
    rank = lambda c: next((i for i, w in enumerate(first)
                           if index[c]['manifest'].startswith('traces/%s/' % w)), len(first))
    cases = sorted(index, key=lambda c: (rank(c), c))
    with open(os.path.join(out, 'run.sh'), 'w') as f:
        f.write(RUN_SH_HEAD % {'rel': os.path.relpath(out, ROOT), 'deadline': args.deadline_s,
                               'clock_control': args.clock_control, 'probe': cases[0]})
        for case in cases:
            f.write('run_case %s\n' % shlex.quote(case))
        f.write(RUN_SH_TAIL)
    size = sum(os.path.getsize(os.path.join(out, n)) for n in os.listdir(out))
    print('prepared %d cases in %s (%.1f MiB to carry)' % (len(cases), os.path.relpath(out),
                                                           size / 2**20))


# ------------------------------------------------- on the GPU machine

def cmd_filter_metrics(args):
    """Print the metrics whose base name `ncu --query-metrics` lists.

    launch__* and device__* names are not always in that listing; they are
    kept and left to the probe.  If the listing looks unusable (ncu failed),
    everything is kept."""
    wanted = [m.strip() for m in open(args.metrics) if m.strip()]
    try:
        listing = open(args.query).read()
    except OSError:
        listing = ''
    known = set(re.findall(r'^\s*([a-z0-9]+__[A-Za-z0-9_]+)', listing, re.M))
    for m in wanted:
        base = m.split('.')[0]
        if len(known) < 100 or base in known or m.startswith(('launch__', 'device__')):
            print(m)
        else:
            print('not in --query-metrics: ' + m, file=sys.stderr)


def cmd_probe_metrics(args):
    """Run ncu on one case; drop the names it rejects until it succeeds."""
    metrics = [m.strip() for m in open(args.metrics) if m.strip()]
    case = os.path.abspath(args.case)
    gpu_run = os.path.abspath(os.path.join(case, '..', '..', 'gpu_run'))
    os.makedirs(os.path.join(case, 'out'), exist_ok=True)
    for _ in range(8):
        r = subprocess.run(['ncu', '--csv', '--page', 'raw', '--clock-control',
                            args.clock_control, '--metrics', ','.join(metrics), gpu_run,
                            'spec', 'out'], cwd=case, capture_output=True, text=True,
                           timeout=180)
        text = r.stdout + r.stderr
        if r.returncode == 0 and '==ERROR==' not in text:
            break
        errors = '\n'.join(l for l in text.splitlines() if 'ERROR' in l or 'rror' in l)
        bad = [m for m in metrics if re.search(r'\b%s\b' % re.escape(m), errors) or
               re.search(r'\b%s\b' % re.escape(m.split('.')[0]), errors)]
        print('probe failed (rc %d): %s' % (r.returncode, errors[:2000]), file=sys.stderr)
        if not bad:
            metrics = FALLBACK_METRICS
            print('cannot tell which metric failed; using the fallback list', file=sys.stderr)
            break
        for m in bad:
            print('rejected by ncu: ' + m, file=sys.stderr)
        metrics = [m for m in metrics if m not in bad]
    print(','.join(metrics))


# ------------------------------------------------------------------ collect

def parse_value(text):
    t = text.strip().replace(',', '')
    try:
        v = float(t)
    except ValueError:
        return text.strip()
    return int(v) if v.is_integer() and 'e' not in t.lower() and '.' not in t else v


def parse_ncu_csv(text):
    """(rows, units) from `ncu --csv --page raw`: one dict per kernel launch."""
    lines = [l for l in text.splitlines() if l.startswith('"')]
    if not lines:
        return [], {}
    table = list(csv.reader(io.StringIO('\n'.join(lines))))
    header, body = table[0], table[1:]
    units = {}
    if body and body[0] and body[0][0] == '':
        units = {h: u for h, u in zip(header, body[0]) if u}
        body = body[1:]
    return [dict(zip(header, row)) for row in body if len(row) == len(header)], units


ID_COLUMNS = {'ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Context',
              'Stream', 'Block Size', 'Grid Size', 'Device', 'CC', 'Section Name',
              'Metric Name', 'Kernel Time', 'Estimated Speedup'}


# ncu's raw page repeats these for every kernel; the device's attributes are
# kept once per file, the link and NUMA topology not at all.
DEVICE_PREFIXES = ('device__attribute_', 'nvlink__', 'numa__', 'c2clink__')


class Results:
    """The unpacked hw-results archive (a folder or a .tgz)."""

    def __init__(self, path):
        self.tmp = None
        if os.path.isfile(path):
            self.tmp = tempfile.mkdtemp(prefix='hwresults-')
            with tarfile.open(path) as tar:
                tar.extractall(self.tmp)
            path = self.tmp
        self.root = path

    def read(self, *parts):
        try:
            with open(os.path.join(self.root, *parts)) as f:
                return f.read()
        except OSError:
            return None

    def close(self):
        if self.tmp:
            shutil.rmtree(self.tmp)


def cmd_collect(args):
    index = json.load(open(os.path.join(args.prepared, 'index.json')))
    res = Results(args.results)
    try:
        facts_text = res.read('facts', 'device_query.json')
        facts = json.loads(facts_text) if facts_text else {}
        ncu_version = (res.read('facts', 'ncu-version.txt') or '').strip().splitlines()
        ncu_version = ncu_version[-1] if ncu_version else None
        settings = res.read('facts', 'settings.txt') or ''
        m = re.search(r'^clock_control (\S+)', settings, re.M)
        clock_control = m.group(1) if m else index.get('clock_control')
        written, missing = 0, []
        for case, info in sorted(index['cases'].items()):
            text = res.read('results', case + '.csv')
            rows, units = parse_ncu_csv(text or '')
            if not rows:
                missing.append(case)
                continue
            kernels = []
            for i, row in enumerate(rows):
                metrics = {k: parse_value(v) for k, v in row.items()
                           if k not in ID_COLUMNS and v != '' and
                           not k.startswith(DEVICE_PREFIXES)}
                name = row.get('Kernel Name') or (info['kernels'][i] if i < len(info['kernels'])
                                                  else '?')
                kernels.append({'kernel': name, 'launch': i, 'metrics': metrics})
            if len(rows) != len(info['kernels']):
                missing.append('%s (%d of %d launches)' % (case, len(rows), len(info['kernels'])))
            device = facts.get('name') or rows[0].get('device__attribute_display_name') or \
                rows[0].get('Device')
            doc = {
                'device': device,
                'ncu_version': ncu_version,
                'clock_control': clock_control,
                'cache_control': 'all',
                'manifest': info['manifest'],
                'device_facts': facts,
                'ncu_device_attributes': {k: parse_value(v) for k, v in rows[0].items()
                                          if k.startswith('device__attribute_')},
                'ptxas_registers': info['ptxas_registers'],
                'units': {k: v for k, v in units.items()
                          if k not in ID_COLUMNS and not k.startswith(DEVICE_PREFIXES)},
                'kernels': kernels,
            }
            mdir, mfile = os.path.split(info['manifest'])
            hw_dir = os.path.join(ROOT, mdir, 'hw')
            os.makedirs(hw_dir, exist_ok=True)
            out = os.path.join(hw_dir, os.path.splitext(mfile)[0] + '.h200.json')
            with open(out, 'w') as f:
                json.dump(doc, f, indent=1, sort_keys=False)
                f.write('\n')
            written += 1
        print('wrote %d measurement files' % written)
        for m in missing:
            print('no (complete) measurement: ' + m)
    finally:
        res.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('prepare', help='build the cases and run.sh to carry to the GPU')
    p.add_argument('--out', default=os.path.join(ROOT, '.hwmeasure'))
    p.add_argument('--clock-control', default='none', choices=['none', 'base'])
    p.add_argument('--deadline-s', type=int, default=420,
                   help='seconds after which run.sh starts no new case')
    p.add_argument('--priority', default='',
                   help='comma-separated workloads (traces/ folders) to measure first')
    p.add_argument('manifests', nargs='*')
    p = sub.add_parser('filter-metrics', help='(GPU machine) keep names ncu lists')
    p.add_argument('metrics')
    p.add_argument('query')
    p = sub.add_parser('probe-metrics', help='(GPU machine) drop names ncu rejects')
    p.add_argument('--case', required=True)
    p.add_argument('--clock-control', default='none')
    p.add_argument('metrics')
    p = sub.add_parser('collect', help='write traces/*/hw/*.h200.json from the results')
    p.add_argument('--prepared', default=os.path.join(ROOT, '.hwmeasure'))
    p.add_argument('results')
    args = ap.parse_args()
    {'prepare': cmd_prepare, 'filter-metrics': cmd_filter_metrics,
     'probe-metrics': cmd_probe_metrics, 'collect': cmd_collect}[args.cmd](args)


if __name__ == '__main__':
    main()
