// libFuzzer target: Azure Retail Prices pages and the offer composition.
#include "fuzzsupport.h"
#include "providers/azureretail.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto page = gf::parseAzureRetailPage(
        QByteArrayView(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)),
        QStringLiteral("fuzz"));
    if (page) {
        const gf::SnapshotData d =
            gf::composeAzureOffers(page.value().items, gf::fuzz::tables(), QStringLiteral("fuzz"));
        for (const gf::Offer &o : d.offers)
            if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0) || (o.spotUsdH && *o.spotUsdH == *o.onDemandUsdH))
                __builtin_trap();
    }
    return 0;
}
