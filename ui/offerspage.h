#pragma once

#include "domain/offer.h"
#include "domain/offerfilter.h"
#include "viewmodels/offerorderproxy.h" // proxy(): callers use its model interface

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QSplitter;
class QAction;
class QTreeView;

namespace gf {

class CheapestDialog;
class OfferGroupModel;
class OfferTableModel;

/// The Offers page: a filter panel beside a sortable table of the current catalog, one row per instance
/// type (expandable to its regions and zones) or, toggled, one row per offer.
class OffersPage final : public QWidget
{
    Q_OBJECT
public:
    explicit OffersPage(QWidget *parent = nullptr);
    ~OffersPage() override;

    /// Shows a catalog, with its projection when one is given for it. A large catalog (more offers than
    /// largeCatalogAbove()) is grouped, matched and ordered on a worker: the table follows when that is done
    /// (offersShown; isOffersPending() meanwhile); a smaller one at once (offersShown before this returns).
    void setOffers(QList<Offer> offers, const QList<Snapshot> &snapshots,
                   ProjectionResultsPtr projection = {});
    /// A new projection for the table (once a catalog on a worker is shown, when it comes meanwhile).
    void setProjection(ProjectionResultsPtr results);
    /// A catalog of setOffers is being prepared on a worker.
    bool isOffersPending() const;
    OfferTableModel *model() const { return m_model; }
    OfferGroupModel *groupModel() const { return m_groups; }
    OfferOrderProxy *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    /// An action of the table's context menu (applies to the selected rows), after the page's own.
    void addRowAction(QAction *action) { m_rowActions.append(action); }
    /// One row per (provider, instance type, pricing) (default) or one per offer; remembered.
    void setGrouped(bool grouped);
    bool isGrouped() const;
    /// The catalog row a table index (of proxy()) shows: a group row shows its best offer.
    int catalogRowOf(const QModelIndex &proxyIndex) const;
    /// Opens "Where is this GPU cheapest?" for a canonical GPU id (or a provider's GPU name).
    CheapestDialog *showCheapest(const QString &gpu);
    /// "Showing N of M offers · ..." as shown in the status line.
    QString summary() const { return m_summary; }

    void saveState() const;
    void restoreState();
    void resetFilters();
    void focusSearch();
    /// Typing in the GPU, region or search box filters a catalog of more than `aboveOffers` offers once the
    /// typing pauses for `delayMs` (each key would filter every offer again); smaller ones at every key.
    /// (setLargeCatalogAbove(aboveOffers) with the delay.)
    void setTypingDelay(int delayMs, int aboveOffers);
    static constexpr int kTypingDelayMs = 250;
    /// A catalog of more offers than this is large (default kLargeCatalogOffers): typed filters wait for a
    /// pause and are matched on a worker, setOffers and sorting work on a worker (tests: 0).
    void setLargeCatalogAbove(int offers);
    int largeCatalogAbove() const { return m_largeAbove; }
    /// A typed filter waits for the typing to pause, or is being matched on a worker (filter() has it, the
    /// table not yet).
    bool isFilterPending() const;
    /// The filter the boxes give (what filterChanged last sent), and the boxes set from one (a scenario's).
    OfferFilter filter() const;
    void setFilter(const OfferFilter &filter);

    /// Catalog rows selected in the table, in selection order.
    QList<int> selectedRows() const;
    /// Selects one catalog row (clears the filters first if it is filtered out) and scrolls to it.
    void selectCatalogRow(int row);
    /// Selects these catalog rows (the first one current), clearing the filters when one is filtered out.
    void selectCatalogRows(const QList<int> &rows);

Q_SIGNALS:
    /// The catalog of setOffers is in the table (its columns sized).
    void offersShown();
    void summaryChanged(const QString &text);
    void filterChanged(const gf::OfferFilter &filter);
    void selectionChanged(const QList<int> &rows);
    void groupedChanged(bool grouped);

private:
    void applyFilters() { applyFiltersOn(false); }
    /// `onWorker` (a typed filter after the pause): on a catalog of more than the typing delay's offers the
    /// filter is matched on a worker and the table follows when it is done.
    void applyFiltersOn(bool onWorker);
    void onWorkerFilterApplied();
    /// After a catalog is in the table: the column widths, the summary, the (cleared) selection.
    void onOffersShown();
    void onFilterTyped();
    void updateSummary();
    void showRowMenu(const QPoint &pos);

    OfferTableModel *m_model = nullptr;
    OfferGroupModel *m_groups = nullptr;
    OfferOrderProxy *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    QSplitter *m_splitter = nullptr; ///< filter panel | table
    QList<QAction *> m_rowActions;
    QCheckBox *m_grouped = nullptr;
    CheapestDialog *m_cheapest = nullptr;
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
    QTimer m_typingTimer; ///< a typed filter applied when the typing pauses (large catalogs)
    int m_largeAbove = kLargeCatalogOffers;
    ProjectionResultsPtr m_pendingProjection; ///< a projection that came while a catalog was on a worker
    OfferFilter m_workerFilter; ///< the filter matched on a worker, sent by filterChanged once applied
};

} // namespace gf
