#pragma once

#include "domain/proberesult.h"
#include "store/catalogstore.h"

namespace gf {

/// The database record of a probe result (local run or imported file): resolves the GPU to its canonical id.
ProbeRunRecord makeProbeRunRecord(const ProbeResult &result, const QString &origin, const QByteArray &json);

} // namespace gf
