#pragma once

#include "providers/offercomposer.h"
#include "providers/snapshotfile.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QList>
#include <QString>

#include <memory>

namespace gf {

class ProviderTables;

/// One item of the Azure Retail Prices API (https://prices.azure.com/api/retail/prices).
struct AzureRetailItem
{
    QString armSkuName;
    QString armRegionName;
    QString meterName;
    QString skuName;
    QString productName;
    QString serviceName;
    QString type;          ///< Consumption, DevTestConsumption, Reservation
    QString unitOfMeasure; ///< "1 Hour"
    QString currencyCode;
    QString effectiveStartDate;
    double retailPrice = 0;
    bool isPrimaryMeterRegion = true;
};

struct AzureRetailPage
{
    QList<AzureRetailItem> items;
    QString nextPageLink; ///< empty at the end (the API sends null, "" or nothing)
    QString currency;     ///< BillingCurrency
};

/// Parses one page; checks the types of the fields used (a wrong type names the item and field).
Result<AzureRetailPage> parseAzureRetailPage(QByteArrayView data, const QString &origin);

/// Turns price items into offers: Linux pay-as-you-go hourly meters of the GPU VM sizes in the
/// project table, spot and low-priority meters kept apart, Windows meters, $0 placeholders and
/// spot prices equal to on-demand dropped (with warnings).
SnapshotData composeAzureOffers(const QList<AzureRetailItem> &items, const ProviderTables &tables,
                                const QString &source);

/// composeAzureOffers over items given one at a time (page by page, as they are read): what is held is one
/// chosen price per VM size, region and meter kind, and the skip counts, not the items.
class AzureOfferComposer final : public OfferComposer<AzureRetailItem>
{
public:
    explicit AzureOfferComposer(const ProviderTables &tables);
    ~AzureOfferComposer() override;
    AzureOfferComposer(const AzureOfferComposer &) = delete;
    AzureOfferComposer &operator=(const AzureOfferComposer &) = delete;

    void add(const AzureRetailItem &item) override;
    SnapshotData finish(const QString &source) override;
    /// One price per size, region and meter kind.
    qsizetype pricesHeld() const override;

private:
    struct State;
    const ProviderTables &m_tables;
    std::unique_ptr<State> m_state;
};

/// The $filter for the GPU sizes of the table, split so that every URL stays short.
QStringList azureGpuFilters(const ProviderTables &tables, int sizesPerFilter = 12);

} // namespace gf
