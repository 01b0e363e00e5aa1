#include "projection/runcost.h"

#include <algorithm>
#include <cmath>

namespace gf {

ProviderKind providerKind(QStringView p)
{
    if (p == u"aws")
        return ProviderKind::Aws;
    if (p == u"gcp")
        return ProviderKind::Gcp;
    if (p == u"azure")
        return ProviderKind::Azure;
    if (p == u"vastai")
        return ProviderKind::Vastai;
    if (p == u"paperspace")
        return ProviderKind::Paperspace;
    return ProviderKind::Other;
}

AwsBucket awsBucketFromLabel(QStringView label)
{
    if (label == u"<5%")
        return AwsBucket::Below5;
    if (label == u">20%")
        return AwsBucket::Above20;
    if (label == u"5-10%")
        return AwsBucket::From5To10;
    if (label == u"10-15%")
        return AwsBucket::From10To15;
    if (label == u"15-20%")
        return AwsBucket::From15To20;
    return AwsBucket::Unknown;
}

double awsBucketMonthlyShare(AwsBucket bucket)
{
    switch (bucket) {
    case AwsBucket::Below5:
        return 0.025;
    case AwsBucket::From5To10:
        return 0.075;
    case AwsBucket::From10To15:
        return 0.125;
    case AwsBucket::From15To20:
        return 0.175;
    case AwsBucket::Above20:
        return 0.25;
    case AwsBucket::Unknown:
        break;
    }
    return kAwsUnknownMonthlyShare;
}

InterruptionRate spotInterruptionRate(ProviderKind provider, AwsBucket bucket,
                                      std::optional<double> reliability)
{
    switch (provider) {
    case ProviderKind::Aws:
        return {awsBucketMonthlyShare(bucket) / kHoursPerMonth, bucket == AwsBucket::Unknown};
    case ProviderKind::Gcp:
        return {kGcpInterruptionsPerHour, true};
    case ProviderKind::Azure:
        return {kAzureInterruptionsPerHour, true};
    case ProviderKind::Vastai: {
        const bool known = reliability && std::isfinite(*reliability);
        const double r = known ? std::clamp(*reliability, 0.0, 1.0) : kVastDefaultReliability;
        return {1.0 - r, !known};
    }
    case ProviderKind::Paperspace:
    case ProviderKind::Other:
        break;
    }
    return {kDefaultInterruptionsPerHour, true};
}

} // namespace gf
