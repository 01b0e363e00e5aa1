#pragma once

#include "domain/offer.h"
#include "viewmodels/projectioncontroller.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace gf {

/// Side-by-side comparison of 2 to 6 offers selected in the Offers table: specs, prices, projected
/// time and cost, spot risk, and the difference to the best offer in each row.
class ComparePage final : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxOffers = 6;
    explicit ComparePage(QWidget *parent = nullptr);

    /// The offers to compare (catalog rows) with their projection (may be null).
    void setOffers(const QList<Offer> &offers, const QList<int> &rows, ProjectionResultsPtr results);
    QTableWidget *table() const { return m_table; }
    int comparedCount() const;

private:
    QTableWidget *m_table = nullptr;
    QLabel *m_hint = nullptr;
};

} // namespace gf
