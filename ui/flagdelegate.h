#pragma once

#include <QStyledItemDelegate>

namespace gf {

/// Paints the Flags column of the Offers table: a warning icon for a suspect price, an information icon
/// for informational flags (OfferTableModel::SeverityRole), then the flag names.
class FlagDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit FlagDelegate(QObject *parent = nullptr);

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace gf
