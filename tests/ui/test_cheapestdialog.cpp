#include "cheapestdialog.h"
#include "mainwindow.h"
#include "offerspage.h"
#include "testsupport.h"
#include "viewmodels/offergroupmodel.h"
#include "viewmodels/offertablemodel.h"
#include "viewmodels/regionpricemodel.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace gf;
using namespace gf::test;

class TestCheapestDialog final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("GPU Frontier Tests"));
        QApplication::setApplicationName(QStringLiteral("gpufrontier-cheapest-test"));
    }

    // Right-click an H100 row in the Offers table, choose "Where is … cheapest?": the dialog lists the
    // provider regions that rent it, cheapest on-demand per GPU-hour first.
    void fromTheOffersContextMenu()
    {
        TempDb db;
        MainWindow w(db.path());
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.resize(1400, 850);
        w.show();
        QVERIFY(loaded.wait(30000));
        OffersPage *page = w.offersPage();
        QTreeView *view = page->view();

        // An H100 80GB offer's row (a group row: it stands for its best offer).
        int row = -1;
        QString gpu;
        for (int r = 0; r < page->proxy()->rowCount() && row < 0; ++r) {
            const Offer *o = page->model()->offerAt(page->catalogRowOf(page->proxy()->index(r, 0)));
            if (o && o->gpuId == u"h100-80gb-sxm") {
                row = r;
                gpu = o->gpuId;
            }
        }
        QVERIFY(row >= 0);
        view->scrollTo(page->proxy()->index(row, 0));
        const QPoint at = view->visualRect(page->proxy()->index(row, OfferTableModel::Instance)).center();

        bool found = false;
        QTimer::singleShot(0, this, [&found] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            QVERIFY(menu);
            auto *action = menu->findChild<QAction *>(QStringLiteral("whereCheapestAction"));
            if (!action)
                for (QAction *a : menu->actions())
                    if (a->objectName() == u"whereCheapestAction")
                        action = a;
            found = action != nullptr;
            if (action) {
                QVERIFY(action->text().contains(QStringLiteral("H100")));
                action->trigger();
            }
            menu->close();
        });
        Q_EMIT view->customContextMenuRequested(at);
        QVERIFY(found);

        auto *dialog = page->findChild<CheapestDialog *>(QStringLiteral("cheapestDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("H100")));
        RegionPriceModel *model = dialog->model();
        QCOMPARE(model->gpu(), gpu);
        QVERIFY(model->rowCount() >= 3);
        // Every row rents this GPU; the sorted table shows the cheapest on-demand per GPU-hour first.
        QAbstractItemModel *shown = dialog->view()->model();
        double last = 0;
        for (int r = 0; r < shown->rowCount(); ++r) {
            const QVariant v =
                shown->index(r, RegionPriceModel::OnDemandPerGpu).data(RegionPriceModel::SortRole);
            if (!v.isValid())
                continue;
            QVERIFY(v.toDouble() >= last);
            last = v.toDouble();
        }
        // The per-GPU-hour price is the instance's over its GPUs.
        const RegionPrice &first = model->rows().first();
        QVERIFY(first.onDemand.usdPerHour || first.spot.usdPerHour);
        if (first.onDemand.usdPerHour)
            QCOMPARE(*first.onDemand.usdPerGpuHour, *first.onDemand.usdPerHour / first.onDemand.gpuCount);
        auto *summary = dialog->findChild<QLabel *>(QStringLiteral("cheapestSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("Cheapest on-demand")), qPrintable(summary->text()));

        // Another GPU reuses the same dialog.
        page->showCheapest(QStringLiteral("a100-80gb-sxm4"));
        QCOMPARE(page->findChildren<CheapestDialog *>().size(), 1);
        QCOMPARE(model->gpu(), QStringLiteral("a100-80gb-sxm4"));
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("A100")));
        // A GPU no offer rents says so.
        page->showCheapest(QStringLiteral("no-such-gpu"));
        QCOMPARE(model->rowCount(), 0);
        QVERIFY(summary->text().contains(QStringLiteral("No offer")));
        dialog->hide();
    }
};

QTEST_MAIN(TestCheapestDialog)
#include "test_cheapestdialog.moc"
