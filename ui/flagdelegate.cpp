#include "flagdelegate.h"

#include "viewmodels/offertablemodel.h"

#include <QApplication>
#include <QStyle>

namespace gf {

FlagDelegate::FlagDelegate(QObject *parent) : QStyledItemDelegate(parent) {}

void FlagDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const int severity = index.data(OfferTableModel::SeverityRole).toInt();
    if (severity <= 0)
        return;
    const QStyle *style = option->widget ? option->widget->style() : QApplication::style();
    option->icon =
        style->standardIcon(severity >= 2 ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation,
                            nullptr, option->widget);
    option->features |= QStyleOptionViewItem::HasDecoration;
    const int side = option->fontMetrics.height();
    option->decorationSize = QSize(side, side);
}

} // namespace gf
