#include "projection/runcost.h"

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

} // namespace gf
