#include "domain/offercsv.h"

#include "domain/gpucatalog.h"
#include "util/csv.h"
#include "util/printable.h"

namespace gf {

QString offerFieldName(OfferField field)
{
    switch (field) {
    case OfferField::Provider:
        return QStringLiteral("provider");
    case OfferField::InstanceType:
        return QStringLiteral("instance_type");
    case OfferField::Region:
        return QStringLiteral("region");
    case OfferField::Zone:
        return QStringLiteral("zone");
    case OfferField::GpuId:
        return QStringLiteral("gpu_id");
    case OfferField::GpuName:
        return QStringLiteral("gpu_name");
    case OfferField::GpuProviderName:
        return QStringLiteral("gpu_provider_name");
    case OfferField::GpuCount:
        return QStringLiteral("gpu_count");
    case OfferField::GpuMemGb:
        return QStringLiteral("gpu_mem_gb");
    case OfferField::Vcpus:
        return QStringLiteral("vcpus");
    case OfferField::RamGb:
        return QStringLiteral("ram_gb");
    case OfferField::NetworkGbps:
        return QStringLiteral("network_gbps");
    case OfferField::Interconnect:
        return QStringLiteral("interconnect");
    case OfferField::OnDemandUsdH:
        return QStringLiteral("ondemand_usd_h");
    case OfferField::SpotUsdH:
        return QStringLiteral("spot_usd_h");
    case OfferField::SpotLabel:
        return QStringLiteral("spot_label");
    case OfferField::Interruption:
        return QStringLiteral("interruption");
    case OfferField::Reliability:
        return QStringLiteral("reliability");
    case OfferField::BillingIncrementS:
        return QStringLiteral("billing_increment_s");
    case OfferField::BillingMinimumS:
        return QStringLiteral("billing_minimum_s");
    case OfferField::Source:
        return QStringLiteral("source");
    case OfferField::DataDate:
        return QStringLiteral("data_date");
    case OfferField::PriceDate:
        return QStringLiteral("price_date");
    case OfferField::UploadGbps:
        return QStringLiteral("upload_gbps");
    case OfferField::Dlperf:
        return QStringLiteral("dlperf");
    case OfferField::RowPriceDate:
        return QStringLiteral("price_date");
    case OfferField::ListingEnd:
        return QStringLiteral("end_date");
    }
    return {};
}

QString offerCsvCell(const Offer &o, OfferField field, const OfferCsvStyle &style)
{
    // No control or bidi formatting character leaves raw (line breaks stay: the field is quoted).
    auto text = [&](const QString &raw) {
        const QString s = printableKeepingLines(raw);
        return style.formulaSafe ? csvQuoteSafe(s) : csvQuote(s);
    };
    auto number = [&](const std::optional<double> &v) {
        return v ? csvNumber(*v, style.significantDigits) : QString();
    };
    switch (field) {
    case OfferField::Provider:
        return text(o.provider);
    case OfferField::InstanceType:
        return text(o.instanceType);
    case OfferField::Region:
        return text(o.region);
    case OfferField::Zone:
        return text(o.zone);
    case OfferField::GpuId:
        return text(o.gpuId);
    case OfferField::GpuName: {
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
        return text(m ? m->name : QString());
    }
    case OfferField::GpuProviderName:
        return text(o.gpuRawName);
    case OfferField::GpuCount:
        return number(o.gpuCount);
    case OfferField::GpuMemGb:
        return number(o.gpuMemGb);
    case OfferField::Vcpus:
        return number(o.vcpus);
    case OfferField::RamGb:
        return number(o.ramGb);
    case OfferField::NetworkGbps:
        return number(o.networkGbps);
    case OfferField::Interconnect:
        return text(o.interconnect);
    case OfferField::OnDemandUsdH:
        return number(o.onDemandUsdH);
    case OfferField::SpotUsdH:
        return number(o.spotUsdH);
    case OfferField::SpotLabel:
        return text(o.spotLabel);
    case OfferField::Interruption:
        return text(o.interruption);
    case OfferField::Reliability:
        return number(o.reliability);
    case OfferField::BillingIncrementS:
        return QString::number(o.billingIncrementS);
    case OfferField::BillingMinimumS:
        return QString::number(o.billingMinimumS);
    case OfferField::Source:
        return text(o.source);
    case OfferField::DataDate:
        return o.dataDate.toString(Qt::ISODate);
    case OfferField::PriceDate:
        return priceDateText(o);
    case OfferField::UploadGbps:
        return number(o.uploadGbps);
    case OfferField::Dlperf:
        return number(o.dlperf);
    case OfferField::RowPriceDate:
        return o.priceDate.isValid() ? o.priceDate.toString(Qt::ISODate) : QString();
    case OfferField::ListingEnd:
        return o.listingEnd.isValid() ? o.listingEnd.toString(Qt::ISODate) : QString();
    }
    return {};
}

QStringList offerCsvHeader(const QList<OfferCsvColumn> &columns)
{
    QStringList out;
    for (const OfferCsvColumn &c : columns)
        out.append(c.header);
    return out;
}

QStringList offerCsvCells(const Offer &offer, const QList<OfferCsvColumn> &columns,
                          const OfferCsvStyle &style)
{
    QStringList out;
    for (const OfferCsvColumn &c : columns)
        out.append(offerCsvCell(offer, c.field, style));
    return out;
}

} // namespace gf
