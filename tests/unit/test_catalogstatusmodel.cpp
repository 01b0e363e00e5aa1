#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "refresh/bundledsnapshot.h"
#include "store/catalogstore.h"
#include "store/refreshstate.h"
#include "testsupport.h"
#include "viewmodels/catalogstatusmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>
#include <QTimeZone>

using namespace gf;
using namespace gf::test;

class TestCatalogStatusModel final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void statusesFromTheStore()
    {
        TempDb db;
        auto store = db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        RefreshState state(*store);
        RefreshLogEntry e;
        e.provider = QStringLiteral("gcp");
        e.outcome = QStringLiteral("failed");
        e.message = QStringLiteral("Google Cloud: needs an API key.\nmore");
        QVERIFY(state.log(e).ok());
        auto statuses = loadProviderStatuses(*store);
        QVERIFY(statuses.ok());
        CatalogStatusModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setStatuses(statuses.value(), QDateTime(QDate(2026, 11, 26), QTime(0, 0), QTimeZone::utc()));
        QCOMPARE(m.rowCount(), int(knownProviders().size()));
        const int gcp = m.rowOf(QStringLiteral("gcp"));
        QCOMPARE(m.index(gcp, CatalogStatusModel::LastError).data().toString(),
                 QStringLiteral("Google Cloud: needs an API key."));
        QVERIFY(m.index(gcp, CatalogStatusModel::LastError).data(CatalogStatusModel::FailedRole).toBool());
        QVERIFY(m.index(gcp, CatalogStatusModel::LastError)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("more")));
        const int aws = m.rowOf(QStringLiteral("aws"));
        QCOMPARE(m.index(aws, CatalogStatusModel::PricesDated).data().toString(),
                 QStringLiteral("2026-06-03"));
        QCOMPARE(m.index(aws, CatalogStatusModel::Age).data(CatalogStatusModel::SortRole).toLongLong(),
                 QDate(2026, 6, 3).daysTo(QDate(2026, 11, 26)));
        // Older than 7 days: refresh advised; not yet the year after which its offers are stale.
        QVERIFY(m.index(aws, CatalogStatusModel::Age)
                    .data()
                    .toString()
                    .contains(QStringLiteral("refresh advised")));
        QVERIFY(m.index(m.rowOf(QStringLiteral("azure")), CatalogStatusModel::Age)
                    .data()
                    .toString()
                    .contains(QStringLiteral("(stale)")));
        QVERIFY(m.index(aws, CatalogStatusModel::Age).data(CatalogStatusModel::StaleRole).toBool());
        QVERIFY(!m.index(aws, CatalogStatusModel::LastError).data(CatalogStatusModel::FailedRole).toBool());
        // The snapshot's description (what it is built from and what was removed) is in the tooltip.
        const QString gcpSource = m.index(gcp, CatalogStatusModel::Source).data(Qt::ToolTipRole).toString();
        QVERIFY2(gcpSource.contains(QStringLiteral("bundled:gcp.csv")) &&
                     gcpSource.contains(QStringLiteral("not on-demand")),
                 qPrintable(gcpSource));
        // Fresh prices are not stale.
        m.setStatuses(statuses.value(), QDateTime(QDate(2026, 6, 5), QTime(0, 0), QTimeZone::utc()));
        QVERIFY(!m.index(aws, CatalogStatusModel::Age).data(CatalogStatusModel::StaleRole).toBool());
        QCOMPARE(m.headerData(CatalogStatusModel::Offers, Qt::Horizontal).toString(),
                 QStringLiteral("Offers"));
    }
};

QTEST_GUILESS_MAIN(TestCatalogStatusModel)
#include "test_catalogstatusmodel.moc"
