#!/usr/bin/env python3
"""Check warpsim against a real GPU on the same manifests.

  gpucheck.py prepare OUT MANIFEST...   write OUT/<case>/spec + input files for gpu_run
  gpucheck.py compare GPUDIR SIMDIR     compare buffers dumped by gpu_run and by
                                        `warpsim run --dump`, per case, by element type

The init kinds are re-implemented here from docs/manifest.md, so this script
shares no code with warpsim.  Used on the lent GPU machine (see README.md in
this folder); nothing in CI depends on it.
"""
import json, math, os, shutil, struct, sys

FMT = {'u8': 'B', 's8': 'b', 'u16': 'H', 's16': 'h', 'u32': 'I', 's32': 'i',
       'u64': 'Q', 's64': 'q', 'f32': 'f', 'f64': 'd'}
M64 = (1 << 64) - 1

def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)

def init_bytes(buf, base):
    t, n, init = buf['type'], buf['count'], buf.get('init', {'kind': 'zeros'})
    k = init['kind']
    fmt = '<' + FMT[t]
    if k == 'file':
        return open(os.path.join(base, init['path']), 'rb').read()
    out = bytearray()
    state = init.get('seed', 0)
    for i in range(n):
        if k == 'zeros': v = 0
        elif k == 'const': v = init['value']
        elif k == 'iota': v = init['start'] + i * init['step']
        elif k == 'values': v = init['values'][i] if i < len(init['values']) else 0  # the rest is 0 (docs/manifest.md)
        elif k == 'random':
            state, r = splitmix64(state)
            lo, hi = init['min'], init['max']
            if t[0] == 'f':
                v = lo + (hi - lo) * ((r >> 11) * 2.0 ** -53)
            else:
                v = int(lo) + r % (int(hi) - int(lo) + 1)
        else:
            raise SystemExit('unknown init kind ' + k)
        if t[0] != 'f':
            v = int(v)
        out += struct.pack(fmt, v)
    return bytes(out)

def scalar(arg):
    (key, val), = arg.items()
    size = int(key[1:]) // 8
    if key == 'f32': bits = struct.unpack('<I', struct.pack('<f', val))[0]
    elif key == 'f64': bits = struct.unpack('<Q', struct.pack('<d', val))[0]
    else: bits = int(val) & ((1 << (size * 8)) - 1)
    return size, bits

def prepare(out, manifests):
    for path in manifests:
        base = os.path.dirname(os.path.abspath(path))
        man = json.load(open(path))
        case = os.path.relpath(path).replace('/', '_').replace('.json', '')
        d = os.path.join(out, case)
        os.makedirs(d, exist_ok=True)
        lines = []
        for name, buf in man.get('buffers', {}).items():
            data = init_bytes(buf, base)
            open(os.path.join(d, name + '.init'), 'wb').write(data)
            lines.append('buffer %s %d %s.init' % (name, len(data), name))
        for name, g in man.get('globals', {}).items():
            open(os.path.join(d, 'g_' + name + '.init'), 'wb').write(init_bytes(g, base))
            lines.append('global %s g_%s.init' % (name, name))
        for l in man.get('launches', [man]):
            ptx = l.get('ptx', man.get('ptx'))
            shutil.copy(os.path.join(base, ptx), os.path.join(d, os.path.basename(ptx)))
            # a launch's keys default to the manifest's own (docs/manifest.md)
            key = lambda k, d=None: l.get(k, man.get(k, d))
            g = (key('grid') + [1, 1])[:3]
            b = (key('block') + [1, 1])[:3]
            for _ in range(l.get('repeat', 1)):
                lines.append('launch %s %s %d %d %d %d %d %d %d' % (os.path.basename(ptx), key('kernel'),
                             *g, *b, key('dynamic_shared_bytes', 0)))
                for a in key('args'):
                    if 'buffer' in a:
                        lines.append('arg buffer %s %d' % (a['buffer'], a.get('offset_bytes', 0)))
                    else:
                        lines.append('arg %d %x' % scalar(a))
                lines.append('go')
        open(os.path.join(d, 'spec'), 'w').write('\n'.join(lines) + '\n')
        json.dump({'manifest': os.path.abspath(path), 'types': {n: b['type'] for n, b in man.get('buffers', {}).items()}},
                  open(os.path.join(d, 'case.json'), 'w'))

def compare(gpudir, simdir):
    bad = 0
    for case in sorted(os.listdir(gpudir)):
        info_path = os.path.join(gpudir, case, 'case.json')
        if not os.path.exists(info_path):
            continue
        info = json.load(open(info_path))
        for name, t in info['types'].items():
            gp, sp = os.path.join(gpudir, case, 'out', name + '.bin'), os.path.join(simdir, case, name + '.bin')
            if not os.path.exists(gp) or not os.path.exists(sp):
                print('%-40s %-10s missing (%s)' % (case, name, 'gpu' if not os.path.exists(gp) else 'sim'))
                bad += 1
                continue
            fmt = '<' + FMT[t]
            g = [v[0] for v in struct.iter_unpack(fmt, open(gp, 'rb').read())]
            s = [v[0] for v in struct.iter_unpack(fmt, open(sp, 'rb').read())]
            worst, first = 0.0, None
            for i, (a, b) in enumerate(zip(g, s)):
                if t[0] == 'f':
                    if math.isnan(a) and math.isnan(b): continue
                    err = abs(a - b) / max(abs(a), 1e-30) if a != b else 0.0
                    if err > worst: worst = err
                    if err > 1e-5 and first is None: first = (i, a, b)
                elif a != b and first is None:
                    first = (i, a, b)
            status = 'ok' if first is None else 'DIFF at %d: gpu %r sim %r' % first
            if first is not None: bad += 1
            print('%-40s %-10s %s (max rel err %.2e)' % (case, name, status, worst))
    return bad

if __name__ == '__main__':
    if sys.argv[1] == 'prepare':
        prepare(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == 'compare':
        sys.exit(1 if compare(sys.argv[2], sys.argv[3]) else 0)
