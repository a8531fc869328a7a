#!/usr/bin/env python3
"""gen-stencil-fig3.py — write the manifests of seed 001's first experiment.

Seed 001's first experiment (Figure 3 and Table 1) runs the three codes
BASE (plain loads), CSL (__ldg) and COMP (shared-memory XY tile) for the
five stencils of radius 1..5 on a 256 x 256 x 256 grid with blocks of
32 x 16 x 1, and compares their GFLOPS on a K80.  This writes one manifest
per code and radius, named <variant>_r<R>.manifest, running
traces/stencil/stencil.ptx over Dx x Dy x Dz interior points, with the
inputs and coefficients of gen-stencil-sweep.py.  Dx = Dy = 256 as in the
paper; Z is reduced from 256 to 96 interior planes by default so that a
timed run on the K80 configuration takes about 20 s or less (the slowest,
BASE r5, took 53 s at 256 planes); the metrics are per plane: cycles scale
with Dz, the L2 hit rate and the occupancy do not change (--dz 256 writes
the paper's full grid).

The files end in .manifest, not .json: tests/test_workloads runs every
*.json manifest under traces/ (on the H200 configuration) and
host_reference replays them, which these grids (6.3 million points, 16.7
million at 256 planes) would slow by minutes; `warpsim run` reads a
manifest whatever its name.

The outputs (64 MiB or more) are too large to commit, so each manifest
expects the sha256 of `b` as computed by tests/host_reference's C model
(see manifest_sha.py).  BASE, CSL and COMP compute bit-identical results.

Usage: tools/gen-stencil-fig3.py [--radii 1,2,3,4,5] [--dx 256] [--dy 256]
           [--dz 96] [--out traces/stencil/fig3]
           [--host-reference build-x/tests/host_reference]
"""
import argparse
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest_sha  # noqa: E402

# the sweep's conventions (coefficients, inputs) come from its generator
_spec = importlib.util.spec_from_file_location(
    'gen_stencil_sweep', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                      'gen-stencil-sweep.py'))
sweep = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep)

VARIANTS = {'base': 'stencilBase', 'csl': 'stencilCsl', 'comp': 'stencilComp'}


def manifest(variant, radius, dx, dy, dz, ptx):
    m = sweep.manifest('base', radius, dx, dy, dz, ptx)
    m['name'] = '%s_r%d' % (variant, radius)
    m['description'] = ('seed 001 first experiment (Figure 3): %s stencil, radius %d '
                        '(%d points), interior %d x %d x %d%s, blocks 32 x 16 x 1' %
                        (variant.upper(), radius, 6 * radius + 1, dx, dy, dz,
                         '' if dz == 256 else ' (Z reduced from 256)'))
    m['kernel'] = '%s_r%d' % (VARIANTS[variant], radius)
    return m


def main():
    root = manifest_sha.ROOT
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--radii', default='1,2,3,4,5', help='comma-separated radii (1..5)')
    ap.add_argument('--dx', type=int, default=256)
    ap.add_argument('--dy', type=int, default=256)
    ap.add_argument('--dz', type=int, default=96)
    ap.add_argument('--out', default=os.path.join(root, 'traces', 'stencil', 'fig3'))
    ap.add_argument('--host-reference', help='tests/host_reference binary (default: newest '
                    'build*/tests/host_reference)')
    args = ap.parse_args()
    if args.dx % 32 or args.dy % 16:
        ap.error('COMP tiles the grid with its 32 x 16 blocks: --dx must be a multiple of 32 '
                 'and --dy of 16')
    ptx = os.path.relpath(os.path.join(root, 'traces', 'stencil', 'stencil.ptx'), args.out)
    manifests = {}
    for radius in (int(r) for r in args.radii.split(',')):
        if not 1 <= radius <= 5:
            ap.error('radius %d: the PTX has radii 1..5' % radius)
        for variant in VARIANTS:
            m = manifest(variant, radius, args.dx, args.dy, args.dz, ptx)
            manifests[m['name'] + '.json'] = m
    # host_reference replays only *.json: hash under those names, then write .manifest
    manifest_sha.fill_sha256(manifests, manifest_sha.find_host_reference(args.host_reference))
    manifest_sha.write_manifests({n[:-len('.json')] + '.manifest': m for n, m in manifests.items()},
                                 args.out)
    print('wrote %d manifests into %s' % (len(manifests), os.path.relpath(args.out)))


if __name__ == '__main__':
    main()
