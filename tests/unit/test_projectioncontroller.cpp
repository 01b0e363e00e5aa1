#include "domain/gpucatalog.h"
#include "refresh/bundledsnapshot.h"
#include "testsupport.h"
#include "viewmodels/projectioncontroller.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

using namespace gf;
using namespace gf::test;

class TestProjectionController final : public QObject
{
    Q_OBJECT
private:
    QList<Offer> m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        TempDb db;
        auto store = db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        m_catalog = store->currentOffers().value();
        QVERIFY(m_catalog.size() > 1000);
    }

    void publishesOnlyTheNewestJob()
    {
        ProjectionController c;
        QSignalSpy ready(&c, &ProjectionController::resultsReady);
        c.setOffers(m_catalog);
        const QList<Workload> &presets = builtinWorkloads();
        QVERIFY(presets.size() >= 3);
        // A burst of changes: only the last one may be published.
        for (int i = 0; i < 20; ++i)
            c.setWorkload(presets.at(i % presets.size()));
        const Workload last = presets.at(19 % presets.size());
        QVERIFY(ready.wait(30000));
        c.waitForIdle();
        QCoreApplication::processEvents();
        const auto results = ready.last().at(0).value<ProjectionResultsPtr>();
        QCOMPARE(results->workload.id, last.id);
        QCOMPARE(results->jobId, c.latestJobId());
        for (const QList<QVariant> &args : std::as_const(ready))
            QCOMPARE(args.at(0).value<ProjectionResultsPtr>()->workload.id, last.id);
    }

    void filterMapsBackToCatalogRows()
    {
        ProjectionController c;
        QSignalSpy ready(&c, &ProjectionController::resultsReady);
        c.setOffers(m_catalog);
        OfferFilter f;
        f.providers = {QStringLiteral("azure")};
        c.setFilter(f);
        QVERIFY(ready.wait(30000));
        c.waitForIdle();
        const ProjectionResultsPtr r = c.results();
        QVERIFY(!r->offers.isEmpty());
        QCOMPARE(r->catalogIndex.size(), r->offers.size());
        QCOMPARE(r->primaryPoint.size(), m_catalog.size());
        for (qsizetype i = 0; i < r->offers.size(); ++i) {
            QCOMPARE(r->offers.at(i).provider, QStringLiteral("azure"));
            QCOMPARE(m_catalog.at(r->catalogIndex.at(i)).instanceType, r->offers.at(i).instanceType);
        }
        for (qsizetype row = 0; row < m_catalog.size(); ++row) {
            if (m_catalog.at(row).provider != u"azure")
                QCOMPARE(r->primaryPoint.at(row), qsizetype(-1));
        }
        // The primary point of an offer is its cheapest eligible point.
        for (qsizetype row = 0; row < m_catalog.size(); ++row) {
            const qsizetype pi = r->primaryPoint.at(row);
            if (pi < 0)
                continue;
            const ProjectedOffer &primary = r->points.at(pi);
            for (const ProjectedOffer &p : r->points)
                if (p.offerIndex == primary.offerIndex && p.nodes == 1 && p.eligible() && primary.eligible())
                    QVERIFY(primary.costUsd <= p.costUsd);
        }
    }

    void busyUntilTheNewestResultsAreHandled()
    {
        // A job whose future is done while its finished event is still queued is not idle: "not busy" must
        // mean that the newest job's results are published (waitForIdle returned before they were).
        ProjectionController c;
        QSignalSpy ready(&c, &ProjectionController::resultsReady);
        c.setOffers(m_catalog);
        QVERIFY(c.isBusy());
        QVERIFY(QThreadPool::globalInstance()->waitForDone(120000)); // done; its event not handled yet
        QVERIFY(c.isBusy());
        QVERIFY(!c.results());
        c.waitForIdle();
        QVERIFY(c.results());
        QCOMPARE(c.results()->jobId, c.latestJobId());
        QCOMPARE(ready.size(), 1);

        // A newer job started while the older one's finished event waits: the newer one is published, once.
        ready.clear();
        const QList<Workload> &presets = builtinWorkloads();
        c.setWorkload(presets.at(1));
        c.waitForIdle();
        ready.clear();
        c.setOffers(m_catalog.mid(0, m_catalog.size() / 2));
        QVERIFY(QThreadPool::globalInstance()->waitForDone(120000));
        c.setOffers(m_catalog);
        c.waitForIdle();
        QCoreApplication::processEvents();
        QCOMPARE(ready.size(), 1);
        const auto published = ready.last().at(0).value<ProjectionResultsPtr>();
        QCOMPARE(published->jobId, c.latestJobId());
        QCOMPARE(published->catalogSize(), m_catalog.size());
        QCOMPARE(c.results(), published);
    }

    void invalidWorkloadFails()
    {
        ProjectionController c;
        QSignalSpy failed(&c, &ProjectionController::failed);
        Workload w = builtinWorkloads().first();
        w.epochs = -1;
        c.setWorkload(w);
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.first().at(0).toString().contains(QStringLiteral("epochs")));
    }
};

QTEST_GUILESS_MAIN(TestProjectionController)
#include "test_projectioncontroller.moc"
