// libFuzzer target: GCP Cloud Billing SKU pages and the machine composition.
#include "fuzzsupport.h"
#include "providers/gcpbilling.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto page = gf::parseGcpSkuPage(
        QByteArrayView(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)),
        QStringLiteral("fuzz"));
    if (page)
        (void)gf::composeGcpOffers(page.value().skus, gf::fuzz::tables(), QStringLiteral("fuzz"));
    return 0;
}
