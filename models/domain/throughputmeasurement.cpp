#include "domain/throughputmeasurement.h"

#include <algorithm>

namespace gf {

Result<double> gpuBusyFractionOf(const QJsonObject &o)
{
    const QJsonValue v = o.value(u"gpu_busy_fraction");
    if (v.isUndefined() || v.isNull())
        return 0.0;
    if (!v.isDouble())
        return makeError(QStringLiteral("\"gpu_busy_fraction\" is not a number; it is the share of the step "
                                        "in which the GPU was busy, between 0 and 1"));
    const double busy = v.toDouble();
    if (!(busy > 0) || busy > 1.0 + 1e-9)
        return makeError(
            QStringLiteral("\"gpu_busy_fraction\" is %1; it is the share of the step in which the "
                           "GPU was busy, above 0 and at most 1")
                .arg(QString::number(busy, 'g', 6)));
    return std::min(1.0, busy);
}

QString busyMethodName(BusyMethod m)
{
    switch (m) {
    case BusyMethod::Profiler:
        return QStringLiteral("profiler");
    case BusyMethod::NvidiaSmi:
        return QStringLiteral("nvidia-smi");
    case BusyMethod::Unknown:
        break;
    }
    return {};
}

Result<BusyMethod> gpuBusyMethodOf(const QJsonObject &o)
{
    const QJsonValue v = o.value(u"gpu_busy_method");
    if (v.isUndefined() || v.isNull())
        return BusyMethod::Unknown;
    const QString name = v.toString();
    if (name == u"profiler")
        return BusyMethod::Profiler;
    if (name == u"nvidia-smi")
        return BusyMethod::NvidiaSmi;
    return makeError(
        QStringLiteral("\"gpu_busy_method\" is %1; it says how the GPU busy share was measured: "
                       "\"profiler\" or \"nvidia-smi\"")
            .arg(v.isString() ? QStringLiteral("\"%1\"").arg(name) : QStringLiteral("not a string")));
}

} // namespace gf
