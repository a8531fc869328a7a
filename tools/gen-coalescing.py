#!/usr/bin/env python3
"""gen-coalescing.py — write the offset/stride manifests of traces/coalescing/.

Seed 004's coalescing sweeps: `offset(a, s)` adds 1 to a[gid + s] and
`stride(a, s)` to a[gid * s], on N threads in blocks of 256.  This writes
offset_s<S>.json for S in --offsets and stride_s<S>.json for S in
--strides, float (the kernels offsetFloat/strideFloat of coalescing.ptx).
The buffer holds N + S elements (offset) or N * S (stride), so the stride
buffers reach 32 MiB; their expected contents are the sha256 computed by
tests/host_reference's C model (see manifest_sha.py), not committed files.
The offset input is random; the stride input is a constant (1.5), so that
the large buffers cost nothing to carry to a GPU for measurement.

Usage: tools/gen-coalescing.py [--n 262144] [--offsets 0,1,2,4,8,16,32]
           [--strides 1,2,4,8,16,32] [--out traces/coalescing]
           [--host-reference build-x/tests/host_reference]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest_sha  # noqa: E402

BLOCK = 256


def manifest(kind, s, n):
    count = n + s if kind == 'offset' else n * s
    init = ({'kind': 'random', 'seed': 19, 'min': -1.0, 'max': 1.0} if kind == 'offset'
            else {'kind': 'const', 'value': 1.5})
    return {
        'name': '%s_s%d' % (kind, s),
        'description': 'seed 004 %s(a, %d), float, %d threads in blocks of %d' %
                       (kind, s, n, BLOCK),
        'ptx': 'coalescing.ptx',
        'kernel': kind + 'Float',
        'grid': [n // BLOCK],
        'block': [BLOCK],
        'args': [{'buffer': 'a'}, {'s32': s}],
        'buffers': {'a': {'type': 'f32', 'count': count, 'init': init}},
        'expect': {'a': {}},
    }


def main():
    root = manifest_sha.ROOT
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--n', type=int, default=1 << 18, help='threads (a multiple of 256)')
    ap.add_argument('--offsets', default='0,1,2,4,8,16,32')
    ap.add_argument('--strides', default='1,2,4,8,16,32')
    ap.add_argument('--out', default=os.path.join(root, 'traces', 'coalescing'))
    ap.add_argument('--host-reference')
    args = ap.parse_args()
    if args.n % BLOCK:
        raise SystemExit('error: --n must be a multiple of %d' % BLOCK)
    manifests = {}
    for kind, values in (('offset', args.offsets), ('stride', args.strides)):
        for s in (int(v) for v in values.split(',')):
            if kind == 'stride' and s < 1:
                raise SystemExit('error: stride 0 makes every thread update a[0] (a race)')
            m = manifest(kind, s, args.n)
            manifests[m['name'] + '.json'] = m
    manifest_sha.fill_sha256(manifests, manifest_sha.find_host_reference(args.host_reference))
    manifest_sha.write_manifests(manifests, args.out)
    print('wrote %d manifests into %s' % (len(manifests), os.path.relpath(args.out)))


if __name__ == '__main__':
    main()
