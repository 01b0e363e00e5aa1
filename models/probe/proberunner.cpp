#include "probe/proberunner.h"
#include "probe/probejson.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>

namespace gf {

namespace {

constexpr int kStderrKeepLines = 20;
constexpr qsizetype kStderrMaxLine = 4096;

QString tail(const QStringList &lines)
{
    return lines.join(u'\n');
}

} // namespace

ProbeRunner::ProbeRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<gf::ProbeOutcome>();
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &ProbeRunner::onTimeout);
}

ProbeRunner::~ProbeRunner()
{
    if (m_process) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

QString ProbeRunner::noDeviceMessage()
{
    // A fact; what to do instead is each front end's advice (the Probe page's buttons, the CLI's flags).
    return tr("No CUDA GPU or NVIDIA driver was found on this machine.");
}

QStringList ProbeRunner::probeSearchDirs()
{
    QStringList dirs;
    const QString env = qEnvironmentVariable("GPUFRONTIER_PROBE_DIR");
    if (!env.isEmpty())
        dirs.append(env);
    if (QCoreApplication::instance()) {
        const QString app = QCoreApplication::applicationDirPath();
        dirs.append(app);
        dirs.append(QDir::cleanPath(app + QStringLiteral("/../libexec/gpufrontier")));
        const QString configured = QDir::cleanPath(app + QStringLiteral("/../" GPUFRONTIER_LIBEXEC_SUBDIR));
        if (!dirs.contains(configured))
            dirs.append(configured);
        dirs.append(QDir::cleanPath(app + QStringLiteral("/../probes")));
    }
    return dirs;
}

QString ProbeRunner::findProbe(const QString &name)
{
    if (name.isEmpty() || name.contains(u'/'))
        return {};
    const QStringList dirs = probeSearchDirs();
    for (const QString &dir : dirs) {
        const QFileInfo fi(QDir(dir).filePath(name));
        if (fi.isFile() && fi.isExecutable())
            return fi.absoluteFilePath();
    }
    return {};
}

bool ProbeRunner::start(const QString &program, const QStringList &arguments)
{
    if (m_running)
        return false;
    m_running = true;
    m_cancelled = false;
    m_timedOut = false;
    m_outputTooLarge = false;
    m_program = program;
    m_stdout.clear();
    m_stderrPartial.clear();
    m_stderrLines.clear();

    const QFileInfo fi(program);
    if (program.isEmpty() || (program.contains(u'/') && !fi.exists())) {
        ProbeOutcome o;
        o.status = ProbeStatus::NotFound;
        o.program = program;
        o.error = makeError(program.isEmpty() ? tr("The probe program was not found (searched %1).")
                                                    .arg(probeSearchDirs().join(QStringLiteral(", ")))
                                              : tr("The probe program %1 does not exist.").arg(program));
        finishLater(std::move(o));
        return true;
    }
    if (program.contains(u'/') && (!fi.isFile() || !fi.isExecutable())) {
        ProbeOutcome o;
        o.status = ProbeStatus::NotFound;
        o.program = program;
        o.error = makeError(tr("The probe program %1 is not an executable file.").arg(program));
        finishLater(std::move(o));
        return true;
    }

    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    m_process->setInputChannelMode(QProcess::ManagedInputChannel);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &ProbeRunner::onStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &ProbeRunner::onStderr);
    connect(m_process, &QProcess::errorOccurred, this, &ProbeRunner::onProcessError);
    connect(m_process, &QProcess::finished, this, &ProbeRunner::onProcessFinished);
    if (m_timeoutMs > 0)
        m_timer->start(m_timeoutMs);
    m_process->start(program, arguments, QIODevice::ReadOnly);
    return true;
}

void ProbeRunner::cancel()
{
    if (!m_running || !m_process || m_cancelled)
        return;
    m_cancelled = true;
    m_process->kill();
}

void ProbeRunner::onStdout()
{
    if (!m_process)
        return;
    m_stdout += m_process->readAllStandardOutput();
    if (m_stdout.size() > kMaxProbeJsonBytes) { // a runaway probe: keep memory bounded
        m_stdout.truncate(kMaxProbeJsonBytes);
        if (!m_outputTooLarge) {
            m_outputTooLarge = true;
            m_process->kill();
        }
    }
}

void ProbeRunner::onStderr()
{
    if (!m_process)
        return;
    m_stderrPartial += m_process->readAllStandardError();
    qsizetype nl;
    while ((nl = m_stderrPartial.indexOf('\n')) >= 0) {
        handleStderrLine(m_stderrPartial.left(nl));
        m_stderrPartial.remove(0, nl + 1);
    }
    if (m_stderrPartial.size() > kStderrMaxLine) { // a runaway line without newline
        handleStderrLine(m_stderrPartial.left(kStderrMaxLine));
        m_stderrPartial.clear();
    }
}

void ProbeRunner::handleStderrLine(const QByteArray &rawLine)
{
    const QByteArray line = rawLine.left(kStderrMaxLine).trimmed();
    if (line.isEmpty())
        return;
    if (line.startsWith("progress ")) {
        const QByteArray rest = line.mid(9);
        const qsizetype space = rest.indexOf(' ');
        bool ok = false;
        const int permille = (space < 0 ? rest : rest.left(space)).toInt(&ok);
        if (ok) {
            const QString message = space < 0 ? QString() : QString::fromUtf8(rest.mid(space + 1)).trimmed();
            Q_EMIT progress(std::clamp(permille, 0, 1000), message);
            return;
        }
    }
    m_stderrLines.append(QString::fromUtf8(line));
    while (m_stderrLines.size() > kStderrKeepLines)
        m_stderrLines.removeFirst();
}

void ProbeRunner::onProcessError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || !m_process)
        return; // crashes and the rest arrive through finished()
    ProbeOutcome o;
    o.status = ProbeStatus::NotFound;
    o.program = m_program;
    o.error =
        makeError(tr("The probe program %1 could not be started.").arg(m_program), m_process->errorString());
    // QProcess may report this from inside start(): answer from the event loop, as promised.
    m_process->disconnect(this);
    finishLater(std::move(o));
}

void ProbeRunner::onTimeout()
{
    if (!m_running || !m_process)
        return;
    m_timedOut = true;
    m_process->kill();
}

void ProbeRunner::onProcessFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_process)
        return;
    onStdout();
    onStderr();
    if (!m_stderrPartial.isEmpty()) {
        handleStderrLine(m_stderrPartial);
        m_stderrPartial.clear();
    }
    finish(evaluate(exitCode, status));
}

ProbeOutcome ProbeRunner::evaluate(int exitCode, QProcess::ExitStatus status)
{
    ProbeOutcome o;
    o.program = m_program;
    o.json = m_stdout;
    o.exitCode = status == QProcess::NormalExit ? exitCode : -1;
    o.stderrTail = tail(m_stderrLines);
    const QString name = QFileInfo(m_program).fileName();

    if (m_cancelled) {
        o.status = ProbeStatus::Cancelled;
        o.error = makeError(tr("The probe was cancelled."));
        return o;
    }
    if (m_timedOut) {
        o.status = ProbeStatus::Timeout;
        o.error = makeError(
            tr("The probe did not finish within %1 s and was stopped.").arg(m_timeoutMs / 1000.0, 0, 'g', 4),
            o.stderrTail);
        return o;
    }
    if (m_outputTooLarge) {
        o.status = ProbeStatus::BadOutput;
        o.error = makeError(
            tr("The probe wrote more output than a probe document may hold (%1 bytes) and was stopped.")
                .arg(kMaxProbeJsonBytes));
        return o;
    }
    if (status == QProcess::CrashExit) {
        o.status = ProbeStatus::Crashed;
        o.error = makeError(tr("The probe %1 crashed; the application is unaffected. A GPU driver problem is "
                               "the usual cause.")
                                .arg(name),
                            o.stderrTail);
        return o;
    }
    const std::optional<Error> reported = probeJsonError(m_stdout);
    auto reportedDetail = [&]() {
        if (!reported)
            return o.stderrTail;
        return reported->detail.isEmpty() ? reported->message
                                          : reported->message + QStringLiteral(": ") + reported->detail;
    };
    switch (exitCode) {
    case 0: {
        auto parsed = parseProbeJson(m_stdout);
        if (parsed) {
            o.status = ProbeStatus::Ok;
            o.result = std::move(parsed).value();
        } else {
            o.status = ProbeStatus::BadOutput;
            o.error =
                makeError(tr("The output of %1 could not be read: %2").arg(name, parsed.error().message),
                          parsed.error().detail.isEmpty() ? o.stderrTail : parsed.error().detail);
        }
        return o;
    }
    case 1:
        o.status = ProbeStatus::UsageError;
        o.error = makeError(tr("The probe %1 rejected its arguments.").arg(name), reportedDetail());
        return o;
    case 2:
        o.status = ProbeStatus::NoDevice;
        o.error = makeError(noDeviceMessage(), reportedDetail());
        return o;
    case 3:
        o.status = ProbeStatus::DeviceError;
        o.error = makeError(reported ? tr("The probe failed: %1").arg(reported->message)
                                     : tr("The probe failed with a CUDA error."),
                            reported ? reported->detail : o.stderrTail);
        return o;
    default:
        o.status = ProbeStatus::Crashed;
        o.error = makeError(
            tr("The probe %1 stopped with the unexpected exit code %2.").arg(name, QString::number(exitCode)),
            o.stderrTail);
        return o;
    }
}

void ProbeRunner::finish(ProbeOutcome outcome)
{
    m_timer->stop();
    if (m_process) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(1000);
        }
        m_process->deleteLater();
        m_process = nullptr;
    }
    m_running = false;
    Q_EMIT finished(outcome);
}

void ProbeRunner::finishLater(ProbeOutcome outcome)
{
    QTimer::singleShot(0, this, [this, o = std::move(outcome)]() mutable { finish(std::move(o)); });
}

} // namespace gf
