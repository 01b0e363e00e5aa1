#pragma once

#include "domain/offer.h"
#include "domain/offerfilter.h"
#include "viewmodels/projectioncontroller.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QSortFilterProxyModel>

namespace gf {

class GroupingModel;
class OfferGroupModel;

/// Table of offers: DisplayRole holds formatted text with units in the headers,
/// SortRole holds raw numbers (missing values sort last). Prices and costs are shown in the display
/// currency (DisplayCurrency) and sort by their USD value (the same order in every currency).
class OfferTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Provider,
        Instance,
        Flags,
        Gpu,
        GpuCount,
        GpuMemory,
        OnDemand,
        Spot,
        PerGpuHour, ///< the offer's price per hour over its GPUs (on-demand, else spot)
        SpotInterruptions,
        SpotOverhead,
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
        Setup,
        PriceAge,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int OfferIndexRole = Qt::UserRole + 2;
    /// Flags column: 0 = no flag, 1 = informational flags only, 2 = a suspect price (not recommended).
    static constexpr int SeverityRole = Qt::UserRole + 3;

    explicit OfferTableModel(QObject *parent = nullptr);

    /// Replaces all offers (reset-style), with their projection when one is given for as many offers.
    void setOffers(QList<Offer> offers, const QDateTime &now = QDateTime::currentDateTimeUtc(),
                   ProjectionResultsPtr projection = {});
    const QList<Offer> &offers() const { return m_offers; }
    /// The time the rows' price ages are counted to (setOffers).
    QDateTime now() const { return m_now; }
    const Offer *offerAt(int row) const;
    /// Adds the projected time, cost and samples per dollar (ignored when it is for other offers).
    void setProjection(ProjectionResultsPtr results);
    ProjectionResultsPtr projection() const { return m_projection; }
    /// The point shown for an offer row (cheapest eligible), nullptr when none.
    const ProjectedOffer *pointFor(int row) const;
    /// The single-instance spot point of an offer row, nullptr when none.
    const ProjectedOffer *spotPointFor(int row) const;
    /// Flag names of a row: the offer's (price sanity, memory) and its shown point's, hyphenated.
    QStringList flagNames(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    /// What SortRole holds for `column` of an offer (catalog row `row`) under a projection, at `now`: a pure
    /// function of its arguments, so that a worker thread may compute it from a snapshot.
    static QVariant sortValueOf(const Offer &offer, int row, const ProjectionResults *projection,
                                const QDateTime &now, int column);
    /// A tooltip that shows `text` as it is: never read as markup, no control characters.
    static QString plainToolTip(const QString &text);
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawData(const QModelIndex &index, int role) const;
    QList<Offer> m_offers;
    QDateTime m_now;
    ProjectionResultsPtr m_projection;
};

/// Filters offers with an OfferFilter; typed setters, one invalidation per change. Its source is the
/// OfferTableModel itself or an OfferGroupModel over it (one row per instance type).
class OfferFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit OfferFilterProxy(QObject *parent = nullptr);
    void setSourceModel(QAbstractItemModel *source) override;
    /// Also tells an OfferGroupModel source the column (OfferGroupModel::setOrderColumn).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

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

public:
    /// A sort value read once (SortRole): missing values sort after every other in ascending order; numbers
    /// by value, text case-insensitively.
    struct SortKey
    {
        double number = 0;
        QString text;
        bool valid = false;
        bool isNumber = false;
    };
    static SortKey sortKeyOf(const QVariant &v);
    static bool keyLess(const SortKey &l, const SortKey &r);

private:
    void applyFilter();
    /// The sort keys of the top-level rows of a grouping source are read once per change of its data or of
    /// the sort column and ranked (topLevelRanks): sorting 200,000 rows then compares ints, not QVariants
    /// fetched through two models.
    /// The places of the top-level rows of a grouping source in the order of keyLess by `column` (equal keys:
    /// equal ranks), computed when the source's generation, the column or the role changed.
    const QList<int> &topLevelRanks(int column) const;
    bool ranksValid(int column) const;

    OfferFilter m_filter;
    OfferGroupModel *m_groups = nullptr;           ///< the source, when it is an OfferGroupModel
    GroupingModel *m_grouping = nullptr;           ///< the source, when it is a GroupingModel
    mutable std::optional<OfferMatcher> m_matcher; ///< for a plain OfferTableModel source
    mutable QList<int> m_rank;                     ///< per top-level row of a grouping source: topLevelRanks
    mutable quint64 m_keysGeneration = 0;
    mutable int m_keysColumn = -1;
    mutable int m_keysRole = -1;
    Qt::SortOrder m_order = Qt::AscendingOrder; ///< sortOrder(), read per comparison
    int m_sortRoleSeen = -1;                    ///< sortRole(), read per comparison
};

} // namespace gf
