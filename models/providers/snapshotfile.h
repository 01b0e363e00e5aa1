#pragma once

#include "domain/snapshotdata.h"
#include "util/csv.h"
#include "util/result.h"

#include <QDate>
#include <QIODevice>
#include <QList>
#include <QString>

namespace gf {

class GpuCatalog;

/// Parses the GPU Frontier catalog CSV (resources/catalog/*.csv, documented in resources/catalog/FORMAT.md).
/// `origin` names the file or URL in error messages.
Result<SnapshotData> parseSnapshotCsv(const QString &text, const QString &origin);
/// The same, streamed from `in` (a file of any size): refuses a file or a field beyond `limits`.
Result<SnapshotData> parseSnapshotCsv(QIODevice &in, const QString &origin, const InputLimits &limits);
/// The same, giving each offer to `sink` as it is read (sink.begin before the first, with the provider, date
/// and description): the result holds no offers, only the header and the warnings, known at the end. An
/// error of the sink stops the parse with it.
Result<SnapshotData> parseSnapshotCsv(QIODevice &in, const QString &origin, const InputLimits &limits,
                                      OfferSink &sink);
/// The provider a catalog CSV names ("# provider:" or the first row), reading no further than needed.
Result<QString> snapshotCsvProvider(QIODevice &in, const QString &origin, const InputLimits &limits);

/// The normalised CSV columns, in order.
QStringList snapshotCsvColumns();

/// Offers as a GPU Frontier catalog CSV (header + one row per offer), readable by parseSnapshotCsv.
QString writeSnapshotCsv(const QList<Offer> &offers);

} // namespace gf
