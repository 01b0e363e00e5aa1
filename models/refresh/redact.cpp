#include "refresh/redact.h"

#include "refresh/refreshoptions.h"

#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

namespace gf {

QString redactSecrets(QString text, const QStringList &secrets)
{
    if (text.isEmpty())
        return text;
    // Longest first: a secret that contains another is replaced whole.
    QStringList values;
    for (const QString &s : secrets) {
        const QString t = s.trimmed();
        if (t.size() < kMinSecretLength)
            continue;
        values.append(t);
        const QString encoded = QString::fromLatin1(QUrl::toPercentEncoding(t));
        if (encoded != t)
            values.append(encoded);
    }
    std::sort(values.begin(), values.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &v : std::as_const(values))
        text.replace(v, QStringLiteral("REDACTED"));
    // scheme://userinfo@host: everything between "//" and the last '@' of the authority.
    static const QRegularExpression userinfo(
        QStringLiteral("\\b([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\\s@]*(?:@[^/?#\\s@]*)*@"));
    text.replace(userinfo, QStringLiteral("\\1REDACTED@"));
    // The value ends at the next parameter, a space, a quote, or ": " (the URL ends a message part).
    static const QRegularExpression param(
        QStringLiteral(
            "([?&;](?:key|api[_-]?key|access[_-]?token|refresh[_-]?token|token|auth|password|passwd|pwd|"
            "secret|client[_-]?secret|sig|signature|x-amz-signature|x-amz-security-token|"
            "x-amz-credential|x-goog-signature|x-goog-credential)=)(?:[^&#\\s\"'<>),;:]|:(?=[^\\s&#]))+"),
        QRegularExpression::CaseInsensitiveOption);
    text.replace(param, QStringLiteral("\\1REDACTED"));
    return text;
}

QStringList refreshSecrets(const RefreshOptions &options)
{
    QStringList out;
    for (const QString &s : {options.gcpApiKey, options.vastApiKey})
        if (!s.trimmed().isEmpty())
            out.append(s.trimmed());
    const QUrl base(options.baseUrl.trimmed());
    if (!base.password().isEmpty())
        out.append(base.password());
    return out;
}

} // namespace gf
