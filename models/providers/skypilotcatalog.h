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

/// Parses a Python literal (dict, list, tuple, str, int, float, True/False/None) as SkyPilot writes
/// GpuInfo; dicts become QVariantMap, lists QVariantList. nullopt when it is not one.
std::optional<QVariant> parsePythonLiteral(QStringView text);

} // namespace gf
