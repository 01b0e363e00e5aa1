#include "launch/yamltext.h"

#include "util/printable.h"

#include <QStringList>

namespace gf {

QString yamlQuoted(QStringView text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += u'"';
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        const char16_t u = c.unicode();
        if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            out += c;
            out += text.at(++i);
            continue;
        }
        switch (u) {
        case u'"':
            out += QStringLiteral("\\\"");
            continue;
        case u'\\':
            out += QStringLiteral("\\\\");
            continue;
        case u'\n':
            out += QStringLiteral("\\n");
            continue;
        case u'\t':
            out += QStringLiteral("\\t");
            continue;
        case u'\r':
            out += QStringLiteral("\\r");
            continue;
        default:
            break;
        }
        const bool control = u < 0x20 || u == 0x7F || (u >= 0x80 && u <= 0x9F);
        if (control)
            out += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
        else if (u == 0x2028 || u == 0x2029 || u == 0xFEFF || c.isSurrogate() || u == 0xFFFE || u == 0xFFFF)
            out += QStringLiteral("\\u%1").arg(u, 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    out += u'"';
    return out;
}

QString yamlCommentText(QStringView text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        // The one rule of util/printable.h (controls, line separators, bidi overrides and isolates),
        // plus what YAML itself refuses in a comment: the BOM and lone surrogate halves.
        const bool bad = isUnprintableChar(c.unicode()) || c.unicode() == 0xFEFF || c.isSurrogate();
        out += bad ? u'?' : c;
    }
    return out;
}

QString yamlLiteralBlock(const QString &text, int indent)
{
    const QString pad(indent, u' ');
    QString out = QStringLiteral("|\n");
    const QStringList lines = text.split(u'\n');
    qsizetype n = lines.size();
    while (n > 0 && lines.at(n - 1).isEmpty())
        --n;
    for (qsizetype i = 0; i < n; ++i)
        out += lines.at(i).isEmpty() ? QStringLiteral("\n") : pad + lines.at(i) + u'\n';
    return out;
}

} // namespace gf
