#!/usr/bin/env bash
# regen.sh — rebuilds the fat binary fixtures of tests/test_fatbin.c with nvcc.
# Needs nvcc (CUDA 13; NVCC=/path/to/nvcc to choose) and objcopy; the unit
# tests themselves only read the committed outputs.  Each fixture is the raw
# bytes nvcc embeds in a program (see docs/fatbin.md):
#   saxpy.ptx            nvcc -ptx output, the reference text
#   default.fatbin       nvcc -fatbin defaults: sm_75 machine code + zstd PTX
#   none.fatbin          --compress-mode=none (PTX stored as text)
#   speed.fatbin         --compress-mode=speed (LZ4 block)
#   size.fatbin          --compress-mode=size (zstd; machine code compressed too)
#   two_arch.fatbin      sm_75 + compute_75 + compute_90
#   sm90_only.fatbin     machine code only (sm_90)
#   debug.fatbin         -G, compute_75 PTX only (carries identifier and options)
#   program_section.bin  .nv_fatbin of a `nvcc -cudart shared` program
#                        (the device-link fat binary, then the object's)
#   rdc_a.fatbin, rdc_b.fatbin, rdc_dlink.fatbin
#                        an -rdc=true program: the objects' fat binaries (the
#                        prelinked list) and the registered device-linked one
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"

"$NVCC" --version | tail -n 2
"$NVCC" -ptx -o saxpy.ptx saxpy.cu
"$NVCC" -fatbin -o default.fatbin saxpy.cu
"$NVCC" -fatbin --compress-mode=none -o none.fatbin saxpy.cu
"$NVCC" -fatbin --compress-mode=speed -o speed.fatbin saxpy.cu
"$NVCC" -fatbin --compress-mode=size -o size.fatbin saxpy.cu
"$NVCC" -fatbin -gencode 'arch=compute_75,code=[sm_75,compute_75]' \
        -gencode arch=compute_90,code=compute_90 -o two_arch.fatbin saxpy.cu
"$NVCC" -fatbin -gencode arch=compute_90,code=sm_90 -o sm90_only.fatbin saxpy.cu
"$NVCC" -fatbin -G -gencode arch=compute_75,code=compute_75 -o debug.fatbin saxpy.cu

"$NVCC" -cudart shared -o "$work/saxpy" saxpy.cu
objcopy -O binary --only-section=.nv_fatbin "$work/saxpy" program_section.bin

mkdir "$work/keep"
"$NVCC" -cudart shared -rdc=true --keep --keep-dir "$work/keep" -o "$work/rdc" rdc_a.cu rdc_b.cu
cp "$work/keep/rdc_a.fatbin" rdc_a.fatbin
cp "$work/keep/rdc_b.fatbin" rdc_b.fatbin
ls "$work/keep/"*_dlink.fatbin >/dev/null
cp "$work/keep/"*_dlink.fatbin rdc_dlink.fatbin
ls -l "$here"/*.fatbin "$here"/*.bin "$here"/*.ptx
