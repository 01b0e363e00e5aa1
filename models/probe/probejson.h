#pragma once

#include "domain/proberesult.h"
#include "util/result.h"

#include <QByteArray>

#include <optional>

namespace gf {

/// Parses and checks a probe JSON document (from the probe binary or a file produced elsewhere).
/// Malformed, hostile or out-of-range input gives an error naming what was wrong; a document
/// carrying an "error" object (a failed run) gives that error.
Result<ProbeResult> parseProbeJson(const QByteArray &json);

/// The "error" object of a probe document ({code, message, detail}) when it has one.
/// Lenient: anything unreadable gives nullopt.
std::optional<Error> probeJsonError(const QByteArray &json);

/// The largest probe document accepted, in bytes.
inline constexpr qsizetype kMaxProbeJsonBytes = 4 * 1024 * 1024;

} // namespace gf
