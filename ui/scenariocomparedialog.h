#pragma once

#include "projection/scenariocomparison.h"

#include <QDialog>
#include <QFutureWatcher>

#include <array>
#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
QT_END_NAMESPACE

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace gf {

class AppState;

/// File > Compare scenarios…: two scenarios (the current settings or scenario files) projected over the
/// current catalog off the GUI thread (projectScenario), their answers side by side (recommended,
/// cheapest and fastest within limits: offer, time, cost, likely ranges; what to move when nothing
/// fits), the settings that differ, and one chart with both frontiers (log axes).
class ScenarioCompareDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `current`: the window's settings as a scenario; `recent`: scenario files offered in the pickers.
    ScenarioCompareDialog(AppState *state, Scenario current, const QStringList &recent,
                          QWidget *parent = nullptr);
    ~ScenarioCompareDialog() override;

    /// Chooses the two sides: a file path, or an empty string for the current settings.
    void setSources(const QString &a, const QString &b);
    /// Reads both sides and projects them (compared() or failed() follows).
    void compare();

    QChart *chart() const;
    /// The tooltip of point `point` (into results.points) of side 0 (A) or 1 (B): the side, the offer, its
    /// time and cost with their likely ranges, "recommended" on the recommended one. Empty for a side or
    /// point the last comparison does not have.
    QString pointText(int side, qsizetype point) const;
    /// The tooltip the chart shows with the cursor at `viewportPos` (the chart view's viewport): pointText()
    /// of the frontier point drawn nearest to it, of either side, within 12 px; empty elsewhere.
    QString tipAt(const QPoint &viewportPos) const;
    /// The outcomes of the last comparison (empty before one).
    const QList<ScenarioOutcome> &outcomes() const { return m_outcomes; }

Q_SIGNALS:
    void compared();
    void failed(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QComboBox *makePicker(const QStringList &recent);
    void browse(QComboBox *picker);
    /// The scenario of a picker and its label, or the error naming the file.
    Result<std::pair<Scenario, QString>> sourceOf(const QComboBox *picker) const;
    void onProjected();
    void showAnswers();
    void showDifferences();
    void showChart();
    void applyChartTheme();

    AppState *m_state;
    Scenario m_current;
    QComboBox *m_pickA = nullptr;
    QComboBox *m_pickB = nullptr;
    QPushButton *m_compare = nullptr;
    QLabel *m_status = nullptr;
    QWidget *m_answers = nullptr;
    QLabel *m_answerA = nullptr;
    QLabel *m_answerB = nullptr;
    QTableWidget *m_differences = nullptr;
    QChartView *m_chartView = nullptr;
    struct Projected
    {
        QList<ScenarioOutcome> sides;
        QString error;
    };
    QFutureWatcher<Projected> m_watcher;
    QList<ScenarioOutcome> m_outcomes;
    std::array<QLineSeries *, 2> m_frontierSeries{}; ///< the chart's frontier of A and B (owned by the chart)
};

} // namespace gf
