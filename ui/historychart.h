#pragma once

#include "domain/offer.h"

#include <QDateTime>
#include <QList>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

class QLabel;

namespace gf {

/// One point of a price history: the prices of one snapshot.
struct HistoryPoint
{
    QDateTime when; ///< when the snapshot was fetched (UTC)
    qint64 snapshotId = 0;
    std::optional<double> onDemand; ///< USD/h
    std::optional<double> spot;     ///< USD/h
};

/// The price-history chart of one offer: on-demand and spot price (USD/h) over snapshots.
/// The only place that knows Qt Charts for this view.
class HistoryChart final : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryChart(QWidget *parent = nullptr);
    ~HistoryChart() override;

    /// One point per snapshot from history rows (several zones or regions per snapshot: the cheapest).
    static QList<HistoryPoint> pointsFrom(const QList<Offer> &rows);

    void setHistory(const QString &title, const QList<HistoryPoint> &points);
    void clear(const QString &message);

    // Introspection for tests.
    int onDemandPointCount() const;
    int spotPointCount() const;
    QChart *chart() const { return m_chart; }

protected:
    void resizeEvent(QResizeEvent *event) override;
    /// A palette change switches the chart between its light and dark theme.
    void changeEvent(QEvent *event) override;

private:
    void applyTheme();

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QLineSeries *m_onDemand = nullptr;
    QLineSeries *m_spot = nullptr;
    QScatterSeries *m_onDemandDots = nullptr;
    QScatterSeries *m_spotDots = nullptr;
    QDateTimeAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QLabel *m_empty = nullptr;
};

} // namespace gf
