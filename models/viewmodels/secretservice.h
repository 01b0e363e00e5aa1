#pragma once

#include "refresh/secretstore.h"

#include <QMetaType>
#include <QObject>
#include <QThreadPool>

namespace gf {

/// What one SecretService call answered.
struct SecretAnswer
{
    enum class Kind
    {
        Read,          ///< read (after moving an older version's plain setting into the store)
        Write,         ///< write (an empty value removes the secret)
        MoveToKeychain ///< the fallback file's secret moved into the keychain
    };
    Kind kind = Kind::Read;
    bool ok = false;
    SecretOutcome outcome;  ///< where the secret is (ok); `value` is the secret: never print it
    QString error;          ///< what failed (not ok); never holds the secret
    QString written;        ///< Write: the value that was asked to be stored
    QString migrationError; ///< Read: the plain setting could not be moved into the store (it is kept)
};

/// The secret store off the GUI thread: a keychain call blocks in a nested event loop until the keychain
/// answers (up to SecretStore::kKeychainTimeoutMs), so the Catalogs page asks this service instead. Calls
/// run one at a time, in the order they were made, on a worker thread of their own; the answers arrive
/// as signals on the service's thread.
class SecretService final : public QObject
{
    Q_OBJECT
public:
    explicit SecretService(QObject *parent = nullptr);
    ~SecretService() override; ///< waits for the call running

    /// Reads `name`; for the GCP API key, a key an older version kept in QSettings moves into the store
    /// first.
    quint64 read(const QString &name);
    quint64 write(const QString &name, const QString &value);
    quint64 moveToKeychain(const QString &name);
    /// Calls made and not answered yet.
    int pending() const { return m_pending; }
    /// Blocks until every call made has run (tests, shutdown); the answers are still queued.
    void waitForDone();

Q_SIGNALS:
    void answered(quint64 request, const gf::SecretAnswer &answer);

private:
    template <class Fn> quint64 run(Fn fn);

    QThreadPool m_pool;
    quint64 m_next = 1;
    int m_pending = 0;
};

} // namespace gf

Q_DECLARE_METATYPE(gf::SecretAnswer)
