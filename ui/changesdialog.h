#pragma once

#include "domain/snapshotchanges.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QTreeWidget;

namespace gf {

class CatalogService;

/// "What changed since the last refresh": per provider, its current snapshot against the one before it —
/// a summary line, then the offers whose price changed (largest change first), the new and the gone ones.
/// Read off the GUI thread (CatalogService::loadChanges).
class ChangesDialog final : public QDialog
{
    Q_OBJECT
public:
    /// Shows `provider` (empty: every provider).
    ChangesDialog(CatalogService *catalog, const QString &provider = {}, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    QString statusText() const;
    /// Reads the changes again (after a refresh).
    void reload();

Q_SIGNALS:
    void loaded();

private:
    void display(const QList<SnapshotChanges> &changes);

    CatalogService *m_catalog = nullptr;
    QComboBox *m_provider = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_tree = nullptr;
    quint64 m_request = 0;
};

} // namespace gf
