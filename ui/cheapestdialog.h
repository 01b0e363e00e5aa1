#pragma once

#include "domain/offer.h"

#include <QDialog>

class QLabel;
class QTableView;

namespace gf {

class RegionPriceModel;

/// "Where is this GPU cheapest?": the regions and providers that rent one GPU model, by price (best
/// on-demand and best spot per provider and region, per GPU-hour and per instance). No map: a table.
class CheapestDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit CheapestDialog(QWidget *parent = nullptr);

    /// Shows `gpu` (a canonical GPU id, or a provider's GPU name for an unrecognised one) over the catalog.
    void setOffers(const QList<Offer> &offers, const QString &gpu);
    RegionPriceModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString summary() const;

private:
    RegionPriceModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    QString m_gpuName;
};

} // namespace gf
