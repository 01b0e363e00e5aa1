#include "domain/gpuarch.h"

#include "util/csv.h"
#include "util/resourcefiles.h"

#include <cmath>

namespace gf {

bool GpuArch::otherVendor() const
{
    return arch == u"cdna" || arch == u"rdna" || arch == u"tpu" || arch == u"gaudi" || arch == u"ai100";
}

Result<GpuArchTable> GpuArchTable::fromCsv(const QString &text)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("GPU architecture table: %1").arg(parsed.error().message),
                         parsed.error().detail);
    const CsvDocument &doc = parsed.value();
    for (const char *c : {"id", "arch", "half_rate_fp32_acc"})
        if (doc.column(QLatin1StringView(c)) < 0)
            return makeError(QStringLiteral("GPU architecture table: the header has no \"%1\" column")
                                 .arg(QLatin1StringView(c)));
    GpuArchTable table;
    for (const CsvRecord &rec : doc.records) {
        auto field = [&](const QString &name) {
            const int c = doc.column(name);
            return c >= 0 && c < rec.fields.size() ? rec.fields.at(c).trimmed() : QString();
        };
        if (rec.fields.size() == 1 && rec.fields.first().trimmed().isEmpty())
            continue;
        QString error;
        auto number = [&](const QString &name) -> double {
            const QString t = field(name);
            if (t.isEmpty())
                return 0;
            bool ok = false;
            const double v = t.toDouble(&ok);
            if ((!ok || !std::isfinite(v) || v < 0) && error.isEmpty())
                error = QStringLiteral("GPU architecture table line %1: %2 \"%3\" is not a number >= 0")
                            .arg(rec.line)
                            .arg(name, t);
            return ok && std::isfinite(v) ? v : 0;
        };
        GpuArch a;
        a.id = field(QStringLiteral("id"));
        if (a.id.isEmpty())
            return makeError(QStringLiteral("GPU architecture table line %1: empty id").arg(rec.line));
        if (table.m_byId.contains(a.id))
            return makeError(
                QStringLiteral("GPU architecture table line %1: duplicate id %2").arg(rec.line).arg(a.id));
        a.arch = field(QStringLiteral("arch"));
        a.segment = field(QStringLiteral("segment"));
        a.l2Mb = number(QStringLiteral("l2_mb"));
        a.halfRateFp32Acc = field(QStringLiteral("half_rate_fp32_acc")) == u"1";
        a.fitOnly = field(QStringLiteral("fit_only")) == u"1";
        if (a.fitOnly) {
            GpuSpec s;
            s.id = a.id;
            for (int i = 0; i < kPrecisionCount; ++i)
                s.peakTflops[static_cast<std::size_t>(i)] =
                    number(precisionName(static_cast<Precision>(i)) + QStringLiteral("_tflops"));
            s.memoryGb = number(QStringLiteral("memory_gb"));
            s.memBandwidthGbs = number(QStringLiteral("mem_bw_gbs"));
            s.tdpW = number(QStringLiteral("tdp_w"));
            s.source = field(QStringLiteral("note"));
            if (!error.isEmpty())
                return makeError(error);
            if (auto v = table.m_fitOnlySpecs.insert(s); !v)
                return makeError(QStringLiteral("GPU architecture table line %1: %2")
                                     .arg(rec.line)
                                     .arg(v.error().message));
        }
        if (!error.isEmpty())
            return makeError(error);
        table.insert(a);
    }
    return table;
}

const GpuArchTable &GpuArchTable::builtin()
{
    static const GpuArchTable table = [] {
        auto r = fromCsv(readResourceText(QStringLiteral("benchmarks/gpu_arch.csv")));
        if (!r)
            qFatal("The built-in GPU architecture table is broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return table;
}

const GpuArch *GpuArchTable::arch(const QString &id) const
{
    auto it = m_byId.constFind(id);
    return it == m_byId.constEnd() ? nullptr : &m_rows.at(*it);
}

void GpuArchTable::insert(const GpuArch &row)
{
    auto it = m_byId.constFind(row.id);
    if (it != m_byId.constEnd()) {
        m_rows[*it] = row;
    } else {
        m_byId.insert(row.id, m_rows.size());
        m_rows.append(row);
    }
}

} // namespace gf
