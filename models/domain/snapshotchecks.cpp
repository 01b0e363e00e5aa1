#include "domain/snapshotchecks.h"

#include "domain/provider.h"
#include "util/printable.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace gf {

qsizetype normaliseSnapshotText(SnapshotData &data)
{
    qsizetype changed = 0;
    QString first;
    auto clean = [&](QString &s, qint64 line, const char *what) {
        if (!hasUnprintable(s))
            return;
        s = printableText(s);
        if (changed++ == 0)
            first = line > 0 ? QStringLiteral("line %1, %2 \"%3\"").arg(line).arg(QLatin1StringView(what), s)
                             : QStringLiteral("%1 \"%2\"").arg(QLatin1StringView(what), s);
    };
    for (Offer &o : data.offers) {
        const qint64 line = o.id;
        clean(o.provider, line, "provider");
        clean(o.instanceType, line, "instance type");
        clean(o.region, line, "region");
        clean(o.zone, line, "zone");
        clean(o.gpuRawName, line, "GPU name");
        clean(o.interconnect, line, "interconnect");
        clean(o.spotLabel, line, "spot label");
        clean(o.interruption, line, "interruption");
        clean(o.source, line, "source");
    }
    clean(data.description, 0, "description");
    for (QString &w : data.warnings)
        clean(w, 0, "warning");
    if (changed > 0)
        data.warnings.append(
            QStringLiteral("%1 texts held control or bidirectional formatting characters, replaced by U+FFFD "
                           "(line breaks and tabs by a space); the first: %2")
                .arg(changed)
                .arg(first.left(120)));
    return changed;
}

QString providerOfNaming(const QString &instanceType, const QString &region)
{
    static const QRegularExpression awsType(
        QStringLiteral("^[a-z][a-z0-9-]*\\.(\\d*x?large|metal(-\\d+xl)?|nano|micro|small|medium)$"));
    static const QRegularExpression awsRegion(
        QStringLiteral("^(us|eu|ap|sa|ca|me|af|il|mx|cn)(-gov|-iso[a-z]*)?-[a-z]+-\\d+$"));
    static const QRegularExpression azureType(QStringLiteral("^(Standard|Basic)_[A-Za-z0-9_-]+$"));
    static const QRegularExpression gcpType(
        QStringLiteral("^[a-z][a-z0-9]*-(highgpu|megagpu|ultragpu|edgegpu|standard|highmem|highcpu|ultramem|"
                       "megamem)(-\\d+g?)?(-[a-z]+)?$"));
    static const QRegularExpression gcpRegion(
        QStringLiteral("^(us|europe|asia|australia|northamerica|southamerica|me|africa)-[a-z]+\\d+$"));
    static const QRegularExpression vastType(QStringLiteral("^\\d+x-[A-Za-z0-9_]+-\\d+-\\d+$"));
    static const QRegularExpression vastRegion(QStringLiteral(", [A-Z]{2}(, [A-Z]{2})?$"));
    static const QRegularExpression paperspaceRegion(QStringLiteral("^[A-Za-z ]+ \\([A-Z]{2,3}\\d\\)$"));
    if (awsType.match(instanceType).hasMatch() || awsRegion.match(region).hasMatch())
        return QStringLiteral("aws");
    if (azureType.match(instanceType).hasMatch())
        return QStringLiteral("azure");
    if (gcpType.match(instanceType).hasMatch() || gcpRegion.match(region).hasMatch())
        return QStringLiteral("gcp");
    if (vastType.match(instanceType).hasMatch() || vastRegion.match(region).hasMatch())
        return QStringLiteral("vastai");
    if (paperspaceRegion.match(region).hasMatch())
        return QStringLiteral("paperspace");
    return {};
}

Status checkProviderNaming(const SnapshotData &data, const QString &origin)
{
    QString other;
    const Offer *first = nullptr;
    int foreign = 0;
    // Clouds read through SkyPilot's catalog share region names with AWS ("us-east-1" at Lambda) and
    // instance-type shapes with vast.ai ("1x-H100-75-722" at Hyperbolic): for them only the distinctive
    // AWS, Azure and Google Cloud instance-type names count.
    const ProviderInfo *info = providerInfo(data.provider);
    const bool typesOnly = info && info->live == LiveSource::SkypilotCatalog;
    for (const Offer &o : data.offers) {
        QString owner = providerOfNaming(o.instanceType, typesOnly ? QString() : o.region);
        if (typesOnly && owner == u"vastai")
            owner.clear();
        if (owner.isEmpty() || owner == data.provider)
            continue;
        if (!first) {
            first = &o;
            other = owner;
        }
        if (owner == other)
            ++foreign;
    }
    if (!first)
        return Ok{};
    const QString who = providerDisplayName(data.provider);
    const QString where =
        origin.contains(u'(' + who + u')') ? origin : origin + QStringLiteral(" (") + who + u')';
    return makeError(QStringLiteral("%1: %3 of %4 rows are named like %5's offers, not %2's (first at "
                                    "line %6: instance type \"%7\", region \"%8\"); this file holds another "
                                    "provider's prices")
                         .arg(where, who, QString::number(foreign), QString::number(data.offers.size()),
                              providerDisplayName(other), QString::number(first->id),
                              first->instanceType.left(80), first->region.left(80)));
}

namespace {

QString number(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'g', 17) : QString();
}

/// Every field of a row, as one text (two rows are identical when their keys are).
QString rowKey(const Offer &o)
{
    return QStringList{o.provider,
                       o.instanceType,
                       o.region,
                       o.zone,
                       o.gpuRawName,
                       QString::number(o.gpuCount, 'g', 17),
                       number(o.gpuMemGb),
                       number(o.vcpus),
                       number(o.ramGb),
                       number(o.networkGbps),
                       o.interconnect,
                       number(o.onDemandUsdH),
                       number(o.spotUsdH),
                       o.spotLabel,
                       o.interruption,
                       number(o.reliability),
                       number(o.uploadGbps),
                       number(o.dlperf),
                       QString::number(o.billingIncrementS),
                       QString::number(o.billingMinimumS),
                       o.source}
        .join(u'\x1f');
}

} // namespace

Error tooFewRows(const SnapshotData &data, const QString &origin, int minRows)
{
    const QString head = QStringLiteral("%1: only %2 offers, at least %3 expected")
                             .arg(origin, QString::number(data.offers.size()), QString::number(minRows));
    if (data.warnings.isEmpty())
        return makeError(head + QStringLiteral(" (truncated or empty download?)"));
    return makeError(head + QStringLiteral(": ") + data.warnings.join(QStringLiteral("; ")));
}

qsizetype dropIdenticalRows(SnapshotData &data)
{
    QSet<QString> seen;
    seen.reserve(data.offers.size());
    QList<bool> repeat(data.offers.size(), false);
    qsizetype dropped = 0;
    qint64 firstLine = 0;
    for (qsizetype i = 0; i < data.offers.size(); ++i) {
        const QString key = rowKey(data.offers.at(i));
        if (seen.contains(key)) {
            repeat[i] = true;
            if (dropped++ == 0)
                firstLine = data.offers.at(i).id;
        } else {
            seen.insert(key);
        }
    }
    if (dropped == 0)
        return 0;
    QList<Offer> kept;
    kept.reserve(data.offers.size() - dropped);
    for (qsizetype i = 0; i < data.offers.size(); ++i)
        if (!repeat.at(i))
            kept.append(std::move(data.offers[i]));
    data.offers = std::move(kept);
    data.warnings.append(QStringLiteral("%1 rows identical to an earlier row were imported once (the first "
                                        "at line %2)")
                             .arg(dropped)
                             .arg(firstLine));
    return dropped;
}

Status checkUniqueOfferIds(const SnapshotData &data, const QString &origin)
{
    if (data.provider != u"vastai")
        return Ok{};
    static const QRegularExpression offerId(QStringLiteral("^[0-9]+$"));
    QHash<QString, const Offer *> byId;
    for (const Offer &o : data.offers) {
        if (!offerId.match(o.instanceType).hasMatch())
            continue;
        if (const Offer *earlier = byId.value(o.instanceType)) {
            return makeError(
                QStringLiteral("%1 (%2): offer id %3 names two different offers (rows %4 and %5); an offer "
                               "id must be unique")
                    .arg(origin, providerDisplayName(data.provider), o.instanceType,
                         QString::number(earlier->id), QString::number(o.id)));
        }
        byId.insert(o.instanceType, &o);
    }
    return Ok{};
}

Status checkMinimumPrices(const SnapshotData &data, const QString &origin)
{
    for (const Offer &o : data.offers) {
        for (const auto &[price, name] : {std::pair{o.onDemandUsdH, QStringLiteral("on-demand price")},
                                          std::pair{o.spotUsdH, QStringLiteral("spot price")}}) {
            if (price && *price > 0 && *price < kMinPlausibleUsdPerHour)
                return makeError(QStringLiteral("%1 (%2): row at line %3, %4: %5 %6 USD/h is not plausible "
                                                "(expected at least %7)")
                                     .arg(origin, providerDisplayName(data.provider), QString::number(o.id),
                                          o.instanceType.left(80), name, QString::number(*price),
                                          QString::number(kMinPlausibleUsdPerHour)));
        }
    }
    return Ok{};
}

} // namespace gf
