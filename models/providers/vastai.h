#pragma once

#include "providers/snapshotfile.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QString>

namespace gf {

/// Parses a vast.ai offer search answer ({"offers": [...]} from the API, or the bare array that
/// `vastai search offers --raw` prints) into offers: every rentable, not rented offer with its
/// on-demand price (dph_total, else search.totalHour), interruptible minimum bid, reliability,
/// vCPUs, RAM (MB -> GB), GPU memory (MiB -> GB), download bandwidth (Mb/s -> Gbps); DLPerf and
/// upload bandwidth go into the row's source note.
Result<SnapshotData> parseVastOffers(QByteArrayView data, const QString &origin);

/// The search query the live refresh sends (POST /api/v0/bundles/).
QByteArray vastSearchQuery(int limit = 10000);

} // namespace gf
