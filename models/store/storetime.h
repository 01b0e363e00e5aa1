#pragma once

#include <QDateTime>
#include <QString>

namespace gf::store {

/// How far a date brought in (a probe run's, a measurement's) may lie after the time of import, for clocks
/// of other machines that run a little ahead; later is refused as a date from the future.
inline constexpr qint64 kClockSkewS = 3600;

/// How the database stores a time: ISO 8601 in UTC with milliseconds ("2026-11-26T07:12:00.123Z").
inline QString isoUtc(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

/// A stored time back (with or without milliseconds, as older versions wrote it); invalid when unreadable.
inline QDateTime fromIso(const QString &s)
{
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(s, Qt::ISODate);
    return t;
}

} // namespace gf::store
