#pragma once

#include <QDateTime>
#include <QString>

namespace gf::store {

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
