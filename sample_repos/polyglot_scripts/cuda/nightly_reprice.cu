// nightly_reprice.cu - the pricing team's GPU batch: every SKU's shelf price and restock
// quantity, recomputed after the nightly stock export.
//
// The catalogue has about two million SKUs; the CPU version took forty minutes on the export
// box, this one a few seconds on the analytics server's card. One thread per SKU throughout.

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#define CUDA_CHECK(call)                                                            \
    do {                                                                            \
        cudaError_t status_ = (call);                                               \
        if (status_ != cudaSuccess) {                                               \
            std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                   \
                         cudaGetErrorString(status_));                              \
            return status_;                                                         \
        }                                                                           \
    } while (0)

namespace shop {

/// Discount per customer tier (0 retail, 1 trade, 2 wholesale, 3 staff), uploaded once a run.
__constant__ float kTierDiscount[4];

/// Units sold on the days the forecast reads, per SKU, as the export lays them out.
constexpr int kHistoryDays = 28;

/// One SKU as the export writes it, read by the host and the device alike.
struct SkuRecord {
    int sku;
    int onHand;
    int reorderPoint;
    int packSize;
    float baseCents;
    float costCents;

    /// The lowest price the pricing rules allow: cost plus the margin floor.
    __host__ __device__ float floorCents(float marginFloor) const {
        return costCents * (1.0f + marginFloor);
    }

    /// Whether the shelf runs empty before the next delivery.
    __host__ __device__ bool belowReorderPoint() const { return onHand < reorderPoint; }
};

/// Rounds a price to whole cents, the last digit a 9 as marketing wants ("prix psychologique").
__device__ __forceinline__ float roundToNine(float cents) {
    float whole = floorf(cents / 10.0f) * 10.0f;
    return whole + 9.0f;
}

/// The new shelf price of every SKU, and the revenue each block expects at that price.
/// Block sums are written to `blockRevenue`; the host adds them up (a few thousand floats).
__global__ void repriceSkus(const SkuRecord* skus, const int* tiers, float* priceCents,
                            float* blockRevenue, float marginFloor, int count) {
    __shared__ float revenue[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float expected = 0.0f;
    if (i < count) {
        SkuRecord r = skus[i];
        float discounted = r.baseCents * (1.0f - kTierDiscount[tiers[i]]);
        float price = roundToNine(fmaxf(discounted, r.floorCents(marginFloor)));
        priceCents[i] = price;
        expected = price * r.reorderPoint;
    }
    revenue[threadIdx.x] = expected;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) revenue[threadIdx.x] += revenue[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) blockRevenue[blockIdx.x] = revenue[0];
}

/// Smooths each SKU's daily sales with an exponential moving average, `Window` days at a
/// time through shared memory. Templated so the weekly and monthly runs compile apart.
template <int Window>
__global__ void __launch_bounds__(Window) smoothDemand(const float* sold, float* forecast, float alpha,
                                                       int count) {
    __shared__ float tile[Window];
    int sku = blockIdx.x;
    float level = 0.0f;
    for (int day = threadIdx.x; day < kHistoryDays; day += Window) {
        tile[threadIdx.x] = sold[sku * kHistoryDays + day];
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int k = 0; k < Window && day + k < kHistoryDays; ++k) level = alpha * tile[k] + (1.0f - alpha) * level;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0 && sku < count) forecast[sku] = level;
}

/// How many units to order for each SKU: enough to cover the forecast until the next
/// delivery plus the safety stock, rounded up to whole packs, capped by the shelf's room.
/// Chilled SKUs (negative pack size in the export) are ordered by the crate of twelve.
__global__ void planRestock(const SkuRecord* skus, const float* forecast, int* orderUnits,
                            int leadDays, float safetyFactor, int shelfCapacity, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) {
        return;
    }
    SkuRecord r = skus[i];
    float daily = forecast[i];
    if (daily <= 0.0f && !r.belowReorderPoint()) {
        orderUnits[i] = 0;
        return;
    }
    // Cover the lead time and a safety margin that grows with the forecast.
    float needed = daily * leadDays + safetyFactor * sqrtf(daily * leadDays);
    int missing = static_cast<int>(ceilf(needed)) - r.onHand;
    if (missing < r.reorderPoint - r.onHand) {
        missing = r.reorderPoint - r.onHand;
    }
    if (missing <= 0) {
        orderUnits[i] = 0;
        return;
    }
    int pack = r.packSize > 0 ? r.packSize : 12;
    int packs = (missing + pack - 1) / pack;
    int units = packs * pack;
    // Never order more than the shelf holds: the back room has no space for the rest.
    int room = shelfCapacity - r.onHand;
    while (units > room && packs > 1) {
        --packs;
        units = packs * pack;
    }
    orderUnits[i] = units;
}

/// The nightly run on the device: prices, forecast, restock plan. Returns the first CUDA
/// error, after printing where it happened; the export box retries the run once.
cudaError_t runNightlyReprice(const std::vector<SkuRecord>& skus, const std::vector<int>& tiers,
                              const std::vector<float>& sold, std::vector<float>& prices,
                              std::vector<int>& orders) {
    const int count = static_cast<int>(skus.size());
    const int threads = 256;
    const int blocks = (count + threads - 1) / threads;
    const float discounts[4] = {0.0f, 0.08f, 0.15f, 0.25f};
    SkuRecord* dSkus = nullptr;
    int* dTiers = nullptr;
    float *dSold = nullptr, *dPrices = nullptr, *dRevenue = nullptr, *dForecast = nullptr;
    int* dOrders = nullptr;

    CUDA_CHECK(cudaMemcpyToSymbol(kTierDiscount, discounts, sizeof discounts));
    CUDA_CHECK(cudaMalloc(&dSkus, count * sizeof(SkuRecord)));
    CUDA_CHECK(cudaMalloc(&dTiers, count * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSold, sold.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dPrices, count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dRevenue, blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dForecast, count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOrders, count * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dSkus, skus.data(), count * sizeof(SkuRecord), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dTiers, tiers.data(), count * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dSold, sold.data(), sold.size() * sizeof(float), cudaMemcpyHostToDevice));

    repriceSkus<<<blocks, threads>>>(dSkus, dTiers, dPrices, dRevenue, 0.12f, count);
    CUDA_CHECK(cudaGetLastError());
    smoothDemand<32><<<count, 32>>>(dSold, dForecast, 0.3f, count);
    CUDA_CHECK(cudaGetLastError());
    planRestock<<<blocks, threads>>>(dSkus, dForecast, dOrders, 3, 1.65f, 480, count);
    CUDA_CHECK(cudaGetLastError());

    prices.resize(count);
    orders.resize(count);
    CUDA_CHECK(cudaMemcpy(prices.data(), dPrices, count * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(orders.data(), dOrders, count * sizeof(int), cudaMemcpyDeviceToHost));
    for (void* p : {static_cast<void*>(dSkus), static_cast<void*>(dTiers), static_cast<void*>(dSold),
                    static_cast<void*>(dPrices), static_cast<void*>(dRevenue), static_cast<void*>(dForecast),
                    static_cast<void*>(dOrders)}) {
        cudaFree(p);
    }
    return cudaSuccess;
}

}  // namespace shop
