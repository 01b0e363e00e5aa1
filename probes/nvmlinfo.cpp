#include "nvmlinfo.h"

#include <dlfcn.h>

namespace gfprobe {

namespace {

// The few NVML entry points used, declared here so the build needs no nvml.h.
using NvmlReturn = int; // nvmlReturn_t; 0 = NVML_SUCCESS
struct NvmlDeviceOpaque;
using NvmlDevice = NvmlDeviceOpaque *;
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM
constexpr int kNvmlClockMem = 2; // NVML_CLOCK_MEM

using InitFn = NvmlReturn (*)();
using ShutdownFn = NvmlReturn (*)();
using ByBusIdFn = NvmlReturn (*)(const char *, NvmlDevice *);
using DriverVersionFn = NvmlReturn (*)(char *, unsigned);
using UintFn = NvmlReturn (*)(NvmlDevice, unsigned *);
using ClockFn = NvmlReturn (*)(NvmlDevice, int, unsigned *);

template <class F> F symbol(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    F f = nullptr;
    static_assert(sizeof f == sizeof p);
    __builtin_memcpy(&f, &p, sizeof f); // object pointer -> function pointer without a cast warning
    return f;
}

} // namespace

NvmlFacts queryNvml(const std::string &pciBusId)
{
    NvmlFacts facts;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libnvidia-ml.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        facts.note = "libnvidia-ml not found";
        return facts;
    }
    auto init = symbol<InitFn>(lib, "nvmlInit_v2");
    auto shutdown = symbol<ShutdownFn>(lib, "nvmlShutdown");
    auto byBusId = symbol<ByBusIdFn>(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    if (!init || !shutdown || !byBusId) {
        facts.note = "libnvidia-ml lacks nvmlInit_v2 / nvmlDeviceGetHandleByPciBusId_v2";
        dlclose(lib);
        return facts;
    }
    if (init() != 0) {
        facts.note = "nvmlInit failed";
        dlclose(lib);
        return facts;
    }
    NvmlDevice dev = nullptr;
    if (byBusId(pciBusId.c_str(), &dev) != 0 || !dev) {
        facts.note = "device " + pciBusId + " not found in NVML";
        shutdown();
        dlclose(lib);
        return facts;
    }
    facts.available = true;
    if (auto f = symbol<DriverVersionFn>(lib, "nvmlSystemGetDriverVersion")) {
        char buf[96] = {};
        if (f(buf, sizeof buf - 1) == 0)
            facts.driverVersion = buf;
    }
    auto readUint = [&](const char *name, int *out) {
        if (auto f = symbol<UintFn>(lib, name)) {
            unsigned v = 0;
            if (f(dev, &v) == 0 && v < 1000000U)
                *out = static_cast<int>(v);
        }
    };
    readUint("nvmlDeviceGetMaxPcieLinkGeneration", &facts.pcieGenMax);
    readUint("nvmlDeviceGetMaxPcieLinkWidth", &facts.pcieWidthMax);
    readUint("nvmlDeviceGetCurrPcieLinkGeneration", &facts.pcieGenCurrent);
    readUint("nvmlDeviceGetCurrPcieLinkWidth", &facts.pcieWidthCurrent);
    if (auto f = symbol<UintFn>(lib, "nvmlDeviceGetPowerManagementLimit")) {
        unsigned mw = 0;
        if (f(dev, &mw) == 0 && mw < 100000000U)
            facts.powerLimitW = static_cast<int>(mw / 1000);
    }
    if (auto f = symbol<ClockFn>(lib, "nvmlDeviceGetMaxClockInfo")) {
        unsigned v = 0;
        if (f(dev, kNvmlClockSm, &v) == 0 && v < 100000U)
            facts.smClockMaxMhz = static_cast<int>(v);
        v = 0;
        if (f(dev, kNvmlClockMem, &v) == 0 && v < 100000U)
            facts.memClockMaxMhz = static_cast<int>(v);
    }
    shutdown();
    dlclose(lib);
    return facts;
}

} // namespace gfprobe
