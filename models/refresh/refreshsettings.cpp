#include "refresh/refreshsettings.h"

#include "refresh/redact.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace gf::RefreshSettings {

QString baseUrl(const QSettings &s, const QString &provider)
{
    return s.value(QStringLiteral("refresh/baseUrl/") + provider).toString().trimmed();
}

void setBaseUrl(QSettings &s, const QString &provider, const QString &url)
{
    if (url.trimmed().isEmpty())
        s.remove(QStringLiteral("refresh/baseUrl/") + provider);
    else
        s.setValue(QStringLiteral("refresh/baseUrl/") + provider, url.trimmed());
}

SourceChoice source(const QSettings &s, const QString &provider)
{
    return sourceChoiceFromName(s.value(QStringLiteral("refresh/source/") + provider).toString())
        .value_or(SourceChoice::Default);
}

void setSource(QSettings &s, const QString &provider, SourceChoice choice)
{
    if (choice == SourceChoice::Default)
        s.remove(QStringLiteral("refresh/source/") + provider);
    else
        s.setValue(QStringLiteral("refresh/source/") + provider, sourceChoiceName(choice));
}

std::optional<Result<SecretOutcome>> migrateGcpApiKey(QSettings &s, const SecretStore &store)
{
    return store.migrateFromSettings(s, kLegacyGcpApiKeySetting, kGcpApiKeySecret);
}

QStringList awsRegions(const QSettings &s)
{
    QStringList out;
    for (const QString &r :
         s.value(QStringLiteral("refresh/awsRegions")).toString().split(u',', Qt::SkipEmptyParts))
        out.append(r.trimmed());
    return out;
}

void setAwsRegions(QSettings &s, const QStringList &regions)
{
    if (regions.isEmpty())
        s.remove(QStringLiteral("refresh/awsRegions"));
    else
        s.setValue(QStringLiteral("refresh/awsRegions"), regions.join(u','));
}

QString caBundle(const QSettings &s)
{
    return s.value(QStringLiteral("refresh/caBundle")).toString().trimmed();
}

void setCaBundle(QSettings &s, const QString &path)
{
    if (path.trimmed().isEmpty())
        s.remove(QStringLiteral("refresh/caBundle"));
    else
        s.setValue(QStringLiteral("refresh/caBundle"), path.trimmed());
}

QString resolveCaBundle(const QString &explicitPath, const QSettings &s)
{
    if (!explicitPath.trimmed().isEmpty())
        return explicitPath.trimmed();
    const QString env = qEnvironmentVariable("GPUFRONTIER_CA_BUNDLE").trimmed();
    if (!env.isEmpty())
        return env;
    return caBundle(s);
}

QString validateCaBundle(const QString &path)
{
    const QString p = path.trimmed();
    if (p.isEmpty())
        return {};
    const QFileInfo info(p);
    if (!info.exists())
        return QStringLiteral("CA bundle \"%1\" does not exist").arg(p);
    if (!info.isFile() || !info.isReadable())
        return QStringLiteral("CA bundle \"%1\" is not a readable file").arg(p);
    QFile f(p);
    if (!f.open(QIODevice::ReadOnly) || !f.read(1 << 20).contains("-----BEGIN CERTIFICATE-----"))
        return QStringLiteral("CA bundle \"%1\" holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            .arg(p);
    return {};
}

int maxTimeS(const QSettings &s)
{
    bool ok = false;
    const int v = s.value(QStringLiteral("refresh/maxTimeS")).toInt(&ok);
    return ok && v >= 1 && v <= kMaxMaxTimeS ? v : kDefaultMaxTimeS;
}

void setMaxTimeS(QSettings &s, int seconds)
{
    if (seconds == kDefaultMaxTimeS || seconds < 1 || seconds > kMaxMaxTimeS)
        s.remove(QStringLiteral("refresh/maxTimeS"));
    else
        s.setValue(QStringLiteral("refresh/maxTimeS"), seconds);
}

ResolvedKey resolveGcpApiKey(const QString &explicitKey, const SecretStore &store)
{
    ResolvedKey r;
    if (!explicitKey.trimmed().isEmpty()) {
        r.key = explicitKey.trimmed();
        r.source = KeySource::Explicit;
        return r;
    }
    const QString env = qEnvironmentVariable("GPUFRONTIER_GCP_API_KEY").trimmed();
    if (!env.isEmpty()) {
        r.key = env;
        r.source = KeySource::Environment;
        return r;
    }
    const Result<SecretOutcome> stored = store.read(kGcpApiKeySecret);
    if (!stored) {
        r.error = stored.error().text();
        return r;
    }
    r.stored = stored.value();
    r.key = r.stored.value;
    r.source = r.key.isEmpty() ? KeySource::None : KeySource::Store;
    return r;
}

QString validateBaseUrl(const QString &url)
{
    const QString t = url.trimmed();
    if (t.isEmpty())
        return {};
    const QUrl u(t, QUrl::StrictMode);
    const QString shown = redactSecrets(t, {u.password()});
    if (!u.isValid() || (u.scheme() != u"http" && u.scheme() != u"https") || u.host().isEmpty())
        return QStringLiteral("\"%1\" is not an http(s) URL with a host").arg(shown);
    if (u.hasQuery() || u.hasFragment())
        return QStringLiteral("\"%1\": a base URL has no query or fragment").arg(shown);
    return {};
}

RefreshOptions refreshOptions(RefreshOptions base, const QSettings &s, const SecretStore &secrets,
                              const Overrides &overrides, ResolvedKey *key)
{
    base.http.caBundle = resolveCaBundle(overrides.caBundle, s);
    if (overrides.withGcpApiKey) {
        ResolvedKey resolved = resolveGcpApiKey(overrides.gcpApiKey, secrets);
        base.gcpApiKey = resolved.key;
        if (key)
            *key = std::move(resolved);
    }
    base.vastApiKey = qEnvironmentVariable("GPUFRONTIER_VASTAI_API_KEY");
    base.awsRegions = overrides.awsRegions.isEmpty() ? awsRegions(s) : overrides.awsRegions;
    base.http.maxTimeMs = overrides.maxTimeMs.value_or(qint64(maxTimeS(s)) * 1000);
    return base;
}

} // namespace gf::RefreshSettings
