#include "refresh/refreshservice.h"
#include "refresh/bundledsnapshot.h"
#include "refresh/refreshsettings.h"

#include "domain/gpucatalog.h"
#include "store/catalogstore.h"

#include <QPointer>
#include <QSettings>
#include <QThread>

namespace gf {

RefreshService::RefreshService(QString dbPath, QObject *parent) : QObject(parent), m_dbPath(std::move(dbPath))
{
    qRegisterMetaType<gf::RefreshOutcome>("gf::RefreshOutcome");
}

RefreshService::~RefreshService()
{
    cancel();
    wait();
}

void RefreshService::cancel()
{
    m_cancel.store(true);
}

void RefreshService::wait()
{
    if (!m_thread)
        return;
    QThread *t = m_thread;
    m_thread = nullptr;
    t->wait();
    delete t;
    // The job's results are still queued: declare the job finished after them.
    const quint64 job = m_job;
    QMetaObject::invokeMethod(
        this, [this, job] { Q_EMIT jobFinished(job); }, Qt::QueuedConnection);
}

quint64 RefreshService::refresh(const QStringList &providers)
{
    return start(providers, {}, {});
}

quint64 RefreshService::importFiles(const QString &provider, const QStringList &paths)
{
    return start({provider}, provider, paths);
}

quint64 RefreshService::start(const QStringList &providers, const QString &importProvider,
                              const QStringList &importPaths)
{
    if (m_thread)
        return 0;
    m_cancel.store(false);
    const quint64 job = m_nextJob++;
    m_job = job;
    const QString dbPath = m_dbPath;
    const RefreshOptions given = m_options;
    const bool fromSettings = m_fromSettings && importProvider.isEmpty(); // an import downloads nothing
    const QHash<QString, QString> urls = m_baseUrls;
    const QHash<QString, SourceChoice> sources = m_sources;
    std::atomic_bool *cancel = &m_cancel;
    QPointer<RefreshService> self(this);
    // Everything the worker reports is queued to this object's thread; stale jobs are dropped.
    auto post = [self, job](auto fn) {
        if (self)
            QMetaObject::invokeMethod(
                self.data(),
                [self, job, fn] {
                    if (RefreshService *s = self.data(); s != nullptr && s->currentJob() == job)
                        fn(s);
                },
                Qt::QueuedConnection);
    };
    m_thread = QThread::create([=] {
        const RefreshOptions base =
            fromSettings ? RefreshSettings::refreshOptions(given, QSettings(), SecretStore()) : given;
        const int count = static_cast<int>(providers.size());
        auto opened = CatalogStore::open(dbPath);
        std::unique_ptr<CatalogStore> store;
        if (opened) {
            store = std::move(opened).value();
            if (auto b = importBundledIfEmpty(*store, GpuCatalog::builtin()); !b)
                opened = b.error();
        }
        for (int i = 0; i < count; ++i) {
            const QString provider = providers.at(i);
            post([provider](RefreshService *s) { Q_EMIT s->providerStarted(provider); });
            RefreshOutcome outcome;
            if (!opened) {
                outcome.provider = provider;
                outcome.message = opened.error().text();
            } else {
                RefreshOptions options = base;
                options.baseUrl = urls.value(provider);
                options.source = sources.value(provider, SourceChoice::Default);
                CatalogRefresher refresher(*store, options);
                refresher.setCancelFlag(cancel);
                refresher.setProgress([post, i, count](int permille, const QString &message) {
                    const int overall = (i * 1000 + permille) / std::max(1, count);
                    post([overall, message](RefreshService *s) { Q_EMIT s->progress(overall, message); });
                });
                outcome = importProvider.isEmpty() ? refresher.refresh(provider)
                                                   : refresher.importFiles(importProvider, importPaths);
            }
            post([provider, outcome](RefreshService *s) { Q_EMIT s->finished(provider, outcome); });
            if (cancel->load())
                break;
        }
        store.reset();
        // Last event of the job: every result above is delivered before it (queued, in order).
        post([](RefreshService *s) { s->collectThread(); });
    });
    m_thread->start();
    Q_EMIT started(job);
    return job;
}

void RefreshService::collectThread()
{
    if (!m_thread)
        return; // wait() collected it already
    QThread *t = m_thread;
    m_thread = nullptr;
    t->wait();
    delete t;
    Q_EMIT jobFinished(m_job);
}

} // namespace gf
