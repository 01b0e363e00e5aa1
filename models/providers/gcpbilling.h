#pragma once

#include "providers/offercomposer.h"
#include "providers/snapshotfile.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace gf {

class ProviderTables;

/// One SKU of the Cloud Billing Catalog API (services/6F81-5844-456A/skus = Compute Engine).
struct GcpSku
{
    QString skuId;
    QString description;
    QString resourceGroup; ///< GPU, CPU, RAM, N1Standard, ...
    QString usageType;     ///< OnDemand, Preemptible, Commit1Yr, ...
    QStringList regions;   ///< serviceRegions
    QString usageUnit;     ///< h, GiBy.h
    QString currency;
    double unitPrice = 0; ///< units + nanos / 1e9 of the first tier
};

struct GcpSkuPage
{
    QList<GcpSku> skus;
    QString nextPageToken; ///< empty on the last page
};

Result<GcpSkuPage> parseGcpSkuPage(QByteArrayView data, const QString &origin);

/// Composes machine offers from SKUs: for each shape of the project table and each region where
/// all parts are priced, vcpus x core + GiB x RAM + count x GPU; on-demand from OnDemand SKUs,
/// spot from Preemptible ("Spot Preemptible") SKUs.
SnapshotData composeGcpOffers(const QList<GcpSku> &skus, const ProviderTables &tables, const QString &source);

/// composeGcpOffers over SKUs given one at a time (page by page, as they are read): what is held is one price
/// per part (GPU, core, RAM of a series), region and kind, and the skip counts, not the SKUs.
class GcpOfferComposer final : public OfferComposer<GcpSku>
{
public:
    explicit GcpOfferComposer(const ProviderTables &tables);
    ~GcpOfferComposer() override;
    GcpOfferComposer(const GcpOfferComposer &) = delete;
    GcpOfferComposer &operator=(const GcpOfferComposer &) = delete;

    void add(const GcpSku &item) override;
    SnapshotData finish(const QString &source) override;
    /// One price per part, region and kind.
    qsizetype pricesHeld() const override;

private:
    struct State;
    const ProviderTables &m_tables;
    std::unique_ptr<State> m_state;
};

} // namespace gf
