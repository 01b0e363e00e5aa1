// libFuzzer target: the AWS offer file reader (JSON and CSV flavours), fed in pieces like a download.
#include "fuzzsupport.h"
#include "providers/awsoffers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gf::ProviderTables &tables = gf::fuzz::tables();
    gf::AwsOfferStream s(tables, QStringLiteral("fuzz"), QStringLiteral("us-east-1"));
    s.begin();
    const size_t step = 1 + (size ? data[size - 1] % 97 : 0);
    for (size_t i = 0; i < size; i += step)
        if (!s.write(reinterpret_cast<const char *>(data) + i, std::min(step, size - i)))
            break;
    auto r = s.finish();
    if (r)
        for (const gf::Offer &o : r.value().offers)
            if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0))
                __builtin_trap(); // a kept row always has a positive price
    return 0;
}
