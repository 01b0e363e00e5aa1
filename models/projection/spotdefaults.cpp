#include "projection/spotdefaults.h"

#include "util/csv.h"
#include "util/resourcefiles.h"

#include <algorithm>
#include <cmath>

#include <QVarLengthArray>

namespace gf {

namespace {

std::optional<double> number(const QString &t, bool *ok)
{
    const QString s = t.trimmed();
    if (s.isEmpty())
        return std::nullopt;
    bool good = false;
    const double v = s.toDouble(&good);
    if (!good || !std::isfinite(v) || v < 0) {
        *ok = false;
        return std::nullopt;
    }
    return v;
}

} // namespace

Result<SpotDefaults> SpotDefaults::fromCsv(const QString &ratesCsv, const QString &awsBucketsCsv)
{
    SpotDefaults d;
    {
        auto parsed =
            parseCsvWithColumns(ratesCsv, QStringLiteral("spot_interruption.csv"),
                                {"provider", "capacity", "capacity_class", "min_gpus", "base_rate_per_hour"});
        if (!parsed)
            return parsed.error();
        const CsvDocument &doc = parsed.value();
        for (const CsvRecord &r : doc.records) {
            auto f = [&](const char *name) { return csvField(doc, r, name); };
            bool ok = true;
            SpotRateRow row;
            row.provider = f("provider");
            row.capacity = f("capacity");
            row.capacityClass = f("capacity_class");
            row.minGpus = number(f("min_gpus"), &ok).value_or(0);
            const auto base = number(f("base_rate_per_hour"), &ok);
            row.restoreMinutes = number(f("restore_minutes"), &ok).value_or(10);
            row.maxRuntimeHours = number(f("max_runtime_h"), &ok);
            row.basis = f("basis");
            row.source = f("source");
            if (!ok || !base || *base > 10 || row.provider.isEmpty() || row.capacity.isEmpty() ||
                row.capacityClass.isEmpty())
                return makeError(
                    QStringLiteral("spot_interruption.csv line %1: not a valid row").arg(r.line));
            row.baseRatePerHour = *base;
            d.m_rows.append(row);
        }
    }
    {
        auto parsed = parseCsv(awsBucketsCsv);
        if (!parsed)
            return makeError(QStringLiteral("spot_aws_buckets.csv: %1").arg(parsed.error().message));
        const CsvDocument &doc = parsed.value();
        if (doc.column(QStringLiteral("bucket")) < 0 || doc.column(QStringLiteral("rate_per_hour")) < 0)
            return makeError(QStringLiteral("spot_aws_buckets.csv: the columns bucket and rate_per_hour are "
                                            "required"));
        for (const CsvRecord &r : doc.records) {
            auto f = [&](const char *name) { return csvField(doc, r, name); };
            bool ok = true;
            AwsBucketRate b;
            b.bucket = f("bucket");
            b.monthlyShare = number(f("monthly_share"), &ok).value_or(0);
            b.exposureHours = number(f("exposure_hours"), &ok).value_or(0);
            const auto rate = number(f("rate_per_hour"), &ok);
            b.basis = f("basis");
            if (!ok || !rate || b.bucket.isEmpty())
                return makeError(QStringLiteral("spot_aws_buckets.csv line %1: not a valid row").arg(r.line));
            b.ratePerHour = *rate;
            d.m_buckets.append(b);
        }
    }
    return d;
}

const SpotDefaults &SpotDefaults::builtin()
{
    static const SpotDefaults d = [] {
        auto r = fromCsv(readResourceText(QStringLiteral("spot_interruption.csv")),
                         readResourceText(QStringLiteral("spot_aws_buckets.csv")));
        if (!r)
            qFatal("The built-in spot interruption tables are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return d;
}

const SpotRateRow *SpotDefaults::baseRow(QStringView provider, QStringView capacity,
                                         QStringView capacityClass, double gpuCount) const
{
    // Key by key: the exact value when any remaining row has it, else "*". No allocation: this runs
    // once per spot offer of a projection, so the provider's rows are picked out in one pass and only
    // they (a handful) are compared further.
    auto any = [](const QString &v) { return v == u"*"; };
    QVarLengthArray<const SpotRateRow *, 16> rows;
    for (const SpotRateRow &r : m_rows)
        if (r.provider == provider)
            rows.append(&r);
    if (rows.isEmpty())
        for (const SpotRateRow &r : m_rows)
            if (any(r.provider))
                rows.append(&r);
    bool exactCapacity = false;
    for (const SpotRateRow *r : rows)
        exactCapacity = exactCapacity || r->capacity == capacity;
    // An offer without a spot label matches any capacity of its provider.
    auto capacityOk = [&](const SpotRateRow &r) {
        return capacity.isEmpty() || (exactCapacity ? r.capacity == capacity : any(r.capacity));
    };
    bool exactClass = false;
    for (const SpotRateRow *r : rows)
        exactClass = exactClass || (capacityOk(*r) && r->capacityClass == capacityClass);
    const SpotRateRow *best = nullptr;
    for (const SpotRateRow *r : rows) {
        if (!capacityOk(*r) || !(exactClass ? r->capacityClass == capacityClass : any(r->capacityClass)))
            continue;
        if (r->minGpus <= gpuCount + 1e-9 && (!best || r->minGpus > best->minGpus))
            best = r;
    }
    return best;
}

const AwsBucketRate *SpotDefaults::awsBucket(QStringView label) const
{
    const AwsBucketRate *unknown = nullptr;
    for (const AwsBucketRate &b : m_buckets) {
        if (!label.isEmpty() && b.bucket == label)
            return &b;
        if (b.bucket == u"unknown")
            unknown = &b;
    }
    return unknown;
}

SpotRate spotRate(const SpotDefaults &defaults, QStringView provider, QStringView spotLabel,
                  QStringView capacityClass, double gpuCount, QStringView awsBucketLabel,
                  std::optional<double> reliability, std::optional<double> userOverridePerHour)
{
    SpotRate r;
    const QStringView cls = capacityClass.isEmpty() ? QStringView(u"standard") : capacityClass;
    r.row = defaults.baseRow(provider, spotLabel, cls, gpuCount);
    r.basePerHour = r.row ? r.row->baseRatePerHour : kFallbackInterruptionsPerHour;
    if (r.row) {
        r.restoreMinutes = r.row->restoreMinutes;
        r.maxRuntimeHours = r.row->maxRuntimeHours;
    }
    if (provider == u"aws") {
        const bool known = awsBucketLabel == u"<5%" || awsBucketLabel == u"5-10%" ||
                           awsBucketLabel == u"10-15%" || awsBucketLabel == u"15-20%" ||
                           awsBucketLabel == u">20%";
        r.bucket = defaults.awsBucket(known ? awsBucketLabel : QStringView());
        r.offerPerHour = r.bucket ? r.bucket->ratePerHour : 0.0;
        r.assumed = !known;
    } else if (provider == u"vastai") {
        const bool known = reliability && std::isfinite(*reliability);
        const double rel = known ? std::clamp(*reliability, 0.0, 1.0) : kVastDefaultReliability;
        r.offerPerHour = 1.0 - rel;
        r.assumed = !known;
    } else {
        r.assumed = true;
    }
    r.perHour = r.basePerHour + r.offerPerHour;
    if (userOverridePerHour && *userOverridePerHour >= 0 && std::isfinite(*userOverridePerHour)) {
        r.perHour = *userOverridePerHour;
        r.overridden = true;
        r.assumed = false;
    }
    return r;
}

} // namespace gf
