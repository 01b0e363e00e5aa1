#include "currencydialog.h"

#include "uistyle.h"
#include "viewmodels/displaycurrency.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gf {

ExchangeRatesDialog::ExchangeRatesDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Exchange rates"));
    setObjectName(QStringLiteral("exchangeRatesDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("Prices are stored in US dollars and converted for display at these rates (units of the currency "
           "per 1 USD). The shipped rates are dated and approximate: type the day's rate and its date to "
           "update one."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("ratesTable"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Code"), tr("Currency"), tr("Per USD"), tr("Date"), tr("Source")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("ratesError"));
    m_error->setWordWrap(true);
    m_error->setVisible(false);
    setErrorStyle(m_error);
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton *reset = buttons->addButton(tr("Reset to shipped rates"), QDialogButtonBox::ResetRole);
    reset->setObjectName(QStringLiteral("resetRates"));
    connect(reset, &QPushButton::clicked, this, [this] {
        fill(CurrencyTable::shipped());
        m_error->setVisible(false);
    });
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (apply())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    fill(DisplayCurrency::instance().table());
    resize(760, 460);
}

void ExchangeRatesDialog::fill(const CurrencyTable &table)
{
    const QList<Currency> &list = table.currencies();
    m_table->setRowCount(static_cast<int>(list.size()));
    for (int r = 0; r < list.size(); ++r) {
        const Currency &c = list.at(r);
        auto item = [&](const QString &text, bool editable) {
            auto *it = new QTableWidgetItem(text);
            if (!editable || c.isUsd())
                it->setFlags(it->flags() & ~Qt::ItemIsEditable);
            return it;
        };
        m_table->setItem(r, Code, item(c.code, false));
        m_table->setItem(r, Name, item(c.name, false));
        m_table->setItem(r, Rate, item(QString::number(c.unitsPerUsd, 'g', 8), true));
        m_table->setItem(r, Date, item(c.date.toString(Qt::ISODate), true));
        m_table->setItem(r, Source, item(c.source, false));
        m_table->item(r, Rate)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    m_table->resizeColumnsToContents();
}

Status ExchangeRatesDialog::apply()
{
    // Every row is checked before anything changes: one bad row refuses the whole edit.
    CurrencyTable edited = CurrencyTable::shipped();
    const CurrencyTable &current = DisplayCurrency::instance().table();
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QString code = m_table->item(r, Code)->text();
        if (code == u"USD")
            continue;
        const QString rateText = m_table->item(r, Rate)->text();
        const QString dateText = m_table->item(r, Date)->text().trimmed();
        Status st = Ok{};
        auto rate = parseRate(rateText);
        const QDate date = QDate::fromString(dateText, Qt::ISODate);
        if (!rate)
            st = makeError(QStringLiteral("%1: %2").arg(code, rate.error().message));
        else if (!date.isValid())
            st = makeError(
                QStringLiteral("%1: the date \"%2\" is not a date (YYYY-MM-DD)").arg(code, dateText));
        if (!st) {
            m_error->setText(tr("Not changed: %1.").arg(st.error().message));
            m_error->setVisible(true);
            m_table->setCurrentCell(r, !rate ? Rate : Date);
            return st;
        }
        // Unchanged figures keep their source; an edited rate is the user's.
        const auto before = current.find(code);
        const auto shipped = CurrencyTable::shipped().find(code);
        QString source = QStringLiteral("edited by the user");
        if (shipped && shipped->unitsPerUsd == rate.value() && shipped->date == date)
            source = shipped->source;
        else if (before && before->unitsPerUsd == rate.value() && before->date == date)
            source = before->source;
        if (auto set = edited.setRate(code, rate.value(), date, source); !set) {
            m_error->setText(tr("Not changed: %1.").arg(set.error().message));
            m_error->setVisible(true);
            return set;
        }
    }
    m_error->setVisible(false);
    DisplayCurrency::instance().setTable(edited);
    return Ok{};
}

} // namespace gf
