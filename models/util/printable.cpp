#include "util/printable.h"

#include "util/bytescan.h"

namespace gf {

bool isUnprintableChar(char16_t c)
{
    return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F ||
           c == 0x2028 || c == 0x2029 || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

bool hasUnprintable(const QString &s)
{
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if (u >= 0x20 && u < 0x7F) // printable ASCII, most of every catalog's text
            continue;
        if (isUnprintableChar(u))
            return true;
    }
    return false;
}

namespace {

QString cleaned(const QString &s, bool keepLines, qsizetype *replaced)
{
    if (!hasUnprintable(s))
        return s;
    QString out = s;
    qsizetype n = 0;
    for (QChar &c : out) {
        const char16_t u = c.unicode();
        if (!isUnprintableChar(u))
            continue;
        if (keepLines && (u == u'\n' || u == u'\r' || u == u'\t'))
            continue;
        c = (u == u'\n' || u == u'\r' || u == u'\t' || u == 0x2028 || u == 0x2029) ? QChar(u' ')
                                                                                   : QChar(0xFFFD);
        ++n;
    }
    if (replaced)
        *replaced += n;
    return out;
}

} // namespace

QString printableText(const QString &s, qsizetype *replaced)
{
    return cleaned(s, false, replaced);
}

QString printableKeepingLines(const QString &s)
{
    return cleaned(s, true, nullptr);
}

QByteArray escapeJsonUnprintable(const QByteArray &json)
{
    // QJsonDocument escapes C0 itself; DEL is one byte, C1 and the rest are UTF-8 sequences that can
    // only stand inside strings, where a \u escape means the same character.
    const QString text = QString::fromUtf8(json);
    bool any = false;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (isUnprintableChar(u) && u != u'\n' && u != u'\r' && u != u'\t' && u != u' ') {
            any = true;
            break;
        }
    }
    if (!any)
        return json;
    QString out;
    out.reserve(text.size() + 64);
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (isUnprintableChar(u) && u != u'\n' && u != u'\r' && u != u'\t')
            out += QStringLiteral("\\u%1").arg(static_cast<uint>(u), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out.toUtf8();
}

bool Utf8Validator::feed(const char *data, std::size_t size)
{
    if (m_bad)
        return false;
    for (std::size_t i = 0; i < size; ++i, ++m_offset) {
        const auto b = static_cast<unsigned char>(data[i]);
        if (m_need > 0) {
            if (b < m_low || b > m_high) {
                m_bad = true;
                return false;
            }
            m_low = 0x80;
            m_high = 0xBF;
            --m_need;
            continue;
        }
        m_sequenceStart = m_offset;
        if (b < 0x80) { // the ASCII run that follows, 16 bytes at a time
            const char *next = bytescan::skipAscii(data + i + 1, data + size);
            const auto run = static_cast<std::size_t>(next - (data + i + 1));
            i += run;
            m_offset += static_cast<qint64>(run);
            continue;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            m_need = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            m_need = 2;
            if (b == 0xE0)
                m_low = 0xA0; // overlong
            else if (b == 0xED)
                m_high = 0x9F; // surrogates
        } else if (b >= 0xF0 && b <= 0xF4) {
            m_need = 3;
            if (b == 0xF0)
                m_low = 0x90;
            else if (b == 0xF4)
                m_high = 0x8F;
        } else {
            m_bad = true;
            return false;
        }
    }
    return true;
}

bool isValidUtf8(const char *data, std::size_t size)
{
    Utf8Validator v;
    return v.feed(data, size) && v.finish();
}

} // namespace gf
