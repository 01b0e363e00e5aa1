#pragma once

#include "util/result.h"

#include <QString>

#include <optional>

class QSettings;

namespace gf {

/// Where a secret is kept.
enum class SecretLocation
{
    None,     ///< nowhere (not stored)
    Keychain, ///< the desktop's keychain (Secret Service, KWallet, macOS Keychain, Windows Credential
              ///< Manager)
    File      ///< the fallback file, readable only by its owner (mode 0600)
};

/// A secret read back, or what storing one did. `value` is the secret itself: never print it.
struct SecretOutcome
{
    QString value;
    SecretLocation location = SecretLocation::None;
    /// Set when the fallback file is used: where it is and why no keychain was used (facts only).
    QString warning;
};

/// What the keychain answered to one call (SecretStore's view of QtKeychain; never printed).
struct KeychainAnswer
{
    enum class State
    {
        Ok,
        NotFound,
        Unavailable, ///< no keychain service answers: use the file
        Failed       ///< the keychain answered with an error (access denied, ...)
    };
    State state = State::Unavailable;
    QString value;   ///< the secret read (read calls only)
    QString message; ///< the keychain's error text (never holds the secret)
};

/// The keychain behind SecretStore. The application uses QtKeychain; a test installs a stand-in with
/// SecretStore::setKeychainForTesting (a keychain that starts later, one that refuses, ...).
class KeychainBackend
{
public:
    virtual ~KeychainBackend() = default;
    virtual KeychainAnswer read(const QString &service, const QString &name) = 0;
    virtual KeychainAnswer write(const QString &service, const QString &name, const QString &value) = 0;
    virtual KeychainAnswer remove(const QString &service, const QString &name) = 0;
};

/// The application's secrets (the GCP API key) in the desktop's keychain through QtKeychain. Where no
/// keychain service answers (CI, a server without a desktop session, tests), a file readable only by
/// its owner (0600, in a 0700 folder) holds it instead, and the outcome carries a warning saying so.
/// Calls block until the keychain answers (a nested event loop, at most kKeychainTimeoutMs); they
/// need a QCoreApplication for the keychain and work without one on the file.
class SecretStore
{
public:
    enum class Mode
    {
        Auto,     ///< the keychain, else the file
        Keychain, ///< the keychain only (an error where none runs)
        File      ///< the file only (tests, CI, headless machines)
    };
    /// $GPUFRONTIER_SECRET_STORE: "keychain", "file", else (unset, "auto") Auto.
    static Mode modeFromEnvironment();
    /// The folder of the fallback files: <AppLocalDataLocation>/secrets.
    static QString defaultFileDir();
    /// The keychain service name the secrets are filed under.
    static QString serviceName();
    static constexpr int kKeychainTimeoutMs = 15000;

    explicit SecretStore(Mode mode = modeFromEnvironment(), QString fileDir = defaultFileDir());

    Mode mode() const { return m_mode; }
    /// The fallback file of a secret.
    QString filePath(const QString &name) const;

    /// The stored secret; location None (empty value) when there is none.
    Result<SecretOutcome> read(const QString &name) const;
    /// Stores a secret (trimmed); an empty one removes it. In the keychain a stale fallback file is deleted.
    Result<SecretOutcome> write(const QString &name, const QString &value) const;
    /// Removes a secret from the keychain and the fallback file.
    Status remove(const QString &name) const;
    /// Moves a secret kept in the fallback file (no keychain answered when it was stored) into the
    /// keychain now, and deletes the file once the keychain holds it. Location None when the file holds
    /// nothing; an error (the file kept, nothing lost) when no keychain takes it or the mode is File.
    Result<SecretOutcome> moveToKeychain(const QString &name) const;

    /// Replaces the keychain of every SecretStore in this process (tests); nullptr restores QtKeychain.
    /// The caller keeps ownership and restores nullptr before the backend goes away.
    static void setKeychainForTesting(KeychainBackend *backend);

    /// Moves a secret that an older version kept in plain QSettings (`settingsKey`) into the store and
    /// deletes it there once stored. nullopt when there was nothing to move; the write's outcome
    /// otherwise (on an error the setting is kept, so that nothing is lost).
    std::optional<Result<SecretOutcome>> migrateFromSettings(QSettings &settings, const QString &settingsKey,
                                                             const QString &name) const;

private:
    Result<SecretOutcome> readFile(const QString &name, const QString &why) const;
    Result<SecretOutcome> writeFile(const QString &name, const QString &value, const QString &why) const;
    Status removeFile(const QString &name) const;

    Mode m_mode;
    QString m_fileDir;
};

/// The secret names of the application.
inline const QString kGcpApiKeySecret = QStringLiteral("gcp-api-key");

} // namespace gf
