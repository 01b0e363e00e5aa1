#pragma once

#include "util/result.h"

#include <QDateTime>
#include <QString>

#include <optional>

namespace gf::store {

/// How far a date brought in (a probe run's, a measurement's) may lie after the time of import, for clocks
/// of other machines that run a little ahead; later is refused as a date from the future.
inline constexpr qint64 kClockSkewS = 3600;

/// The refusal of `what` ("the probe run", "the measurement of resnet50 on l4") dated `at`, when that is
/// more than kClockSkewS after now; nullopt when it is not in the future.
inline std::optional<Error> futureDateError(const QString &what, const QDateTime &at)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (!at.isValid() || at <= now.addSecs(kClockSkewS))
        return std::nullopt;
    return makeError(QStringLiteral("Cannot store %1: it is dated %2, after the time of import %3 (a date in "
                                    "the future is refused: it would stay the newest over every later one); "
                                    "check the clock of the machine that ran it")
                         .arg(what, at.toUTC().toString(Qt::ISODate), now.toString(Qt::ISODate)));
}

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
