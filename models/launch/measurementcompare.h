#pragma once

#include "domain/gpuspecs.h"
#include "domain/throughputmeasurement.h"
#include "domain/workload.h"
#include "launch/measurementjson.h"
#include "projection/projection.h"

#include <QList>

#include <optional>

namespace gf {

/// An imported measurement beside what the model projects for it (without the measurement).
struct MeasurementComparison
{
    ThroughputMeasurement measurement;
    std::optional<double> projectedPerGpu; ///< samples/s per GPU from the model; nullopt: not projectable
    QString why;                           ///< when not projectable: why (unknown workload, no spec, ...)
    /// (projected - measured) / measured x 100: positive = the model was optimistic.
    std::optional<double> errorPct() const
    {
        if (!projectedPerGpu || !(measurement.samplesPerSPerGpu > 0))
            return std::nullopt;
        return (*projectedPerGpu - measurement.samplesPerSPerGpu) / measurement.samplesPerSPerGpu * 100.0;
    }
};

/// Section 3.22: how busy the measurement's GPU was, for tables: "38 %, host-bound", "94 %", or empty when
/// the run did not measure it.
QString gpuBusyText(const ThroughputMeasurement &measurement);
/// The offer a measurement ran on, for display: its key, or empty where the document named none (a run
/// outside a launch plan has the key "//").
QString offerLabel(const ThroughputMeasurement &measurement);
/// What that figure means for the measurement and for other GPUs (a tooltip); empty when not measured.
QString gpuBusyExplanation(const ThroughputMeasurement &measurement);

/// Why a measurement cannot be right (SpeedModel::implausibility: beyond the GPU's peak rate for the
/// workload's FLOPs, or more than 10x from the model's projection), naming the bound; empty when it is
/// plausible or its workload is not among `workloads` (it is then checked when a projection uses it).
QString measurementImplausibility(const ThroughputMeasurement &measurement, const QList<Workload> &workloads,
                                  const GpuSpecTable &specs = GpuSpecTable::builtin());
/// The first implausible measurement of `documents` as an error naming the file, the measurement and the
/// bound ("nothing was imported" is the caller's to say); Ok when all are plausible.
Status checkMeasurementsPlausible(const QList<MeasurementDocument> &documents, const QString &fileName,
                                  const QList<Workload> &workloads,
                                  const GpuSpecTable &specs = GpuSpecTable::builtin());

/// Compares each measurement with the model's single-GPU speed of its workload (found by id among
/// `workloads`, case-insensitive) on its GPU, with the calibration in use. The model here never uses
/// the measurements themselves.
QList<MeasurementComparison> compareMeasurements(const ThroughputMeasurements &measurements,
                                                 const QList<Workload> &workloads,
                                                 const Calibration &calibration,
                                                 const GpuSpecTable &specs = GpuSpecTable::builtin());

} // namespace gf
