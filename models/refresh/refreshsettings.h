#pragma once

#include "refresh/catalogrefresher.h"

#include <QString>

class QSettings;

namespace gf {

/// The refresh settings the GUI edits and the CLI honours (QSettings "GPU Frontier"/"gpufrontier"):
///   refresh/baseUrl/<provider>  base URL override (mirror, proxy)
///   refresh/gcpApiKey           Cloud Billing Catalog API key
///   refresh/awsRegions          comma-separated AWS regions (empty = all)
///   refresh/caBundle            PEM file of the CAs to trust instead of the system's (TLS-inspecting proxy)
///   refresh/maxTimeS            time limit of one download in seconds (default 1800)
namespace RefreshSettings {

QString baseUrl(const QSettings &s, const QString &provider);
void setBaseUrl(QSettings &s, const QString &provider, const QString &url);
QString gcpApiKey(const QSettings &s);
void setGcpApiKey(QSettings &s, const QString &key);
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

/// The GCP API key to use: explicit value, else $GPUFRONTIER_GCP_API_KEY, else the settings.
QString resolveGcpApiKey(const QString &explicitKey, const QSettings &s);

/// Checks a base URL typed by a user: http(s), a host, no query. Empty = valid (no override). The
/// message never repeats a password the URL carries.
QString validateBaseUrl(const QString &url);

} // namespace RefreshSettings

} // namespace gf
