// libFuzzer target: vast.ai offer search answers, read whole (QJsonDocument) and as they stream (the
// stream reader's typed fields, VastAnswerReader).
#include "fuzzsupport.h"
#include "providers/vastai.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    auto r = gf::parseVastOffers(bytes, QStringLiteral("fuzz"));
    if (r)
        for (const gf::Offer &o : r.value().offers)
            if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0))
                __builtin_trap();
    gf::SnapshotData streamed;
    gf::CollectingSink sink(streamed);
    auto page = gf::streamVastOfferPage(bytes, QStringLiteral("fuzz"), sink);
    if (page)
        for (const gf::Offer &o : streamed.offers)
            if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0) || o.id <= 0)
                __builtin_trap();
    return 0;
}
