#pragma once

#include "domain/offer.h"
#include "store/refreshstate.h"
#include "util/result.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

#include <optional>

namespace gf {

class CatalogStore;

/// What the Catalogs page shows for one provider.
struct ProviderStatus
{
    QString provider;
    std::optional<Snapshot> current;      ///< newest good snapshot
    std::optional<QDateTime> lastChecked; ///< newest snapshot row of any status (an "unchanged" check counts)
    std::optional<RefreshLogEntry> lastAttempt;
    std::optional<RefreshLogEntry> lastError; ///< the newest attempt, when it failed
};

/// Reads every provider's status (one store, its thread).
Result<QList<ProviderStatus>> loadProviderStatuses(const CatalogStore &store);

/// One row per provider: current snapshot, source, price date, age (stale past 7 days), offers,
/// last check and last error. DisplayRole is text, SortRole raw values, StaleRole flags old prices.
class CatalogStatusModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Provider,
        Snapshot,
        Source,
        PricesDated,
        Age,
        Offers,
        LastChecked,
        LastError,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int StaleRole = Qt::UserRole + 2;    ///< bool: prices older than staleDays()
    static constexpr int ProviderRole = Qt::UserRole + 3; ///< provider id
    static constexpr int FailedRole = Qt::UserRole + 4;   ///< bool: the last attempt failed
    static constexpr qint64 kStaleDays = 7;

    explicit CatalogStatusModel(QObject *parent = nullptr);

    void setStatuses(QList<ProviderStatus> statuses, const QDateTime &now = QDateTime::currentDateTimeUtc());
    const QList<ProviderStatus> &statuses() const { return m_statuses; }
    int rowOf(const QString &provider) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawData(const QModelIndex &index, int role) const;
    QList<ProviderStatus> m_statuses;
    QDateTime m_now;
};

} // namespace gf
