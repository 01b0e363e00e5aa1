#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace gf {

/// Rule AG (PROJECTION.md section 3.31): a GPU of another vendor (GpuArch::otherVendor) whose MLPerf Training
/// figures (protocol AB, section 3.29) ran below or above what the model projects for it from NVIDIA GPUs'
/// figures of the same round, workload and layout takes that level: e^logLevel on its relative speed, so
/// every projection of it moves (tuned and typical, presets and custom workloads, a user's figure on it).
struct VendorLevel
{
    double logLevel = 0; ///< ln of the factor on the model's relative speed (-median of the pairs' ln errors)
    int pairs = 0;       ///< the NVIDIA -> this GPU pairs it is the median of
    QString evidence;    ///< what the pairs are: workload and rounds, for the basis text
};

struct VendorLevels
{
    QHash<QString, VendorLevel> levels; ///< by GPU id
    /// The rule's time split (the file's "time_split"; empty without one): the levels derived from the
    /// earlier rounds alone, scored on the later rounds' pairs (validateTunedTransfer's held-out lines).
    QStringList heldOutDeriveRounds;
    QStringList heldOutTestRounds;
    QHash<QString, double> heldOutLevels; ///< ln level by GPU id, from heldOutDeriveRounds alone

    /// The level of `gpuId`, or nullptr.
    const VendorLevel *find(const QString &gpuId) const
    {
        const auto it = levels.constFind(gpuId);
        return it == levels.constEnd() ? nullptr : &*it;
    }

    /// other_vendor_levels.json: {"levels": {GPU: {"log_level": x, "pairs": n, "evidence": text}},
    /// "time_split":
    /// {"derive_rounds": [..], "test_rounds": [..], "derived_levels": {GPU: x}} (optional)}; an error names
    /// the key that is wrong (a level outside -2..2, a count below 1, an empty evidence text or round).
    static Result<VendorLevels> fromJson(const QByteArray &json);
    /// The file shipped inside the application (resources/benchmarks/other_vendor_levels.json).
    static const VendorLevels &builtin();
};

} // namespace gf
