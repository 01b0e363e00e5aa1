#include "launchplanner.h"

#include "launchplandialog.h"

#include <QDesktopServices>
#include <QDir>
#include <QMessageBox>
#include <QPushButton>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

namespace gf {

LaunchPlanner::LaunchPlanner(QWidget *window) : QObject(window), m_window(window)
{
    qRegisterMetaType<gf::LaunchPlanOutcome>("gf::LaunchPlanOutcome");
    connect(&m_watcher, &QFutureWatcher<LaunchPlanOutcome>::finished, this, &LaunchPlanner::onWritten);
}

LaunchPlanner::~LaunchPlanner()
{
    m_watcher.waitForFinished();
}

void LaunchPlanner::open(const ProjectionResultsPtr &results, const QList<qsizetype> &points)
{
    if (isWriting()) {
        QMessageBox::information(m_window, tr("Launch plan"),
                                 tr("A launch plan is being written; wait for it to finish."));
        return;
    }
    if (!results) {
        QMessageBox::information(m_window, tr("Launch plan"), tr("Wait for the projection to finish first."));
        return;
    }
    const LaunchPlanRequest request = launchPlanRequest(*results, points, tr("  (recommended)"));
    if (request.candidates.isEmpty()) {
        QMessageBox::information(
            m_window, tr("Launch plan"),
            tr("Select offers on the Offers page or a point on the Frontier page: there is "
               "no recommended point for this workload and these filters."));
        return;
    }
    LaunchPlanDialog dialog(request.lines, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    LaunchPlanJob job;
    job.workload = results->workload;
    job.candidates = request.candidates;
    job.options = dialog.options();
    job.directory = dialog.directory();
    job.packageDirs = {dialog.directory(), QDir::currentPath()};
    Q_EMIT statusMessage(tr("Writing the launch plan to %1 …").arg(QDir::toNativeSeparators(job.directory)),
                         0);
    m_watcher.setFuture(QtConcurrent::run(writeLaunchPlanJob, job));
}

void LaunchPlanner::onWritten()
{
    const LaunchPlanOutcome out = m_watcher.result();
    switch (out.stage) {
    case LaunchPlanOutcome::Stage::Package:
        Q_EMIT statusMessage(QString(), 0);
        showMessage(QMessageBox::Warning,
                    tr("No plan was written: %1. Build it with cpack -G TGZ or choose it as the package.")
                        .arg(out.error));
        break;
    case LaunchPlanOutcome::Stage::Plan:
        Q_EMIT statusMessage(QString(), 0);
        showMessage(QMessageBox::Warning, tr("No plan was written: %1").arg(out.error));
        break;
    case LaunchPlanOutcome::Stage::Write:
        Q_EMIT statusMessage(QString(), 0);
        showMessage(QMessageBox::Warning, tr("The plan could not be written: %1").arg(out.error));
        break;
    case LaunchPlanOutcome::Stage::Written: {
        QString text = tr("Wrote %n SkyPilot task(s) and README.txt into %1.", nullptr,
                          static_cast<int>(out.plan.tasks.size()))
                           .arg(QDir::toNativeSeparators(out.directory));
        for (const LaunchTask &t : out.plan.tasks)
            text += u'\n' + t.launchCommand();
        for (const QString &s : out.plan.skipped)
            text += u'\n' + tr("Not planned: %1").arg(s);
        Q_EMIT statusMessage(tr("Launch plan written to %1").arg(out.directory), 8000);
        showMessage(QMessageBox::Information, text, out.directory);
        break;
    }
    }
    Q_EMIT finished(out);
}

void LaunchPlanner::showMessage(int icon, const QString &text, const QString &folderToOpen)
{
    auto *box = new QMessageBox(static_cast<QMessageBox::Icon>(icon), tr("Launch plan"), text,
                                QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("launchPlanOutcome"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!folderToOpen.isEmpty()) {
        QPushButton *open = box->addButton(tr("Open folder"), QMessageBox::ActionRole);
        connect(open, &QPushButton::clicked, this,
                [folderToOpen] { QDesktopServices::openUrl(QUrl::fromLocalFile(folderToOpen)); });
    }
    box->open(); // does not block: the window stays usable
}

} // namespace gf
