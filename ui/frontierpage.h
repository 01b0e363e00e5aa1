#pragma once

#include "frontierchart.h"
#include "viewmodels/projectioncontroller.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace gf {

class FrontierChart;
class PointGroupModel;
class PointTableModel;

/// The Frontier page: the cost-vs-time chart (every point) with the frontier table below it (one row per
/// instance type and pricing, expandable to its zones, or one row per point).
class FrontierPage final : public QWidget
{
    Q_OBJECT
public:
    explicit FrontierPage(QWidget *parent = nullptr);

    /// Shows a projection. Above kPrepareOnWorkerAbove points the chart's points are prepared off the GUI
    /// thread and the page shows them when they are ready (isPreparing; results() stays the shown ones
    /// until then, and a newer setResults drops an older preparation); below, at once.
    void setResults(ProjectionResultsPtr results);
    ProjectionResultsPtr results() const { return m_results; }
    static constexpr qsizetype kPrepareOnWorkerAbove = 50000;
    void setPrepareOnWorkerAbove(qsizetype points) { m_prepareOnWorkerAbove = points; } ///< tests
    bool isPreparing() const { return m_preparing > 0; }
    /// Highlights the points of these catalog rows (selection in the Offers table).
    void highlightCatalogRows(const QList<int> &rows);
    /// The points (indexes into the shown results) selected in the frontier table; a group row stands for
    /// its representative (the best member).
    QList<qsizetype> selectedPoints() const;

    FrontierChart *chart() const { return m_chart; }
    PointTableModel *frontierModel() const { return m_model; }
    PointGroupModel *frontierGroups() const { return m_groups; }
    QTreeView *frontierView() const { return m_table; }
    /// One row per instance type and pricing (the Offers page's toggle) or one row per point.
    void setGrouped(bool grouped);
    QString summary() const;
    /// The notice shown above the chart while the Offers page's filter narrows the projection (empty
    /// without a filter): what the filter is and how many offers remain.
    static QString filterNotice(const OfferFilter &filter, qsizetype offers);
    QString filterNoticeText() const;

    void saveState() const;
    void restoreState();

Q_SIGNALS:
    /// A point was clicked (chart or frontier table): its catalog row.
    void catalogRowActivated(int row);

private:
    void pointActivated(int point);
    void showResults(ProjectionResultsPtr results, const QString &costUnit, PreparedChartPoints chart);

    FrontierChart *m_chart = nullptr;
    PointTableModel *m_model = nullptr;
    PointGroupModel *m_groups = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTreeView *m_table = nullptr;
    QCheckBox *m_logX = nullptr;
    QCheckBox *m_uncertainty = nullptr;
    QCheckBox *m_logY = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_filterNotice = nullptr; ///< shown while the Offers page's filter narrows the projection
    ProjectionResultsPtr m_results;   ///< shown
    ProjectionResultsPtr m_requested; ///< the last given to setResults (shown, or being prepared)
    quint64 m_job = 0;                ///< the last setResults: an older preparation is dropped
    int m_preparing = 0;              ///< preparations running
    qsizetype m_prepareOnWorkerAbove = kPrepareOnWorkerAbove;
    QList<int> m_highlightRows; ///< highlightCatalogRows's, again once prepared points are shown
};

} // namespace gf
