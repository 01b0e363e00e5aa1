#pragma once

#include "refresh/catalogrefresher.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>

class QThread;

namespace gf {

/// Runs catalog refreshes and file imports on a worker thread with its own database connection, so
/// nothing slow happens on the GUI thread. One job at a time; providers run one after another.
/// Signals arrive on the thread that owns the service.
class RefreshService final : public QObject
{
    Q_OBJECT
public:
    explicit RefreshService(QString dbPath, QObject *parent = nullptr);
    ~RefreshService() override; ///< cancels a running job and waits for it

    void setOptions(const RefreshOptions &options) { m_options = options; }
    RefreshOptions options() const { return m_options; }
    /// On: each job starts from options() completed by RefreshSettings::refreshOptions (the stored settings,
    /// the environment and the secret store), on the worker thread: the keychain is never read on the
    /// caller's (GUI) thread. Off (the default), and for imports: options() as they are.
    void setOptionsFromSettings(bool on) { m_fromSettings = on; }
    /// Per-provider base URL override (empty = the provider's real endpoint).
    void setBaseUrl(const QString &provider, const QString &url) { m_baseUrls.insert(provider, url); }
    QString baseUrl(const QString &provider) const { return m_baseUrls.value(provider); }
    /// Per-provider live source (providers with their own API and SkyPilot's catalog); Default when unset.
    void setSource(const QString &provider, SourceChoice choice) { m_sources.insert(provider, choice); }
    SourceChoice source(const QString &provider) const
    {
        return m_sources.value(provider, SourceChoice::Default);
    }

    /// Starts refreshing `providers`; returns the job id, or 0 when a job is already running.
    quint64 refresh(const QStringList &providers);
    /// Starts importing files of one provider (same parsers and checks as a refresh).
    quint64 importFiles(const QString &provider, const QStringList &paths);
    /// Asks the running job to stop; finished() then reports Cancelled.
    void cancel();
    bool isRunning() const { return m_thread != nullptr; }
    quint64 currentJob() const { return m_job; }
    /// Blocks until the running job has ended (tests, shutdown).
    void wait();

Q_SIGNALS:
    void started(quint64 job);
    /// 0-1000 over the whole job, with what is being done.
    void progress(int permille, const QString &message);
    void providerStarted(const QString &provider);
    void finished(const QString &provider, const gf::RefreshOutcome &outcome);
    void jobFinished(quint64 job);

private:
    quint64 start(const QStringList &providers, const QString &importProvider,
                  const QStringList &importPaths);
    void collectThread();

    QString m_dbPath;
    RefreshOptions m_options;
    bool m_fromSettings = false;
    QHash<QString, QString> m_baseUrls;
    QHash<QString, SourceChoice> m_sources;
    QThread *m_thread = nullptr;
    std::atomic_bool m_cancel{false};
    quint64 m_job = 0;
    quint64 m_nextJob = 1;
};

} // namespace gf
