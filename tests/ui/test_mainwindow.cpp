#include "answerpage.h"
#include "mainwindow.h"
#include "offerspage.h"
#include "testsupport.h"
#include "viewmodels/appstate.h"
#include "viewmodels/offergroupmodel.h"
#include "viewmodels/offertablemodel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

using namespace gf;
using namespace gf::test;

class TestMainWindow final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("GPU Frontier Tests"));
        QApplication::setApplicationName(QStringLiteral("gpufrontier-test"));
    }

    void offersTableFiltersAndGroups()
    {
        TempDb db;
        MainWindow w(db.path());
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.show();
        QVERIFY(loaded.wait(30000));
        // The window opens on the Answer page (ui_answerpage); the Offers page is the second.
        QCOMPARE(w.tabs()->currentWidget(), w.answerPage());
        OffersPage *page = w.offersPage();
        w.tabs()->setCurrentWidget(page);
        const int all = page->model()->rowCount();
        QVERIFY(all > 2000);
        // One row per instance type and pricing by default: fewer rows than offers, each offer in one.
        QVERIFY(page->isGrouped());
        const int groups = page->proxy()->rowCount();
        QVERIFY(groups > 100 && groups < all);
        QCOMPARE(groups, page->groupModel()->acceptedGroupCount());
        auto *status = w.findChild<QLabel *>(QStringLiteral("statusSummary"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("Showing %1 of %1 offers").arg(all)),
                 qPrintable(status->text()));
        QVERIFY(status->text().contains(QStringLiteral("in %1 rows").arg(groups)));
        QVERIFY(status->text().contains(QStringLiteral("old")));

        // Typing a GPU filter narrows the table and the status line follows.
        auto *gpu = w.findChild<QLineEdit *>(QStringLiteral("gpuFilter"));
        QVERIFY(gpu);
        QTest::keyClicks(gpu, QStringLiteral("H100"));
        const int h100 = page->groupModel()->acceptedCount();
        QVERIFY(h100 > 0 && h100 < all);
        QVERIFY(page->proxy()->rowCount() > 0 && page->proxy()->rowCount() <= h100);
        QVERIFY(status->text().contains(QStringLiteral("Showing %1 of %2").arg(h100).arg(all)));

        // Unticking a provider removes its offers.
        auto *aws = w.findChild<QCheckBox *>(QStringLiteral("provider_aws"));
        QVERIFY(aws);
        aws->setChecked(false);
        for (int r = 0; r < page->proxy()->rowCount(); ++r)
            QVERIFY(page->proxy()->index(r, OfferTableModel::Provider).data().toString() != u"AWS");

        // Sorting by a column orders by the raw number.
        page->view()->sortByColumn(OfferTableModel::OnDemand, Qt::DescendingOrder);
        const double first =
            page->proxy()->index(0, OfferTableModel::OnDemand).data(OfferTableModel::SortRole).toDouble();
        const double second =
            page->proxy()->index(1, OfferTableModel::OnDemand).data(OfferTableModel::SortRole).toDouble();
        QVERIFY(first >= second);

        page->resetFilters();
        QCOMPARE(page->proxy()->rowCount(), groups);

        // The toggle: one row per offer, remembered.
        page->setGrouped(false);
        QCOMPARE(page->proxy()->rowCount(), all);
        QVERIFY2(status->text().contains(QStringLiteral("Showing %1 of %1 offers").arg(all)),
                 qPrintable(status->text()));
        QVERIFY(!status->text().contains(QStringLiteral("rows")));
        page->saveState();
        page->setGrouped(true);
        page->restoreState();
        QVERIFY(!page->isGrouped());
        page->setGrouped(true);
        page->saveState();
    }

    // A 1366 x 768 laptop screen (the most common small one) must hold the whole window, workload
    // dock included, on every page with real data: no widget may demand more.
    void typedFilterWaitsForAPauseOnLargeCatalogs()
    {
        TempDb db;
        MainWindow w(db.path());
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.show();
        QVERIFY(loaded.wait(30000));
        OffersPage *page = w.offersPage();
        w.tabs()->setCurrentWidget(page);
        auto *search = w.findChild<QLineEdit *>(QStringLiteral("search"));
        QVERIFY(search);
        const int all = page->model()->rowCount();
        const auto acceptedRows = [page] {
            QList<int> rows;
            for (int r = 0; r < page->model()->rowCount(); ++r)
                if (page->groupModel()->isAccepted(r))
                    rows.append(r);
            return rows;
        };
        const auto shownRows = [page] {
            QStringList rows;
            for (int r = 0; r < page->proxy()->rowCount(); ++r)
                rows.append(page->proxy()->index(r, OfferTableModel::Instance).data().toString());
            return rows;
        };

        // A small catalog (the bundled one) filters at every key, as before.
        QVERIFY(all < kLargeCatalogOffers);
        QTest::keyClicks(search, QStringLiteral("h100 sxm"));
        QVERIFY(!page->isFilterPending());
        QCOMPARE(page->proxy()->filter().text, QStringLiteral("h100 sxm"));
        const QList<int> atEveryKey = acceptedRows();
        const QStringList shownAtEveryKey = shownRows();
        QVERIFY(!atEveryKey.isEmpty() && atEveryKey.size() < all);
        search->clear();
        QCOMPARE(page->groupModel()->acceptedCount(), all);

        // A large one (every catalog counts as large here): the keys change the box, the table waits for the
        // pause, then shows exactly the rows it showed when filtering at every key.
        page->setTypingDelay(40, 0);
        QTest::keyClicks(search, QStringLiteral("h100 sxm"));
        QVERIFY(page->isFilterPending());
        QCOMPARE(page->filter().text, QStringLiteral("h100 sxm")); // what the boxes say
        QCOMPARE(page->proxy()->filter().text, QString());         // not applied yet
        QCOMPARE(page->groupModel()->acceptedCount(), all);
        QTRY_VERIFY(!page->isFilterPending());
        QCOMPARE(page->proxy()->filter().text, QStringLiteral("h100 sxm"));
        QCOMPARE(acceptedRows(), atEveryKey);
        QCOMPARE(shownRows(), shownAtEveryKey);
        // Enter applies the typed filter at once; the other filters never wait.
        page->setTypingDelay(60000, 0);
        search->clear();
        QVERIFY(page->isFilterPending());
        QTest::keyClick(search, Qt::Key_Return);
        QVERIFY(!page->isFilterPending());
        QCOMPARE(page->groupModel()->acceptedCount(), all);
        auto *aws = w.findChild<QCheckBox *>(QStringLiteral("provider_aws"));
        QVERIFY(aws);
        aws->setChecked(false);
        QVERIFY(!page->isFilterPending());
        QVERIFY(page->groupModel()->acceptedCount() < all);
        aws->setChecked(true);
        page->setTypingDelay(OffersPage::kTypingDelayMs, kLargeCatalogOffers);
        w.projection()->waitForIdle();
    }

    void answerSaysLoadingUntilTheCatalogIsLoaded()
    {
        // The workload is projected before the catalog arrives (no offers): the Answer page must not call
        // that "no offer fits" while the catalog is still loading.
        TempDb db;
        MainWindow w(db.path());
        QStringList whileLoading;
        connect(&w, &MainWindow::projectionUpdated, &w, [&] {
            if (w.isLoading())
                whileLoading.append(w.answerPage()->plainText());
        });
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.show();
        QVERIFY(w.answerPage()->plainText().startsWith(QStringLiteral("Loading the catalog")));
        QVERIFY(loaded.wait(30000));
        for (const QString &text : std::as_const(whileLoading)) {
            QVERIFY2(text.startsWith(QStringLiteral("Loading the catalog")), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("No offer fits")), qPrintable(text));
        }
        // Then the answer of the catalog.
        QTRY_VERIFY_WITH_TIMEOUT(w.answerPage()->plainText().startsWith(QStringLiteral("Train ")), 30000);
        QVERIFY(w.answerPage()->answer().hasRecommendation());
    }

    void largeCatalogShowsItsAnswerBeforeFillingTheOffersTable()
    {
        // Every catalog counted as large: the answer first, then the Offers table (with the projection's
        // columns) and catalogLoaded. Opened on the Offers tab, the table is filled at once.
        TempDb db;
        for (const bool onOffersTab : {false, true}) {
            MainWindow w(db.path());
            w.setLargeCatalogAbove(0);
            QStringList order;
            connect(&w, &MainWindow::projectionUpdated, &w, [&] {
                if (w.state()->results() &&
                    !w.state()->offers().isEmpty()) // not the loading one of no offers
                    order.append(QStringLiteral("answer"));
            });
            connect(&w, &MainWindow::catalogLoaded, &w, [&] {
                order.append(QStringLiteral("loaded"));
                QCOMPARE(w.offersPage()->model()->rowCount(), w.state()->offers().size());
            });
            // Whether the Offers page was given the catalog when it loaded (it prepares it on a worker).
            bool filledAtLoad = false;
            connect(w.state(), &AppState::catalogLoaded, &w, [&] {
                filledAtLoad = w.offersPage()->isOffersPending() ||
                               w.offersPage()->model()->rowCount() == w.state()->offers().size();
            });
            QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
            w.show();
            if (onOffersTab)
                w.tabs()->setCurrentWidget(w.offersPage());
            QVERIFY(loaded.wait(30000));
            OffersPage *page = w.offersPage();
            QVERIFY(page->model()->rowCount() > 2000);
            QCOMPARE(page->model()->rowCount(), w.state()->offers().size());
            QCOMPARE(filledAtLoad, onOffersTab);
            if (onOffersTab) {
                QTRY_VERIFY_WITH_TIMEOUT(w.state()->results(), 30000);
            } else {
                QCOMPARE(order.value(0), QStringLiteral("answer"));
                QVERIFY(w.answerPage()->plainText().startsWith(QStringLiteral("Train ")));
            }
            // Either way the table shows the projection of this catalog.
            QTRY_COMPARE_WITH_TIMEOUT(page->model()->projection(), w.state()->results(), 30000);
            QCOMPARE(loaded.size(), 1);
            if (!onOffersTab)
                continue;
            // A header click sorts on a worker; the rows are those of the same sort at once.
            const auto shown = [page] {
                QList<int> rows;
                for (int r = 0; r < page->proxy()->rowCount(); ++r)
                    rows.append(page->catalogRowOf(page->proxy()->index(r, 0)));
                return rows;
            };
            QSignalSpy sorted(page->proxy(), &OfferOrderProxy::sortApplied);
            page->view()->sortByColumn(OfferTableModel::Cost, Qt::DescendingOrder);
            QVERIFY(page->proxy()->isSortPending());
            QVERIFY(sorted.wait(10000));
            QCOMPARE(page->proxy()->sortColumn(), int(OfferTableModel::Cost));
            const QList<int> onWorker = shown();
            w.setLargeCatalogAbove(kLargeCatalogOffers);
            page->view()->sortByColumn(OfferTableModel::OnDemand, Qt::AscendingOrder);
            page->view()->sortByColumn(OfferTableModel::Cost, Qt::DescendingOrder);
            QVERIFY(!page->proxy()->isSortPending());
            QCOMPARE(shown(), onWorker);
            QCOMPARE(sorted.size(), 1);
        }
    }

    void fitsOnALaptopScreen()
    {
        TempDb db;
        MainWindow w(db.path());
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        QSignalSpy projected(&w, &MainWindow::projectionUpdated);
        w.show();
        QVERIFY(loaded.wait(30000));
        QVERIFY(projected.count() > 0 || projected.wait(30000));
        const QSize limit(1366, 768 - 40); // leave room for a panel / title bar
        for (int tab = 0; tab < w.tabs()->count(); ++tab) {
            w.tabs()->setCurrentIndex(tab);
            QCoreApplication::processEvents();
            const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
            QString culprits;
            if (min.width() > limit.width() || min.height() > limit.height()) {
                const auto widgets = w.findChildren<QWidget *>();
                for (QWidget *c : widgets) {
                    const QSize m = c->minimumSizeHint().expandedTo(c->minimumSize());
                    if (m.width() > 400 || m.height() > 300)
                        culprits +=
                            QStringLiteral("\n  %1 %2: %3 x %4")
                                .arg(QString::fromLatin1(c->metaObject()->className()), c->objectName())
                                .arg(m.width())
                                .arg(m.height());
                }
            }
            QVERIFY2(min.width() <= limit.width() && min.height() <= limit.height(),
                     qPrintable(QStringLiteral("page %1 (%2) needs at least %3 x %4 px:%5")
                                    .arg(tab)
                                    .arg(w.tabs()->tabText(tab))
                                    .arg(min.width())
                                    .arg(min.height())
                                    .arg(culprits)));
        }
    }

    void quickGuideOpensWithF1()
    {
        TempDb db;
        MainWindow w(db.path());
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.show();
        QVERIFY(loaded.wait(30000));
        auto *guide = w.findChild<QAction *>(QStringLiteral("quickGuide"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut().toString(), QStringLiteral("F1"));
        guide->trigger();
        auto *dialog = w.findChild<QDialog *>(QStringLiteral("guideDialog"));
        QVERIFY(dialog && dialog->isVisible());
        auto *browser = dialog->findChild<QTextBrowser *>(QStringLiteral("guideBrowser"));
        QVERIFY(browser);
        const QString text = browser->toPlainText();
        for (const char *needle :
             {"efficiency frontier", "USD per hour", "Checkpoint every", "Ctrl+E", "Catalogs", "Measurements",
              "measured-converted", "transferred", "cannot calibrate a GPU", "Answer", "Use this deadline"})
            QVERIFY2(text.contains(QString::fromLatin1(needle)), needle);
        // The model the guide describes is the one the app has, not a datasheet-only roofline.
        QVERIFY(!text.contains(u"roofline model from the GPU's datasheet"));
        // The application name once: Qt appends it to the dialog's own title.
        QVERIFY(!dialog->windowTitle().contains(u"GPU Frontier"));
        // Every menu shortcut the guide lists exists in the window.
        QStringList shortcuts;
        for (const QAction *a : w.findChildren<QAction *>())
            if (!a->shortcut().isEmpty())
                shortcuts.append(a->shortcut().toString());
        for (const char *key : {"Ctrl+E", "Ctrl+Shift+R", "Ctrl+W", "Ctrl+F", "F1", "F5", "Ctrl+7", "Ctrl+Q"})
            QVERIFY2(shortcuts.contains(QString::fromLatin1(key)), key);
        dialog->hide();
        guide->trigger(); // opens the same dialog again
        QCOMPARE(w.findChildren<QDialog *>(QStringLiteral("guideDialog")).size(), 1);
    }

    void badDatabaseShowsMessage()
    {
        TempDb db;
        MainWindow w(db.dir()); // a folder is not a database
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.show();
        QVERIFY(failed.wait(30000));
        auto *banner = w.findChild<QLabel *>(QStringLiteral("errorBanner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY(banner->text().contains(db.dir()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_mainwindow.moc"
