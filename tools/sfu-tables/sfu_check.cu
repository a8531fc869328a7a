// sfu_check.cu — checks warpsim's SFU approximations against a GPU's, bit
// for bit: ten forms (rcp, rsqrt, sqrt, ex2 .approx{.ftz}.f32,
// div.approx{.ftz}.f32) over 262 144 random operands of the whole f32
// range, special values and subnormals included.
//
//   nvcc -cudart shared -o sfu_check sfu_check.cu
//   ./sfu_check save gpu.bin                        on the GPU machine
//   warpsim exec ./sfu_check compare gpu.bin        here: mismatches per form
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>

#define N (1 << 18)
#define FORMS 10
static const char *const forms[FORMS] = {"rcp.approx.ftz", "rcp.approx", "rsqrt.approx.ftz", "rsqrt.approx",
                                         "ex2.approx.ftz", "ex2.approx", "div.approx", "sqrt.approx.ftz",
                                         "sqrt.approx", "div.approx.ftz"};

__global__ void k(const unsigned *in, const unsigned *in2, unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = __uint_as_float(in[i]), y = __uint_as_float(in2[i]), r[FORMS];
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r[0]) : "f"(x));
    asm("rcp.approx.f32 %0, %1;" : "=f"(r[1]) : "f"(x));
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r[2]) : "f"(x));
    asm("rsqrt.approx.f32 %0, %1;" : "=f"(r[3]) : "f"(x));
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r[4]) : "f"(y));
    asm("ex2.approx.f32 %0, %1;" : "=f"(r[5]) : "f"(y));
    asm("div.approx.f32 %0, %1, %2;" : "=f"(r[6]) : "f"(y), "f"(x));
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r[7]) : "f"(x));
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r[8]) : "f"(x));
    asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r[9]) : "f"(y), "f"(x));
    for (int j = 0; j < FORMS; j++)
        out[i * FORMS + j] = __float_as_uint(r[j]);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "save") && strcmp(argv[1], "compare"))) {
        fprintf(stderr, "usage: sfu_check save|compare FILE\n");
        return 2;
    }
    unsigned *h = (unsigned *)malloc(N * 4), *h2 = (unsigned *)malloc(N * 4), *o = (unsigned *)malloc(N * 4 * FORMS);
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        unsigned a = s;
        s = s * 1664525u + 1013904223u;
        unsigned b = s;
        if ((i & 7) == 0)
            a &= 0x807fffffu; /* subnormals and zeros */
        if ((i & 15) == 1)
            a = (a & 0x80000000u) | 0x7f000000u | (a & 0x7fffff); /* near the top */
        h[i] = a;
        float f = ((int)(b % 580000) - 320000) / 2000.0f + (float)(b & 0xffff) / 65536.0f / 2000.0f; /* ex2: (-160, 130) */
        memcpy(&h2[i], &f, 4);
        if ((i & 31) == 3)
            h2[i] = b;
    }
    const unsigned special[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u, 0x80000001u,
                                0x007fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u, 0xbf800000u, 0x43000000u,
                                0xc3000000u, 0xc2fc0000u, 0xc3160000u};
    for (int j = 0; j < 16; j++)
        h[j] = h2[j] = special[j];
    unsigned *d, *d2, *dout;
    cudaMalloc(&d, N * 4);
    cudaMalloc(&d2, N * 4);
    cudaMalloc(&dout, N * 4 * FORMS);
    cudaMemcpy(d, h, N * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d2, h2, N * 4, cudaMemcpyHostToDevice);
    k<<<N / 256, 256>>>(d, d2, dout);
    cudaError_t e = cudaMemcpy(o, dout, N * 4 * FORMS, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        fprintf(stderr, "sfu_check: %s\n", cudaGetErrorString(e));
        return 1;
    }
    if (!strcmp(argv[1], "save")) {
        FILE *f = fopen(argv[2], "wb");
        if (!f || fwrite(o, 4, N * FORMS, f) != (size_t)N * FORMS || fclose(f)) {
            fprintf(stderr, "sfu_check: cannot write %s\n", argv[2]);
            return 1;
        }
        return 0;
    }
    unsigned *g = (unsigned *)malloc(N * 4 * FORMS);
    FILE *f = fopen(argv[2], "rb");
    if (!f || fread(g, 4, N * FORMS, f) != (size_t)N * FORMS) {
        fprintf(stderr, "sfu_check: cannot read %s\n", argv[2]);
        return 1;
    }
    fclose(f);
    int bad = 0;
    for (int j = 0; j < FORMS; j++) {
        long n = 0, first = -1;
        for (int i = 0; i < N; i++)
            if (o[i * FORMS + j] != g[i * FORMS + j]) {
                if (first < 0)
                    first = i;
                n++;
            }
        printf("%-17s %6ld of %d differ", forms[j], n, N);
        if (first >= 0)
            printf(" (first: operands %08x %08x, saved %08x, here %08x)", h[first], h2[first],
                   g[first * FORMS + j], o[first * FORMS + j]);
        printf("\n");
        bad |= n != 0;
    }
    return bad;
}
