#include "apptheme.h"
#include "currencydialog.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "mainwindow.h"
#include "offerspage.h"
#include "testsupport.h"
#include "util/format.h"
#include "viewmodels/displaycurrency.h"
#include "viewmodels/offertablemodel.h"
#include "viewmodels/pointtablemodel.h"

#include <QAbstractAxis>
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>

using namespace gf;
using namespace gf::test;

/// The display currency on the real main window: View > Currency switches every price of the Offers table
/// and its headers, the per-GPU-hour column sorts by number, edited rates apply, bad ones are refused.
class TestCurrencyUi final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    std::unique_ptr<MainWindow> m_window;

    OffersPage *page() const { return m_window->offersPage(); }
    OfferTableModel *model() const { return page()->model(); }
    QString header(int column) const
    {
        return page()->view()->model()->headerData(column, Qt::Horizontal).toString();
    }
    /// A catalog row with both an on-demand price and GPUs.
    int pricedRow() const
    {
        for (int r = 0; r < model()->rowCount(); ++r)
            if (model()->offerAt(r)->onDemandUsdH && model()->offerAt(r)->gpuCount >= 2)
                return r;
        return -1;
    }
    QString shown(int row, int column) const { return model()->index(row, column).data().toString(); }

    void shot(const QString &name)
    {
        const QString dir = qEnvironmentVariable("GF_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        const QString theme = qEnvironmentVariable("GF_SCREENSHOT_THEME", QStringLiteral("light"));
        m_window->grab().save(dir + u'/' + name + u'-' + theme + QStringLiteral(".png"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("GPU Frontier Tests"));
        QApplication::setApplicationName(QStringLiteral("gpufrontier-currency-test"));
        if (qEnvironmentVariable("GF_SCREENSHOT_THEME") == u"dark")
            applyTheme(Theme::Dark);
        else if (!qEnvironmentVariableIsEmpty("GF_SCREENSHOT_DIR"))
            applyTheme(Theme::Light);
        DisplayCurrency::instance().resetRates();
        QVERIFY(DisplayCurrency::instance().setCode(QStringLiteral("USD")).ok());
        m_window = std::make_unique<MainWindow>(m_db.path());
        QSignalSpy loaded(m_window.get(), &MainWindow::catalogLoaded);
        QSignalSpy projected(m_window.get(), &MainWindow::projectionUpdated);
        m_window->resize(1500, 850);
        m_window->show();
        QVERIFY(loaded.wait(30000));
        QVERIFY(projected.wait(30000));
        m_window->tabs()->setCurrentWidget(page());
    }

    void cleanupTestCase()
    {
        DisplayCurrency::instance().resetRates();
        (void)DisplayCurrency::instance().setCode(QStringLiteral("USD"));
    }

    void usdByDefault()
    {
        QCOMPARE(header(OfferTableModel::OnDemand), QStringLiteral("On-demand (USD/h)"));
        QCOMPARE(header(OfferTableModel::PerGpuHour), QStringLiteral("USD/GPU-h"));
        const int row = pricedRow();
        QVERIFY(row >= 0);
        const Offer &o = *model()->offerAt(row);
        QCOMPARE(shown(row, OfferTableModel::OnDemand), formatUsdPerHour(o.onDemandUsdH));
        QCOMPARE(shown(row, OfferTableModel::PerGpuHour), formatUsdPerHour(*o.onDemandUsdH / o.gpuCount));
        QVERIFY(model()
                    ->index(row, OfferTableModel::PerGpuHour)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("divided by its")));
        QVERIFY(!m_window->findChild<QLabel *>(QStringLiteral("currencyStatus"))->isVisible());
    }

    void menuSwitchesPricesAndHeaders()
    {
        auto *eurAction = m_window->findChild<QAction *>(QStringLiteral("currency_EUR"));
        QVERIFY(eurAction);
        QSignalSpy headers(page()->view()->model(), &QAbstractItemModel::headerDataChanged);
        eurAction->trigger();
        QVERIFY(eurAction->isChecked());
        QVERIFY(!headers.isEmpty());
        const Currency eur = DisplayCurrency::instance().current();
        QCOMPARE(eur.code, QStringLiteral("EUR"));
        QCOMPARE(header(OfferTableModel::OnDemand), QStringLiteral("On-demand (EUR/h)"));
        QCOMPARE(header(OfferTableModel::Spot), QStringLiteral("Spot (EUR/h)"));
        QCOMPARE(header(OfferTableModel::PerGpuHour), QStringLiteral("EUR/GPU-h"));
        QCOMPARE(header(OfferTableModel::Cost), QStringLiteral("Run cost (EUR)"));
        QVERIFY(page()
                    ->view()
                    ->model()
                    ->headerData(OfferTableModel::PerGpuHour, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(eur.rateText()));
        const int row = pricedRow();
        const Offer &o = *model()->offerAt(row);
        QCOMPARE(shown(row, OfferTableModel::OnDemand), formatUsdPerHour(eur.fromUsd(*o.onDemandUsdH)));
        QCOMPARE(shown(row, OfferTableModel::PerGpuHour),
                 formatUsdPerHour(eur.fromUsd(*o.onDemandUsdH / o.gpuCount)));
        auto *status = m_window->findChild<QLabel *>(QStringLiteral("currencyStatus"));
        QVERIFY(status->isVisible());
        QVERIFY(status->text().contains(eur.rateFigure()));
        QVERIFY(status->text().contains(eur.date.toString(Qt::ISODate)));
        // Remembered: a new process (reload from QSettings) starts in EUR.
        DisplayCurrency::instance().reload();
        QCOMPARE(DisplayCurrency::instance().code(), QStringLiteral("EUR"));
    }

    void perGpuHourColumnSortsByNumber()
    {
        QTreeView *view = page()->view();
        view->sortByColumn(OfferTableModel::PerGpuHour, Qt::AscendingOrder);
        QAbstractItemModel *m = view->model();
        QList<double> shownValues;
        for (int r = 0; r < m->rowCount(); ++r) {
            bool ok = false;
            const double v = m->index(r, OfferTableModel::PerGpuHour).data().toString().toDouble(&ok);
            if (ok)
                shownValues.append(v);
        }
        QVERIFY(shownValues.size() > 100);
        // By number: 9.5 before 10.2 (a text sort would put "10.2" first). The shown figures are rounded,
        // so equal neighbours are allowed.
        for (qsizetype i = 1; i < shownValues.size(); ++i)
            QVERIFY2(
                shownValues.at(i - 1) <= shownValues.at(i) + 1e-9,
                qPrintable(QStringLiteral("%1 before %2").arg(shownValues.at(i - 1)).arg(shownValues.at(i))));
        QVERIFY(shownValues.last() >= 10 && shownValues.first() < 1);
        view->scrollTo(m->index(0, OfferTableModel::PerGpuHour));
        QApplication::processEvents();
        shot(QStringLiteral("offers-eur-gpuh"));
    }

    void frontierPageFollows()
    {
        const Currency eur = DisplayCurrency::instance().current();
        QCOMPARE(eur.code, QStringLiteral("EUR"));
        FrontierPage *frontier = m_window->frontierPage();
        PointTableModel *points = frontier->frontierModel();
        QCOMPARE(points->headerData(PointTableModel::PerGpuHour, Qt::Horizontal).toString(),
                 QStringLiteral("EUR/GPU-h"));
        QCOMPARE(points->headerData(PointTableModel::Cost, Qt::Horizontal).toString(),
                 QStringLiteral("Cost (EUR)"));
        QVERIFY(points->rowCount() > 0);
        ProjectionResultsPtr r = m_window->projection()->results();
        const qsizetype pi = points->index(0, 0).data(PointTableModel::PointIndexRole).value<qsizetype>();
        const ProjectedOffer &p = r->points.at(pi);
        const Offer &o = r->offers.at(p.offerIndex);
        QCOMPARE(points->index(0, PointTableModel::Cost).data().toString(),
                 formatUsd(eur.fromUsd(p.costUsd)));
        QCOMPARE(points->index(0, PointTableModel::PerGpuHour).data().toString(),
                 formatUsdPerHour(eur.fromUsd(*p.usdPerGpuHour(o))));
        // The chart plots the costs in EUR and says so on its axis; the summary names EUR.
        QCOMPARE(frontier->chart()->costUnit(), QStringLiteral("EUR"));
        QCOMPARE(frontier->chart()->chart()->axes(Qt::Vertical).first()->titleText(),
                 QStringLiteral("Run cost (EUR)"));
        if (r->recommended >= 0)
            QVERIFY(frontier->summary().contains(
                formatUsd(eur.fromUsd(r->points.at(r->recommended).costUsd)) + QStringLiteral(" EUR")));
        m_window->tabs()->setCurrentWidget(frontier);
        QApplication::processEvents();
        shot(QStringLiteral("frontier-eur"));
        m_window->tabs()->setCurrentWidget(page());
    }

    void editingARateChangesThePrices()
    {
        ExchangeRatesDialog dialog(m_window.get());
        QTableWidget *t = dialog.table();
        int eurRow = -1;
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->item(r, ExchangeRatesDialog::Code)->text() == u"EUR")
                eurRow = r;
        QVERIFY(eurRow >= 0);
        t->item(eurRow, ExchangeRatesDialog::Rate)->setText(QStringLiteral("0.5"));
        t->item(eurRow, ExchangeRatesDialog::Date)->setText(QStringLiteral("2026-11-01"));
        QVERIFY(dialog.apply().ok());
        const Currency eur = DisplayCurrency::instance().current();
        QCOMPARE(eur.unitsPerUsd, 0.5);
        QCOMPARE(eur.date, QDate(2026, 11, 1));
        QCOMPARE(eur.source, QStringLiteral("edited by the user"));
        const int row = pricedRow();
        const Offer &o = *model()->offerAt(row);
        QCOMPARE(shown(row, OfferTableModel::OnDemand), formatUsdPerHour(*o.onDemandUsdH * 0.5));
        QVERIFY(m_window->findChild<QLabel *>(QStringLiteral("currencyStatus"))
                    ->text()
                    .contains(QStringLiteral("1 USD = 0.5 EUR")));
    }

    void badRateIsRefused_data()
    {
        QTest::addColumn<QString>("rate");
        QTest::addColumn<QString>("date");
        QTest::addColumn<QString>("message");
        QTest::newRow("text") << QStringLiteral("abc") << QStringLiteral("2026-11-01")
                              << QStringLiteral("EUR: the rate \"abc\" is not a number");
        QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("2026-11-01")
                              << QStringLiteral("EUR: the rate \"0\" is not above 0");
        QTest::newRow("negative") << QStringLiteral("-0.9") << QStringLiteral("2026-11-01")
                                  << QStringLiteral("EUR: the rate \"-0.9\" is not above 0");
        QTest::newRow("date") << QStringLiteral("0.9") << QStringLiteral("yesterday")
                              << QStringLiteral("EUR: the date \"yesterday\" is not a date");
    }

    void badRateIsRefused()
    {
        QFETCH(QString, rate);
        QFETCH(QString, date);
        QFETCH(QString, message);
        const CurrencyTable before = DisplayCurrency::instance().table();
        const int row = pricedRow();
        const QString priceBefore = shown(row, OfferTableModel::OnDemand);
        ExchangeRatesDialog dialog(m_window.get());
        QTableWidget *t = dialog.table();
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->item(r, ExchangeRatesDialog::Code)->text() == u"GBP")
                t->item(r, ExchangeRatesDialog::Rate)->setText(QStringLiteral("0.7")); // a good edit too
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->item(r, ExchangeRatesDialog::Code)->text() == u"EUR") {
                t->item(r, ExchangeRatesDialog::Rate)->setText(rate);
                t->item(r, ExchangeRatesDialog::Date)->setText(date);
            }
        QSignalSpy changed(&DisplayCurrency::instance(), &DisplayCurrency::changed);
        const Status st = dialog.apply();
        QVERIFY(!st.ok());
        QVERIFY2(dialog.errorLabel()->text().contains(message), qPrintable(dialog.errorLabel()->text()));
        QVERIFY(!dialog.errorLabel()->isHidden());
        // Nothing changed: not the table (not even the good GBP edit), not the prices.
        QVERIFY(DisplayCurrency::instance().table() == before);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(shown(row, OfferTableModel::OnDemand), priceBefore);
        // The model's own entry point refuses the same.
        QVERIFY(!DisplayCurrency::instance().setRate(QStringLiteral("EUR"), rate, date).ok());
        QVERIFY(DisplayCurrency::instance().table() == before);
    }

    void resetToShippedRates()
    {
        ExchangeRatesDialog dialog(m_window.get());
        auto *reset = dialog.findChild<QAbstractButton *>(QStringLiteral("resetRates"));
        QVERIFY(reset);
        reset->click();
        QVERIFY(dialog.apply().ok());
        QVERIFY(DisplayCurrency::instance().table() == CurrencyTable::shipped());
        QCOMPARE(DisplayCurrency::instance().current().unitsPerUsd,
                 CurrencyTable::shipped().find(QStringLiteral("EUR"))->unitsPerUsd);
        QVERIFY(!DisplayCurrency::instance().setCode(QStringLiteral("XYZ")).ok());
        QCOMPARE(DisplayCurrency::instance().code(), QStringLiteral("EUR"));
        shot(QStringLiteral("offers-eur"));
    }
};

QTEST_MAIN(TestCurrencyUi)
#include "test_currency.moc"
