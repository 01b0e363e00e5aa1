#pragma once

#include "domain/offer.h"
#include "domain/proberesult.h"
#include "projection/offerprojection.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

class ArgParser;
class CatalogStore;
class CliContext;

/// Projection options shared by `frontier` and `report`: --deadline, --budget, --spot, --on-demand,
/// --checkpoint-minutes, --setup-minutes, --restore-minutes, --nodes, --weight, --provider.
void addProjectionOptions(ArgParser &parser);

struct ProjectionArgs
{
    ProjectionOptions options; ///< `now` left invalid: the command sets it
    QStringList providers;     ///< --provider values (empty = all), each a known provider
};

/// Reads the options declared by addProjectionOptions. Returns -1 and fills *out, or prints the usage
/// error and returns its exit code. The options are range-checked per flag; validateProjectionOptions
/// is left to the caller (after the workload, as the commands always did).
int projectionArgsFromParser(CliContext &ctx, const QString &command, const ArgParser &parser,
                             ProjectionArgs *out);

/// The current offers of the database, restricted to `providers` (all when empty).
/// Returns -1 and fills *out, or prints the error and returns an exit code.
int currentOffersForProviders(CliContext &ctx, const QString &command, const QStringList &providers,
                              QList<Offer> *out);

/// The newest probe run of the database that parses (the one calibrationFromArgs uses), with its id.
struct StoredProbe
{
    qint64 id = 0;
    ProbeResult probe;
};
std::optional<StoredProbe> newestProbeRun(const CatalogStore &store);

} // namespace gf
