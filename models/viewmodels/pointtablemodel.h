#pragma once

#include "viewmodels/projectioncontroller.h"

#include <QAbstractTableModel>

namespace gf {

/// A table of projected points (e.g. the frontier), one row per point.
class PointTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Provider,
        Instance,
        Region,
        Gpu,
        Pricing,
        UsdPerHour,
        PerGpuHour, ///< the point's price per GPU and hour
        Hours,
        Cost,
        SamplesPerUsd,
        Interruptions,
        Overhead,
        Notes,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int PointIndexRole = Qt::UserRole + 2;

    explicit PointTableModel(QObject *parent = nullptr);

    /// Shows the given points of the results (reset-style).
    void setPoints(ProjectionResultsPtr results, QList<qsizetype> pointIndices);
    /// Convenience: the frontier points sorted by time.
    void showFrontier(ProjectionResultsPtr results);
    qsizetype pointAt(int row) const { return row >= 0 && row < m_rows.size() ? m_rows.at(row) : -1; }
    int rowOfPoint(qsizetype point) const { return static_cast<int>(m_rows.indexOf(point)); }
    ProjectionResultsPtr results() const { return m_results; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawData(const QModelIndex &index, int role) const;
    ProjectionResultsPtr m_results;
    QList<qsizetype> m_rows;
};

/// Rich text describing a point for tooltips: provider, instance, region, GPUs, price, time, cost, and
/// where every number comes from (explainPoint), flags included.
/// How much of a point describePoint says: everything (the tables), or the figures and the flags' names
/// without the explanation of every number (the chart's hover, which must stay small enough to sit beside
/// the cursor).
enum class PointDescription : quint8
{
    Full,
    Brief
};
QString describePoint(const ProjectionResults &results, qsizetype point,
                      PointDescription detail = PointDescription::Full);
/// Plain-text lines on the projection's uncertainty for tooltips: the likely time and cost range
/// (10th-90th percentile of the tier's validation error), the tier and what the speed rests on.
/// Empty when the point is not projected.
QStringList uncertaintyLines(const ProjectionResults &results, const ProjectedOffer &point);

} // namespace gf
