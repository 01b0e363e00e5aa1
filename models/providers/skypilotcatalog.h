#pragma once

#include "providers/snapshotfile.h"
#include "util/result.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace gf {

class ProviderTables;

/// True when a CSV header is SkyPilot's catalog header (vms.csv: InstanceType, AcceleratorName, Price...).
bool isSkypilotHeader(const QStringList &header);

/// Parses SkyPilot's catalog CSV (skypilot-catalog catalogs/<v>/<cloud>/vms.csv) for one of GPU
/// Frontier's providers. Columns are found by header (their order differs per cloud); GpuInfo is a
/// Python dict literal. GCP rows are composed: GPU-only rows price only the GPUs and are added to
/// the host machine row of the same zone (a2/a3/g2 by name, N1 hosts per the project's shape table).
Result<SnapshotData> parseSkypilotCsv(const QString &text, const QString &provider,
                                      const ProviderTables &tables, const QString &origin);
/// The same, streamed from `in`: refuses a file or a field beyond `limits`.
Result<SnapshotData> parseSkypilotCsv(QIODevice &in, const QString &provider, const ProviderTables &tables,
                                      const QString &origin, const InputLimits &limits);
/// The same, each offer given to `sink` as it is composed: the result holds the catalog's header and
/// warnings, no offers. `in` is read twice (a device that cannot seek is read into memory first): the first
/// pass checks every row (an error, or another cloud's naming, refuses the file before any offer is given),
/// the second gives each row's offer. Only GCP keeps rows between the passes: its offers join a host machine
/// row and a GPU-only row of the same zone, so its GPU-only rows and the host rows of its machine shapes are
/// held (not its other rows) and its offers are given after the file is read.
Result<SnapshotData> parseSkypilotCsv(QIODevice &in, const QString &provider, const ProviderTables &tables,
                                      const QString &origin, const InputLimits &limits, OfferSink &sink);

/// Parses a Python literal (dict, list, tuple, str, int, float, True/False/None) as SkyPilot writes
/// GpuInfo; dicts become QVariantMap, lists QVariantList. nullopt when it is not one.
std::optional<QVariant> parsePythonLiteral(QStringView text);

} // namespace gf
