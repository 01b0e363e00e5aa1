#pragma once

#include "domain/offer.h"
#include "domain/offerfilter.h"

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;

namespace gf {

class OfferFilterProxy;
class OfferTableModel;

/// The Offers page: a filter panel beside a sortable table of the current catalog.
class OffersPage final : public QWidget
{
    Q_OBJECT
public:
    explicit OffersPage(QWidget *parent = nullptr);
    ~OffersPage() override;

    void setOffers(QList<Offer> offers, const QList<Snapshot> &snapshots);
    OfferTableModel *model() const { return m_model; }
    OfferFilterProxy *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    /// "Showing N of M offers · ..." as shown in the status line.
    QString summary() const { return m_summary; }

    void saveState() const;
    void restoreState();
    void resetFilters();
    void focusSearch();

    /// Catalog rows selected in the table, in selection order.
    QList<int> selectedRows() const;
    /// Selects one catalog row (clears the filters first if it is filtered out) and scrolls to it.
    void selectCatalogRow(int row);

Q_SIGNALS:
    void summaryChanged(const QString &text);
    void filterChanged(const gf::OfferFilter &filter);
    void selectionChanged(const QList<int> &rows);

private:
    void applyFilters();
    void updateSummary();

    OfferTableModel *m_model = nullptr;
    OfferFilterProxy *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QList<QCheckBox *> m_providerBoxes;
    QLineEdit *m_gpu = nullptr;
    QSpinBox *m_minGpus = nullptr;
    QDoubleSpinBox *m_minMem = nullptr;
    QDoubleSpinBox *m_maxPrice = nullptr;
    QCheckBox *m_spot = nullptr;
    QLineEdit *m_region = nullptr;
    QLineEdit *m_search = nullptr;
    QString m_summary;
    QList<Snapshot> m_snapshots;
};

} // namespace gf
