#pragma once

#include <QList>
#include <QString>

namespace gf {

/// The figures of a validation over a set of cases: how many, the median and the largest |ln(projected /
/// measured)|, and the share of cases whose measured value the projected range holds.
struct ErrorSummary
{
    QString label;
    int n = 0;
    double median = 0;
    double max = 0;
    double coverage = 0;
};

/// `absErrors` are the cases' |log error|, `inside` how many of them the range holds.
ErrorSummary summarizeErrors(const QString &label, const QList<double> &absErrors, int inside);

} // namespace gf
