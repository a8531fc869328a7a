#!/usr/bin/env python3
"""gen-stencil-sweep.py — write the X-sweep manifests of traces/stencil/sweep/.

Seed 001's second experiment sweeps the grid's X size with Y = Z = 256 and
finds a performance cliff where one XY plane stops fitting the K80's
1.5 MiB L2 (Dx ~ 510 for radius 1).  This writes one manifest per variant
(base: plain loads, csl: __ldg) and X size, named <variant>_r<R>_x<Dx>.json,
running traces/stencil/stencil.ptx over Dx x Dy x Dz interior points.
Z is reduced (default 4 interior planes, not 256) so that each point simulates quickly:
the cliff depends on the XY plane, which is kept whole.

The expected outputs are too large to commit, so each manifest expects the
sha256 of `b` as computed by tests/host_reference's C model (see
manifest_sha.py); host_reference re-checks the hashes whenever it runs.

Usage: tools/gen-stencil-sweep.py [--radius R] [--xs 256,384,...]
           [--dy 256] [--dz 4] [--out traces/stencil/sweep]
           [--host-reference build-x/tests/host_reference]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest_sha  # noqa: E402

DEFAULT_XS = '256,384,448,512,576,640,768'
VARIANTS = {'base': 'stencilBase', 'csl': 'stencilCsl'}


def coefficients(radius):
    """c0 = 0.4; the six terms at distance k weigh (0.1/k)(0.8 + 0.08 t), so
    every term has its own coefficient and a misplaced term shows."""
    coeff = [0.4]
    for k in range(1, radius + 1):
        coeff += [round(0.1 / k * (0.8 + 0.08 * t), 6) for t in range(6)]
    return coeff


def manifest(variant, radius, dx, dy, dz, ptx):
    total = (dx + 2 * radius) * (dy + 2 * radius) * (dz + 2 * radius)
    coeff = coefficients(radius)
    return {
        'name': '%s_r%d_x%d' % (variant, radius, dx),
        'description': 'seed 001 %s stencil, radius %d (%d points), interior %d x %d x %d '
                       '(Z reduced from 256), blocks 32 x 16 x 1' %
                       (variant.upper(), radius, 6 * radius + 1, dx, dy, dz),
        'ptx': ptx,
        'kernel': '%s_r%d' % (VARIANTS[variant], radius),
        'grid': [(dx + 31) // 32, (dy + 15) // 16, dz],
        'block': [32, 16, 1],
        'args': [{'buffer': 'a'}, {'buffer': 'b'}, {'s32': dx}, {'s32': dy}, {'s32': dz}],
        'buffers': {
            'a': {'type': 'f32', 'count': total,
                  'init': {'kind': 'random', 'seed': 7, 'min': -1.0, 'max': 1.0}},
            'b': {'type': 'f32', 'count': total, 'init': {'kind': 'zeros'}},
        },
        'globals': {'coeff': {'type': 'f32', 'count': len(coeff),
                              'init': {'kind': 'values', 'values': coeff}}},
        'expect': {'b': {}},
    }


def main():
    root = manifest_sha.ROOT
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--radius', type=int, default=1, choices=range(1, 6))
    ap.add_argument('--xs', default=DEFAULT_XS, help='comma-separated interior X sizes')
    ap.add_argument('--dy', type=int, default=256)
    ap.add_argument('--dz', type=int, default=4)
    ap.add_argument('--out', default=os.path.join(root, 'traces', 'stencil', 'sweep'))
    ap.add_argument('--host-reference', help='tests/host_reference binary (default: newest '
                    'build*/tests/host_reference)')
    args = ap.parse_args()
    ptx = os.path.relpath(os.path.join(root, 'traces', 'stencil', 'stencil.ptx'), args.out)
    manifests = {}
    for dx in (int(x) for x in args.xs.split(',')):
        for variant in VARIANTS:
            m = manifest(variant, args.radius, dx, args.dy, args.dz, ptx)
            manifests[m['name'] + '.json'] = m
    manifest_sha.fill_sha256(manifests, manifest_sha.find_host_reference(args.host_reference))
    manifest_sha.write_manifests(manifests, args.out)
    print('wrote %d manifests into %s' % (len(manifests), os.path.relpath(args.out)))


if __name__ == '__main__':
    main()
