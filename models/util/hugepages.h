#pragma once

#include <QtGlobal>

#include <cstddef>
#include <cstdint>

#if defined(Q_OS_LINUX)
#include <sys/mman.h>
#endif

namespace gf {

/// Large buffers: ask Linux for transparent huge pages (a hint; ignored elsewhere and below 16 MB). Call it
/// before the buffer is first written. With 4 KB pages, the page faults of the first write cost far more
/// than the projection itself on virtual machines, and reading a buffer of hundreds of MB in a random
/// order misses the TLB at nearly every read.
inline void adviseHugePages(void *p, std::size_t bytes)
{
#if defined(Q_OS_LINUX) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kPage = 4096;
    if (!p || bytes < (std::size_t(16) << 20))
        return;
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = (addr + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t end = (addr + bytes) & ~(kPage - 1);
    if (end > begin)
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
    Q_UNUSED(p);
    Q_UNUSED(bytes);
#endif
}

} // namespace gf
