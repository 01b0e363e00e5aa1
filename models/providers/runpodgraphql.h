#pragma once

#include "domain/snapshotdata.h"
#include "providers/jsonfields.h"
#include "util/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// The GPU counts the RunPod query asks lowestPrice for: a pod holds 1 to 8 GPUs.
QList<int> runpodGpuCounts();

/// The keyless GraphQL query the live refresh sends (POST https://api.runpod.io/graphql, body
/// {"query": ...}): every GPU type with its per-GPU list prices and, once per GPU count (aliases
/// gpuCount1..gpuCount8), lowestPrice(input: {gpuCount: N}) { uninterruptablePrice minimumBidPrice
/// minVcpu minMemory stockStatus }.
QByteArray runpodGpuTypesQuery();

/// One answer of that query, with what was skipped and why.
struct RunpodAnswer
{
    SnapshotData data;        ///< the offers (warnings filled in)
    int gpuTypes = 0;         ///< GPU types in the answer, usable or not
    SkippedEntries malformed; ///< GPU types skipped for a wrong type or a missing id, and the first fault
                              ///< ("gpuTypes[3].securePrice is not a number")
    int notSold = 0;          ///< GPU types without any price (no list price, or no GPU count priced)
};

/// Parses a RunPod GraphQL answer ({"data": {"gpuTypes": [...]}}). Prices are USD per GPU-hour. For every
/// GPU type, every GPU count N whose lowestPrice(gpuCount: N) has an uninterruptablePrice is sold, and
/// gives one offer per cloud that lists a price: Secure Cloud (securePrice x N, spot secureSpotPrice x N)
/// and Community Cloud (communityPrice x N, spot communitySpotPrice x N), instance type
/// "<N>x_<displayName>_SECURE|COMMUNITY". vCPUs and RAM are N x minVcpu and N x minMemory of that count's
/// lowestPrice (RunPod states them per GPU). A GPU type with a wrong type or no id is skipped and counted;
/// an answer with GraphQL "errors" and no data, or that is not a gpuTypes list, or whose every GPU type
/// is malformed, is an error.
Result<RunpodAnswer> parseRunpodGpuTypes(QByteArrayView data, const QString &origin);

} // namespace gf
