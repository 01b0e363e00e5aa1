#pragma once

#include "domain/proberesult.h"
#include "projection/projection.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace gf {

/// Which stored probe run calibrates the projections, and the calibration it gives.
struct CalibrationChoice
{
    /// The calibration of the run used (its source ends with " [probe run #N]"; the notes start with
    /// the skipped runs), else the datasheet defaults.
    Calibration calibration;
    std::optional<ProbeResult> probe; ///< the run used, parsed; nullopt = none (datasheet defaults)
    qint64 runId = 0;                 ///< its id in the database; 0 = none
    QStringList skipped;              ///< one note per run passed over: "probe run #7 cannot be read: ..."
};

/// The one rule for the GUI, the CLI and the reports: the run `pickedRunId` when given and readable,
/// else the newest readable run (newest = latest created_at, then highest id; `runs` in any order).
/// A run that cannot be read (or a picked id that is not in `runs`) is skipped with a note. No readable
/// run: the datasheet defaults. A CPU probe run is readable; it gives the defaults with a note
/// (calibrationFromProbe). Uses the built-in GPU tables.
CalibrationChoice chooseCalibration(const QList<ProbeRunRecord> &runs,
                                    std::optional<qint64> pickedRunId = std::nullopt);

} // namespace gf
