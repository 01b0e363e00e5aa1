#include "refresh/refreshsettings.h"
#include "refresh/secretstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace gf;

namespace {
const QString kKey = QStringLiteral("AIzaSy-unit-test-secret-0123456789");

// The permission bits of a path as the file system has them (rwx for user, group, others).
int modeOf(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return static_cast<int>(st.st_mode & 0777);
}
// A keychain that can be switched on and off: as a keyring that starts after the key was stored.
class FakeKeychain final : public KeychainBackend
{
public:
    bool running = false;
    QHash<QString, QString> entries;
    int writes = 0;

    KeychainAnswer read(const QString &service, const QString &name) override
    {
        if (!running)
            return {KeychainAnswer::State::Unavailable, {}, QStringLiteral("no keyring is running")};
        const auto it = entries.constFind(service + u'/' + name);
        if (it == entries.constEnd())
            return {KeychainAnswer::State::NotFound, {}, QStringLiteral("not found")};
        return {KeychainAnswer::State::Ok, *it, {}};
    }
    KeychainAnswer write(const QString &service, const QString &name, const QString &value) override
    {
        if (!running)
            return {KeychainAnswer::State::Unavailable, {}, QStringLiteral("no keyring is running")};
        ++writes;
        entries.insert(service + u'/' + name, value);
        return {KeychainAnswer::State::Ok, {}, {}};
    }
    KeychainAnswer remove(const QString &service, const QString &name) override
    {
        if (!running)
            return {KeychainAnswer::State::Unavailable, {}, QStringLiteral("no keyring is running")};
        entries.remove(service + u'/' + name);
        return {KeychainAnswer::State::Ok, {}, {}};
    }
};

struct InstalledKeychain
{
    explicit InstalledKeychain(KeychainBackend *k) { SecretStore::setKeychainForTesting(k); }
    ~InstalledKeychain() { SecretStore::setKeychainForTesting(nullptr); }
};
} // namespace

class TestSecretStore final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fallbackFileIsPrivate()
    {
        QTemporaryDir dir;
        const QString secrets = dir.filePath(QStringLiteral("secrets"));
        const SecretStore store(SecretStore::Mode::File, secrets);
        const Result<SecretOutcome> stored =
            store.write(kGcpApiKeySecret, QStringLiteral("  ") + kKey + u'\n');
        QVERIFY2(stored, qPrintable(stored ? QString() : stored.error().text()));
        QCOMPARE(stored.value().location, SecretLocation::File);
        QCOMPARE(stored.value().value, kKey);
        const QString path = store.filePath(kGcpApiKeySecret);
        QVERIFY(QFileInfo::exists(path));
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(modeOf(secrets), 0700);
        // The warning says where and why, never the key itself.
        const QString warning = stored.value().warning;
        QVERIFY2(warning.contains(QDir::toNativeSeparators(path)) && warning.contains(QStringLiteral("0600")),
                 qPrintable(warning));
        QVERIFY(warning.contains(QStringLiteral("keychain")));
        QVERIFY(!warning.contains(kKey));

        const Result<SecretOutcome> read = store.read(kGcpApiKeySecret);
        QVERIFY(read);
        QCOMPARE(read.value().value, kKey);
        QCOMPARE(read.value().location, SecretLocation::File);
        QVERIFY(!read.value().warning.isEmpty());

        // A file someone made readable by others is closed again before it is read.
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QCOMPARE(modeOf(path), 0644);
        QVERIFY(store.read(kGcpApiKeySecret));
        QCOMPARE(modeOf(path), 0600);

        // Overwriting keeps the mode; an empty key removes the file.
        QVERIFY(store.write(kGcpApiKeySecret, QStringLiteral("AIzaSy-second")));
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, QStringLiteral("AIzaSy-second"));
        const Result<SecretOutcome> cleared = store.write(kGcpApiKeySecret, QString());
        QVERIFY(cleared);
        QCOMPARE(cleared.value().location, SecretLocation::None);
        QVERIFY(!QFileInfo::exists(path));
        const Result<SecretOutcome> none = store.read(kGcpApiKeySecret);
        QVERIFY(none);
        QCOMPARE(none.value().location, SecretLocation::None);
        QVERIFY(none.value().value.isEmpty());
        QVERIFY(none.value().warning.isEmpty());
    }

    // Auto mode where no keychain service answers (no session bus, as on CI): the file, with a
    // warning that says why.
    void autoFallsBackToTheFile()
    {
        const QByteArray bus = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/gpufrontier-test-bus");
        QTemporaryDir dir;
        const SecretStore store(SecretStore::Mode::Auto, dir.filePath(QStringLiteral("secrets")));
        const QString name = QStringLiteral("unit-test-secret");
        const Result<SecretOutcome> stored = store.write(name, kKey);
        QVERIFY2(stored, qPrintable(stored ? QString() : stored.error().text()));
        QCOMPARE(stored.value().location, SecretLocation::File);
        QVERIFY2(stored.value().warning.contains(QStringLiteral("no desktop keychain")),
                 qPrintable(stored.value().warning));
        QCOMPARE(modeOf(store.filePath(name)), 0600);
        const Result<SecretOutcome> read = store.read(name);
        QVERIFY(read);
        QCOMPARE(read.value().value, kKey);
        QCOMPARE(read.value().location, SecretLocation::File);
        QVERIFY(store.remove(name));
        QVERIFY(!QFileInfo::exists(store.filePath(name)));
        // Keychain only: an error, not the file.
        const SecretStore keychainOnly(SecretStore::Mode::Keychain, dir.filePath(QStringLiteral("secrets")));
        const Result<SecretOutcome> refused = keychainOnly.write(name, kKey);
        QVERIFY(!refused);
        QVERIFY(!refused.error().text().contains(kKey));
        QVERIFY(!QFileInfo::exists(store.filePath(name)));
        if (bus.isNull())
            qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        else
            qputenv("DBUS_SESSION_BUS_ADDRESS", bus);
    }

    // A key stored in the fallback file while no keychain ran can be moved into the keychain
    // once one runs: by writing it again (the same key) or with moveToKeychain; the file goes away.
    void fileKeyMovesIntoTheKeychain()
    {
        FakeKeychain keychain;
        InstalledKeychain installed(&keychain);
        QTemporaryDir dir;
        const SecretStore store(SecretStore::Mode::Auto, dir.filePath(QStringLiteral("secrets")));
        const QString path = store.filePath(kGcpApiKeySecret);

        // No keyring: the file, and moving is an error that keeps the file.
        const Result<SecretOutcome> first = store.write(kGcpApiKeySecret, kKey);
        QVERIFY(first);
        QCOMPARE(first.value().location, SecretLocation::File);
        QVERIFY(QFileInfo::exists(path));
        const Result<SecretOutcome> notYet = store.moveToKeychain(kGcpApiKeySecret);
        QVERIFY(!notYet);
        QVERIFY2(notYet.error().text().contains(QStringLiteral("no desktop keychain")),
                 qPrintable(notYet.error().text()));
        QVERIFY(!notYet.error().text().contains(kKey));
        QVERIFY(QFileInfo::exists(path));
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, kKey);

        // The keyring starts: the same key written again lands in it, and the file is deleted.
        keychain.running = true;
        const Result<SecretOutcome> again = store.write(kGcpApiKeySecret, kKey);
        QVERIFY(again);
        QCOMPARE(again.value().location, SecretLocation::Keychain);
        QVERIFY(again.value().warning.isEmpty());
        QCOMPARE(keychain.entries.value(SecretStore::serviceName() + QStringLiteral("/") + kGcpApiKeySecret),
                 kKey);
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(store.read(kGcpApiKeySecret).value().location, SecretLocation::Keychain);

        // The explicit move: file -> keychain, the file deleted; nothing to move afterwards.
        QVERIFY(store.remove(kGcpApiKeySecret));
        keychain.running = false;
        QCOMPARE(store.write(kGcpApiKeySecret, kKey).value().location, SecretLocation::File);
        keychain.running = true;
        const Result<SecretOutcome> moved = store.moveToKeychain(kGcpApiKeySecret);
        QVERIFY2(moved, qPrintable(moved ? QString() : moved.error().text()));
        QCOMPARE(moved.value().location, SecretLocation::Keychain);
        QCOMPARE(moved.value().value, kKey);
        QVERIFY(!QFileInfo::exists(path));
        const Result<SecretOutcome> nothing = store.moveToKeychain(kGcpApiKeySecret);
        QVERIFY(nothing);
        QCOMPARE(nothing.value().location, SecretLocation::None);
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, kKey); // still in the keychain

        // A store kept in the file by choice does not move.
        const SecretStore fileOnly(SecretStore::Mode::File, dir.filePath(QStringLiteral("secrets")));
        QVERIFY(fileOnly.write(kGcpApiKeySecret, kKey));
        QVERIFY(!fileOnly.moveToKeychain(kGcpApiKeySecret));
        QVERIFY(QFileInfo::exists(path));
    }

    void unwritableFolderIsAnError()
    {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        // A file where the folder should be.
        const SecretStore store(SecretStore::Mode::File, blocker.fileName());
        const Result<SecretOutcome> stored = store.write(kGcpApiKeySecret, kKey);
        QVERIFY(!stored);
        QVERIFY(!stored.error().text().contains(kKey));
    }

    void migratesThePlainSetting()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        settings.setValue(RefreshSettings::kLegacyGcpApiKeySetting, kKey);
        settings.setValue(QStringLiteral("refresh/awsRegions"), QStringLiteral("us-east-1"));
        settings.sync();
        const SecretStore store(SecretStore::Mode::File, dir.filePath(QStringLiteral("secrets")));

        const auto migrated = RefreshSettings::migrateGcpApiKey(settings, store);
        QVERIFY(migrated.has_value());
        QVERIFY(*migrated);
        QCOMPARE(migrated->value().location, SecretLocation::File);
        // Gone from the settings (and from the file on disk), kept in the store; other settings stay.
        QVERIFY(!settings.contains(RefreshSettings::kLegacyGcpApiKeySetting));
        QCOMPARE(settings.value(QStringLiteral("refresh/awsRegions")).toString(),
                 QStringLiteral("us-east-1"));
        QFile ini(settings.fileName());
        QVERIFY(ini.open(QIODevice::ReadOnly));
        QVERIFY(!ini.readAll().contains(kKey.toUtf8()));
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, kKey);
        QCOMPARE(modeOf(store.filePath(kGcpApiKeySecret)), 0600);

        // Nothing left to move on the next start.
        QVERIFY(!RefreshSettings::migrateGcpApiKey(settings, store).has_value());
        // An empty legacy value is just removed.
        settings.setValue(RefreshSettings::kLegacyGcpApiKeySetting, QStringLiteral("  "));
        QVERIFY(!RefreshSettings::migrateGcpApiKey(settings, store).has_value());
        QVERIFY(!settings.contains(RefreshSettings::kLegacyGcpApiKeySetting));
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, kKey);
    }

    void migrationKeepsTheSettingOnFailure()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        settings.setValue(RefreshSettings::kLegacyGcpApiKeySetting, kKey);
        QFile blocker(dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const SecretStore store(SecretStore::Mode::File, blocker.fileName());
        const auto migrated = RefreshSettings::migrateGcpApiKey(settings, store);
        QVERIFY(migrated.has_value());
        QVERIFY(!*migrated);
        QCOMPARE(settings.value(RefreshSettings::kLegacyGcpApiKeySetting).toString(), kKey); // nothing lost
    }

    void resolvesExplicitThenEnvironmentThenStore()
    {
        QTemporaryDir dir;
        const SecretStore store(SecretStore::Mode::File, dir.filePath(QStringLiteral("secrets")));
        qunsetenv("GPUFRONTIER_GCP_API_KEY");
        RefreshSettings::ResolvedKey none = RefreshSettings::resolveGcpApiKey(QString(), store);
        QCOMPARE(none.source, RefreshSettings::KeySource::None);
        QVERIFY(none.key.isEmpty());

        QVERIFY(store.write(kGcpApiKeySecret, kKey));
        RefreshSettings::ResolvedKey stored = RefreshSettings::resolveGcpApiKey(QString(), store);
        QCOMPARE(stored.source, RefreshSettings::KeySource::Store);
        QCOMPARE(stored.key, kKey);
        QCOMPARE(stored.stored.location, SecretLocation::File);
        QVERIFY(!stored.stored.warning.isEmpty());

        qputenv("GPUFRONTIER_GCP_API_KEY", "AIzaSy-from-env");
        RefreshSettings::ResolvedKey env = RefreshSettings::resolveGcpApiKey(QString(), store);
        QCOMPARE(env.source, RefreshSettings::KeySource::Environment);
        QCOMPARE(env.key, QStringLiteral("AIzaSy-from-env"));

        RefreshSettings::ResolvedKey given =
            RefreshSettings::resolveGcpApiKey(QStringLiteral(" AIzaSy-given "), store);
        QCOMPARE(given.source, RefreshSettings::KeySource::Explicit);
        QCOMPARE(given.key, QStringLiteral("AIzaSy-given"));
        qunsetenv("GPUFRONTIER_GCP_API_KEY");
    }

    void modeFromTheEnvironment()
    {
        const QByteArray old = qgetenv("GPUFRONTIER_SECRET_STORE");
        qputenv("GPUFRONTIER_SECRET_STORE", "file");
        QCOMPARE(SecretStore::modeFromEnvironment(), SecretStore::Mode::File);
        qputenv("GPUFRONTIER_SECRET_STORE", "Keychain");
        QCOMPARE(SecretStore::modeFromEnvironment(), SecretStore::Mode::Keychain);
        qunsetenv("GPUFRONTIER_SECRET_STORE");
        QCOMPARE(SecretStore::modeFromEnvironment(), SecretStore::Mode::Auto);
        qputenv("GPUFRONTIER_SECRET_STORE", old);
    }
};

QTEST_GUILESS_MAIN(TestSecretStore)
#include "test_secretstore.moc"
