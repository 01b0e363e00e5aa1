#pragma once

#include "util/result.h"

namespace gf {

class CatalogStore;
class GpuCatalog;

/// Imports the price snapshot shipped inside the application (resources/catalog/*.csv) for every
/// provider that has no snapshot yet, and for every provider whose current snapshot is an older
/// bundled one (a new version of the application corrected the bundle: e.g. rows that were not
/// rentable or not on-demand prices); a live or file import is never replaced. Each provider in its own
/// transaction. Returns the number of providers imported (0 on later starts).
Result<int> importBundledIfEmpty(CatalogStore &store, const GpuCatalog &gpus);

} // namespace gf
