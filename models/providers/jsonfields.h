#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cmath>
#include <optional>

namespace gf {

/// A JSON number field that may be absent: true with `value` unset when absent or null, true with it set
/// for a finite number, false when the field holds anything else (a changed or broken API).
inline bool optionalNumber(const QJsonObject &object, const char *name, std::optional<double> *value)
{
    const QJsonValue v = object.value(QLatin1String(name));
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        return false;
    *value = v.toDouble();
    return true;
}

/// Entries of an answer skipped as malformed: how many, and what was wrong with the first one.
struct SkippedEntries
{
    int count = 0;
    QString first;
    void add(const QString &what)
    {
        if (count++ == 0)
            first = what;
    }
};

} // namespace gf
