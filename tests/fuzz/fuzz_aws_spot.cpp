// libFuzzer target: spot.js/spot.json, the Spot Advisor file and the region index.
#include "fuzzsupport.h"
#include "providers/awsoffers.h"
#include "providers/awsspot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView in(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const QByteArrayView stripped = gf::stripJsonp(in);
    if (stripped.size() > in.size() ||
        (stripped.size() &&
         (stripped.data() < in.data() || stripped.data() + stripped.size() > in.data() + in.size())))
        __builtin_trap();
    auto spot = gf::parseAwsSpotFeed(in, QStringLiteral("fuzz"));
    auto advisor = gf::parseAwsSpotAdvisor(in, QStringLiteral("fuzz"));
    (void)gf::parseAwsRegionIndex(in, QStringLiteral("fuzz"));
    if (spot || advisor) {
        QList<gf::Offer> offers(1);
        offers[0].instanceType = QStringLiteral("p3.2xlarge");
        offers[0].region = QStringLiteral("us-east-1");
        offers[0].onDemandUsdH = 3.06;
        gf::applyAwsSpot(offers, spot ? &spot.value() : nullptr, advisor ? &advisor.value() : nullptr);
    }
    return 0;
}
