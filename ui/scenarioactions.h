#pragma once

#include "projection/scenario.h"
#include "scenariocomparedialog.h"

#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QStringList>

class QAction;
class QMenu;
class QWidget;

namespace gf {

class AppState;
class OffersPage;
class WorkloadPanel;

/// File > Open scenario… (Ctrl+O), Save scenario… (Ctrl+S), Open recent scenario, Compare scenarios…: a
/// scenario file holds the workload panel's settings and the Offers page's filter (projection/scenario).
/// Opening one sets the panel and the filter, so the projection runs again; a file that cannot be read
/// or written is named in a message box that does not block, and the current settings stay as they were.
/// The last folder and the recent files are remembered (QSettings "scenarios/").
class ScenarioActions final : public QObject
{
    Q_OBJECT
public:
    ScenarioActions(QWidget *window, WorkloadPanel *panel, OffersPage *offers, AppState *state);

    /// Adds the actions to a menu (File).
    void addTo(QMenu *menu);

    /// The window's settings as a scenario.
    Scenario current() const;
    /// Writes the current settings to `path` (whole or not at all); a failure is shown and returned.
    Status saveFile(const QString &path);
    /// Reads `path` and applies it; a failure is shown and returned, nothing changed.
    Status openFile(const QString &path);
    /// Opens the comparison dialog (current settings against the most recent file).
    ScenarioCompareDialog *openCompare();

    QStringList recentFiles() const;
    /// The message box of the last failure (null when none is open).
    QMessageBox *lastProblem() const { return m_problem; }

Q_SIGNALS:
    void statusMessage(const QString &text, int timeoutMs);

private:
    void chooseAndSave();
    void chooseAndOpen();
    void fillRecentMenu();
    void remember(const QString &path);
    void showProblem(const QString &text);

    QWidget *m_window;
    WorkloadPanel *m_panel;
    OffersPage *m_offers;
    AppState *m_state;
    QMenu *m_recentMenu = nullptr;
    QPointer<QMessageBox> m_problem;
    QPointer<ScenarioCompareDialog> m_compare;
};

} // namespace gf
