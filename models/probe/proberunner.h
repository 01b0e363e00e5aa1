#pragma once

#include "domain/proberesult.h"
#include "util/result.h"

#include <QByteArray>
#include <QMetaType>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <optional>

class QTimer;

namespace gf {

/// How a probe run ended.
enum class ProbeStatus
{
    Ok,          ///< exit 0 and a valid document
    NotFound,    ///< the executable does not exist or cannot be started
    NoDevice,    ///< exit 2: no CUDA GPU or driver
    DeviceError, ///< exit 3: a CUDA/cuBLAS error or a wrong result
    UsageError,  ///< exit 1: the probe rejected its arguments
    Timeout,     ///< killed after the timeout
    Crashed,     ///< killed by a signal or an unexpected exit code
    BadOutput,   ///< exit 0 but the document is missing, malformed or too large
    Cancelled,   ///< cancel() was called
};

/// The outcome of one probe run: a result, or an error with a message for the user.
struct ProbeOutcome
{
    ProbeStatus status = ProbeStatus::Crashed;
    std::optional<ProbeResult> result; ///< set when status is Ok
    Error error;                       ///< set otherwise
    QByteArray json;                   ///< the probe's stdout (the document to store)
    int exitCode = -1;
    QString program;
    QString stderrTail; ///< last lines of stderr that were not progress lines

    bool ok() const { return status == ProbeStatus::Ok && result.has_value(); }
    Result<ProbeResult> toResult() const
    {
        return ok() ? Result<ProbeResult>(*result) : Result<ProbeResult>(error);
    }
};

/// Runs a probe executable as a child process, off the caller's thread's work: progress lines
/// (`progress <0-1000> <message>` on stderr) become progress() signals, the JSON document on
/// stdout is parsed at the end, and a timeout or cancel() kills the process. A driver crash in
/// the probe cannot take the application down.
class ProbeRunner final : public QObject
{
    Q_OBJECT

public:
    explicit ProbeRunner(QObject *parent = nullptr);
    ~ProbeRunner() override;

    /// Kill the probe after this long (default 300 s); 0 = no timeout.
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    int timeoutMs() const { return m_timeoutMs; }

    /// Starts `program` with `arguments`. Returns false (and does nothing) when a run is in
    /// progress. Every accepted start ends with exactly one finished() signal, emitted from the
    /// event loop (never from inside start()).
    bool start(const QString &program, const QStringList &arguments = {});
    /// Stops the running probe; finished() follows with ProbeStatus::Cancelled.
    void cancel();
    bool isRunning() const { return m_running; }

    /// Path of a probe executable (e.g. "gpufrontier-probe"), or empty when none is found.
    /// Looks in $GPUFRONTIER_PROBE_DIR, next to the application, in ../libexec/gpufrontier
    /// (installed layout) and in ../probes (build tree), in that order.
    static QString findProbe(const QString &name);
    /// The folders findProbe() looks in, in order.
    static QStringList probeSearchDirs();

    /// The user message for a run that found no CUDA device (exit code 2).
    static QString noDeviceMessage();

Q_SIGNALS:
    void progress(int permille, const QString &message);
    void finished(const gf::ProbeOutcome &outcome);

private:
    void onStdout();
    void onStderr();
    void onProcessError(QProcess::ProcessError error);
    void onProcessFinished(int exitCode, QProcess::ExitStatus status);
    void onTimeout();
    void handleStderrLine(const QByteArray &line);
    void finish(ProbeOutcome outcome);
    void finishLater(ProbeOutcome outcome);
    ProbeOutcome evaluate(int exitCode, QProcess::ExitStatus status);

    QProcess *m_process = nullptr;
    QTimer *m_timer = nullptr;
    int m_timeoutMs = 300000;
    bool m_running = false;
    bool m_cancelled = false;
    bool m_timedOut = false;
    bool m_outputTooLarge = false;
    QString m_program;
    QByteArray m_stdout;
    QByteArray m_stderrPartial;
    QStringList m_stderrLines;
};

} // namespace gf

Q_DECLARE_METATYPE(gf::ProbeOutcome)
