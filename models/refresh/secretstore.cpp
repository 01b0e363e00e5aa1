#include "refresh/secretstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <atomic>
#include <type_traits>

#if GF_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace gf {

namespace {

constexpr QFileDevice::Permissions kFileMode = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions kDirMode =
    QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;

using KeychainState = KeychainAnswer::State;

std::atomic<KeychainBackend *> g_testKeychain{nullptr};

#if GF_HAVE_KEYCHAIN
KeychainState stateOf(QKeychain::Error error)
{
    switch (error) {
    case QKeychain::NoError:
        return KeychainState::Ok;
    case QKeychain::EntryNotFound:
        return KeychainState::NotFound;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
    case QKeychain::OtherError: // libsecret without a session bus, a keyring that does not start
        return KeychainState::Unavailable;
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        return KeychainState::Failed;
    }
    return KeychainState::Failed;
}

// Runs a QtKeychain job to its end in a nested event loop (the jobs answer asynchronously).
template <class Job, class Setup> KeychainAnswer runJob(const QString &name, Setup setup)
{
    if (!QCoreApplication::instance())
        return {KeychainState::Unavailable, {}, QStringLiteral("no application event loop")};
    auto *job = new Job(SecretStore::serviceName());
    job->setAutoDelete(true); // deletes itself after finishing, also after a timeout here
    job->setInsecureFallback(false);
    job->setKey(name);
    setup(*job);
    KeychainAnswer answer;
    bool done = false;
    QEventLoop loop;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&answer, &done, &loop](QKeychain::Job *j) {
        answer.state = stateOf(j->error());
        answer.message = j->errorString();
        if constexpr (std::is_same_v<Job, QKeychain::ReadPasswordJob>)
            answer.value = static_cast<QKeychain::ReadPasswordJob *>(j)->textData();
        done = true;
        loop.quit();
    });
    QTimer::singleShot(SecretStore::kKeychainTimeoutMs, &loop, &QEventLoop::quit);
    job->start();
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    if (!done) {
        QObject::disconnect(job, nullptr, &loop, nullptr);
        return {KeychainState::Unavailable,
                {},
                QStringLiteral("the keychain did not answer within %1 s")
                    .arg(SecretStore::kKeychainTimeoutMs / 1000)};
    }
    return answer;
}

#else
// Built without QtKeychain: every keychain call answers "unavailable" and the file is used.
namespace QKeychain {
struct ReadPasswordJob
{
};
struct WritePasswordJob
{
    void setTextData(const QString &) {}
};
struct DeletePasswordJob
{
};
} // namespace QKeychain
template <class Job, class Setup> KeychainAnswer runJob(const QString &, Setup)
{
    return {
        KeychainState::Unavailable, {}, QStringLiteral("this build has no keychain support (QtKeychain)")};
}
#endif

// The keychain calls: a test's stand-in when one is installed, else QtKeychain.
KeychainAnswer keychainRead(const QString &name)
{
    if (KeychainBackend *k = g_testKeychain.load())
        return k->read(SecretStore::serviceName(), name);
    return runJob<QKeychain::ReadPasswordJob>(name, [](QKeychain::ReadPasswordJob &) {});
}

KeychainAnswer keychainWrite(const QString &name, const QString &value)
{
    if (KeychainBackend *k = g_testKeychain.load())
        return k->write(SecretStore::serviceName(), name, value);
    return runJob<QKeychain::WritePasswordJob>(
        name, [&value](QKeychain::WritePasswordJob &job) { job.setTextData(value); });
}

KeychainAnswer keychainRemove(const QString &name)
{
    if (KeychainBackend *k = g_testKeychain.load())
        return k->remove(SecretStore::serviceName(), name);
    return runJob<QKeychain::DeletePasswordJob>(name, [](QKeychain::DeletePasswordJob &) {});
}

QString fallbackWarning(const QString &path, const QString &why)
{
    return QStringLiteral("no desktop keychain is available (%1): the key is kept in %2, readable only by "
                          "you (mode 0600)")
        .arg(why, QDir::toNativeSeparators(path));
}

} // namespace

SecretStore::Mode SecretStore::modeFromEnvironment()
{
    const QString v = qEnvironmentVariable("GPUFRONTIER_SECRET_STORE").trimmed().toLower();
    if (v == u"keychain")
        return Mode::Keychain;
    if (v == u"file")
        return Mode::File;
    return Mode::Auto;
}

QString SecretStore::defaultFileDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/secrets");
}

QString SecretStore::serviceName()
{
    return QStringLiteral("GPU Frontier");
}

SecretStore::SecretStore(Mode mode, QString fileDir) : m_mode(mode), m_fileDir(std::move(fileDir)) {}

QString SecretStore::filePath(const QString &name) const
{
    return m_fileDir + u'/' + name;
}

Result<SecretOutcome> SecretStore::readFile(const QString &name, const QString &why) const
{
    const QString path = filePath(name);
    QFile f(path);
    if (!f.exists())
        return SecretOutcome{};
    if ((f.permissions() & ~(kFileMode | QFileDevice::ReadUser | QFileDevice::WriteUser)) != 0)
        f.setPermissions(kFileMode); // readable by others: close that first
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read the key file %1: %2").arg(path, f.errorString()));
    const QString value = QString::fromUtf8(f.readAll()).trimmed();
    return SecretOutcome{value, value.isEmpty() ? SecretLocation::None : SecretLocation::File,
                         value.isEmpty() ? QString() : fallbackWarning(path, why)};
}

Result<SecretOutcome> SecretStore::writeFile(const QString &name, const QString &value,
                                             const QString &why) const
{
    if (!QDir().mkpath(m_fileDir))
        return makeError(QStringLiteral("cannot create the folder %1 for the key file").arg(m_fileDir));
    QFile::setPermissions(m_fileDir, kDirMode);
    const QString path = filePath(name);
    QFile f(path);
    if (f.exists() && !f.setPermissions(kFileMode))
        return makeError(
            QStringLiteral("cannot make the key file %1 private: %2").arg(path, f.errorString()));
    // Created with mode 0600 from the start: no moment where another user could open it.
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate, kFileMode))
        return makeError(QStringLiteral("cannot write the key file %1: %2").arg(path, f.errorString()));
    const QByteArray bytes = value.toUtf8() + '\n';
    if (f.write(bytes) != bytes.size() || !f.flush())
        return makeError(QStringLiteral("cannot write the key file %1: %2").arg(path, f.errorString()));
    f.close();
    return SecretOutcome{value, SecretLocation::File, fallbackWarning(path, why)};
}

Status SecretStore::removeFile(const QString &name) const
{
    QFile f(filePath(name));
    if (f.exists() && !f.remove())
        return makeError(
            QStringLiteral("cannot delete the key file %1: %2").arg(f.fileName(), f.errorString()));
    return Ok{};
}

Result<SecretOutcome> SecretStore::read(const QString &name) const
{
    if (m_mode == Mode::File)
        return readFile(name, QStringLiteral("GPUFRONTIER_SECRET_STORE=file"));
    const KeychainAnswer a = keychainRead(name);
    switch (a.state) {
    case KeychainState::Ok:
        return SecretOutcome{a.value.trimmed(), SecretLocation::Keychain, {}};
    case KeychainState::NotFound: {
        if (m_mode == Mode::Keychain)
            return SecretOutcome{};
        // Kept in the file while no keychain ran: move it into the keychain now that one answers.
        auto file = readFile(name, QStringLiteral("earlier"));
        if (!file || file.value().location == SecretLocation::None)
            return file;
        if (auto moved = write(name, file.value().value);
            moved && moved.value().location == SecretLocation::Keychain)
            return moved;
        return file;
    }
    case KeychainState::Unavailable:
        if (m_mode == Mode::Keychain)
            return makeError(QStringLiteral("no desktop keychain is available: %1").arg(a.message));
        return readFile(name, a.message);
    case KeychainState::Failed:
        break;
    }
    return makeError(QStringLiteral("the desktop keychain refused to read the key: %1").arg(a.message));
}

Result<SecretOutcome> SecretStore::write(const QString &name, const QString &value) const
{
    const QString v = value.trimmed();
    if (v.isEmpty()) {
        if (const Status s = remove(name); !s)
            return s.error();
        return SecretOutcome{};
    }
    if (m_mode == Mode::File)
        return writeFile(name, v, QStringLiteral("GPUFRONTIER_SECRET_STORE=file"));
    const KeychainAnswer a = keychainWrite(name, v);
    if (a.state == KeychainState::Ok) {
        if (const Status s = removeFile(name); !s)
            return s.error();
        return SecretOutcome{v, SecretLocation::Keychain, {}};
    }
    if (a.state == KeychainState::Unavailable && m_mode == Mode::Auto)
        return writeFile(name, v, a.message);
    if (a.state == KeychainState::Unavailable)
        return makeError(QStringLiteral("no desktop keychain is available: %1").arg(a.message));
    return makeError(QStringLiteral("the desktop keychain refused to store the key: %1").arg(a.message));
}

Status SecretStore::remove(const QString &name) const
{
    if (m_mode != Mode::File) {
        const KeychainAnswer a = keychainRemove(name);
        if (a.state == KeychainState::Failed)
            return makeError(
                QStringLiteral("the desktop keychain refused to delete the key: %1").arg(a.message));
        if (a.state == KeychainState::Unavailable && m_mode == Mode::Keychain)
            return makeError(QStringLiteral("no desktop keychain is available: %1").arg(a.message));
    }
    return removeFile(name);
}

Result<SecretOutcome> SecretStore::moveToKeychain(const QString &name) const
{
    if (m_mode == Mode::File)
        return makeError(
            QStringLiteral("the key is kept in a file by choice (GPUFRONTIER_SECRET_STORE=file)"));
    auto file = readFile(name, QStringLiteral("earlier"));
    if (!file || file.value().location == SecretLocation::None)
        return file;
    // The keychain only: where none answers the file stays as it is.
    return SecretStore(Mode::Keychain, m_fileDir).write(name, file.value().value);
}

void SecretStore::setKeychainForTesting(KeychainBackend *backend)
{
    g_testKeychain.store(backend);
}

std::optional<Result<SecretOutcome>>
SecretStore::migrateFromSettings(QSettings &settings, const QString &settingsKey, const QString &name) const
{
    if (!settings.contains(settingsKey))
        return std::nullopt;
    const QString legacy = settings.value(settingsKey).toString().trimmed();
    if (legacy.isEmpty()) {
        settings.remove(settingsKey);
        return std::nullopt;
    }
    Result<SecretOutcome> stored = write(name, legacy);
    if (stored) {
        settings.remove(settingsKey);
        settings.sync();
    }
    return stored;
}

} // namespace gf
