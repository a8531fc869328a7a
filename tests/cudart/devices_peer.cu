// devices_peer.cu — device selection and peers as the multi-GPU samples
// probe them on a one-GPU machine (simpleP2P, topologyQuery,
// p2pBandwidthLatencyTest): cudaGetDeviceCount, cudaSetDevice and its
// errors, cudaChooseDevice, the PCI bus id round trip through
// cudaDeviceGetByPCIBusId, cudaDeviceCanAccessPeer (a device is not its own
// peer), the peer-access errors, and cudaMemcpyPeer/Async on one device.
#include <string>
#include <vector>
#include "sample_helpers.h"

int main(int argc, char **argv)
{
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    std::printf("CUDA-capable device count: %d\n", count);
    if (count < 1)
        return 1;
    int dev = findCudaDevice(argc, (const char **)argv);
    checkCudaErrors(cudaSetDevice(dev));
    int current = -1;
    checkCudaErrors(cudaGetDevice(&current));
    if (current != dev)
        return 1;
    if (cudaSetDevice(count) != cudaErrorInvalidDevice)
        return 1;
    cudaGetLastError();

    cudaDeviceProp want;
    std::memset(&want, 0, sizeof want);
    want.major = 7;
    want.minor = 0;
    int chosen = -1;
    checkCudaErrors(cudaChooseDevice(&chosen, &want));
    if (chosen < 0 || chosen >= count)
        return 1;

    // PCI ids
    char bus[32];
    checkCudaErrors(cudaDeviceGetPCIBusId(bus, sizeof bus, dev));
    int byBus = -1;
    checkCudaErrors(cudaDeviceGetByPCIBusId(&byBus, bus));
    if (byBus != dev)
        return 1;
    int domain = -1, busId = -1, devId = -1;
    checkCudaErrors(cudaDeviceGetAttribute(&domain, cudaDevAttrPciDomainId, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&busId, cudaDevAttrPciBusId, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&devId, cudaDevAttrPciDeviceId, dev));
    char expect[32];
    std::snprintf(expect, sizeof expect, "%04x:%02x:%02x.0", domain, busId, devId);
    if (std::string(bus) != expect) {
        std::printf("bus id %s, attributes say %s\n", bus, expect);
        return 1;
    }
    std::snprintf(expect, sizeof expect, "%02X:%02X.0", busId, devId); // the short form
    checkCudaErrors(cudaDeviceGetByPCIBusId(&byBus, expect));
    if (byBus != dev)
        return 1;
    if (cudaDeviceGetByPCIBusId(&byBus, "0000:7f:1f.0") != cudaErrorInvalidDevice)
        return 1;
    if (cudaDeviceGetByPCIBusId(&byBus, "not a bus id") != cudaErrorInvalidValue)
        return 1;
    cudaGetLastError();
    std::printf("device %d is at PCI %s\n", dev, bus);

    // peers: every pair the samples try
    for (int i = 0; i < count; i++)
        for (int j = 0; j < count; j++) {
            int can = -1;
            checkCudaErrors(cudaDeviceCanAccessPeer(&can, i, j));
            std::printf("> Peer access from device %d to device %d: %s\n", i, j, can ? "Yes" : "No");
            if (i == j && can != 0)
                return 1;
        }
    int can = 0;
    if (cudaDeviceCanAccessPeer(&can, dev, count) != cudaErrorInvalidDevice)
        return 1;
    if (cudaDeviceEnablePeerAccess(dev, 0) == cudaSuccess) // not its own peer
        return 1;
    if (cudaDeviceDisablePeerAccess(dev) == cudaSuccess)
        return 1;
    int attr = 0;
    if (cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, dev, dev) == cudaSuccess)
        return 1;
    cudaGetLastError();

    // peer copies on one device are device-to-device copies
    const size_t n = 1 << 20;
    std::vector<float> h(n), back(n);
    for (size_t i = 0; i < n; i++)
        h[i] = (float)i * 0.5f;
    float *a, *b;
    checkCudaErrors(cudaMalloc(&a, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&b, n * sizeof(float)));
    checkCudaErrors(cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start));
    for (int rep = 0; rep < 4; rep++)
        checkCudaErrors(cudaMemcpyPeer(b, dev, a, dev, n * sizeof(float)));
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    std::printf("cudaMemcpyPeer: %.2f GB/s\n", 4.0 * n * sizeof(float) / (ms * 1e6));
    if (ms <= 0)
        return 1;
    checkCudaErrors(cudaMemset(a, 0, n * sizeof(float)));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    checkCudaErrors(cudaMemcpyPeerAsync(a, dev, b, dev, n * sizeof(float), s));
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaMemcpy(back.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        if (back[i] != h[i])
            return 1;
    if (cudaMemcpyPeer(b, count, a, dev, 16) != cudaErrorInvalidDevice)
        return 1;
    cudaGetLastError();
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFree(a));
    checkCudaErrors(cudaFree(b));
    std::printf("PASS devices_peer\n");
    return 0;
}
