#pragma once

#include "domain/snapshotdata.h"
#include "providers/jsonfields.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QString>

namespace gf {

/// Oracle Cloud's preemptible capacity is sold at this share of the pay-as-you-go price
/// (provider-sources.md).
inline constexpr double kOciPreemptibleShare = 0.5;

/// The GPU of an OCI shape name as SkyPilot's OCI catalog names it: "BM.GPU.H100.8" -> "H100",
/// "BM.GPU.A100-v2.8" -> "A100-80GB", "BM.GPU4.8" -> "A100", "VM.GPU3.2" -> "V100", "BM.GPU2.2" -> "P100";
/// empty when the name is not a GPU shape.
QString ociShapeGpu(const QString &shape);

/// One read of Oracle's price list, with what was skipped and why.
struct OciPriceList
{
    SnapshotData data;        ///< the offers (warnings filled in)
    int gpuShapes = 0;        ///< GPU shapes in shapes.json (active, not hidden)
    SkippedEntries malformed; ///< shapes or products skipped for a wrong type or a missing name, and the
                              ///< first fault ("shapes items[4].gpuQty is not a number")
    int unpriced = 0;         ///< GPU shapes with a part that products.json does not price in USD
};

/// Reads Oracle's cloud cost estimator data (https://www.oracle.com/a/ocom/docs/cloudestimator2/data/):
/// shapes.json ({"items": [{name, hidden, status, type: {value: vm|bm}, sub_type: {value: gpu}, gpuQty,
/// gpuMemoryQty, bundleMemoryQty, processorType, products: [{type: {value}, partNumber, qty}]}]}) and
/// products.json ({"items": [{partNumber, displayName, metricName, currencyCodeLocalizations:
/// [{currencyCode: "USD", prices: [{model: "PAY_AS_YOU_GO", value}]}]}]}). One offer per active GPU shape
/// (BM.GPU* / VM.GPU*), region "all regions" (one price everywhere): on-demand = the sum over the shape's
/// parts of the USD pay-as-you-go unit price x qty (a GPU shape is priced "GPU Per Hour" x GPUs; an OCPU or
/// memory part is added when the shape lists one), preemptible = kOciPreemptibleShare of it (derived, said
/// in the row's source). vCPUs = 2 per OCPU of an x86 shape's OCPU part (1 on Ampere Arm); RAM =
/// bundleMemoryQty. A shape or product with a wrong type, or a shape whose part has no USD price, is
/// skipped and counted; only files that are not these lists, or whose every GPU shape is unusable, are
/// errors.
Result<OciPriceList> parseOciPriceList(QByteArrayView shapes, QByteArrayView products,
                                       const QString &shapesOrigin, const QString &productsOrigin);

} // namespace gf
