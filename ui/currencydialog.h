#pragma once

#include "util/result.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace gf {

class CurrencyTable;

/// View > Currency > Exchange rates…: the rate table the display currency converts with, editable (units
/// per USD and the date of each rate). OK checks every row first: a rate that is not a number above 0 or
/// a date that is not YYYY-MM-DD is named in the dialog and nothing is changed. "Reset to shipped" puts
/// back resources/currency/rates.csv.
class ExchangeRatesDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit ExchangeRatesDialog(QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QLabel *errorLabel() const { return m_error; }
    /// Applies the edited rows to DisplayCurrency (what OK does); an error leaves it as it was.
    Status apply();

    enum Column
    {
        Code,
        Name,
        Rate,
        Date,
        Source,
        ColumnCount
    };

private:
    void fill(const CurrencyTable &table);

    QTableWidget *m_table = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace gf
