#include "viewmodels/offergroupmodel.h"

#include "util/format.h"
#include "viewmodels/displaycurrency.h"
#include "viewmodels/offertablemodel.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gf {

bool sameFilter(const OfferFilter &a, const OfferFilter &b)
{
    return a.providers == b.providers && a.gpu == b.gpu && a.minGpus == b.minGpus &&
           a.minGpuMemGb == b.minGpuMemGb && a.maxPriceUsdH == b.maxPriceUsdH && a.spotOnly == b.spotOnly &&
           a.region == b.region && a.text == b.text;
}

OfferGroupModel::OfferGroupModel(QObject *parent) : GroupingModel(parent)
{
    m_pool.setMaxThreadCount(1);
}

OfferGroupModel::~OfferGroupModel()
{
    m_filterJob->fetch_add(1); // a running match stops early
    m_pool.waitForDone();
}

void OfferGroupModel::setOfferModel(OfferTableModel *model)
{
    m_offers = model;
    setSourceModel(model);
}

void OfferGroupModel::setFilter(const OfferFilter &filter)
{
    m_filterJob->fetch_add(1); // a filter still computing on a worker is older: it is dropped
    m_pending = false;
    m_filter = filter;
    updateGroups();
    m_applyingFilter = true;
    notifyGroupsChanged();
    m_applyingFilter = false;
}

void OfferGroupModel::setFilterOnWorker(const OfferFilter &filter)
{
    const quint64 job = m_filterJob->fetch_add(1) + 1;
    m_pending = true;
    m_pendingFilter = filter;
    // The snapshot: implicitly shared copies (the model's own detach when they change) and the projection,
    // which is never changed once made.
    const QList<Offer> offers = m_offers ? m_offers->offers() : QList<Offer>();
    const Layout groups = layout();
    const ProjectionResultsPtr projection = m_offers ? m_offers->projection() : ProjectionResultsPtr();
    const quint64 grouping = groupingGeneration();
    const std::shared_ptr<std::atomic<quint64>> latest = m_filterJob;
    auto *watcher = new QFutureWatcher<std::shared_ptr<Outcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        onFilterComputed(job, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [=]() -> std::shared_ptr<Outcome> {
        const auto stale = [&latest, job] { return latest->load() != job; };
        if (stale())
            return nullptr;
        auto out = std::make_shared<Outcome>();
        out->filter = filter;
        out->projection = projection;
        out->grouping = grouping;
        if (!matchOffers(offers, filter, out->accepted, out->acceptedCount, stale))
            return nullptr;
        summarise(offers, groups, out->accepted, projection, filter.spotOnly, *out);
        return stale() ? nullptr : out;
    }));
}

void OfferGroupModel::onFilterComputed(quint64 job, const std::shared_ptr<Outcome> &out)
{
    if (job != m_filterJob->load() || !m_pending)
        return; // a newer filter was set since (its own result follows), or applied at once
    const ProjectionResultsPtr projection = m_offers ? m_offers->projection() : ProjectionResultsPtr();
    const qsizetype offers = m_offers ? m_offers->offers().size() : 0;
    if (!out || out->grouping != groupingGeneration() || out->projection != projection ||
        out->accepted.size() != offers) {
        // Other groups or another projection arrived while it ran: again, from what the model has now.
        setFilterOnWorker(m_pendingFilter);
        return;
    }
    m_pending = false;
    m_filter = out->filter;
    m_accepted = out->accepted;
    m_acceptedCount = out->acceptedCount;
    adoptSummaries(*out);
    m_applyingFilter = true;
    notifyGroupsChanged();
    m_applyingFilter = false;
    Q_EMIT filterApplied();
}

QString OfferGroupModel::groupKey(int sourceRow) const
{
    const Offer *o = m_offers ? m_offers->offerAt(sourceRow) : nullptr;
    if (!o)
        return {};
    // Members differ only in where they are: same provider, instance type, GPUs and billing terms. Whether
    // a location has a spot price (and so a spot label) is where it is, not another kind of offer.
    return o->provider + u'\x1f' + o->instanceType + u'\x1f' +
           (o->gpuId.isEmpty() ? o->gpuRawName : o->gpuId) + u'\x1f' + QString::number(o->gpuCount) +
           u'\x1f' + QString::number(o->billingIncrementS) + u'/' + QString::number(o->billingMinimumS);
}

namespace {
const QString &groupGpu(const Offer &o)
{
    return o.gpuId.isEmpty() ? o.gpuRawName : o.gpuId;
}
} // namespace

size_t OfferGroupModel::hashOf(const Offer &o)
{
    // What groupKey holds, hashed without building it (the regroup of 200,000 offers built a text each).
    // Not the GPU count: counts that differ but print alike are one group (sameGroup), as in groupKey.
    return qHashMulti(0, o.provider, o.instanceType, groupGpu(o), o.billingIncrementS, o.billingMinimumS);
}

bool OfferGroupModel::sameGroupOf(const Offer &a, const Offer &b)
{
    // The GPU count as groupKey writes it: counts that print alike are one (a NaN count included).
    return a.provider == b.provider && a.instanceType == b.instanceType && groupGpu(a) == groupGpu(b) &&
           a.billingIncrementS == b.billingIncrementS && a.billingMinimumS == b.billingMinimumS &&
           (a.gpuCount == b.gpuCount || QString::number(a.gpuCount) == QString::number(b.gpuCount));
}

size_t OfferGroupModel::groupHash(int sourceRow) const
{
    const Offer *o = m_offers ? m_offers->offerAt(sourceRow) : nullptr;
    return o ? hashOf(*o) : 0;
}

bool OfferGroupModel::sameGroup(int sourceRow, int otherRow) const
{
    const Offer *a = m_offers ? m_offers->offerAt(sourceRow) : nullptr;
    const Offer *b = m_offers ? m_offers->offerAt(otherRow) : nullptr;
    if (!a || !b)
        return !a && !b;
    return sameGroupOf(*a, *b);
}

OfferGroupModel::State OfferGroupModel::state() const
{
    State s;
    if (m_offers) {
        s.offers = m_offers->offers();
        s.now = m_offers->now();
        s.projection = m_offers->projection();
    }
    s.layout = layout();
    s.accepted = m_accepted;
    s.summary = m_summary;
    s.rep = representatives();
    s.generation = generation();
    return s;
}

QVariant OfferGroupModel::groupSortValue(const State &state, int group, int column)
{
    // As data(): a group of one shows its offer; a group of two or more with an accepted member its summary's
    // prices and frontier mark (groupData), else its representative's values.
    const std::span<const int> members = state.layout.membersOf(group);
    if (members.size() >= 2 && state.summary.at(group).accepted > 0) {
        const Summary &s = state.summary.at(group);
        if (column == OfferTableModel::OnDemand || column == OfferTableModel::Spot) {
            const std::optional<double> lo = column == OfferTableModel::Spot ? s.minSpot : s.minOnDemand;
            return lo ? QVariant(*lo) : QVariant();
        }
        if (column == OfferTableModel::OnFrontier)
            return s.onFrontier ? 1 : 0;
    }
    const int row = members.size() >= 2 ? state.rep.at(group) : members.front();
    return OfferTableModel::sortValueOf(state.offers.at(row), row, state.projection.get(), state.now, column);
}

std::shared_ptr<OfferGroupModel::PreparedCatalog>
OfferGroupModel::prepareCatalog(const QList<Offer> &offers, const QDateTime &now,
                                const ProjectionResultsPtr &projection, bool grouped,
                                const OfferFilter &filter, const std::function<bool()> &stop)
{
    auto out = std::make_shared<PreparedCatalog>();
    out->offers = offers;
    out->now = now;
    out->projection = projection && projection->catalogSize() == offers.size() ? projection : nullptr;
    out->grouping = formGroups(
        static_cast<int>(offers.size()), grouped, [&offers](int row) { return hashOf(offers.at(row)); },
        [&offers](int row, int other) { return sameGroupOf(offers.at(row), offers.at(other)); });
    if (stop && stop())
        return nullptr;
    out->outcome.filter = filter;
    if (!matchOffers(offers, filter, out->outcome.accepted, out->outcome.acceptedCount, stop))
        return nullptr;
    summarise(offers, out->grouping.layout, out->outcome.accepted, out->projection, filter.spotOnly,
              out->outcome);
    return out;
}

void OfferGroupModel::setPreparedCatalog(const PreparedCatalog &catalog)
{
    if (!m_offers)
        return;
    setNextGrouping(catalog.grouping);
    if (sameFilter(catalog.outcome.filter, m_filter))
        m_nextOutcome = &catalog.outcome;
    m_offers->setOffers(catalog.offers, catalog.now, catalog.projection);
    m_nextOutcome = nullptr;
    dropNextGrouping(); // (the reset took it)
}

bool OfferGroupModel::orderKeptByProjection(int column)
{
    switch (column) {
    case OfferTableModel::Provider:
    case OfferTableModel::Instance:
    case OfferTableModel::Gpu:
    case OfferTableModel::GpuCount:
        return true; // the offer's, the same for every member of a group (its key)
    case OfferTableModel::OnDemand:
    case OfferTableModel::Spot:
        return true; // the offer's; a group's lowest price over its accepted members
    default:
        return false; // projected, or the representative's (the best projected member)
    }
}

void OfferGroupModel::updateGroups()
{
    const Outcome *prepared = std::exchange(m_nextOutcome, nullptr);
    const qsizetype offers = m_offers ? m_offers->offers().size() : 0;
    if (prepared && prepared->accepted.size() == offers && prepared->summary.size() == groupCount() &&
        prepared->projection == (m_offers ? m_offers->projection() : ProjectionResultsPtr())) {
        // A catalog prepared on a worker for these groups, this filter and this projection
        // (setPreparedCatalog).
        m_accepted = prepared->accepted;
        m_acceptedCount = prepared->acceptedCount;
        adoptSummaries(*prepared);
        return;
    }
    updateAccepted();
    updateSummaries();
}

OfferGroupModel::Outcome
OfferGroupModel::summariseUnder(const State &state, const ProjectionResultsPtr &projection, bool spotOnly)
{
    Outcome out;
    summarise(state.offers, state.layout, state.accepted, projection, spotOnly, out);
    return out;
}

void OfferGroupModel::setPreparedProjection(const ProjectionResultsPtr &projection, const Outcome &summaries,
                                            quint64 generation)
{
    if (!m_offers)
        return;
    if (generation == this->generation() && summaries.summary.size() == groupCount() &&
        summaries.projection == projection)
        m_nextSummaries = &summaries;
    m_offers->setProjection(projection);
    m_nextSummaries = nullptr;
}

void OfferGroupModel::updateGroupsForSourceData()
{
    // The offers and the filter are the same (a reset regroups): which offers are accepted is too; only the
    // summaries (representatives, frontier marks) follow the projection.
    const ProjectionResultsPtr projection = m_offers ? m_offers->projection() : ProjectionResultsPtr();
    m_projectionChanged = projection != m_summarised;
    if (m_offers && m_accepted.size() != m_offers->offers().size())
        updateAccepted();
    if (const Outcome *prepared = std::exchange(m_nextSummaries, nullptr);
        prepared && prepared->projection == projection) {
        adoptSummaries(*prepared); // computed on a worker from these groups and accepted offers
        return;
    }
    updateSummaries();
}

void OfferGroupModel::notifyManyRowsChanged()
{
    // A new projection changes projected values and representatives, not the values of a column that
    // orderKeptByProjection: the proxy sorted by such a column keeps its order. Anything else (another
    // currency, an unknown order column) is one layout change as before.
    if (m_projectionChanged && (m_orderColumn == -1 || orderKeptByProjection(m_orderColumn)))
        notifyRowsChangedExcept(m_orderColumn);
    else
        notifyGroupsChanged();
    m_projectionChanged = false;
}

bool OfferGroupModel::matchOffers(const QList<Offer> &offers, const OfferFilter &filter,
                                  QList<bool> &accepted, int &acceptedCount,
                                  const std::function<bool()> &stop)
{
    const bool all = filter.isEmpty();
    accepted.resize(offers.size());
    acceptedCount = 0;
    OfferMatcher matcher(filter);
    for (qsizetype row = 0; row < offers.size(); ++row) {
        if (stop && row % 4096 == 0 && stop())
            return false;
        accepted[row] = all || matcher.accepts(offers.at(row));
        acceptedCount += accepted.at(row) ? 1 : 0;
    }
    return true;
}

void OfferGroupModel::updateAccepted()
{
    const QList<Offer> empty;
    matchOffers(m_offers ? m_offers->offers() : empty, m_filter, m_accepted, m_acceptedCount, {});
}

void OfferGroupModel::updateSummaries()
{
    const QList<Offer> empty;
    Outcome out;
    summarise(m_offers ? m_offers->offers() : empty, layout(), m_accepted,
              m_offers ? m_offers->projection() : ProjectionResultsPtr(), m_filter.spotOnly, out);
    adoptSummaries(out);
}

void OfferGroupModel::adoptSummaries(const Outcome &out)
{
    m_summarised = out.projection;
    m_summary = out.summary;
    m_acceptedGroups = out.acceptedGroups;
    for (int g = 0; g < out.rep.size(); ++g)
        setRepresentative(g, out.rep.at(g));
}

void OfferGroupModel::summarise(const QList<Offer> &offers, const Layout &layout, const QList<bool> &accepted,
                                const ProjectionResultsPtr &projection, bool spotOnly, Outcome &out)
{
    out.projection = projection;
    const int groups = layout.groupCount();
    out.summary.fill(Summary{}, groups);
    out.rep.fill(-1, groups);
    out.acceptedGroups = 0;
    const auto pointFor = [&projection](int row) -> const ProjectedOffer * {
        const qsizetype i = projection ? projection->pointForRow(row) : -1;
        return i >= 0 ? &projection->points.at(i) : nullptr;
    };
    for (int g = 0; g < groups; ++g) {
        Summary &s = out.summary[g];
        int bestProjected = -1, bestPriced = -1;
        double bestCost = 0, bestPrice = 0;
        const std::span<const int> rows = layout.membersOf(g);
        for (const int row : rows) {
            if (!accepted.at(row))
                continue;
            const Offer &o = offers.at(row);
            ++s.accepted;
            s.zones = s.zones && !o.zone.isEmpty() && o.zone != o.region;
            if (o.onDemandUsdH) {
                if (!s.minOnDemand || *o.onDemandUsdH < *s.minOnDemand) {
                    s.minOnDemand = o.onDemandUsdH;
                    s.minOnDemandRow = row;
                }
                if (!s.maxOnDemand || *o.onDemandUsdH > *s.maxOnDemand) {
                    s.maxOnDemand = o.onDemandUsdH;
                    s.maxOnDemandRow = row;
                }
            }
            if (o.spotUsdH) {
                if (!s.minSpot || *o.spotUsdH < *s.minSpot) {
                    s.minSpot = o.spotUsdH;
                    s.minSpotRow = row;
                }
                if (!s.maxSpot || *o.spotUsdH > *s.maxSpot) {
                    s.maxSpot = o.spotUsdH;
                    s.maxSpotRow = row;
                }
            }
            if (projection) {
                s.onFrontier = s.onFrontier || projection->onFrontierAtRow(row);
                const ProjectedOffer *p = pointFor(row);
                if (p && p->eligible() && p->costUsd > 0 && (bestProjected < 0 || p->costUsd < bestCost)) {
                    bestProjected = row;
                    bestCost = p->costUsd;
                }
            }
            std::optional<double> price = effectivePrice(o, spotOnly);
            if (!price)
                price = o.onDemandUsdH ? o.onDemandUsdH : o.spotUsdH;
            if (price && (bestPriced < 0 || *price < bestPrice)) {
                bestPriced = row;
                bestPrice = *price;
            }
        }
        if (s.accepted > 0)
            ++out.acceptedGroups;
        int rep = bestProjected >= 0 ? bestProjected : bestPriced;
        if (rep < 0) {
            rep = rows.front();
            for (const int row : rows)
                if (accepted.at(row)) {
                    rep = row;
                    break;
                }
        }
        out.rep[g] = rep;
    }
}

QString OfferGroupModel::locationCountText(const Summary &s) const
{
    if (s.zones)
        return s.accepted == 1 ? tr("in 1 zone") : tr("in %1 zones").arg(s.accepted);
    return s.accepted == 1 ? tr("in 1 region") : tr("in %1 regions").arg(s.accepted);
}

QString OfferGroupModel::priceRangeTooltip(int group, bool spot) const
{
    const Summary &s = m_summary.at(group);
    const std::optional<double> lo = spot ? s.minSpot : s.minOnDemand;
    const std::optional<double> hi = spot ? s.maxSpot : s.maxOnDemand;
    const int loRow = spot ? s.minSpotRow : s.minOnDemandRow;
    const int hiRow = spot ? s.maxSpotRow : s.maxOnDemandRow;
    if (!lo)
        return tr("No price of this kind in these locations.");
    const QList<Offer> &offers = m_offers->offers();
    QString t = tr("%1 price of the whole instance, %7 per hour, %2:\nlowest %3 in %4\nhighest %5 in %6")
                    .arg(spot ? tr("Spot") : tr("On-demand"), locationCountText(s),
                         formatMoneyPerHour(lo, DisplayCurrency::instance().current()),
                         locationText(offers.at(loRow)),
                         formatMoneyPerHour(hi, DisplayCurrency::instance().current()),
                         locationText(offers.at(hiRow)), DisplayCurrency::instance().code());
    return t + tr("\nExpand the row to see every location.");
}

QVariant OfferGroupModel::groupData(int group, int column, int role) const
{
    const Summary &s = m_summary.at(group);
    const int rep = representative(group);
    if (s.accepted == 0 || !m_offers)
        return GroupingModel::groupData(group, column, role);
    const Offer &o = m_offers->offers().at(rep);
    switch (column) {
    case OfferTableModel::Provider:
    case OfferTableModel::Instance:
        // Provider text (instance type, region, zone) is shown, never read as markup or controls.
        if (role == Qt::ToolTipRole)
            return OfferTableModel::plainToolTip(
                tr("%1 %2 %3: one offer per location.\nThe row shows the best one (the cheapest projected "
                   "run, else the lowest price): %4.\nExpand it (or press →) to see every location.")
                    .arg(providerDisplayName(o.provider), o.instanceType, locationCountText(s),
                         locationText(o)));
        break;
    case OfferTableModel::Region:
        if (role == Qt::DisplayRole)
            return locationCountText(s);
        if (role == Qt::ToolTipRole)
            return OfferTableModel::plainToolTip(
                tr("%1 %2; the row's time and cost are those of %3.\nExpand the row to see every "
                   "location.")
                    .arg(o.instanceType, locationCountText(s), locationText(o)));
        break;
    case OfferTableModel::OnDemand:
    case OfferTableModel::Spot: {
        const bool spot = column == OfferTableModel::Spot;
        const std::optional<double> lo = spot ? s.minSpot : s.minOnDemand;
        const std::optional<double> hi = spot ? s.maxSpot : s.maxOnDemand;
        if (role == Qt::DisplayRole) {
            const Currency &cur = DisplayCurrency::instance().current();
            if (!lo)
                return formatMoneyPerHour(lo, cur);
            return *hi > *lo ? QString(formatMoneyPerHour(lo, cur) + QStringLiteral(" – ") +
                                       formatMoneyPerHour(hi, cur))
                             : formatMoneyPerHour(lo, cur);
        }
        if (role == OfferTableModel::SortRole)
            return lo ? QVariant(*lo) : QVariant();
        if (role == Qt::ToolTipRole)
            return OfferTableModel::plainToolTip(priceRangeTooltip(group, spot));
        break;
    }
    case OfferTableModel::OnFrontier:
        if (role == Qt::DisplayRole)
            return s.onFrontier ? QStringLiteral("★") : QString();
        if (role == OfferTableModel::SortRole)
            return s.onFrontier ? 1 : 0;
        break;
    default:
        break;
    }
    return GroupingModel::groupData(group, column, role);
}

} // namespace gf
