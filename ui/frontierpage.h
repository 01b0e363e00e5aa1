#pragma once

#include "viewmodels/projectioncontroller.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QTableView;

namespace gf {

class FrontierChart;
class PointTableModel;

/// The Frontier page: the cost-vs-time chart with the frontier table below it.
class FrontierPage final : public QWidget
{
    Q_OBJECT
public:
    explicit FrontierPage(QWidget *parent = nullptr);

    void setResults(ProjectionResultsPtr results);
    ProjectionResultsPtr results() const { return m_results; }
    /// Highlights the points of these catalog rows (selection in the Offers table).
    void highlightCatalogRows(const QList<int> &rows);

    FrontierChart *chart() const { return m_chart; }
    PointTableModel *frontierModel() const { return m_model; }
    QTableView *frontierView() const { return m_table; }
    QString summary() const;

    void saveState() const;
    void restoreState();

Q_SIGNALS:
    /// A point was clicked (chart or frontier table): its catalog row.
    void catalogRowActivated(int row);

private:
    void pointActivated(int point);

    FrontierChart *m_chart = nullptr;
    PointTableModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QCheckBox *m_logX = nullptr;
    QCheckBox *m_uncertainty = nullptr;
    QCheckBox *m_logY = nullptr;
    QLabel *m_summary = nullptr;
    ProjectionResultsPtr m_results;
};

} // namespace gf
