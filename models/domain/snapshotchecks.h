#pragma once

#include "domain/snapshotdata.h"
#include "util/result.h"

#include <QString>

namespace gf {

/// Checks on a parsed catalog that come before the row-by-row validation (validateSnapshot calls them).

/// Replaces the control characters (C0, DEL, C1) and bidirectional formatting characters in every text
/// of `data` (offers, description, warnings): line breaks and tabs by a space, the others by U+FFFD, so
/// that no provider's string can recolour a terminal, split a table row or reorder what is shown, and
/// no NUL cuts a name. Adds one warning naming how many texts changed and the first of them. Returns
/// the number of texts changed.
qsizetype normaliseSnapshotText(SnapshotData &data);

/// The provider whose naming an offer follows, judged from its instance type and region alone (AWS
/// "p4d.24xlarge" in "us-east-1", Azure "Standard_ND96asr_v4", Google Cloud "a2-highgpu-1g" in
/// "us-central1", vast.ai "2x-H200-32-65536" in "France, FR, EU", Paperspace "East Coast (NY2)");
/// empty when the names say nothing (a custom catalog's own names).
QString providerOfNaming(const QString &instanceType, const QString &region);

/// Refuses a catalog holding rows named like another provider's (an AWS catalog imported as Azure):
/// the error names the other provider, how many rows and the first one with its line.
Status checkProviderNaming(const SnapshotData &data, const QString &origin);

/// The error for a catalog with fewer than `minRows` offers: what the parser skipped and why (its
/// warnings: which field failed on how many rows, with the first examples) when it says, else a hint at a
/// truncated or empty download.
Error tooFewRows(const SnapshotData &data, const QString &origin, int minRows);

/// Drops every row identical in all its fields to an earlier row (a catalog that lists a row twice):
/// the first stays. Adds a warning with the count and the first duplicate's line. Returns the count.
qsizetype dropIdenticalRows(SnapshotData &data);

/// vast.ai offers are named by their numeric offer id: two different offers under one id are refused
/// (which of them is the real one cannot be told). Identical repeats are dropped before this.
Status checkUniqueOfferIds(const SnapshotData &data, const QString &origin);

/// The cheapest price that is plausible for a whole instance, USD/h: below it a price is a data error
/// (0.00, 1e-320).
inline constexpr double kMinPlausibleUsdPerHour = 0.001;

/// Refuses a row whose on-demand or spot price is above zero but below kMinPlausibleUsdPerHour.
Status checkMinimumPrices(const SnapshotData &data, const QString &origin);

} // namespace gf
