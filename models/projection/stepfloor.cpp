#include "projection/stepfloor.h"

#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/speedmodel.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QMap>

#include <algorithm>
#include <cmath>

namespace gf {

QString busyPercentText(double busy)
{
    for (int decimals = 0; decimals < 3; ++decimals) {
        const double scale = std::pow(10.0, decimals);
        const double shown = std::round(busy * 100 * scale) / scale / 100;
        if ((shown < kHostBoundBusy) == (busy < kHostBoundBusy) &&
            (shown < kSmiGpuBoundBusy) == (busy < kSmiGpuBoundBusy))
            return QString::number(busy * 100, 'f', decimals);
    }
    return QString::number(busy * 100, 'f', 3);
}

Result<StepFloorData> StepFloorData::parse(const QString &csvText)
{
    const QString file = QStringLiteral("step_floor_sweep.csv");
    auto parsed = parseCsvWithColumns(
        csvText, file,
        {"source_id", "preset_id", "gpu_id", "host", "run", "batch_per_gpu", "samples_per_s", "measured"},
        true);
    if (!parsed)
        return parsed.error();
    const CsvDocument &doc = parsed.value();
    StepFloorData out;
    int line = 0;
    for (const CsvRecord &r : doc.records) {
        ++line;
        auto f = [&](const char *name) { return csvField(doc, r, name); };
        StepFloorPoint p;
        p.sourceId = f("source_id");
        p.presetId = f("preset_id");
        p.gpuId = f("gpu_id");
        p.host = f("host");
        p.run = f("run");
        p.measured = f("measured");
        if (p.sourceId.isEmpty() || p.presetId.isEmpty() || p.gpuId.isEmpty() || p.host.isEmpty() ||
            p.measured.isEmpty())
            return makeError(
                QStringLiteral(
                    "%1, record %2: source_id, preset_id, gpu_id, host and measured must not be empty")
                    .arg(file)
                    .arg(line));
        if (p.run != u"sweep" && p.run != u"repeat" && p.run != u"check")
            return makeError(QStringLiteral("%1, record %2: run \"%3\" is not sweep, repeat or check")
                                 .arg(file)
                                 .arg(line)
                                 .arg(p.run));
        bool okBatch = false, okRate = false;
        p.batch = f("batch_per_gpu").toInt(&okBatch);
        p.samplesPerS = f("samples_per_s").toDouble(&okRate);
        if (!okBatch || p.batch <= 0 || p.batch > 1000000)
            return makeError(
                QStringLiteral("%1, record %2: batch_per_gpu \"%3\" is not a whole number from 1 "
                               "to 1000000")
                    .arg(file)
                    .arg(line)
                    .arg(f("batch_per_gpu")));
        if (!okRate || !(p.samplesPerS > 0) || !(p.samplesPerS < 1e9))
            return makeError(QStringLiteral("%1, record %2: samples_per_s \"%3\" is not a positive number "
                                            "below 1e9")
                                 .arg(file)
                                 .arg(line)
                                 .arg(f("samples_per_s")));
        out.points.append(p);
    }
    return out;
}

const StepFloorData &StepFloorData::builtin()
{
    static const StepFloorData data = [] {
        auto r = parse(readResourceText(QStringLiteral("benchmarks/step_floor_sweep.csv")));
        if (!r)
            qFatal("The built-in step floor sweep is broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return data;
}

QHash<QString, StepFloor> StepFloorData::floors() const
{
    // Per (preset, GPU), in file order; a QMap keeps the result independent of hashing.
    QMap<std::pair<QString, QString>, QList<const StepFloorPoint *>> groups;
    for (const StepFloorPoint &p : points)
        if (p.run != u"check")
            groups[{p.presetId, p.gpuId}].append(&p);
    QHash<QString, StepFloor> out;
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        const QList<const StepFloorPoint *> &list = it.value();
        const int smallest = (*std::min_element(list.cbegin(), list.cend(),
                                                [](const StepFloorPoint *a, const StepFloorPoint *b) {
                                                    return a->batch < b->batch;
                                                }))
                                 ->batch;
        // The reference step: the smallest batch's first point of the sweep (else of any run).
        const StepFloorPoint *ref = nullptr;
        for (const StepFloorPoint *p : list)
            if (p->batch == smallest && (!ref || (ref->run != u"sweep" && p->run == u"sweep")))
                ref = p;
        StepFloor f;
        f.presetId = it.key().first;
        f.gpuId = it.key().second;
        f.smallestBatch = smallest;
        f.host = ref->host;
        f.sourceId = ref->sourceId;
        f.measured = ref->measured;
        double sum = 0;
        f.shortestSeconds = ref->stepSeconds();
        for (const StepFloorPoint *p : list) {
            f.shortestSeconds = std::min(f.shortestSeconds, p->stepSeconds());
            if (std::abs(p->stepSeconds() / ref->stepSeconds() - 1.0) > kFloorTolerance)
                continue;
            f.seconds = std::max(f.seconds, p->stepSeconds());
            sum += p->stepSeconds();
            ++f.points;
        }
        f.meanSeconds = sum / f.points;
        if (!out.contains(f.presetId) || out.value(f.presetId).seconds < f.seconds)
            out.insert(f.presetId, f);
    }
    return out;
}

StepFloorValidation validateStepFloors(const SpeedModel &model, const GpuSpecTable &specs,
                                       const StepFloorData &data)
{
    StepFloorValidation out;
    const QHash<QString, StepFloor> floors = data.floors();
    QStringList ids = floors.keys();
    ids.sort();
    for (const QString &id : std::as_const(ids))
        out.floors.append(floors.value(id));
    const SpeedModel withFloors = model.withStepFloors(floors);
    const SpeedModel without = model.withStepFloors({});
    struct Tally
    {
        QList<double> errors;
        int inside = 0;
    };
    Tally inWith, inWithout, outWith, outWithout;
    for (const StepFloorPoint &p : data.points) {
        const GpuSpec *spec = specs.spec(p.gpuId);
        const Workload *preset = findWorkload(builtinWorkloads(), p.presetId);
        if (!spec || !preset)
            continue;
        Workload w = withBatch(*preset, p.batch);
        w.stack = SoftwareStack::Typical;
        const bool heldOut = p.run == u"check";
        for (auto [m, tally] : {std::pair{&withFloors, heldOut ? &outWith : &inWith},
                                std::pair{&without, heldOut ? &outWithout : &inWithout}}) {
            const SingleGpuSpeed s = m->project(*spec, w, m->anchorsFor(w, {}, specs), defaultCalibration());
            if (!s.ok)
                continue;
            tally->errors.append(std::abs(std::log(s.samplesPerS / p.samplesPerS)));
            // The slowest floor point sets the slow end itself: inside up to rounding (exp of -ln).
            const double tol = 1 + 1e-12;
            tally->inside +=
                s.samplesPerSLow() <= p.samplesPerS * tol && p.samplesPerS <= s.samplesPerSHigh() * tol;
            if (m == &withFloors && s.stepFloorS > 0)
                ++(heldOut ? out.heldOutFlagged : out.flagged);
        }
    }
    const QString with = QStringLiteral("with the floor"), none = QStringLiteral("without it");
    out.withFloor = summarizeErrors(with, inWith.errors, inWith.inside);
    out.without = summarizeErrors(none, inWithout.errors, inWithout.inside);
    out.heldOutWithFloor = summarizeErrors(with, outWith.errors, outWith.inside);
    out.heldOutWithout = summarizeErrors(none, outWithout.errors, outWithout.inside);
    return out;
}

} // namespace gf
