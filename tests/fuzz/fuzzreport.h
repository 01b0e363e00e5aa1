#pragma once

// A small report built from fuzzed strings, for the report renderer targets (fuzz_report_*.cpp).

#include "domain/workload.h"
#include "projection/catalogprojection.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"
#include "projection/projectionresults.h"
#include "report/report.h"

#include <QByteArrayView>
#include <QDate>
#include <QDateTime>
#include <QList>
#include <QStringList>
#include <QTimeZone>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace gf::fuzz {

/// The strings a provider or the user can put into a report, in the order the input gives them.
enum ReportField : int
{
    WorkloadName,
    Title,
    Instance1,
    Instance2,
    Instance3,
    Region1,
    Region2,
    Zone,
    GpuRawName,
    SpotLabel,
    SnapshotOrigin,
    ProbeDevice,
    FieldCount
};

/// The input split at 0xff bytes (which UTF-8 never contains) into FieldCount strings (missing ones
/// empty); invalid UTF-8 becomes U+FFFD, as when the store reads it.
inline QStringList reportFields(const uint8_t *data, size_t size)
{
    QStringList fields;
    const QByteArrayView all(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    qsizetype start = 0;
    while (fields.size() < FieldCount - 1) {
        const qsizetype end = all.indexOf('\xff', start);
        if (end < 0)
            break;
        fields.append(QString::fromUtf8(all.sliced(start, end - start)));
        start = end + 1;
    }
    fields.append(QString::fromUtf8(all.sliced(start)));
    while (fields.size() < FieldCount)
        fields.append(QString());
    return fields;
}

/// A report over five offers (three recognised GPUs, one unrecognised, spot and multi-GPU offers, so
/// that every section has rows) whose names, regions, labels, workload name, title, snapshot origin and
/// probe device are the fuzzed strings. Projected on one thread.
inline ReportInput hostileReport(const QStringList &f)
{
    const QDateTime now(QDate(2024, 7, 20), QTime(12, 0), QTimeZone::utc());
    auto offer = [&](const QString &provider, const QString &instance, const QString &region,
                     const QString &gpuId, double gpus, double onDemand, std::optional<double> spot) {
        Offer o;
        o.provider = provider;
        o.instanceType = instance;
        o.region = region;
        o.gpuId = gpuId;
        o.gpuRawName = gpuId.isEmpty() ? f.at(GpuRawName) : gpuId;
        o.gpuCount = gpus;
        o.gpuMemGb = 80;
        o.vcpus = 8 * gpus;
        o.onDemandUsdH = onDemand;
        o.spotUsdH = spot;
        o.spotLabel = spot ? f.at(SpotLabel) : QString();
        o.source = f.at(SnapshotOrigin);
        o.snapshotId = 1;
        o.dataDate = QDate(2024, 7, 1);
        o.fetchedAt = now.addDays(-18);
        return o;
    };
    const QList<Offer> offers{
        offer(QStringLiteral("vastai"), f.at(Instance1), f.at(Region1), QStringLiteral("h100-80gb-sxm"), 1,
              2.1, 0.9),
        offer(QStringLiteral("vastai"), f.at(Instance2), f.at(Region2), QStringLiteral("h100-80gb-sxm"), 4,
              9.0, std::nullopt),
        offer(QStringLiteral("aws"), f.at(Instance3), f.at(Region1), QStringLiteral("a100-80gb-sxm4"), 8,
              32.7, 11.5),
        offer(QStringLiteral("azure"), f.at(Instance1) + f.at(Instance2), f.at(Region2), QStringLiteral("t4"),
              1, 0.5, 0.2),
        offer(QStringLiteral("vastai"), f.at(Instance3), f.at(Region2), QString(), 1, 0.3, std::nullopt),
    };
    QList<Offer> zoned = offers;
    zoned[2].zone = f.at(Zone);

    Workload w = *findWorkload(builtinWorkloads(), u"resnet50");
    w.name = f.at(WorkloadName);
    w.epochs = 2;
    ProjectionOptions opt;
    opt.nodeCounts = {1, 2};
    opt.deadlineHours = 48;
    opt.budgetUsd = 500;
    opt.parallel = false;
    opt.now = now;

    auto r = std::make_shared<ProjectionResults>(
        projectCatalog(zoned, {OfferFilter{}, w, opt, defaultCalibration(), {}, 0}));

    ReportInput in;
    in.results = r;
    Snapshot s;
    s.id = 1;
    s.provider = QStringLiteral("vastai");
    s.origin = f.at(SnapshotOrigin);
    s.fetchedAt = now.addDays(-18);
    s.dataDate = QDate(2024, 7, 1);
    s.rowCount = 5;
    s.current = true;
    in.snapshots = {s};
    ProbeResult probe;
    probe.kind = QStringLiteral("cuda");
    probe.deviceName = f.at(ProbeDevice);
    probe.fp32Tflops = 60;
    in.probe = probe;
    in.offerSet = ReportOfferSet::All;
    in.generatedAt = now;
    in.title = f.at(Title);
    return in;
}

} // namespace gf::fuzz
