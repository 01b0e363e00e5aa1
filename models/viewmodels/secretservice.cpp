#include "viewmodels/secretservice.h"

#include "refresh/refreshsettings.h"

#include <QPointer>
#include <QSettings>

namespace gf {

namespace {

SecretAnswer answerOf(SecretAnswer::Kind kind, const Result<SecretOutcome> &r)
{
    SecretAnswer a;
    a.kind = kind;
    a.ok = r.ok();
    if (r.ok())
        a.outcome = r.value();
    else
        a.error = r.error().text();
    return a;
}

} // namespace

SecretService::SecretService(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<gf::SecretAnswer>("gf::SecretAnswer");
    m_pool.setMaxThreadCount(1); // one call at a time, in order
}

SecretService::~SecretService()
{
    m_pool.waitForDone();
}

void SecretService::waitForDone()
{
    m_pool.waitForDone();
}

template <class Fn> quint64 SecretService::run(Fn fn)
{
    const quint64 request = m_next++;
    ++m_pending;
    QPointer<SecretService> self(this);
    m_pool.start([self, request, fn] {
        const SecretAnswer answer = fn();
        QMetaObject::invokeMethod(
            self.data(),
            [self, request, answer] {
                if (SecretService *s = self.data()) {
                    --s->m_pending;
                    Q_EMIT s->answered(request, answer);
                }
            },
            Qt::QueuedConnection);
    });
    return request;
}

quint64 SecretService::read(const QString &name)
{
    return run([name] {
        const SecretStore store;
        QString migrationError;
        if (name == kGcpApiKeySecret) {
            QSettings settings;
            if (const auto migrated = RefreshSettings::migrateGcpApiKey(settings, store);
                migrated && !*migrated)
                migrationError = migrated->error().text();
        }
        SecretAnswer a = answerOf(SecretAnswer::Kind::Read, store.read(name));
        a.migrationError = migrationError;
        return a;
    });
}

quint64 SecretService::write(const QString &name, const QString &value)
{
    return run([name, value] {
        SecretAnswer a = answerOf(SecretAnswer::Kind::Write, SecretStore().write(name, value));
        a.written = value;
        return a;
    });
}

quint64 SecretService::moveToKeychain(const QString &name)
{
    return run(
        [name] { return answerOf(SecretAnswer::Kind::MoveToKeychain, SecretStore().moveToKeychain(name)); });
}

} // namespace gf
