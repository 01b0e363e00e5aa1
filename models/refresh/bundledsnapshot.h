#pragma once

#include "util/result.h"

namespace gf {

class CatalogStore;
class GpuCatalog;

/// Imports the price snapshot shipped inside the application (resources/catalog/*.csv) for every
/// provider that has no snapshot yet, each in its own transaction. Returns the number of providers
/// imported (0 on later starts).
Result<int> importBundledIfEmpty(CatalogStore &store, const GpuCatalog &gpus);

} // namespace gf
