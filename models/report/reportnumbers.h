#pragma once

// Internal to the report (reportanalysis.cpp, reporttext.cpp): how the report writes numbers.

#include "projection/offerprojection.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace gf::report {

/// Projected with a valid price: the point has a cost.
bool priced(const ProjectedOffer &p);
QString pct(double v, int decimals = 0); ///< "12 %"
QString minutesText(double m);           ///< "30 min"
QString number(double v);                ///< up to 12 significant digits
/// "1.2 billion", "25.6 million", "50,000": large counts for people.
QString bigNumber(double v);
QString offersText(qsizetype n); ///< "1 offer", "3 offers"
double median(QList<double> v);
/// The first `max` items, then "… and N more".
QStringList capped(const QStringList &items, qsizetype max);

} // namespace gf::report
