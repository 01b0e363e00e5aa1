#pragma once

// Device facts from NVML, loaded with dlopen at run time so that gpufrontier-probe starts (and
// reports "no device") on machines without the NVIDIA driver.

#include <string>

namespace gfprobe {

struct NvmlFacts
{
    bool available = false;    ///< libnvidia-ml was loaded and the device was found in it
    std::string driverVersion; ///< e.g. "580.159.04"
    int pcieGenMax = 0;        ///< highest link generation of the device in this system
    int pcieWidthMax = 0;
    int pcieGenCurrent = 0; ///< current link (GPUs lower it when idle)
    int pcieWidthCurrent = 0;
    int smClockMaxMhz = 0;
    int memClockMaxMhz = 0;
    int powerLimitW = 0;
    std::string note; ///< why NVML gave nothing, when it did not
};

/// Looks the device up by its PCI bus id ("0000:3b:00.0", from cudaDeviceGetPCIBusId).
NvmlFacts queryNvml(const std::string &pciBusId);

} // namespace gfprobe
