// gpu_run — run a manifest's launches on a real GPU, for checking warpsim.
//
// Reads a plain spec written by prepare.py (one directive per line):
//   buffer NAME BYTES INITFILE      device buffer initialised from a file
//   global NAME INITFILE            module global (cuModuleGetGlobal) for the next module
//   launch PTXFILE KERNEL GX GY GZ BX BY BZ SHARED
//   arg SIZE HEX                    scalar argument: SIZE bytes of little-endian HEX
//   arg buffer NAME OFFSET          pointer argument
//   go                              launch with the args given since `launch`
// and writes every buffer to OUTDIR/NAME.bin afterwards.
// Build: nvcc -O2 -o gpu_run gpu_run.cu -lcuda
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#define CK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { const char *s_ = nullptr; \
    cuGetErrorString(r_, &s_); fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?"); exit(1); } } while (0)

static std::vector<char> slurp(const std::string &path) {
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) { perror(path.c_str()); exit(1); }
    std::vector<char> v;
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + n);
    fclose(f);
    return v;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: gpu_run SPEC OUTDIR\n"); return 2; }
    CK(cuInit(0));
    CUdevice dev; CK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CK(cuCtxCreate(&ctx, NULL, 0, dev));
    std::map<std::string, std::pair<CUdeviceptr, size_t>> bufs;
    std::vector<std::string> order;
    std::vector<std::pair<std::string, std::string>> pending_globals;
    std::map<std::string, CUmodule> modules;
    FILE *spec = fopen(argv[1], "r");
    if (!spec) { perror(argv[1]); return 1; }
    char line[4096];
    CUfunction fn = nullptr;
    unsigned g[3], b[3], shared = 0;
    std::vector<std::vector<char>> argstore;
    while (fgets(line, sizeof line, spec)) {
        char w[6][1024] = {};
        int n = sscanf(line, "%1023s %1023s %1023s %1023s %1023s %1023s", w[0], w[1], w[2], w[3], w[4], w[5]);
        if (n <= 0) continue;
        std::string cmd = w[0];
        if (cmd == "buffer") {
            size_t bytes = strtoull(w[2], nullptr, 10);
            CUdeviceptr p; CK(cuMemAlloc(&p, bytes ? bytes : 1));
            std::vector<char> init = slurp(w[3]);
            CK(cuMemcpyHtoD(p, init.data(), init.size()));
            bufs[w[1]] = {p, bytes};
            order.push_back(w[1]);
        } else if (cmd == "global") {
            pending_globals.push_back({w[1], w[2]});
        } else if (cmd == "launch") {
            unsigned gx, gy, gz, bx, by, bz;
            sscanf(line, "launch %*s %*s %u %u %u %u %u %u %u", &gx, &gy, &gz, &bx, &by, &bz, &shared);
            g[0] = gx; g[1] = gy; g[2] = gz; b[0] = bx; b[1] = by; b[2] = bz;
            CUmodule mod;
            if (!modules.count(w[1])) {
                std::vector<char> ptx = slurp(w[1]);
                ptx.push_back(0);
                char log[8192] = {};
                CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
                void *vals[] = {log, (void *)(size_t)sizeof log};
                CUresult r = cuModuleLoadDataEx(&mod, ptx.data(), 2, opts, vals);
                if (r != CUDA_SUCCESS) { fprintf(stderr, "load %s: %d\n%s\n", w[1], r, log); return 1; }
                modules[w[1]] = mod;
                for (auto &pg : pending_globals) {
                    CUdeviceptr gp; size_t gs;
                    CK(cuModuleGetGlobal(&gp, &gs, mod, pg.first.c_str()));
                    std::vector<char> init = slurp(pg.second);
                    CK(cuMemcpyHtoD(gp, init.data(), init.size() < gs ? init.size() : gs));
                }
                pending_globals.clear();
            }
            mod = modules[w[1]];
            CK(cuModuleGetFunction(&fn, mod, w[2]));
            argstore.clear();
        } else if (cmd == "arg") {
            if (std::string(w[1]) == "buffer") {
                CUdeviceptr p = bufs.at(w[2]).first + strtoull(w[3], nullptr, 10);
                std::vector<char> v(sizeof p);
                memcpy(v.data(), &p, sizeof p);
                argstore.push_back(v);
            } else {
                size_t size = strtoull(w[1], nullptr, 10);
                unsigned long long bits = strtoull(w[2], nullptr, 16);
                std::vector<char> v(size);
                memcpy(v.data(), &bits, size);
                argstore.push_back(v);
            }
        } else if (cmd == "go") {
            std::vector<void *> ptrs;
            for (auto &a : argstore) ptrs.push_back(a.data());
            if (shared > 48 * 1024)
                CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
            CK(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], shared, 0, ptrs.data(), nullptr));
            CK(cuCtxSynchronize());
        }
    }
    for (auto &name : order) {
        auto &bf = bufs[name];
        std::vector<char> host(bf.second);
        CK(cuMemcpyDtoH(host.data(), bf.first, bf.second));
        std::string out = std::string(argv[2]) + "/" + name + ".bin";
        FILE *f = fopen(out.c_str(), "wb");
        fwrite(host.data(), 1, host.size(), f);
        fclose(f);
    }
    printf("ok\n");
    return 0;
}
