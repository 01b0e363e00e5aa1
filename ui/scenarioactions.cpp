#include "scenarioactions.h"
#include "offerspage.h"
#include "scenariocomparedialog.h"
#include "workloadpanel.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace gf {

namespace {
const QString kLastFolder = QStringLiteral("scenarios/lastFolder");
const QString kRecent = QStringLiteral("scenarios/recent");
constexpr int kMaxRecent = 8;
} // namespace

ScenarioActions::ScenarioActions(QWidget *window, WorkloadPanel *panel, OffersPage *offers, AppState *state)
    : QObject(window), m_window(window), m_panel(panel), m_offers(offers), m_state(state)
{
}

void ScenarioActions::addTo(QMenu *menu)
{
    QAction *open = menu->addAction(tr("&Open scenario…"), this, &ScenarioActions::chooseAndOpen);
    open->setObjectName(QStringLiteral("openScenario"));
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    open->setToolTip(tr("Set the workload, limits, assumptions and offer filter from a scenario file"));
    m_recentMenu = menu->addMenu(tr("Open &recent scenario"));
    m_recentMenu->setObjectName(QStringLiteral("recentScenarios"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &ScenarioActions::fillRecentMenu);
    fillRecentMenu();
    QAction *save = menu->addAction(tr("&Save scenario…"), this, &ScenarioActions::chooseAndSave);
    save->setObjectName(QStringLiteral("saveScenario"));
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    save->setToolTip(tr("Save the workload, limits, assumptions and offer filter as a scenario file"));
    QAction *compare = menu->addAction(tr("Co&mpare scenarios…"), this, [this] { openCompare(); });
    compare->setObjectName(QStringLiteral("compareScenarios"));
    compare->setToolTip(tr("Two scenarios' answers and frontiers side by side"));
}

Scenario ScenarioActions::current() const
{
    Scenario s;
    s.workload = m_panel->spec();
    s.options = m_panel->options();
    s.filter = m_offers->filter();
    return s;
}

Status ScenarioActions::saveFile(const QString &path)
{
    auto written = writeScenarioFile(path, current());
    if (!written) {
        showProblem(tr("The scenario was not saved to %1.\n\n%2")
                        .arg(QDir::toNativeSeparators(path), written.error().message));
        return written;
    }
    remember(path);
    Q_EMIT statusMessage(tr("Scenario saved to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return written;
}

Status ScenarioActions::openFile(const QString &path)
{
    auto scenario = readScenarioFile(path);
    if (!scenario) {
        showProblem(tr("The scenario %1 was not opened; the current settings are unchanged.\n\n%2")
                        .arg(QDir::toNativeSeparators(path), scenario.error().message));
        return scenario.error();
    }
    const Scenario &s = scenario.value();
    const QStringList notes = m_panel->setScenario(s.workload, s.options);
    m_offers->setFilter(s.filter);
    remember(path);
    QString text = tr("Opened scenario %1").arg(QFileInfo(path).fileName());
    if (!notes.isEmpty())
        text += tr(" (%1)").arg(notes.join(QStringLiteral("; ")));
    Q_EMIT statusMessage(text, notes.isEmpty() ? 8000 : 0);
    return Ok{};
}

ScenarioCompareDialog *ScenarioActions::openCompare()
{
    if (!m_compare) {
        m_compare = new ScenarioCompareDialog(m_state, current(), recentFiles(), m_window);
        m_compare->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_compare->show();
    m_compare->raise();
    m_compare->activateWindow();
    return m_compare;
}

QStringList ScenarioActions::recentFiles() const
{
    return QSettings().value(kRecent).toStringList();
}

void ScenarioActions::chooseAndSave()
{
    QSettings settings;
    const QString folder = settings.value(kLastFolder, QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save scenario"),
                                                QDir(folder).filePath(tr("scenario.json")),
                                                tr("GPU Frontier scenarios (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    (void)saveFile(path);
}

void ScenarioActions::chooseAndOpen()
{
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open scenario"), settings.value(kLastFolder).toString(),
                                     tr("GPU Frontier scenarios (*.json);;All files (*)"));
    if (!path.isEmpty())
        (void)openFile(path);
}

void ScenarioActions::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString &path : recent) {
        QAction *a =
            m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { (void)openFile(path); });
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(a->toolTip());
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void ScenarioActions::remember(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QSettings settings;
    settings.setValue(kLastFolder, QFileInfo(absolute).absolutePath());
    QStringList recent = settings.value(kRecent).toStringList();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecent, recent);
    fillRecentMenu();
}

void ScenarioActions::showProblem(const QString &text)
{
    if (m_problem)
        m_problem->close();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Scenario"), text, QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("scenarioProblem"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_problem = box;
    box->open(); // does not block: the window (and a test) goes on
}

} // namespace gf
