#include "projection/runcost.h"

namespace gf {

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
