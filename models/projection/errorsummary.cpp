#include "projection/errorsummary.h"

#include "projection/speedmodel.h"

#include <algorithm>

namespace gf {

ErrorSummary summarizeErrors(const QString &label, const QList<double> &absErrors, int inside)
{
    ErrorSummary s;
    s.label = label;
    s.n = int(absErrors.size());
    if (absErrors.isEmpty())
        return s;
    s.median = sampleMedian(absErrors);
    s.max = *std::max_element(absErrors.cbegin(), absErrors.cend());
    s.coverage = double(inside) / double(s.n);
    return s;
}

} // namespace gf
