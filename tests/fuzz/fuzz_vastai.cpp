// libFuzzer target: vast.ai offer search answers.
#include "fuzzsupport.h"
#include "providers/vastai.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto r = gf::parseVastOffers(
        QByteArrayView(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)),
        QStringLiteral("fuzz"));
    if (r)
        for (const gf::Offer &o : r.value().offers)
            if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0))
                __builtin_trap();
    return 0;
}
