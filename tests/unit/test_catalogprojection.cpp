// projectCatalog, the projection's one door: the results own their counts, recommendation and per-row
// lookups (the front ends read them and never recount), the filter keeps catalog rows, the request's
// measurements are the ones used, and requestOf gives back the request. Also the one-home helpers
// shellWord/shellQuoted (util/shellquote).
#include "domain/workload.h"
#include "projection/catalogprojection.h"
#include "util/shellquote.h"

#include "offerfixture.h"

#include <QTest>
#include <QTimeZone>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

QList<Offer> catalog()
{
    return {makeOffer(u"aws"_s, u"p5.48xlarge"_s, u"h100-80gb-sxm"_s, 8, 98.32, 40.0),
            makeOffer(u"gcp"_s, u"a2-highgpu-1g"_s, u"a100-40gb-sxm4"_s, 1, 3.67, 1.1),
            makeOffer(u"aws"_s, u"g5.xlarge"_s, u"a10g"_s, 1, 1.006, 0.45),
            makeOffer(u"azure"_s, u"NC4as_T4_v3"_s, u"t4"_s, 1, 0.526),
            makeOffer(u"aws"_s, u"mystery"_s, QString(), 1, 0.5)};
}

ProjectionRequest request()
{
    ProjectionRequest r;
    r.workload = *findWorkload(builtinWorkloads(), u"resnet50");
    r.options.now = QDateTime(QDate(2026, 11, 1), QTime(0, 0), QTimeZone::utc());
    r.options.parallel = false;
    r.calibration = defaultCalibration();
    r.jobId = 7;
    return r;
}

/// The same points (ProjectedOffer has no operator==): the fields the front ends show.
bool samePoints(const QList<ProjectedOffer> &a, const QList<ProjectedOffer> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const ProjectedOffer &x = a.at(i), &y = b.at(i);
        if (x.offerIndex != y.offerIndex || x.mode != y.mode || x.nodes != y.nodes || x.flags != y.flags ||
            x.costUsd != y.costUsd || x.totalHours != y.totalHours || x.onFrontier != y.onFrontier ||
            x.feasible != y.feasible || x.recommended != y.recommended || x.projected != y.projected)
            return false;
    }
    return true;
}

} // namespace

class TestCatalogProjection final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void countsAreThoseOfThePoints()
    {
        const ProjectionResults r = projectCatalog(catalog(), request());
        QCOMPARE(r.jobId, quint64(7));
        QCOMPARE(r.offers.size(), catalog().size());
        QVERIFY(samePoints(r.points, projectOffers(catalog(), r.workload, r.options, r.calibration)));
        qsizetype projected = 0, frontier = 0, feasible = 0;
        for (const ProjectedOffer &p : r.points) {
            projected += p.projected;
            frontier += p.onFrontier;
            feasible += p.feasible;
        }
        QVERIFY(projected > 0 && frontier > 0);
        QCOMPARE(r.projectedCount, projected);
        QCOMPARE(r.frontierCount, frontier);
        QCOMPARE(r.feasibleCount, feasible);
        QCOMPARE(r.recommended, recommendedIndex(r.points));
        QVERIFY(!r.gpuSpeeds.isEmpty());
    }

    void filterKeepsCatalogRows()
    {
        ProjectionRequest req = request();
        req.filter.providers = {u"aws"_s};
        const ProjectionResults r = projectCatalog(catalog(), req);
        QCOMPARE(r.offers.size(), 3);
        QCOMPARE(r.catalogIndex, (QList<qsizetype>{0, 2, 4}));
        QCOMPARE(r.catalogSize(), catalog().size());
        // Rows the filter dropped have no point; the others their cheapest eligible single-instance one.
        QCOMPARE(r.pointForRow(1), qsizetype(-1));
        QCOMPARE(r.pointForRow(3), qsizetype(-1));
        QCOMPARE(r.pointForRow(-1), qsizetype(-1));
        QCOMPARE(r.pointForRow(99), qsizetype(-1));
        const qsizetype g5 = r.pointForRow(2);
        QVERIFY(g5 >= 0);
        QCOMPARE(r.catalogRowOf(g5), qsizetype(2));
        QCOMPARE(r.points.at(g5).nodes, quint8(1));
        const qsizetype spot = r.spotPointForRow(2);
        QVERIFY(spot >= 0);
        QCOMPARE(r.points.at(spot).mode, PriceMode::Spot);
        QCOMPARE(r.spotPointForRow(4), qsizetype(-1)); // no spot price
        bool anyOnFrontier = false;
        for (qsizetype row = 0; row < r.catalogSize(); ++row)
            anyOnFrontier = anyOnFrontier || r.onFrontierAtRow(row);
        QVERIFY(anyOnFrontier);
        QVERIFY(!r.onFrontierAtRow(1));
    }

    void requestMeasurementsAreUsed()
    {
        ProjectionRequest req = request();
        ThroughputMeasurement m;
        m.kind = MeasurementKind::User;
        m.workloadId = u"resnet50"_s;
        m.gpuId = u"a10g"_s;
        m.samplesPerSPerGpu = 123;
        m.precision = u"fp16"_s;
        m.measuredAt = QDateTime(QDate(2026, 10, 1), QTime(0, 0), QTimeZone::utc());
        // Measurements in the options are replaced by the request's: the request is their one place.
        req.options.measurements = {m};
        const ProjectionResults without = projectCatalog(catalog(), req);
        QVERIFY(without.options.measurements.isEmpty());
        req.measurements = {m};
        const ProjectionResults with = projectCatalog(catalog(), req);
        QCOMPARE(with.options.measurements.size(), 1);
        const ProjectedOffer &g5 = with.points.at(with.pointForRow(2));
        QVERIFY(hasFlag(g5.flags, ProjectionFlag::Measured));
        QVERIFY(!hasFlag(without.points.at(without.pointForRow(2)).flags, ProjectionFlag::Measured));

        // requestOf gives the request back: the same projection again.
        const ProjectionResults again = projectCatalog(catalog(), requestOf(with));
        QVERIFY(samePoints(again.points, with.points));
        QCOMPARE(again.jobId, with.jobId);
    }

    void shellWords()
    {
        QCOMPARE(shellWord(u"resnet50"), u"resnet50"_s);
        QCOMPARE(shellWord(u"aws,gcp"), u"aws,gcp"_s);
        QCOMPARE(shellWord(u""), u"''"_s);
        QCOMPARE(shellWord(u"a b"), u"'a b'"_s);
        QCOMPARE(shellWord(u"it's"), u"'it'\\''s'"_s);
        QCOMPARE(shellQuoted(u"plain"), u"'plain'"_s);
        QCOMPARE(shellQuoted(u"$(rm -rf /)"), u"'$(rm -rf /)'"_s);
    }
};

QTEST_GUILESS_MAIN(TestCatalogProjection)
#include "test_catalogprojection.moc"
