#pragma once

#include "refresh/catalogrefresher.h"
#include "refresh/secretstore.h"

#include <QString>

class QSettings;

namespace gf {

/// The refresh settings the GUI edits and the CLI honours (QSettings "GPU Frontier"/"gpufrontier"):
///   refresh/baseUrl/<provider>  base URL override (mirror, proxy)
///   refresh/source/<provider>   "skypilot": read SkyPilot's catalog instead of the provider's own API
///                               (providers with both, e.g. RunPod, Oracle Cloud); unset = the default
///   refresh/gcpApiKey           (older versions) the Cloud Billing Catalog API key, now in the SecretStore
///   refresh/awsRegions          comma-separated AWS regions (empty = all)
///   refresh/caBundle            PEM file of the CAs to trust instead of the system's (TLS-inspecting proxy)
///   refresh/maxTimeS            time limit of one download in seconds (default 1800)
namespace RefreshSettings {

QString baseUrl(const QSettings &s, const QString &provider);
void setBaseUrl(QSettings &s, const QString &provider, const QString &url);
/// The live source chosen for a provider (Default when unset or unreadable).
SourceChoice source(const QSettings &s, const QString &provider);
/// Stores the choice; Default removes the key.
void setSource(QSettings &s, const QString &provider, SourceChoice choice);
/// The setting where versions before the SecretStore kept the GCP API key in plain text.
inline const QString kLegacyGcpApiKeySetting = QStringLiteral("refresh/gcpApiKey");
/// Moves a GCP API key from the plain setting into the store (first start after the update) and deletes
/// it there; nullopt when there was none.
std::optional<Result<SecretOutcome>> migrateGcpApiKey(QSettings &s, const SecretStore &store);
QStringList awsRegions(const QSettings &s);
void setAwsRegions(QSettings &s, const QStringList &regions);

QString caBundle(const QSettings &s);
void setCaBundle(QSettings &s, const QString &path);
/// The CA bundle to use: explicit value, else $GPUFRONTIER_CA_BUNDLE, else the settings; empty =
/// the system store (or $CURL_CA_BUNDLE, see HttpOptions::caBundle).
QString resolveCaBundle(const QString &explicitPath, const QSettings &s);
/// Checks a CA bundle path typed by a user: empty (system store) or a readable file.
QString validateCaBundle(const QString &path);

/// Time limit of one download (HttpOptions::maxTimeMs), seconds: default 30 minutes.
inline constexpr int kDefaultMaxTimeS = 30 * 60;
/// The largest limit accepted (a week: "no limit" that still ends).
inline constexpr int kMaxMaxTimeS = 7 * 24 * 3600;
/// The stored limit, kDefaultMaxTimeS when unset or out of range (1 .. kMaxMaxTimeS).
int maxTimeS(const QSettings &s);
/// Stores a limit; the default or a value out of range removes the key.
void setMaxTimeS(QSettings &s, int seconds);

/// Where the GCP API key of a refresh came from.
enum class KeySource
{
    None,
    Explicit,    ///< given by the caller (--api-key-file)
    Environment, ///< $GPUFRONTIER_GCP_API_KEY
    Store        ///< the keychain or its fallback file (SecretOutcome::location, ::warning)
};
struct ResolvedKey
{
    QString key; ///< never print it
    KeySource source = KeySource::None;
    SecretOutcome stored; ///< for KeySource::Store: where, and the fallback warning
    QString error;        ///< the store could not be read (the refresh goes on without a key)
};
/// The GCP API key to use: explicit value, else $GPUFRONTIER_GCP_API_KEY, else the secret store.
ResolvedKey resolveGcpApiKey(const QString &explicitKey, const SecretStore &store);

/// What a front end gives over the stored settings (the CLI's flags); empty or unset = the settings'.
struct Overrides
{
    QString gcpApiKey;         ///< explicit key; empty = $GPUFRONTIER_GCP_API_KEY, else the secret store
    bool withGcpApiKey = true; ///< false: the GCP key is not looked up (GCP is not refreshed)
    QString caBundle;          ///< explicit CA bundle (resolveCaBundle)
    QStringList awsRegions;    ///< explicit AWS regions
    std::optional<qint64> maxTimeMs; ///< explicit time limit of one download
};
/// The one builder of a refresh's options, for the Catalogs page (through RefreshService) and
/// `gpufrontier-cli refresh`: `base` with the GCP API key (resolveGcpApiKey), the vast.ai key
/// ($GPUFRONTIER_VASTAI_API_KEY), the AWS regions, the CA bundle (resolveCaBundle) and the time limit,
/// each from `overrides`, else the environment or the settings. It may read the secret store (the
/// desktop keychain, a nested event loop): never call it on the GUI thread. `key` (if given) gets where
/// the GCP key came from.
RefreshOptions refreshOptions(RefreshOptions base, const QSettings &s, const SecretStore &secrets,
                              const Overrides &overrides = {}, ResolvedKey *key = nullptr);

/// Checks a base URL typed by a user: http(s), a host, no query. Empty = valid (no override). The
/// message never repeats a password the URL carries.
QString validateBaseUrl(const QString &url);

} // namespace RefreshSettings

} // namespace gf
