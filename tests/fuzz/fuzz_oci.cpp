// libFuzzer target: Oracle's price list. The input is shapes.json, a NUL byte, then products.json; without a
// NUL byte it is shapes.json priced by a small fixed product list.
#include "fuzzsupport.h"
#include "providers/ocipricelist.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView all(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    static const QByteArray fixed =
        R"({"items":[{"partNumber":"B98415","metricName":"GPU Per Hour","currencyCodeLocalizations":[)"
        R"({"currencyCode":"USD","prices":[{"model":"PAY_AS_YOU_GO","value":10.0}]}]}]})";
    const qsizetype nul = all.indexOf('\0');
    const QByteArrayView shapes = nul < 0 ? all : all.first(nul);
    const QByteArrayView products = nul < 0 ? QByteArrayView(fixed) : all.sliced(nul + 1);
    auto r = gf::parseOciPriceList(shapes, products, QStringLiteral("shapes"), QStringLiteral("products"));
    if (r)
        for (const gf::Offer &o : r.value().data.offers)
            if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0) || !o.spotUsdH || !(o.gpuCount > 0))
                __builtin_trap();
    return 0;
}
