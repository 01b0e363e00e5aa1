#include "util/shellquote.h"

namespace gf {

QString shellQuoted(QStringView text)
{
    QString out = QStringLiteral("'");
    for (QChar c : text) {
        if (c == u'\'')
            out += QStringLiteral("'\\''");
        else
            out += c;
    }
    out += u'\'';
    return out;
}

QString shellWord(QStringView text)
{
    static const QString safe =
        QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-,:/+=");
    if (text.isEmpty())
        return QStringLiteral("''");
    for (QChar c : text)
        if (!safe.contains(c))
            return shellQuoted(text);
    return text.toString();
}

} // namespace gf
