#include "util/format.h"

#include <QLocale>

#include <cmath>

namespace gf {

QString formatUsdPerHour(std::optional<double> usdPerHour)
{
    if (!usdPerHour)
        return QStringLiteral("–");
    const double v = *usdPerHour;
    return QString::number(v, 'f', v < 1.0 ? 4 : (v < 100 ? 3 : 2));
}

QString formatUsd(double usd)
{
    return QLocale::c().toString(usd, 'f', usd < 100 ? 2 : 0);
}

QString formatNumber(std::optional<double> v, int decimals)
{
    if (!v)
        return QStringLiteral("–");
    if (decimals == 0 && std::abs(*v - std::round(*v)) > 1e-9)
        return std::abs(*v) < 1.0 ? QString::number(*v, 'g', 3) : QString::number(*v, 'f', 1);
    return QString::number(*v, 'f', decimals);
}

QString formatHours(double hours)
{
    if (!std::isfinite(hours))
        return QStringLiteral("∞");
    if (hours < 1.0)
        return QStringLiteral("%1 min").arg(QString::number(hours * 60.0, 'f', hours < 0.1 ? 1 : 0));
    if (hours < 72.0)
        return QStringLiteral("%1 h").arg(QString::number(hours, 'f', hours < 10 ? 2 : 1));
    return QStringLiteral("%1 d").arg(QString::number(hours / 24.0, 'f', 1));
}

QString formatHoursColumn(double hours)
{
    if (!std::isfinite(hours))
        return QStringLiteral("∞");
    return QStringLiteral("%1 h").arg(QString::number(hours, 'f', hours < 10 ? 2 : hours < 100 ? 1 : 0));
}

QString formatAgeDays(qint64 days)
{
    if (days <= 0)
        return QStringLiteral("today");
    if (days == 1)
        return QStringLiteral("1 day");
    if (days < 60)
        return QStringLiteral("%1 days").arg(days);
    return QStringLiteral("%1 months").arg(days / 30);
}

} // namespace gf
