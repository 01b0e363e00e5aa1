#pragma once

#include "domain/offer.h"

#include <QString>

#include <optional>

namespace gf {

class GpuCatalog;
class ProviderTables;

/// What an offer's GPUs are, after the resolution rule of resources/GPUS.md ("Resolving an offer to a
/// GPU variant"): the provider table's gpu_id first, else the name with the memory tie-break.
struct OfferGpu
{
    std::optional<QString> id;   ///< canonical id; nullopt = unrecognised
    double gpuCount = 0;         ///< the table's count when the table knows the type, else the offer's
    std::optional<double> memGb; ///< per GPU: the offer's figure if stated, else the table's, else gpus.csv
    QString interconnect;        ///< the table's if stated, else the offer's, else inferred (SXM boards)
    bool memoryDiffers = false;  ///< the offer states a memory that no variant of its family has
    bool viaTable = false;       ///< resolved by the provider table (not by the name)
};

/// Relative memory difference within which an offer's memory matches a GPU row (GPUS.md: "Why 10 %").
inline constexpr double kMemoryTolerance = 0.10;

/// Resolves one offer. A table gpu_id that `gpus` does not know (a test catalog) falls back to the name.
OfferGpu resolveOfferGpu(const Offer &offer, const GpuCatalog &gpus, const ProviderTables &tables);

/// True for the GPU-to-GPU fabrics the projection models with the spec's interconnect bandwidth:
/// NVLink, NVSwitch and AMD Infinity Fabric.
bool isGpuFabric(QStringView interconnect);

} // namespace gf
