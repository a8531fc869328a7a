#!/bin/sh
# regen-ptx.sh — regenerate traces/*/*.ptx from the .cu beside each.
#
# Every traces/<w>/<name>.cu becomes traces/<w>/<name>.ptx with
#   nvcc -ptx -arch=sm_90 -lineinfo
# run inside the workload's folder so the .file lines name the source
# relatively.  PTX without a .cu (listings printed in the reference
# documents: saxpy_ptx1, opencl_vs_cuda) is never touched.
# Usage: tools/regen-ptx.sh [NVCC]   (default /usr/local/cuda/bin/nvcc, or $NVCC)
set -eu
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for cu in "$root"/traces/*/*.cu; do
    [ -e "$cu" ] || continue
    dir=$(dirname "$cu")
    base=$(basename "$cu" .cu)
    # nvcc writes the source's absolute path into .file; keep it relative
    # so the committed PTX does not depend on where the tree was checked out.
    if (cd "$dir" && "$nvcc" -ptx -arch=sm_90 -lineinfo -o "$base.ptx" "$base.cu" &&
        sed -i "s|^\(\s*\.file\s\+[0-9]\+ \"\)$dir/|\1|" "$base.ptx"); then
        echo "regenerated traces/$(basename "$dir")/$base.ptx"
    else
        echo "error: nvcc failed on $cu" >&2
        status=1
    fi
done
exit $status
