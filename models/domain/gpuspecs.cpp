#include "domain/gpuspecs.h"

#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QStringList>

#include <cmath>

namespace gf {

QString precisionName(Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return QStringLiteral("fp32");
    case Precision::Tf32:
        return QStringLiteral("tf32");
    case Precision::Fp16:
        return QStringLiteral("fp16");
    case Precision::Bf16:
        return QStringLiteral("bf16");
    case Precision::Fp8:
        return QStringLiteral("fp8");
    }
    return {};
}

std::optional<Precision> precisionFromName(QStringView name)
{
    const QString n = name.trimmed().toString().toLower();
    for (int i = 0; i < kPrecisionCount; ++i) {
        const auto p = static_cast<Precision>(i);
        if (n == precisionName(p))
            return p;
    }
    return std::nullopt;
}

QStringList precisionNames()
{
    QStringList out;
    for (int i = 0; i < kPrecisionCount; ++i)
        out.append(precisionName(static_cast<Precision>(i)));
    return out;
}

std::optional<Precision> GpuSpec::effectivePrecision(Precision wanted) const
{
    auto chain = [&](std::initializer_list<Precision> order) -> std::optional<Precision> {
        for (Precision p : order)
            if (peak(p) > 0)
                return p;
        return std::nullopt;
    };
    switch (wanted) {
    case Precision::Fp32:
        return chain({Precision::Fp32});
    case Precision::Tf32:
        return chain({Precision::Tf32, Precision::Fp32});
    case Precision::Fp16:
        return chain({Precision::Fp16, Precision::Bf16, Precision::Fp32});
    case Precision::Bf16:
        return chain({Precision::Bf16, Precision::Fp16, Precision::Fp32});
    case Precision::Fp8:
        return chain({Precision::Fp8, Precision::Bf16, Precision::Fp16, Precision::Fp32});
    }
    return std::nullopt;
}

Status validateGpuSpec(const GpuSpec &s)
{
    if (s.id.trimmed().isEmpty())
        return makeError(QStringLiteral("GPU spec: empty id"));
    auto bad = [&](const QString &field, double v) {
        return makeError(QStringLiteral("GPU spec %1: %2 must be a finite number >= 0 (got %3)")
                             .arg(s.id, field, QString::number(v)));
    };
    for (int i = 0; i < kPrecisionCount; ++i) {
        const double v = s.peakTflops[static_cast<std::size_t>(i)];
        if (!std::isfinite(v) || v < 0)
            return bad(precisionName(static_cast<Precision>(i)) + QStringLiteral("_tflops"), v);
    }
    if (!std::isfinite(s.memoryGb) || s.memoryGb <= 0)
        return makeError(QStringLiteral("GPU spec %1: memory_gb must be a positive number").arg(s.id));
    if (!std::isfinite(s.memBandwidthGbs) || s.memBandwidthGbs <= 0)
        return makeError(QStringLiteral("GPU spec %1: mem_bw_gbs must be a positive number").arg(s.id));
    if (!std::isfinite(s.tdpW) || s.tdpW < 0)
        return bad(QStringLiteral("tdp_w"), s.tdpW);
    if (!std::isfinite(s.interconnectGbs) || s.interconnectGbs < 0)
        return bad(QStringLiteral("interconnect_gbs"), s.interconnectGbs);
    if (!std::isfinite(s.l2CacheMb) || s.l2CacheMb < 0)
        return bad(QStringLiteral("l2_cache_mb"), s.l2CacheMb);
    if (s.pcieGen < 0 || s.pcieGen > 7)
        return makeError(QStringLiteral("GPU spec %1: pcie_gen must be 1 to 7 or empty (got %2)")
                             .arg(s.id, QString::number(s.pcieGen)));
    return Ok{};
}

Result<GpuSpecTable> GpuSpecTable::fromCsv(const QString &text)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("GPU spec table: %1").arg(parsed.error().message),
                         parsed.error().detail);
    const CsvDocument &doc = parsed.value();
    const QStringList required{QStringLiteral("id"),          QStringLiteral("fp32_tflops"),
                               QStringLiteral("tf32_tflops"), QStringLiteral("fp16_tflops"),
                               QStringLiteral("bf16_tflops"), QStringLiteral("fp8_tflops"),
                               QStringLiteral("memory_gb"),   QStringLiteral("mem_bw_gbs"),
                               QStringLiteral("tdp_w"),       QStringLiteral("interconnect_gbs"),
                               QStringLiteral("pcie_gen")};
    for (const QString &c : required)
        if (doc.column(c) < 0)
            return makeError(QStringLiteral("GPU spec table: the header has no \"%1\" column").arg(c));
    const int cSource = doc.column(QStringLiteral("source"));

    GpuSpecTable table;
    for (const CsvRecord &rec : doc.records) {
        auto field = [&](const QString &name) {
            const int c = doc.column(name);
            return c >= 0 && c < rec.fields.size() ? rec.fields.at(c).trimmed() : QString();
        };
        QString error;
        auto number = [&](const QString &name) -> double {
            const QString t = field(name);
            if (t.isEmpty() || !error.isEmpty())
                return 0;
            bool ok = false;
            const double v = t.toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < 0)
                error = QStringLiteral("GPU spec table line %1: %2 \"%3\" is not a number >= 0")
                            .arg(rec.line)
                            .arg(name, t);
            return ok && std::isfinite(v) ? v : 0;
        };
        if (rec.fields.size() == 1 && rec.fields.first().trimmed().isEmpty())
            continue; // blank line
        GpuSpec s;
        s.id = field(QStringLiteral("id"));
        if (s.id.isEmpty())
            return makeError(QStringLiteral("GPU spec table line %1: empty id").arg(rec.line));
        if (table.m_byId.contains(s.id))
            return makeError(
                QStringLiteral("GPU spec table line %1: duplicate id %2").arg(rec.line).arg(s.id));
        for (int i = 0; i < kPrecisionCount; ++i)
            s.peakTflops[static_cast<std::size_t>(i)] =
                number(precisionName(static_cast<Precision>(i)) + QStringLiteral("_tflops"));
        s.memoryGb = number(QStringLiteral("memory_gb"));
        s.memBandwidthGbs = number(QStringLiteral("mem_bw_gbs"));
        s.tdpW = number(QStringLiteral("tdp_w"));
        s.interconnectGbs = number(QStringLiteral("interconnect_gbs"));
        const double gen = number(QStringLiteral("pcie_gen"));
        s.l2CacheMb = number(QStringLiteral("l2_cache_mb"));
        if (!error.isEmpty())
            return makeError(error);
        if (gen != std::floor(gen))
            return makeError(
                QStringLiteral("GPU spec table line %1: pcie_gen must be a whole number").arg(rec.line));
        s.pcieGen = static_cast<int>(gen);
        s.source = cSource >= 0 && cSource < rec.fields.size() ? rec.fields.at(cSource).trimmed() : QString();
        if (auto v = validateGpuSpec(s); !v)
            return makeError(
                QStringLiteral("GPU spec table line %1: %2").arg(rec.line).arg(v.error().message));
        table.m_byId.insert(s.id, table.m_specs.size());
        table.m_specs.append(s);
    }
    return table;
}

const GpuSpecTable &GpuSpecTable::builtin()
{
    static const GpuSpecTable table = [] {
        auto r = fromCsv(readResourceText(QStringLiteral("gpu_specs.csv")));
        if (!r)
            qFatal("The built-in GPU spec table is broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return table;
}

const GpuSpec *GpuSpecTable::spec(const QString &id) const
{
    auto it = m_byId.constFind(id);
    return it == m_byId.constEnd() ? nullptr : &m_specs.at(*it);
}

Status GpuSpecTable::insert(const GpuSpec &s)
{
    if (auto v = validateGpuSpec(s); !v)
        return v;
    auto it = m_byId.constFind(s.id);
    if (it != m_byId.constEnd()) {
        m_specs[*it] = s;
    } else {
        m_byId.insert(s.id, m_specs.size());
        m_specs.append(s);
    }
    return Ok{};
}

} // namespace gf
