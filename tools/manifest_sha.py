"""manifest_sha.py — fill a manifest's `expect` with sha256 hashes computed
by tests/host_reference, for outputs too large to commit as files.

Used by the sweep generators (gen-stencil-sweep.py, gen-coalescing.py).
fill_sha256(manifests, host_reference) takes {file name: manifest dict}
whose `expect` entries name buffers ({"b": {}} is enough), replays them with
the host reference into a scratch folder, and replaces every entry with
{"sha256": HEX} of the host model's output.  host_reference checks such
hashes when it replays the committed manifests, so the hashes stay tied to
the independent C models rather than to warpsim.
"""
import copy
import glob
import hashlib
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_host_reference(explicit=None):
    """The host_reference binary: `explicit`, or the newest build*/ one."""
    if explicit:
        return explicit
    found = sorted(glob.glob(os.path.join(ROOT, 'build*', 'tests', 'host_reference')),
                   key=os.path.getmtime)
    if not found:
        raise SystemExit('error: no build*/tests/host_reference; build first or pass '
                         '--host-reference')
    return found[-1]


def fill_sha256(manifests, host_reference):
    with tempfile.TemporaryDirectory(prefix='manifest-sha-') as tmp:
        for name, man in manifests.items():
            probe = copy.deepcopy(man)
            stem = os.path.splitext(name)[0]
            probe['expect'] = {buf: {'file': '%s.%s.bin' % (stem, buf)}
                               for buf in man['expect']}
            with open(os.path.join(tmp, name), 'w') as f:
                json.dump(probe, f)
        subprocess.run([host_reference, tmp, tmp], check=True)
        for name, man in manifests.items():
            stem = os.path.splitext(name)[0]
            for buf in man['expect']:
                with open(os.path.join(tmp, '%s.%s.bin' % (stem, buf)), 'rb') as f:
                    man['expect'][buf] = {'sha256': hashlib.sha256(f.read()).hexdigest()}
    return manifests


def write_manifests(manifests, outdir):
    os.makedirs(outdir, exist_ok=True)
    for name, man in manifests.items():
        with open(os.path.join(outdir, name), 'w') as f:
            json.dump(man, f, indent=2)
            f.write('\n')
