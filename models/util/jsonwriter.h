#pragma once

#include "util/bufferedoutput.h"

#include <QDate>
#include <QJsonValue>
#include <QLatin1StringView>
#include <QList>
#include <QStringView>

#include <functional>
#include <optional>

namespace gf {

/// Writes a JSON document as it is produced, byte for byte as QJsonDocument::toJson(Indented) writes the
/// same document (4-space indentation, Qt's number format, object keys in QJsonObject's order), with
/// every unprintable character (util/printable.h: DEL, C1, bidi formatting, line separators) escaped as
/// \uXXXX inside strings as escapeJsonUnprintable does. Memory stays at one chunk of output, whatever
/// the size of the document: `frontier --format json` over a million offers never holds the document.
///
/// Object keys must come in ascending order (QString's operator<, as QJsonObject sorts them): a caller
/// writes its keys sorted, or builds the small parts as a QJsonObject and writes it with value(), or
/// uses writeObjectWith() to put streamed members among them.
class JsonWriter
{
public:
    explicit JsonWriter(BufferedOutput &out) : m_out(out) {}

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    /// The key of the next member of the open object.
    void key(QLatin1StringView key);
    void key(QStringView key);

    void nullValue();
    void value(bool b);
    void value(int v) { value(static_cast<qint64>(v)); }
    void value(qint64 v);
    void value(double v);
    void value(QStringView s);
    void value(QLatin1StringView s);
    void value(const QString &s) { value(QStringView(s)); }
    /// A whole value, nested objects and arrays included.
    void value(const QJsonValue &v);
    /// null for an empty text, as the JSON outputs write a missing text.
    void stringOrNull(QStringView s);
    /// null for a missing number.
    void numberOrNull(const std::optional<double> &v);

    /// A member of the open object: key() and its value in one call.
    template <typename T> void member(QLatin1StringView k, const T &v)
    {
        key(k);
        value(v);
    }
    /// The number, or null when missing.
    void memberOrNull(QLatin1StringView k, const std::optional<double> &v)
    {
        key(k);
        numberOrNull(v);
    }
    /// The text, or null when empty.
    void memberStringOrNull(QLatin1StringView k, QStringView s)
    {
        key(k);
        stringOrNull(s);
    }

    /// The date as QDate::toString(Qt::ISODate) writes it ("2026-11-27"), or null when invalid or when Qt
    /// writes no text for it. Years 1-9999 are written without building a QString.
    void memberIsoDateOrNull(QLatin1StringView k, const QDate &date);

    /// Writes `object` with more members whose values are written by `writers` (key, writer), each
    /// in its place among the object's sorted keys: the small members as a QJsonObject, the large ones
    /// streamed.
    void writeObjectWith(const QJsonObject &object,
                         const QList<std::pair<QLatin1StringView, std::function<void()>>> &writers);

    /// The number text of a double exactly as QJsonDocument writes it ("null" for NaN and infinity).
    static QByteArray numberText(double v);

private:
    void beforeValue();
    /// The separator and indentation before a member of the open object.
    void beginMember();
    void endContainer(char close);
    void indent(qsizetype depth);

    struct Level
    {
        bool object = false;
        qsizetype count = 0;
    };
    BufferedOutput &m_out;
    QList<Level> m_stack;
};

} // namespace gf
