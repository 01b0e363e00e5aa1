#pragma once

#include "viewmodels/launchplanjob.h"

#include <QFutureWatcher>
#include <QObject>

class QWidget;

namespace gf {

/// "Launch plan…": the offers to plan, the dialog (LaunchPlanDialog), then the plan written off the GUI
/// thread (writeLaunchPlanJob: finding and copying the package, building and writing the files), and the
/// outcome shown in a message box that does not block. One plan at a time.
class LaunchPlanner final : public QObject
{
    Q_OBJECT
public:
    /// Dialogs and messages open over `window`.
    explicit LaunchPlanner(QWidget *window);
    ~LaunchPlanner() override; ///< waits for a plan being written

    /// Plans `points` (indexes into `results`); none: the recommended point.
    void open(const ProjectionResultsPtr &results, const QList<qsizetype> &points);
    bool isWriting() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    /// A line for the window's status bar (0 ms: until replaced).
    void statusMessage(const QString &text, int timeoutMs);
    /// A plan was written, or not (the message box is open then).
    void finished(const gf::LaunchPlanOutcome &outcome);

private:
    void onWritten();
    void showMessage(int icon, const QString &text, const QString &folderToOpen = {});

    QWidget *m_window = nullptr;
    QFutureWatcher<LaunchPlanOutcome> m_watcher;
};

} // namespace gf
