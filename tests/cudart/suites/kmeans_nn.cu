// kmeans_nn.cu — models Rodinia kmeans (feature-major 1D arrays, a
// find-nearest-centre kernel per iteration, centres recomputed on the host,
// loop until few memberships change; no textures, centres in __constant__)
// and Rodinia nn (lat/lng records, one sqrtf distance per record over many
// blocks, k nearest picked on the host).  rsqrtf used for a normalisation
// check.  Checked against host computations.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cfloat>
#include <cuda_runtime.h>

#define NF 8
#define NC 5
__constant__ float c_clusters[NC * NF];

__global__ void invert_mapping(const float *input, float *output, int npoints, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npoints)
        for (int i = 0; i < nfeatures; i++) output[i * npoints + p] = input[p * nfeatures + i];
}

__global__ void kmeans_point(const float *features, int nfeatures, int npoints, int nclusters, int *membership)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;
    float min_dist = FLT_MAX;
    int index = 0;
    for (int i = 0; i < nclusters; i++) {
        float dist = 0;
        for (int l = 0; l < nfeatures; l++) {
            float d = features[l * npoints + p] - c_clusters[i * nfeatures + l];
            dist += d * d;
        }
        if (dist < min_dist) { min_dist = dist; index = i; }
    }
    membership[p] = index;
}

struct LatLong { float lat, lng; };

__global__ void euclid(const LatLong *d_locations, float *d_distances, int numRecords, float lat, float lng)
{
    int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (globalId < numRecords) {
        const LatLong *latLong = d_locations + globalId;
        float *dist = d_distances + globalId;
        *dist = (float)sqrtf((lat - latLong->lat) * (lat - latLong->lat) + (lng - latLong->lng) * (lng - latLong->lng));
    }
}

__global__ void normalise(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = v[2 * i], y = v[2 * i + 1];
        float r = rsqrtf(x * x + y * y);
        v[2 * i] = x * r; v[2 * i + 1] = y * r;
    }
}

int main()
{
    int bad = 0;
    // ---- kmeans
    const int npoints = 4000;
    float *feat = (float *)malloc(npoints * NF * 4);
    srand(23);
    for (int p = 0; p < npoints; p++) {
        int c = p % NC;
        for (int f = 0; f < NF; f++) feat[p * NF + f] = c * 3.0f + (rand() % 1000) / 500.0f;
    }
    float clusters[NC * NF];
    for (int c = 0; c < NC; c++)
        for (int f = 0; f < NF; f++) clusters[c * NF + f] = feat[(c * 37) * NF + f];
    int *member = (int *)malloc(npoints * 4), *hmember = (int *)malloc(npoints * 4);
    for (int p = 0; p < npoints; p++) hmember[p] = -1;
    float *d_feat, *d_flip; int *d_member;
    cudaMalloc((void **)&d_feat, npoints * NF * 4); cudaMalloc((void **)&d_flip, npoints * NF * 4);
    cudaMalloc((void **)&d_member, npoints * 4);
    cudaMemcpy(d_feat, feat, npoints * NF * 4, cudaMemcpyHostToDevice);
    int threads = 256, blocks = (npoints + threads - 1) / threads;
    invert_mapping<<<blocks, threads>>>(d_feat, d_flip, npoints, NF);
    int iter = 0, delta;
    do {
        cudaMemcpyToSymbol(c_clusters, clusters, sizeof(clusters));
        kmeans_point<<<blocks, threads>>>(d_flip, NF, npoints, NC, d_member);
        cudaDeviceSynchronize();
        cudaMemcpy(member, d_member, npoints * 4, cudaMemcpyDeviceToHost);
        // host reference for this iteration's assignment
        delta = 0;
        for (int p = 0; p < npoints; p++) {
            float best = FLT_MAX; int idx = 0;
            for (int c = 0; c < NC; c++) {
                float d = 0;
                for (int f = 0; f < NF; f++) { float t = feat[p * NF + f] - clusters[c * NF + f]; d += t * t; }
                if (d < best) { best = d; idx = c; }
            }
            if (idx != member[p]) { if (bad < 5) printf("kmeans iter %d point %d: gpu %d cpu %d\n", iter, p, member[p], idx); bad++; }
            if (hmember[p] != idx) delta++;
            hmember[p] = idx;
        }
        float sum[NC * NF] = {0}; int cnt[NC] = {0};
        for (int p = 0; p < npoints; p++) {
            cnt[hmember[p]]++;
            for (int f = 0; f < NF; f++) sum[hmember[p] * NF + f] += feat[p * NF + f];
        }
        for (int c = 0; c < NC; c++)
            if (cnt[c]) for (int f = 0; f < NF; f++) clusters[c * NF + f] = sum[c * NF + f] / cnt[c];
        iter++;
    } while (delta > 0 && iter < 20);
    printf("kmeans %d points, %d iterations\n", npoints, iter);

    // ---- nn
    const int nrec = 50000, k = 5;
    LatLong *loc = (LatLong *)malloc(nrec * sizeof(LatLong));
    for (int i = 0; i < nrec; i++) { loc[i].lat = (rand() % 18000) / 100.0f - 90.0f; loc[i].lng = (rand() % 36000) / 100.0f - 180.0f; }
    float lat = 30.0f, lng = 90.0f;
    LatLong *d_loc; float *d_dist;
    cudaMalloc((void **)&d_loc, nrec * sizeof(LatLong)); cudaMalloc((void **)&d_dist, nrec * 4);
    cudaMemcpy(d_loc, loc, nrec * sizeof(LatLong), cudaMemcpyHostToDevice);
    int nblocks = (nrec + 255) / 256;
    dim3 grid(nblocks > 65535 ? 65535 : nblocks, (nblocks + 65534) / 65535);
    euclid<<<grid, 256>>>(d_loc, d_dist, nrec, lat, lng);
    float *dist = (float *)malloc(nrec * 4);
    cudaMemcpy(dist, d_dist, nrec * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < nrec; i++) {
        float r = sqrtf((lat - loc[i].lat) * (lat - loc[i].lat) + (lng - loc[i].lng) * (lng - loc[i].lng));
        if (fabsf(r - dist[i]) > 1e-5f * r + 1e-6f) { if (bad < 5) printf("nn record %d: gpu %f cpu %f\n", i, dist[i], r); bad++; }
    }
    for (int j = 0; j < k; j++) {  // k nearest by selection, as nn does on the host
        int mi = 0;
        for (int i = 1; i < nrec; i++) if (dist[i] < dist[mi]) mi = i;
        printf("nn %d: (%.2f, %.2f) at %f\n", j, loc[mi].lat, loc[mi].lng, dist[mi]);
        dist[mi] = FLT_MAX;
    }
    // rsqrtf normalisation: lengths must be ~1
    cudaMemcpy(d_dist, loc, 2 * 1000 * 4, cudaMemcpyHostToDevice);
    normalise<<<4, 256>>>(d_dist, 1000);
    cudaMemcpy(dist, d_dist, 2 * 1000 * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 1000; i++) {
        float len = sqrtf(dist[2 * i] * dist[2 * i] + dist[2 * i + 1] * dist[2 * i + 1]);
        if (fabsf(len - 1.0f) > 1e-5f) { if (bad < 5) printf("rsqrtf %d: length %f\n", i, len); bad++; }
    }
    cudaError_t err = cudaGetLastError();
    printf("err %s\n", cudaGetErrorString(err));
    printf("%s\n", (bad == 0 && err == cudaSuccess) ? "PASS" : "FAIL");
    return bad ? 1 : 0;
}
