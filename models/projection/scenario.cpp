#include "scenario.h"

#include "domain/provider.h"
#include "util/outputfile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QMap>

#include <cmath>

namespace gf {

namespace {

// The file's field names, one place for the writer and the reader.
constexpr auto kWorkload = "workload";
constexpr auto kLimits = "limits";
constexpr auto kAssumptions = "assumptions";
constexpr auto kFilter = "filter";
constexpr auto kResolved = "resolved_workload";

QString spotName(SpotPolicy p)
{
    switch (p) {
    case SpotPolicy::OnDemandOnly:
        return QStringLiteral("on-demand-only");
    case SpotPolicy::SpotOnly:
        return QStringLiteral("spot-only");
    case SpotPolicy::SpotAllowed:
        break;
    }
    return QStringLiteral("both");
}

std::optional<SpotPolicy> spotFromName(const QString &name)
{
    for (SpotPolicy p : {SpotPolicy::SpotAllowed, SpotPolicy::OnDemandOnly, SpotPolicy::SpotOnly})
        if (spotName(p) == name)
            return p;
    return std::nullopt;
}

void putNumber(QJsonObject &o, const char *key, const std::optional<double> &v)
{
    if (v)
        o.insert(QLatin1String(key), *v);
}

QJsonObject perProviderJson(const QHash<QString, double> &values)
{
    QJsonObject o;
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QJsonObject workloadSpecJson(const WorkloadSpec &spec)
{
    QJsonObject w;
    const WorkloadOverrides &o = spec.overrides;
    if (!spec.preset.isEmpty())
        w.insert(u"preset", spec.preset);
    if (!spec.name.isEmpty())
        w.insert(u"name", spec.name);
    putNumber(w, "samples_per_epoch", o.samplesPerEpoch);
    putNumber(w, "epochs", o.epochs);
    if (o.precision)
        w.insert(u"precision", precisionName(*o.precision));
    if (o.stack)
        w.insert(u"stack", softwareStackName(*o.stack));
    if (o.workloadClass)
        w.insert(u"class", workloadClassName(*o.workloadClass));
    putNumber(w, "flops_per_sample", o.flopsPerSample);
    putNumber(w, "bytes_per_sample", o.bytesPerSample);
    putNumber(w, "parameters", o.parameters);
    putNumber(w, "memory_gb", o.memoryGb);
    if (o.batchPerGpu)
        w.insert(u"batch_per_gpu", *o.batchPerGpu);
    if (o.checkpointing)
        w.insert(u"gradient_checkpointing", *o.checkpointing);
    putNumber(w, "dataset_gb", o.datasetGb);
    putNumber(w, "min_vcpus_per_gpu", o.minVcpusPerGpu);
    putNumber(w, "measured_samples_per_s", o.measuredSamplesPerS);
    if (o.measuredSamplesPerS)
        w.insert(u"measured_on", o.referenceGpu);
    putNumber(w, "measured_gpu_busy_fraction", o.measuredGpuBusy);
    if (o.measuredBatchPerGpu)
        w.insert(u"measured_batch_per_gpu", *o.measuredBatchPerGpu);
    return w;
}

QJsonObject filterJson(const OfferFilter &f)
{
    QJsonObject o;
    if (!f.providers.isEmpty())
        o.insert(u"providers", QJsonArray::fromStringList(f.providers));
    if (!f.gpu.isEmpty())
        o.insert(u"gpu", f.gpu);
    putNumber(o, "min_gpus", f.minGpus);
    putNumber(o, "min_gpu_memory_gb", f.minGpuMemGb);
    putNumber(o, "max_price_usd_per_hour", f.maxPriceUsdH);
    if (f.spotOnly)
        o.insert(u"spot_only", true);
    if (!f.region.isEmpty())
        o.insert(u"region", f.region);
    if (!f.text.isEmpty())
        o.insert(u"text", f.text);
    return o;
}

/// Reads the fields of one object of the file, each checked; the first problem is kept, named by its
/// path ("assumptions.weight"). Fields not read are errors (a typo would otherwise pass silently).
class FieldReader
{
public:
    FieldReader(QString path, QJsonObject object, QString *error)
        : m_path(std::move(path)), m_object(std::move(object)), m_error(error)
    {
    }

    QString field(const QString &key) const { return m_path.isEmpty() ? key : m_path + u'.' + key; }

    bool has(const char *key)
    {
        m_read.append(QLatin1String(key));
        return m_object.contains(QLatin1String(key)) && !m_object.value(QLatin1String(key)).isNull();
    }
    QJsonValue raw(const char *key) const { return m_object.value(QLatin1String(key)); }

    void fail(const QString &field, const QString &rule, const QJsonValue &got)
    {
        if (!m_error->isEmpty())
            return;
        QString shown;
        if (got.isString())
            shown = u'"' + got.toString() + u'"';
        else if (got.isArray() || got.isObject())
            shown = got.isArray() ? QStringLiteral("a list") : QStringLiteral("an object");
        else if (got.isBool())
            shown = got.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else if (got.isDouble())
            shown = QString::number(got.toDouble(), 'g', 17);
        *m_error = shown.isEmpty() ? QStringLiteral("%1: %2").arg(field, rule)
                                   : QStringLiteral("%1: %2 (got %3)").arg(field, rule, shown);
    }

    std::optional<double> number(const char *key, double lo, double hi)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = raw(key);
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d < lo || d > hi) {
            fail(field(QLatin1String(key)),
                 QStringLiteral("must be a number from %1 to %2")
                     .arg(QString::number(lo), QString::number(hi)),
                 v);
            return std::nullopt;
        }
        return d;
    }

    std::optional<int> integer(const char *key, int lo, int hi)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = raw(key);
        const double d = v.toDouble();
        if (!v.isDouble() || d != std::floor(d) || d < lo || d > hi) {
            fail(field(QLatin1String(key)),
                 QStringLiteral("must be a whole number from %1 to %2").arg(lo).arg(hi), v);
            return std::nullopt;
        }
        return static_cast<int>(d);
    }

    std::optional<bool> boolean(const char *key)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = raw(key);
        if (!v.isBool()) {
            fail(field(QLatin1String(key)), QStringLiteral("must be true or false"), v);
            return std::nullopt;
        }
        return v.toBool();
    }

    std::optional<QString> text(const char *key)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = raw(key);
        if (!v.isString()) {
            fail(field(QLatin1String(key)), QStringLiteral("must be a text"), v);
            return std::nullopt;
        }
        return v.toString();
    }

    /// A text that must be one of `allowed`.
    std::optional<QString> choice(const char *key, const QStringList &allowed)
    {
        auto t = text(key);
        if (t && !allowed.contains(*t)) {
            fail(field(QLatin1String(key)),
                 QStringLiteral("must be one of %1").arg(allowed.join(QStringLiteral(", "))), *t);
            return std::nullopt;
        }
        return t;
    }

    /// A sub-object (empty when absent).
    QJsonObject object(const char *key)
    {
        if (!has(key))
            return {};
        const QJsonValue v = raw(key);
        if (!v.isObject()) {
            fail(field(QLatin1String(key)), QStringLiteral("must be an object"), v);
            return {};
        }
        return v.toObject();
    }

    /// PROVIDER: NUMBER pairs, each provider known.
    QHash<QString, double> perProvider(const char *key, double hi)
    {
        QHash<QString, double> out;
        const QJsonObject o = object(key);
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString f = field(QLatin1String(key)) + u'.' + it.key();
            if (!knownProviders().contains(it.key())) {
                fail(f, QStringLiteral("unknown provider (known: %1)").arg(knownProviders().join(u", ")), {});
                continue;
            }
            const double d = it.value().toDouble();
            if (!it.value().isDouble() || !std::isfinite(d) || d < 0 || d > hi) {
                fail(f, QStringLiteral("must be a number from 0 to %1").arg(QString::number(hi)), it.value());
                continue;
            }
            out.insert(it.key(), d);
        }
        return out;
    }

    /// Fails on the first field of the object that was never read.
    void rejectUnknown()
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it)
            if (!m_read.contains(it.key())) {
                fail(field(it.key()), QStringLiteral("unknown field"), {});
                return;
            }
    }

private:
    QString m_path;
    QJsonObject m_object;
    QString *m_error;
    QStringList m_read;
};

WorkloadSpec readWorkload(FieldReader &r)
{
    WorkloadSpec spec;
    WorkloadOverrides &o = spec.overrides;
    spec.preset = r.text("preset").value_or(QString());
    spec.name = r.text("name").value_or(QString());
    o.samplesPerEpoch = r.number("samples_per_epoch", 1, 1e15);
    o.epochs = r.number("epochs", 1e-6, 1e6);
    if (auto p = r.choice("precision", precisionNames()))
        o.precision = precisionFromName(*p);
    if (auto s = r.choice(
            "stack", {softwareStackName(SoftwareStack::Typical), softwareStackName(SoftwareStack::Tuned)}))
        o.stack = softwareStackFromName(*s);
    // Files written before the class existed have none: a custom workload is then of unknown class.
    if (auto c = r.choice("class", workloadClassNames()))
        o.workloadClass = workloadClassFromName(*c);
    o.flopsPerSample = r.number("flops_per_sample", 1, 1e21);
    o.bytesPerSample = r.number("bytes_per_sample", 0, 1e18);
    o.parameters = r.number("parameters", 0, 1e14);
    o.memoryGb = r.number("memory_gb", 0, 1e6);
    o.batchPerGpu = r.integer("batch_per_gpu", 1, 1 << 24);
    o.checkpointing = r.boolean("gradient_checkpointing");
    o.datasetGb = r.number("dataset_gb", 0, 1e6);
    o.minVcpusPerGpu = r.number("min_vcpus_per_gpu", 0, 1024);
    o.measuredSamplesPerS = r.number("measured_samples_per_s", 1e-9, 1e12);
    o.referenceGpu = r.text("measured_on").value_or(QString());
    o.measuredGpuBusy = r.number("measured_gpu_busy_fraction", 0.01, 1);
    if (o.measuredGpuBusy && !o.measuredSamplesPerS)
        r.fail(r.field(QStringLiteral("measured_gpu_busy_fraction")),
               QStringLiteral("measured_gpu_busy_fraction belongs to measured_samples_per_s"), {});
    o.measuredBatchPerGpu = r.integer("measured_batch_per_gpu", 1, 1 << 24);
    if (o.measuredBatchPerGpu && !o.measuredSamplesPerS)
        r.fail(r.field(QStringLiteral("measured_batch_per_gpu")),
               QStringLiteral("measured_batch_per_gpu belongs to measured_samples_per_s"), {});
    if (o.measuredSamplesPerS.has_value() != !o.referenceGpu.isEmpty())
        r.fail(r.field(o.measuredSamplesPerS ? QStringLiteral("measured_on")
                                             : QStringLiteral("measured_samples_per_s")),
               QStringLiteral("measured_samples_per_s and measured_on go together"), {});
    if (!spec.preset.isEmpty() && !spec.name.isEmpty())
        r.fail(r.field(QStringLiteral("name")),
               QStringLiteral("only a custom workload (no preset) has a name"), {});
    r.rejectUnknown();
    return spec;
}

void readLimits(FieldReader &r, ProjectionOptions &opt)
{
    opt.deadlineHours = r.number("deadline_hours", 1e-6, 1e7);
    opt.budgetUsd = r.number("budget_usd", 1e-6, 1e12);
    r.rejectUnknown();
}

void readAssumptions(FieldReader &r, ProjectionOptions &opt)
{
    QStringList spotNames;
    for (SpotPolicy p : {SpotPolicy::SpotAllowed, SpotPolicy::SpotOnly, SpotPolicy::OnDemandOnly})
        spotNames.append(spotName(p));
    if (auto s = r.choice("spot", spotNames))
        opt.spotPolicy = spotFromName(*s).value_or(SpotPolicy::SpotAllowed);
    opt.checkpointMinutes = r.number("checkpoint_minutes", 0, 525600).value_or(opt.checkpointMinutes);
    opt.setupMinutes = r.number("setup_minutes", 0, 525600).value_or(opt.setupMinutes);
    opt.restoreMinutes = r.number("restore_minutes", 0, 525600).value_or(opt.restoreMinutes);
    opt.weight = r.number("weight", 0, 1).value_or(opt.weight);
    opt.includeSuspect = r.boolean("include_suspect").value_or(false);
    opt.nodeCounts = {1};
    if (r.has("extra_node_counts")) {
        const QJsonValue v = r.raw("extra_node_counts");
        const QJsonArray list = v.toArray();
        if (!v.isArray() || list.size() > 15)
            r.fail(r.field(QStringLiteral("extra_node_counts")),
                   QStringLiteral("must be a list of at most 15 whole numbers from 1 to 255"), v);
        for (const QJsonValue &k : list) {
            const double d = k.toDouble();
            if (!k.isDouble() || d != std::floor(d) || d < 1 || d > 255) {
                r.fail(r.field(QStringLiteral("extra_node_counts")),
                       QStringLiteral("every entry must be a whole number from 1 to 255"), k);
                break;
            }
            opt.nodeCounts.append(static_cast<int>(d));
        }
    }
    opt.interruptionRatePerHour = r.perProvider("interruption_rate_per_hour", 10);
    opt.egressUsdPerGb = r.perProvider("egress_usd_per_gb", 100);
    r.rejectUnknown();
}

void readFilter(FieldReader &r, OfferFilter &f)
{
    if (r.has("providers")) {
        const QJsonValue v = r.raw("providers");
        if (!v.isArray())
            r.fail(r.field(QStringLiteral("providers")), QStringLiteral("must be a list of provider ids"), v);
        for (const QJsonValue &p : v.toArray()) {
            // "none": every provider unticked on the Offers page.
            if (!p.isString() || (!knownProviders().contains(p.toString()) && p.toString() != u"none")) {
                r.fail(r.field(QStringLiteral("providers")),
                       QStringLiteral("unknown provider (known: %1)").arg(knownProviders().join(u", ")), p);
                break;
            }
            f.providers.append(p.toString());
        }
    }
    f.gpu = r.text("gpu").value_or(QString());
    f.minGpus = r.number("min_gpus", 0, 1e4);
    f.minGpuMemGb = r.number("min_gpu_memory_gb", 0, 1e5);
    f.maxPriceUsdH = r.number("max_price_usd_per_hour", 0, 1e7);
    f.spotOnly = r.boolean("spot_only").value_or(false);
    f.region = r.text("region").value_or(QString());
    f.text = r.text("text").value_or(QString());
    r.rejectUnknown();
}

/// A compact text of a JSON value for the comparison.
QString valueText(const QJsonValue &v)
{
    if (v.isUndefined() || v.isNull())
        return QString();
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    if (v.isArray()) {
        QStringList parts;
        for (const QJsonValue &e : v.toArray())
            parts.append(valueText(e));
        return parts.join(QStringLiteral(", "));
    }
    return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
}

/// Every leaf of the scenario's settings as field path -> value (nested objects flattened).
void flatten(const QJsonObject &o, const QString &prefix, QMap<QString, QJsonValue> &out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + u'.' + it.key();
        if (it.value().isObject())
            flatten(it.value().toObject(), key, out);
        else
            out.insert(key, it.value());
    }
}

/// The spec without the changes that change nothing (a preset's own samples, epochs, precision …; the
/// typical stack, the default): the GUI writes every box, a hand-written file only what it changes.
WorkloadSpec withoutNoOps(WorkloadSpec spec)
{
    WorkloadOverrides &o = spec.overrides;
    if (o.stack == SoftwareStack::Typical)
        o.stack.reset();
    const Workload *p = spec.preset.isEmpty() ? nullptr : findWorkload(builtinWorkloads(), spec.preset);
    if (!p) {
        if (o.workloadClass == WorkloadClass::Unknown)
            o.workloadClass.reset();
        return spec;
    }
    const auto drop = [](auto &field, const auto &presetValue) {
        if (field && *field == presetValue)
            field.reset();
    };
    drop(o.samplesPerEpoch, p->samplesPerEpoch);
    drop(o.epochs, p->epochs);
    drop(o.precision, p->precision);
    drop(o.workloadClass, p->workloadClass);
    drop(o.batchPerGpu, p->batchPerGpu);
    drop(o.checkpointing, p->gradientCheckpointing);
    // A typed figure is compared with the preset as its batch and checkpointing make it (section 3.23: the
    // bytes and the memory follow the batch), the baseline the builder applies it to.
    const auto recipe = presetRecipe(*p, o.batchPerGpu, o.checkpointing);
    const Workload &base = recipe ? recipe.value() : *p;
    drop(o.flopsPerSample, base.flopsPerSample);
    drop(o.bytesPerSample, base.bytesPerSample);
    drop(o.parameters, base.parameters);
    if (!o.parameters) // else the builder recomputes the memory with the typed parameters
        drop(o.memoryGb, base.memoryGb);
    drop(o.datasetGb, p->datasetGb);
    drop(o.minVcpusPerGpu, p->minVcpusPerGpu);
    return spec;
}

} // namespace

QJsonObject scenarioToJson(const Scenario &s)
{
    QJsonObject root;
    root.insert(u"schema", QLatin1String(kScenarioSchema));
    root.insert(u"version", kScenarioVersion);
    if (!s.name.isEmpty())
        root.insert(u"name", s.name);
    root.insert(QLatin1String(kWorkload), workloadSpecJson(s.workload));

    QJsonObject limits;
    putNumber(limits, "deadline_hours", s.options.deadlineHours);
    putNumber(limits, "budget_usd", s.options.budgetUsd);
    root.insert(QLatin1String(kLimits), limits);

    const ProjectionOptions &opt = s.options;
    QJsonObject a;
    a.insert(u"spot", spotName(opt.spotPolicy));
    a.insert(u"checkpoint_minutes", opt.checkpointMinutes);
    a.insert(u"setup_minutes", opt.setupMinutes);
    a.insert(u"restore_minutes", opt.restoreMinutes);
    a.insert(u"weight", opt.weight);
    a.insert(u"include_suspect", opt.includeSuspect);
    QJsonArray nodes;
    for (qsizetype i = 1; i < opt.nodeCounts.size(); ++i) // the first is always 1 (every offer alone)
        nodes.append(opt.nodeCounts.at(i));
    if (!nodes.isEmpty())
        a.insert(u"extra_node_counts", nodes);
    if (!opt.interruptionRatePerHour.isEmpty())
        a.insert(u"interruption_rate_per_hour", perProviderJson(opt.interruptionRatePerHour));
    if (!opt.egressUsdPerGb.isEmpty())
        a.insert(u"egress_usd_per_gb", perProviderJson(opt.egressUsdPerGb));
    root.insert(QLatin1String(kAssumptions), a);
    root.insert(QLatin1String(kFilter), filterJson(s.filter));
    if (auto w = scenarioWorkload(s))
        root.insert(QLatin1String(kResolved), workloadToJson(w.value()));
    return root;
}

QByteArray scenarioToBytes(const Scenario &scenario)
{
    return QJsonDocument(scenarioToJson(scenario)).toJson(QJsonDocument::Indented);
}

Result<Scenario> scenarioFromBytes(const QByteArray &bytes)
{
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &perr);
    if (perr.error != QJsonParseError::NoError)
        return makeError(
            QStringLiteral("not valid JSON at byte %1: %2").arg(perr.offset).arg(perr.errorString()));
    if (!doc.isObject())
        return makeError(QStringLiteral("not a scenario: the file is not a JSON object"));
    const QJsonObject root = doc.object();
    if (root.value(u"schema").toString() != QLatin1String(kScenarioSchema))
        return makeError(QStringLiteral("schema: not a GPU Frontier scenario (expected \"%1\", got %2)")
                             .arg(QLatin1String(kScenarioSchema),
                                  root.contains(u"schema")
                                      ? u'"' + root.value(u"schema").toVariant().toString() + u'"'
                                      : QStringLiteral("no schema field")));
    const QJsonValue version = root.value(u"version");
    const double v = version.toDouble();
    if (!version.isDouble() || v != std::floor(v) || v < 1)
        return makeError(
            QStringLiteral("version: must be a whole number from 1 (got %1)")
                .arg(version.isUndefined() ? QStringLiteral("none") : version.toVariant().toString()));
    if (v > kScenarioVersion)
        return makeError(
            QStringLiteral("version: the file is scenario version %1, written by a newer GPU Frontier; "
                           "this one reads version %2 and older")
                .arg(static_cast<qint64>(v))
                .arg(kScenarioVersion));

    QString error;
    Scenario s;
    FieldReader top(QString(), root, &error);
    top.has("schema");
    top.has("version");
    top.has(kResolved); // written for people and other tools; the workload fields are what count
    s.name = top.text("name").value_or(QString());
    FieldReader workload(QLatin1String(kWorkload), top.object(kWorkload), &error);
    s.workload = readWorkload(workload);
    FieldReader limits(QLatin1String(kLimits), top.object(kLimits), &error);
    readLimits(limits, s.options);
    FieldReader assumptions(QLatin1String(kAssumptions), top.object(kAssumptions), &error);
    readAssumptions(assumptions, s.options);
    FieldReader filter(QLatin1String(kFilter), top.object(kFilter), &error);
    readFilter(filter, s.filter);
    top.rejectUnknown();
    if (!top.has(kWorkload) && error.isEmpty())
        error = QStringLiteral("workload: missing (a preset id, or a custom workload's fields)");
    if (!error.isEmpty())
        return makeError(error);
    if (auto w = scenarioWorkload(s); !w) {
        const QString &code = w.error().code;
        const QString field = code == QLatin1String(kWorkloadUnknownPresetError) ? QStringLiteral("preset")
                              : code == QLatin1String(kWorkloadCheckpointingError)
                                  ? QStringLiteral("gradient_checkpointing")
                              : code == u"unknown-gpu" ? QStringLiteral("measured_on")
                                                       : QString();
        return w.error().prefixed(field.isEmpty() ? QStringLiteral("workload: ")
                                                  : QStringLiteral("workload.%1: ").arg(field));
    }
    if (auto o = validateProjectionOptions(s.options); !o)
        return o.error().prefixed(QStringLiteral("assumptions: "));
    return s;
}

Result<Scenario> readScenarioFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read the scenario %1: %2").arg(path, f.errorString()));
    // A scenario is a few kB: anything over 16 MiB is not one.
    constexpr qint64 kMaxBytes = 16 << 20;
    const QByteArray bytes = f.read(kMaxBytes + 1);
    if (bytes.size() > kMaxBytes)
        return makeError(QStringLiteral("scenario %1: too large to be a scenario (over 16 MiB)").arg(path));
    auto s = scenarioFromBytes(bytes);
    if (!s)
        return s.error().prefixed(QStringLiteral("scenario %1: ").arg(path));
    return s;
}

Status writeScenarioFile(const QString &path, const Scenario &scenario)
{
    auto written = writeOutputFile(path, scenarioToBytes(scenario));
    if (!written)
        return written.error().prefixed(QStringLiteral("cannot save the scenario: "));
    return written;
}

Result<Workload> scenarioWorkload(const Scenario &scenario)
{
    return buildWorkloadSpec(scenario.workload);
}

QList<ScenarioDifference> scenarioDifferences(const Scenario &a, const Scenario &b)
{
    QMap<QString, QJsonValue> fa, fb;
    Scenario na = a, nb = b;
    na.workload = withoutNoOps(a.workload);
    nb.workload = withoutNoOps(b.workload);
    QJsonObject ja = scenarioToJson(na), jb = scenarioToJson(nb);
    for (QJsonObject *j : {&ja, &jb})
        for (const char *key : {"schema", "version", "name", kResolved})
            j->remove(QLatin1String(key));
    flatten(ja, QString(), fa);
    flatten(jb, QString(), fb);
    QStringList fields = fa.keys();
    for (const QString &k : fb.keys())
        if (!fa.contains(k))
            fields.append(k);
    fields.sort();
    QList<ScenarioDifference> out;
    for (const QString &f : std::as_const(fields)) {
        const QJsonValue va = fa.value(f), vb = fb.value(f);
        if (va != vb)
            out.append({f, valueText(va), valueText(vb)});
    }
    return out;
}

} // namespace gf
