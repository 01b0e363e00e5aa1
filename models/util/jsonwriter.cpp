#include "util/jsonwriter.h"

#include "util/printable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QVariant>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace gf {

namespace {

constexpr double kMaxExactInteger =
    9007199254740992.0; // 2^53: QJsonValue keeps integral doubles up to it as integers

char hexDigit(unsigned v)
{
    return static_cast<char>(v < 10 ? '0' + v : 'a' + v - 10);
}

template <typename Out> void appendInteger(Out &out, qint64 v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr - buf);
}

/// What QJsonDocument writes for one number: the reference for the values the fast paths do not cover.
QByteArray qtNumberText(const QJsonValue &v)
{
    QJsonArray a;
    a.append(v);
    const QByteArray j = QJsonDocument(a).toJson(QJsonDocument::Compact);
    return j.mid(1, j.size() - 2);
}

template <typename Out> void appendNumber(Out &out, double v)
{
    if (!std::isfinite(v)) {
        out.append("null", 4);
        return;
    }
    const double a = std::fabs(v);
    if (v == 0 && !std::signbit(v)) {
        out.append('0');
        return;
    }
    if (v != 0 && std::trunc(v) == v && a <= kMaxExactInteger) {
        appendInteger(out, static_cast<qint64>(v)); // QJsonValue(double) stores it as an integer
        return;
    }
    if (v != 0 && a < 1e16) {
        // Qt writes the shortest text that reads back the same, in the shorter of the fixed and the
        // exponent forms: std::to_chars without a format. (Beyond 1e16 Qt pads the shortest digits with
        // zeros where to_chars writes the exact integer; zero keeps Qt's own sign rule.)
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr - buf);
        return;
    }
    const QByteArray text = qtNumberText(QJsonValue(v));
    out.append(text.constData(), text.size());
}

} // namespace

QByteArray JsonWriter::numberText(double v)
{
    QByteArray out;
    appendNumber(out, v);
    return out;
}

namespace {

/// A character a JSON string holds as it is: printable ASCII other than the quote and the backslash.
constexpr bool isPlainAscii(char16_t u)
{
    return u >= 0x20 && u < 0x7F && u != u'"' && u != u'\\';
}

void appendStringTo(BufferedOutput &out, QStringView s)
{
    // Bytes go through a small local buffer: one append per 256 bytes instead of one per character.
    char buf[272];
    int n = 0;
    auto spill = [&] {
        out.append(buf, n);
        n = 0;
    };
    auto escape = [&](char16_t u) {
        const char esc[6] = {'\\',
                             'u',
                             hexDigit((u >> 12) & 0xF),
                             hexDigit((u >> 8) & 0xF),
                             hexDigit((u >> 4) & 0xF),
                             hexDigit(u & 0xF)};
        std::memcpy(buf + n, esc, 6);
        n += 6;
    };
    buf[n++] = '"';
    const char16_t *p = s.utf16();
    const char16_t *const end = p + s.size();
    while (p != end) {
        if (n > 256)
            spill();
        if (isPlainAscii(*p)) {
            // a run of characters written as they are, as many as the buffer takes
            const char16_t *const runEnd = p + std::min<qsizetype>(end - p, 264 - n);
            do
                buf[n++] = static_cast<char>(*p++);
            while (p != runEnd && isPlainAscii(*p));
            continue;
        }
        const char16_t u = *p++;
        if (u < 0x80) {
            if (u >= 0x20 && u != u'"' && u != u'\\' && u != 0x7F) {
                buf[n++] = static_cast<char>(u);
                continue;
            }
            char short_ = 0;
            switch (u) {
            case u'"':
                short_ = '"';
                break;
            case u'\\':
                short_ = '\\';
                break;
            case 0x08:
                short_ = 'b';
                break;
            case 0x0C:
                short_ = 'f';
                break;
            case 0x0A:
                short_ = 'n';
                break;
            case 0x0D:
                short_ = 'r';
                break;
            case 0x09:
                short_ = 't';
                break;
            default: // other C0 controls and DEL
                escape(u);
                continue;
            }
            buf[n++] = '\\';
            buf[n++] = short_;
            continue;
        }
        if (isUnprintableChar(u)) { // C1, line separators, bidi formatting
            escape(u);
            continue;
        }
        if (u < 0x800) {
            buf[n++] = static_cast<char>(0xC0 | (u >> 6));
            buf[n++] = static_cast<char>(0x80 | (u & 0x3F));
            continue;
        }
        if (QChar::isHighSurrogate(u) && p != end && QChar::isLowSurrogate(*p)) {
            const char32_t c = QChar::surrogateToUcs4(u, *p++);
            buf[n++] = static_cast<char>(0xF0 | (c >> 18));
            buf[n++] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            buf[n++] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            buf[n++] = static_cast<char>(0x80 | (c & 0x3F));
            continue;
        }
        if (QChar::isSurrogate(u)) { // a lone half: QJsonDocument writes it as an escape
            escape(u);
            continue;
        }
        buf[n++] = static_cast<char>(0xE0 | (u >> 12));
        buf[n++] = static_cast<char>(0x80 | ((u >> 6) & 0x3F));
        buf[n++] = static_cast<char>(0x80 | (u & 0x3F));
    }
    buf[n++] = '"';
    spill();
}

} // namespace

void JsonWriter::indent(qsizetype depth)
{
    static const char spaces[] = "                                                                ";
    qsizetype n = 4 * depth;
    while (n > 0) {
        const qsizetype k = std::min<qsizetype>(n, sizeof spaces - 1);
        m_out.append(spaces, k);
        n -= k;
    }
}

void JsonWriter::beforeValue()
{
    if (m_stack.isEmpty())
        return;
    Level &top = m_stack.last();
    if (top.object)
        return; // key() wrote the separator and the indentation
    if (top.count > 0)
        m_out.append(",\n", 2);
    indent(m_stack.size());
    ++top.count;
}

void JsonWriter::beginMember()
{
    Level &top = m_stack.last();
    if (top.count > 0)
        m_out.append(",\n", 2);
    indent(m_stack.size());
    ++top.count;
}

void JsonWriter::key(QStringView key)
{
    beginMember();
    appendStringTo(m_out, key);
    m_out.append(": ", 2);
}

void JsonWriter::key(QLatin1StringView key)
{
    // The separator, the indentation and the key in one piece (a million points write 40 keys each).
    constexpr qsizetype kMaxIndent = 64;
    constexpr qsizetype kMaxKey = 64;
    const qsizetype spaces = 4 * m_stack.size();
    if (spaces > kMaxIndent || key.size() > kMaxKey) {
        beginMember();
        m_out.append('"');
        m_out.append(key.data(), key.size()); // the keys of the documented shapes: plain ASCII
        m_out.append("\": ", 3);
        return;
    }
    char buf[2 + kMaxIndent + 1 + kMaxKey + 3];
    qsizetype n = 0;
    Level &top = m_stack.last();
    if (top.count > 0) {
        buf[n++] = ',';
        buf[n++] = '\n';
    }
    ++top.count;
    std::memset(buf + n, ' ', static_cast<std::size_t>(spaces));
    n += spaces;
    buf[n++] = '"';
    std::memcpy(buf + n, key.data(), static_cast<std::size_t>(key.size()));
    n += key.size();
    std::memcpy(buf + n, "\": ", 3);
    n += 3;
    m_out.append(buf, n);
}

void JsonWriter::beginObject()
{
    beforeValue();
    m_out.append("{\n", 2);
    m_stack.append(Level{true, 0});
}

void JsonWriter::beginArray()
{
    beforeValue();
    m_out.append("[\n", 2);
    m_stack.append(Level{false, 0});
}

void JsonWriter::endContainer(char close)
{
    const Level level = m_stack.takeLast();
    if (level.count > 0)
        m_out.append('\n');
    indent(m_stack.size());
    m_out.append(close);
    if (m_stack.isEmpty())
        m_out.append('\n'); // the document ends with a line break
}

void JsonWriter::endObject()
{
    endContainer('}');
}

void JsonWriter::endArray()
{
    endContainer(']');
}

void JsonWriter::nullValue()
{
    beforeValue();
    m_out.append("null", 4);
}

void JsonWriter::value(bool b)
{
    beforeValue();
    if (b)
        m_out.append("true", 4);
    else
        m_out.append("false", 5);
}

void JsonWriter::value(qint64 v)
{
    beforeValue();
    appendInteger(m_out, v);
}

void JsonWriter::value(double v)
{
    beforeValue();
    appendNumber(m_out, v);
}

void JsonWriter::value(QStringView s)
{
    beforeValue();
    appendStringTo(m_out, s);
}

void JsonWriter::memberIsoDateOrNull(QLatin1StringView k, const QDate &date)
{
    key(k);
    if (!date.isValid()) {
        nullValue();
        return;
    }
    const int year = date.year();
    if (year < 1 || year > 9999) {
        stringOrNull(date.toString(Qt::ISODate));
        return;
    }
    const int month = date.month();
    const int day = date.day();
    const char text[12] = {'"',
                           static_cast<char>('0' + year / 1000),
                           static_cast<char>('0' + year / 100 % 10),
                           static_cast<char>('0' + year / 10 % 10),
                           static_cast<char>('0' + year % 10),
                           '-',
                           static_cast<char>('0' + month / 10),
                           static_cast<char>('0' + month % 10),
                           '-',
                           static_cast<char>('0' + day / 10),
                           static_cast<char>('0' + day % 10),
                           '"'};
    beforeValue();
    m_out.append(text, sizeof text);
}

void JsonWriter::value(QLatin1StringView s)
{
    if (std::all_of(s.begin(), s.end(), [](char c) { return isPlainAscii(static_cast<unsigned char>(c)); })) {
        beforeValue();
        m_out.append('"');
        m_out.append(s.data(), s.size());
        m_out.append('"');
        return;
    }
    value(QString(s));
}

void JsonWriter::stringOrNull(QStringView s)
{
    if (s.isEmpty())
        nullValue();
    else
        value(s);
}

void JsonWriter::numberOrNull(const std::optional<double> &v)
{
    if (v)
        value(*v);
    else
        nullValue();
}

void JsonWriter::value(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        nullValue();
        return;
    case QJsonValue::Bool:
        value(v.toBool());
        return;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::fabs(d) > kMaxExactInteger && v.toVariant().typeId() == QMetaType::LongLong) {
            value(v.toInteger()); // stored as an integer beyond a double's exact range
            return;
        }
        value(d);
        return;
    }
    case QJsonValue::String:
        value(v.toString());
        return;
    case QJsonValue::Array: {
        beginArray();
        const QJsonArray a = v.toArray();
        for (const QJsonValue &e : a)
            value(e);
        endArray();
        return;
    }
    case QJsonValue::Object: {
        beginObject();
        const QJsonObject o = v.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            key(QStringView(it.key()));
            value(it.value());
        }
        endObject();
        return;
    }
    }
}

void JsonWriter::writeObjectWith(const QJsonObject &object,
                                 const QList<std::pair<QLatin1StringView, std::function<void()>>> &writers)
{
    QList<qsizetype> order(writers.size());
    for (qsizetype i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
        return QString(writers.at(a).first) < QString(writers.at(b).first);
    });
    beginObject();
    auto it = object.constBegin();
    qsizetype w = 0;
    while (it != object.constEnd() || w < order.size()) {
        const bool streamed = w < order.size() &&
                              (it == object.constEnd() || QString(writers.at(order.at(w)).first) < it.key());
        if (streamed) {
            const auto &entry = writers.at(order.at(w++));
            key(entry.first);
            entry.second();
        } else {
            key(QStringView(it.key()));
            value(it.value());
            ++it;
        }
    }
    endObject();
}

} // namespace gf
