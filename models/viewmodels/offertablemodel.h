#pragma once

#include "domain/offer.h"
#include "domain/offerfilter.h"
#include "viewmodels/projectioncontroller.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QSortFilterProxyModel>

namespace gf {

/// Table of offers: DisplayRole holds formatted text with units in the headers,
/// SortRole holds raw numbers (missing values sort last).
class OfferTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Provider,
        Instance,
        Gpu,
        GpuCount,
        GpuMemory,
        OnDemand,
        Spot,
        Hours,
        Cost,
        SamplesPerUsd,
        OnFrontier,
        SpotSavings,
        Region,
        Vcpus,
        Ram,
        Network,
        Interconnect,
        Interruption,
        PriceAge,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int OfferIndexRole = Qt::UserRole + 2;

    explicit OfferTableModel(QObject *parent = nullptr);

    /// Replaces all offers (reset-style).
    void setOffers(QList<Offer> offers, const QDateTime &now = QDateTime::currentDateTimeUtc());
    const QList<Offer> &offers() const { return m_offers; }
    const Offer *offerAt(int row) const;
    /// Adds the projected time, cost and samples per dollar (ignored when it is for other offers).
    void setProjection(ProjectionResultsPtr results);
    ProjectionResultsPtr projection() const { return m_projection; }
    /// The point shown for an offer row (cheapest eligible), nullptr when none.
    const ProjectedOffer *pointFor(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    /// A tooltip that shows `text` as it is: never read as markup, no control characters.
    static QString plainToolTip(const QString &text);
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawData(const QModelIndex &index, int role) const;
    QList<Offer> m_offers;
    QDateTime m_now;
    ProjectionResultsPtr m_projection;
};

/// Filters offers with an OfferFilter; typed setters, one invalidation per change.
class OfferFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit OfferFilterProxy(QObject *parent = nullptr);

    void setFilter(const OfferFilter &filter);
    const OfferFilter &filter() const { return m_filter; }
    void setProviders(const QStringList &providers);
    void setGpu(const QString &gpu);
    void setMinGpus(std::optional<double> v);
    void setMinGpuMemGb(std::optional<double> v);
    void setMaxPriceUsdH(std::optional<double> v);
    void setSpotOnly(bool on);
    void setRegion(const QString &region);
    void setText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    OfferFilter m_filter;
};

} // namespace gf
