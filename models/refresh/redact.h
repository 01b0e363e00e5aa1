#pragma once

#include <QString>
#include <QStringList>

namespace gf {

struct RefreshOptions;

/// Text meant for people, logs or the database with the credentials taken out:
///  - the userinfo of URLs ("https://user:password@host" -> "https://REDACTED@host"),
///  - the values of credential query parameters ("?key=...", "&api_key=...", "&token=...",
///    "&password=...", "&signature=...", ...: "key=REDACTED"),
///  - each of `secrets` (API keys, passwords) wherever it appears, as given and percent-encoded.
/// Secrets shorter than kMinSecretLength are left to the two patterns (redacting every "ab" would
/// wreck the text and reveal the secret by its gaps).
QString redactSecrets(QString text, const QStringList &secrets = {});

inline constexpr int kMinSecretLength = 4;

/// The credentials a refresh with these options uses: API keys and the password of a base URL.
QStringList refreshSecrets(const RefreshOptions &options);

} // namespace gf
