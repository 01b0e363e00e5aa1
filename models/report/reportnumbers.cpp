#include "report/reportnumbers.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace gf::report {

bool priced(const ProjectedOffer &p)
{
    return p.projected && !hasFlag(p.flags, ProjectionFlag::InvalidPrice);
}

QString pct(double v, int decimals)
{
    return QString::number(v, 'f', decimals) + QStringLiteral(" %");
}

QString minutesText(double m)
{
    return QString::number(m, 'g', 6) + QStringLiteral(" min");
}

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

/// "1.2 billion", "25.6 million", "50,000": large counts for people.
QString bigNumber(double v)
{
    if (v >= 1e12)
        return QStringLiteral("%1 trillion").arg(QString::number(v / 1e12, 'g', 4));
    if (v >= 1e9)
        return QStringLiteral("%1 billion").arg(QString::number(v / 1e9, 'g', 4));
    if (v >= 1e6)
        return QStringLiteral("%1 million").arg(QString::number(v / 1e6, 'g', 4));
    return QLocale::c().toString(v, 'f', v == std::floor(v) ? 0 : 2);
}

QString offersText(qsizetype n)
{
    return n == 1 ? QStringLiteral("1 offer") : QStringLiteral("%1 offers").arg(n);
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2;
}

QStringList capped(const QStringList &items, qsizetype max)
{
    if (items.size() <= max)
        return items;
    QStringList out = items.mid(0, max);
    out.append(QStringLiteral("… and %1 more").arg(items.size() - max));
    return out;
}

} // namespace gf::report
