#pragma once

#include "domain/offerfilter.h"

#include <QString>

namespace gf {

/// The filter in words ("providers AWS; GPU matches \"A100\""; "none" when empty): the report's Filter row
/// and the Frontier page's filter notice.
QString describeFilter(const OfferFilter &filter);

} // namespace gf
