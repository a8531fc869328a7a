// pitched_3d.cu — pitched and 3D linear memory: cudaMallocPitch with
// cudaMemcpy2D in every direction (and its Async form), cudaMemset2D on
// part of a pitched image, a kernel walking rows by pitch, and cudaMalloc3D
// / cudaMemset3D / cudaMemcpy3D (host <-> device, device <-> device with
// offsets, and Async) on a volume, the way the volume and image samples
// use them (without CUDA arrays).
#include <vector>
#include "sample_helpers.h"

__global__ void addRowCol(float *img, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float *row = (float *)((char *)img + y * pitch);
        row[x] += (float)(x + 1000 * y);
    }
}

__global__ void scaleVolume(cudaPitchedPtr vol, int w, int h, int d, float by)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x < w && y < h && z < d) {
        char *slice = (char *)vol.ptr + (size_t)z * vol.pitch * h;
        float *row = (float *)(slice + y * vol.pitch);
        row[x] *= by;
    }
}

static int fail(const char *what, int i)
{
    std::printf("%s: mismatch at %d\n", what, i);
    return 1;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);

    // --- 2D
    const int W = 100, H = 37;
    std::vector<float> host(W * H), back(W * H);
    for (int i = 0; i < W * H; i++)
        host[i] = (float)(i % 13);
    float *img, *img2;
    size_t pitch, pitch2;
    checkCudaErrors(cudaMallocPitch((void **)&img, &pitch, W * sizeof(float), H));
    checkCudaErrors(cudaMallocPitch((void **)&img2, &pitch2, W * sizeof(float), H));
    if (pitch < W * sizeof(float) || pitch % 256 != 0)
        return fail("pitch", (int)pitch);
    checkCudaErrors(cudaMemcpy2D(img, pitch, host.data(), W * sizeof(float), W * sizeof(float), H,
                                 cudaMemcpyHostToDevice));
    dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8);
    addRowCol<<<grid, block>>>(img, pitch, W, H);
    getLastCudaError("addRowCol");
    checkCudaErrors(cudaMemcpy2D(img2, pitch2, img, pitch, W * sizeof(float), H, cudaMemcpyDeviceToDevice));
    // clear columns 10..19 of rows 5..14 (bytes 0 give 0.0f)
    checkCudaErrors(cudaMemset2D((char *)img2 + 5 * pitch2 + 10 * sizeof(float), pitch2, 0, 10 * sizeof(float), 10));
    checkCudaErrors(cudaMemcpy2D(back.data(), W * sizeof(float), img2, pitch2, W * sizeof(float), H,
                                 cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool cleared = y >= 5 && y < 15 && x >= 10 && x < 20;
            float want = cleared ? 0.0f : host[y * W + x] + (float)(x + 1000 * y);
            if (back[y * W + x] != want)
                return fail("2D", y * W + x);
        }
    // a sub-rectangle, async, into a tightly packed host buffer
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreate(&s));
    std::vector<float> sub(8 * 4);
    checkCudaErrors(cudaMemcpy2DAsync(sub.data(), 8 * sizeof(float), (char *)img + 3 * pitch + 2 * sizeof(float),
                                      pitch, 8 * sizeof(float), 4, cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++)
            if (sub[y * 8 + x] != host[(y + 3) * W + x + 2] + (float)(x + 2 + 1000 * (y + 3)))
                return fail("2D sub-rectangle", y * 8 + x);
    // a width beyond the pitch is refused
    if (cudaMemcpy2D(img, pitch, host.data(), 4, 8, 2, cudaMemcpyHostToDevice) != cudaErrorInvalidPitchValue)
        return fail("pitch check", 0);
    cudaGetLastError();

    // --- 3D
    const int VW = 40, VH = 12, VD = 6;
    cudaExtent extent = make_cudaExtent(VW * sizeof(float), VH, VD);
    cudaPitchedPtr vol, vol2;
    checkCudaErrors(cudaMalloc3D(&vol, extent));
    checkCudaErrors(cudaMalloc3D(&vol2, extent));
    if (vol.pitch < VW * sizeof(float) || vol.xsize != VW * sizeof(float) || vol.ysize != VH)
        return fail("cudaMalloc3D pitched pointer", (int)vol.pitch);
    checkCudaErrors(cudaMemset3D(vol2, 0x3f, extent)); // 0x3f3f3f3f: 0.747f
    std::vector<float> vh(VW * VH * VD), vb(VW * VH * VD);
    for (size_t i = 0; i < vh.size(); i++)
        vh[i] = (float)i;
    cudaMemcpy3DParms p = {0};
    p.srcPtr = make_cudaPitchedPtr(vh.data(), VW * sizeof(float), VW, VH);
    p.dstPtr = vol;
    p.extent = extent;
    p.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaMemcpy3D(&p));
    scaleVolume<<<dim3((VW + 63) / 64, VH, VD), 64>>>(vol, VW, VH, VD, 2.0f);
    getLastCudaError("scaleVolume");
    // device to device: a 10x4x3 box from (5,2,1) to (0,0,0) of vol2
    cudaMemcpy3DParms q = {0};
    q.srcPtr = vol;
    q.srcPos = make_cudaPos(5 * sizeof(float), 2, 1);
    q.dstPtr = vol2;
    q.extent = make_cudaExtent(10 * sizeof(float), 4, 3);
    q.kind = cudaMemcpyDeviceToDevice;
    checkCudaErrors(cudaMemcpy3DAsync(&q, s));
    cudaMemcpy3DParms r = {0};
    r.srcPtr = vol2;
    r.dstPtr = make_cudaPitchedPtr(vb.data(), VW * sizeof(float), VW, VH);
    r.extent = extent;
    r.kind = cudaMemcpyDeviceToHost;
    checkCudaErrors(cudaMemcpy3DAsync(&r, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    float fill;
    unsigned bits = 0x3f3f3f3fu;
    std::memcpy(&fill, &bits, 4);
    for (int z = 0; z < VD; z++)
        for (int y = 0; y < VH; y++)
            for (int x = 0; x < VW; x++) {
                bool boxed = x < 10 && y < 4 && z < 3;
                float want = boxed ? 2.0f * vh[((z + 1) * VH + y + 2) * VW + x + 5] : fill;
                if (vb[(z * VH + y) * VW + x] != want)
                    return fail("3D", (z * VH + y) * VW + x);
            }
    // the whole scaled volume back through a 3D peer copy (one device)
    cudaMemcpy3DPeerParms pp = {0};
    pp.srcPtr = vol;
    pp.dstPtr = vol2;
    pp.extent = extent;
    checkCudaErrors(cudaMemcpy3DPeer(&pp));
    r.kind = cudaMemcpyDefault;
    checkCudaErrors(cudaMemcpy3D(&r));
    for (size_t i = 0; i < vh.size(); i++)
        if (vb[i] != 2.0f * vh[i])
            return fail("3D peer", (int)i);
    // CUDA arrays are not supported
    if (cudaMemcpy3D(NULL) != cudaErrorInvalidValue)
        return fail("null parameters", 0);
    cudaGetLastError();

    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaFree(vol.ptr));
    checkCudaErrors(cudaFree(vol2.ptr));
    checkCudaErrors(cudaFree(img));
    checkCudaErrors(cudaFree(img2));
    std::printf("PASS pitched_3d\n");
    return 0;
}
