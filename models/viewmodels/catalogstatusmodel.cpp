#include "viewmodels/catalogstatusmodel.h"

#include "domain/pricesanity.h"
#include "store/catalogstore.h"
#include "util/format.h"
#include "util/printable.h"
#include "viewmodels/offertablemodel.h"

namespace gf {

Result<QList<ProviderStatus>> loadProviderStatuses(const CatalogStore &store)
{
    auto snaps = store.snapshots();
    if (!snaps)
        return snaps.error();
    RefreshState state(store);
    QList<ProviderStatus> out;
    for (const QString &p : knownProviders()) {
        ProviderStatus s;
        s.provider = p;
        for (const Snapshot &snap : snaps.value()) {
            if (snap.provider != p)
                continue;
            if (snap.current)
                s.current = snap;
            if (!s.lastChecked || snap.fetchedAt > *s.lastChecked)
                s.lastChecked = snap.fetchedAt;
        }
        auto log = state.recentLog(p, 1);
        if (!log)
            return log.error();
        if (!log.value().isEmpty()) {
            s.lastAttempt = log.value().first();
            if (s.lastAttempt->outcome == u"failed" || s.lastAttempt->outcome == u"cancelled")
                s.lastError = s.lastAttempt;
            if (!s.lastChecked || s.lastAttempt->finishedAt > *s.lastChecked)
                s.lastChecked = s.lastAttempt->finishedAt;
        }
        out.append(s);
    }
    return out;
}

CatalogStatusModel::CatalogStatusModel(QObject *parent) : QAbstractTableModel(parent) {}

void CatalogStatusModel::setStatuses(QList<ProviderStatus> statuses, const QDateTime &now)
{
    beginResetModel();
    m_statuses = std::move(statuses);
    m_now = now;
    endResetModel();
}

int CatalogStatusModel::rowOf(const QString &provider) const
{
    for (int i = 0; i < m_statuses.size(); ++i)
        if (m_statuses.at(i).provider == provider)
            return i;
    return -1;
}

int CatalogStatusModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_statuses.size());
}

int CatalogStatusModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CatalogStatusModel::data(const QModelIndex &index, int role) const
{
    // Provider strings are shown, never interpreted: no control characters, no markup in tooltips.
    const QVariant v = rawData(index, role);
    if (v.typeId() != QMetaType::QString)
        return v;
    if (role == Qt::DisplayRole)
        return printableText(v.toString());
    if (role == Qt::ToolTipRole)
        return OfferTableModel::plainToolTip(v.toString());
    return v;
}

QVariant CatalogStatusModel::rawData(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_statuses.size() || index.column() >= ColumnCount)
        return {};
    const ProviderStatus &s = m_statuses.at(index.row());
    const std::optional<gf::Snapshot> &c = s.current;
    const qint64 age = c ? c->ageDays(m_now) : -1;
    const bool stale = c && age > kStaleDays;
    switch (role) {
    case ProviderRole:
        return s.provider;
    case StaleRole:
        return stale;
    case FailedRole:
        return s.lastError.has_value();
    case Qt::ToolTipRole:
        if (index.column() == LastError && s.lastError)
            return s.lastError->message;
        if (index.column() == Age && age > PriceSanityRules{}.maxPriceAgeDays)
            return tr("These prices are %1 days old, more than %2: their offers are flagged stale and not "
                      "recommended until you refresh them (or include suspect prices).")
                .arg(age)
                .arg(PriceSanityRules{}.maxPriceAgeDays);
        if (index.column() == Age && stale)
            return tr("These prices are %1 days old: refresh them.").arg(age);
        if ((index.column() == Source || index.column() == Snapshot || index.column() == PricesDated) && c)
            return c->note.isEmpty() ? c->origin : c->origin + QStringLiteral("\n") + c->note;
        return {};
    case SortRole:
        switch (index.column()) {
        case Provider:
            return index.row();
        case Snapshot:
            return c ? QVariant(c->id) : QVariant();
        case PricesDated:
            return c && c->dataDate.isValid() ? QVariant(c->dataDate) : QVariant();
        case Age:
            return c ? QVariant(age) : QVariant();
        case Offers:
            return c ? QVariant(c->rowCount) : QVariant();
        case LastChecked:
            return s.lastChecked ? QVariant(*s.lastChecked) : QVariant();
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case Provider:
            return providerDisplayName(s.provider);
        case Snapshot:
            return c ? QVariant(QString::number(c->id)) : QVariant(tr("none"));
        case Source:
            return c ? QVariant(sourceKindName(c->kind)) : QVariant();
        case PricesDated:
            return c && c->dataDate.isValid() ? c->dataDate.toString(Qt::ISODate) : QStringLiteral("–");
        case Age:
            return c ? QVariant(formatAgeDays(age) + (age > PriceSanityRules{}.maxPriceAgeDays
                                                          ? tr(" (stale)")
                                                      : stale ? tr(" (refresh advised)")
                                                              : QString()))
                     : QVariant();
        case Offers:
            return c ? QVariant(c->rowCount) : QVariant();
        case LastChecked:
            return s.lastChecked ? s.lastChecked->toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) +
                                       QStringLiteral(" UTC")
                                 : QString();
        case LastError:
            return s.lastError ? s.lastError->message.section(u'\n', 0, 0) : QString();
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if (index.column() == Offers || index.column() == Snapshot)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant CatalogStatusModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Provider:
        return tr("Provider");
    case Snapshot:
        return tr("Snapshot");
    case Source:
        return tr("Source");
    case PricesDated:
        return tr("Prices dated");
    case Age:
        return tr("Age");
    case Offers:
        return tr("Offers");
    case LastChecked:
        return tr("Last checked");
    case LastError:
        return tr("Last error");
    default:
        return {};
    }
}

} // namespace gf
