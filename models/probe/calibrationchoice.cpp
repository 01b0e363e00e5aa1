#include "probe/calibrationchoice.h"

#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "probe/probejson.h"

#include <algorithm>

namespace gf {

CalibrationChoice chooseCalibration(const QList<ProbeRunRecord> &runs, std::optional<qint64> pickedRunId)
{
    QList<const ProbeRunRecord *> order;
    for (const ProbeRunRecord &r : runs)
        order.append(&r);
    std::stable_sort(order.begin(), order.end(), [](const ProbeRunRecord *a, const ProbeRunRecord *b) {
        return a->createdAt != b->createdAt ? a->createdAt > b->createdAt : a->id > b->id;
    });
    if (pickedRunId) {
        const auto picked = std::find_if(order.begin(), order.end(),
                                         [&](const ProbeRunRecord *r) { return r->id == *pickedRunId; });
        if (picked == order.end()) {
            order.prepend(nullptr); // noted below, then the newest readable run
        } else {
            const ProbeRunRecord *run = *picked;
            order.erase(picked);
            order.prepend(run);
        }
    }

    CalibrationChoice choice;
    for (const ProbeRunRecord *run : std::as_const(order)) {
        if (!run) {
            choice.skipped.append(QStringLiteral("probe run #%1 is not in the database").arg(*pickedRunId));
            continue;
        }
        auto parsed = parseProbeJson(run->json);
        if (!parsed) {
            choice.skipped.append(QStringLiteral("probe run #%1 cannot be read: %2")
                                      .arg(QString::number(run->id), parsed.error().message));
            continue;
        }
        choice.calibration =
            calibrationFromProbe(parsed.value(), GpuSpecTable::builtin(), GpuCatalog::builtin());
        choice.calibration.source += QStringLiteral(" [probe run #%1]").arg(run->id);
        choice.probe = parsed.value();
        choice.runId = run->id;
        break;
    }
    if (!choice.probe) {
        choice.calibration = defaultCalibration();
        choice.calibration.source =
            runs.isEmpty() ? QStringLiteral("datasheet-only defaults (no probe run in the database)")
                           : QStringLiteral("datasheet-only defaults (no stored probe run can be read)");
    }
    choice.calibration.notes = choice.skipped + choice.calibration.notes;
    return choice;
}

} // namespace gf
