#include "report/vectorcanvas.h"

#include <algorithm>
#include <cmath>

namespace gf {

Rgb Rgb::mixed(Rgb other, double t) const
{
    auto mix = [t](quint8 from, quint8 to) {
        return static_cast<quint8>(std::lround(from + (to - from) * std::clamp(t, 0.0, 1.0)));
    };
    return Rgb{mix(r, other.r), mix(g, other.g), mix(b, other.b)};
}

QString Rgb::hexName() const
{
    return QStringLiteral("#%1%2%3")
        .arg(r, 2, 16, QLatin1Char('0'))
        .arg(g, 2, 16, QLatin1Char('0'))
        .arg(b, 2, 16, QLatin1Char('0'));
}

QByteArray vectorNumber(double v, int decimals)
{
    if (!std::isfinite(v))
        return "0";
    QByteArray s = QByteArray::number(v, 'f', decimals);
    if (s.contains('.')) {
        while (s.endsWith('0'))
            s.chop(1);
        if (s.endsWith('.'))
            s.chop(1);
    }
    if (s == "-0")
        s = "0";
    return s;
}

} // namespace gf
