// The Answer (projection/answer.h): the recommended point, the cheapest and the fastest within limits, the
// recommended point's nearest rival and why it lost, and, when nothing fits, which limit to move by how
// much (each suggested move, applied, makes an offer fit).
#include "domain/workloadbuilder.h"
#include "projection/answer.h"
#include "projection/catalogprojection.h"
#include "projection/frontier.h"

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
            makeOffer(u"gcp"_s, u"a2-highgpu-4g"_s, u"a100-40gb-sxm4"_s, 4, 14.69, 4.4),
            makeOffer(u"aws"_s, u"g5.xlarge"_s, u"a10g"_s, 1, 1.006, 0.45),
            makeOffer(u"aws"_s, u"g6.xlarge"_s, u"l4"_s, 1, 0.805, 0.35),
            makeOffer(u"azure"_s, u"NC4as_T4_v3"_s, u"t4"_s, 1, 0.526),
            makeOffer(u"aws"_s, u"mystery"_s, QString(), 1, 0.5)};
}

ProjectionRequest request(std::optional<double> deadline = std::nullopt,
                          std::optional<double> budget = std::nullopt)
{
    ProjectionRequest r;
    r.workload = *findWorkload(builtinWorkloads(), u"resnet50");
    r.options.now = QDateTime(QDate(2026, 11, 1), QTime(0, 0), QTimeZone::utc());
    r.options.parallel = false;
    r.options.deadlineHours = deadline;
    r.options.budgetUsd = budget;
    r.calibration = defaultCalibration();
    return r;
}

QString title(const ProjectionResults &r, qsizetype i)
{
    const ProjectedOffer &p = r.points.at(i);
    return r.offers.at(p.offerIndex).instanceType +
           (p.mode == PriceMode::Spot ? u" spot"_s : u" on-demand"_s);
}

} // namespace

class TestAnswer final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void picksAreTheCheapestAndFastestFeasiblePoints()
    {
        for (const ProjectionRequest &req : {request(), request(10.0), request(std::nullopt, 30.0)}) {
            const ProjectionResults r = projectCatalog(catalog(), req);
            const Answer a = answerOf(r);
            QCOMPARE(a.recommended, r.recommended);
            QVERIFY(a.cheapest >= 0 && a.fastest >= 0);
            for (qsizetype i = 0; i < r.points.size(); ++i) {
                const ProjectedOffer &p = r.points.at(i);
                if (!p.feasible)
                    continue;
                QVERIFY(p.costUsd >= r.points.at(a.cheapest).costUsd);
                QVERIFY(p.totalHours >= r.points.at(a.fastest).totalHours);
            }
            QVERIFY(r.points.at(a.cheapest).feasible);
            QVERIFY(r.points.at(a.fastest).feasible);
            QVERIFY(a.moves.isEmpty());
            QVERIFY(a.none.facts.isEmpty());
        }
    }

    void picksAmongCandidatesOnly()
    {
        const ProjectionResults r = projectCatalog(catalog(), request());
        const PicksWithinLimits all = picksWithinLimits(r.points);
        QList<qsizetype> others;
        for (qsizetype i = 0; i < r.points.size(); ++i)
            if (i != all.cheapest)
                others.append(i);
        const PicksWithinLimits picks = picksWithinLimits(r.points, others);
        QVERIFY(picks.cheapest >= 0);
        QVERIFY(picks.cheapest != all.cheapest);
        QVERIFY(r.points.at(picks.cheapest).costUsd >= r.points.at(all.cheapest).costUsd);
        QCOMPARE(picksWithinLimits(r.points, {}).cheapest, qsizetype(-1));
    }

    void rivalIsTheNextBestFrontierPoint()
    {
        const ProjectionResults r = projectCatalog(catalog(), request());
        const Answer a = answerOf(r);
        QVERIFY(a.recommended >= 0);
        QVERIFY(a.rival >= 0);
        QVERIFY(a.rival != a.recommended);
        const ProjectedOffer &rival = r.points.at(a.rival);
        QVERIFY(rival.onFrontier && rival.feasible);
        double tMin = 1e300, cMin = 1e300;
        for (const ProjectedOffer &p : r.points)
            if (p.onFrontier && p.feasible) {
                tMin = std::min(tMin, p.totalHours);
                cMin = std::min(cMin, p.costUsd);
            }
        const auto score = [&](qsizetype i) {
            return recommendationScore({r.points.at(i).totalHours, r.points.at(i).costUsd}, tMin, cMin,
                                       r.options.weight);
        };
        QVERIFY(score(a.rival) >= score(a.recommended));
        for (qsizetype i = 0; i < r.points.size(); ++i)
            if (i != a.recommended && r.points.at(i).onFrontier && r.points.at(i).feasible)
                QVERIFY2(score(i) >= score(a.rival), qPrintable(title(r, i)));

        const QString why = answerWhyText(r, a, [&r](qsizetype i) { return title(r, i); });
        QVERIFY2(why.startsWith(title(r, a.rival)), qPrintable(why));
        const bool faster = rival.totalHours < r.points.at(a.recommended).totalHours;
        QVERIFY2(why.contains(faster ? u"would finish sooner"_s : u"would cost less"_s), qPrintable(why));
        QVERIFY2(why.contains(u"time and cost weighed equally"_s), qPrintable(why));
    }

    void aLoneFrontierPointHasNoRival()
    {
        const ProjectionResults r =
            projectCatalog({makeOffer(u"azure"_s, u"NC4as_T4_v3"_s, u"t4"_s, 1, 0.526)}, request());
        const Answer a = answerOf(r);
        QVERIFY(a.recommended >= 0);
        QCOMPARE(a.rival, qsizetype(-1));
        QVERIFY(answerWhyText(r, a, [](qsizetype) { return QString(); }).isEmpty());
    }

    void aTightDeadlineSaysHowFarToMoveIt()
    {
        const ProjectionResults free = projectCatalog(catalog(), request());
        const double fastest = free.points.at(answerOf(free).fastest).totalHours;
        const double deadline = fastest * 0.5;
        const ProjectionResults r = projectCatalog(catalog(), request(deadline));
        const Answer a = answerOf(r);
        QCOMPARE(a.recommended, qsizetype(-1));
        QVERIFY(!a.none.facts.isEmpty());
        QCOMPARE(a.moves.size(), 1);
        QVERIFY(a.moves.at(0).deadlineHours);
        QVERIFY(!a.moves.at(0).budgetUsd);
        // Rounded up to a tenth of an hour: a value the user can type, which the offer still fits.
        QVERIFY(*a.moves.at(0).deadlineHours >= fastest);
        QVERIFY(*a.moves.at(0).deadlineHours < fastest + kLimitHoursStep + 1e-9);
        QVERIFY(std::abs(*a.moves.at(0).deadlineHours * 10 - std::round(*a.moves.at(0).deadlineHours * 10)) <
                1e-6);
        const QStringList texts = limitMoveTexts(r, a, [&r](qsizetype i) { return title(r, i); });
        QCOMPARE(texts.size(), 1);
        QVERIFY2(texts.at(0).startsWith(u"raise the deadline from "_s), qPrintable(texts.at(0)));
        QVERIFY2(texts.at(0).contains(title(r, a.moves.at(0).point)), qPrintable(texts.at(0)));
        // Moved as suggested, an offer fits.
        const ProjectionResults moved = projectCatalog(catalog(), request(*a.moves.at(0).deadlineHours));
        QVERIFY(moved.recommended >= 0);
    }

    void aTightBudgetSaysHowFarToMoveIt()
    {
        const ProjectionResults free = projectCatalog(catalog(), request());
        const double cheapest = free.points.at(answerOf(free).cheapest).costUsd;
        const ProjectionResults r = projectCatalog(catalog(), request(std::nullopt, cheapest * 0.5));
        const Answer a = answerOf(r);
        QCOMPARE(a.recommended, qsizetype(-1));
        QCOMPARE(a.moves.size(), 1);
        QVERIFY(a.moves.at(0).budgetUsd && !a.moves.at(0).deadlineHours);
        QVERIFY(*a.moves.at(0).budgetUsd >= cheapest);
        QVERIFY(*a.moves.at(0).budgetUsd < cheapest + kLimitUsdStep + 1e-9);
        QVERIFY(std::abs(*a.moves.at(0).budgetUsd - std::round(*a.moves.at(0).budgetUsd)) < 1e-6);
        const QStringList texts = limitMoveTexts(r, a, [&r](qsizetype i) { return title(r, i); });
        QVERIFY2(texts.at(0).startsWith(u"raise the budget from "_s), qPrintable(texts.at(0)));
        QVERIFY(projectCatalog(catalog(), request(std::nullopt, *a.moves.at(0).budgetUsd)).recommended >= 0);
    }

    void bothLimitsTightMoveOneOrBoth()
    {
        const ProjectionResults free = projectCatalog(catalog(), request());
        const Answer fa = answerOf(free);
        const double fastest = free.points.at(fa.fastest).totalHours;
        const double cheapest = free.points.at(fa.cheapest).costUsd;
        // Half the fastest time and half the cheapest cost: neither limit alone can move far enough.
        const ProjectionResults r = projectCatalog(catalog(), request(fastest * 0.5, cheapest * 0.5));
        const Answer a = answerOf(r);
        QCOMPARE(a.recommended, qsizetype(-1));
        QCOMPARE(a.moves.size(), 1);
        const LimitMove &m = a.moves.at(0);
        QVERIFY(m.deadlineHours && m.budgetUsd);
        QVERIFY(projectCatalog(catalog(), request(*m.deadlineHours, *m.budgetUsd)).recommended >= 0);
        const QStringList texts = limitMoveTexts(r, a, [&r](qsizetype i) { return title(r, i); });
        QVERIFY2(texts.at(0).contains(u"deadline"_s) && texts.at(0).contains(u"budget"_s),
                 qPrintable(texts.at(0)));

        // A generous budget with a tight deadline: only the deadline has to move, within the budget.
        const ProjectionResults r2 = projectCatalog(catalog(), request(fastest * 0.5, 1e6));
        const Answer a2 = answerOf(r2);
        QCOMPARE(a2.moves.size(), 1);
        QVERIFY(a2.moves.at(0).deadlineHours && !a2.moves.at(0).budgetUsd);
    }

    void nothingToMoveWhenThereAreNoOffersOrNoLimits()
    {
        const ProjectionResults empty = projectCatalog({}, request(1.0, 1.0));
        const Answer a = answerOf(empty);
        QCOMPARE(a.recommended, qsizetype(-1));
        QVERIFY(a.moves.isEmpty());
        QCOMPARE(a.none.facts, u"no offer matches the filters"_s);
        QCOMPARE(a.cheapest, qsizetype(-1));
        QCOMPARE(a.fastest, qsizetype(-1));
    }

    // An unmeasured custom workload of a class with a reference preset (PROJECTION.md 3.18, rule I) rests on
    // that preset's projections, and the evidence line says so; one of unknown class rests on the datasheet
    // model.
    void aShapedCustomWorkloadNamesItsReference()
    {
        for (const WorkloadClass c : {WorkloadClass::Convolutional, WorkloadClass::Unknown}) {
            WorkloadSpec s;
            s.name = u"mine"_s;
            s.overrides.samplesPerEpoch = 1e6;
            s.overrides.flopsPerSample = 6.9e10;
            s.overrides.workloadClass = c;
            ProjectionRequest req = request();
            req.workload = buildWorkloadSpec(s).value();
            const ProjectionResults r = projectCatalog(catalog(), req);
            const Answer a = answerOf(r);
            QVERIFY(a.recommended >= 0);
            const AnswerPointText t = describeAnswerPoint(r, a.recommended, usdCurrency());
            const bool shaped = c == WorkloadClass::Convolutional;
            QVERIFY2(t.evidence.contains(u"the resnet50 preset's speeds scaled to this workload's FLOPs") ==
                         shaped,
                     qPrintable(t.evidence));
            QVERIFY2(t.evidence.contains(u"the datasheet model only") == !shaped, qPrintable(t.evidence));
        }
    }

    // Rule AG (PROJECTION.md 3.31): an AMD GPU's point is scaled by its own MLPerf figures' level, and its
    // evidence line says by how much; an NVIDIA GPU's line does not.
    void anAmdGpusEvidenceNamesItsLevel()
    {
        const QList<Offer> offers{makeOffer(u"runpod"_s, u"1x_MI300X"_s, u"mi300x"_s, 1, 2.49),
                                  makeOffer(u"runpod"_s, u"1x_H100"_s, u"h100-80gb-sxm"_s, 1, 2.69)};
        ProjectionRequest req = request();
        req.workload = *findWorkload(builtinWorkloads(), u"bert-large-squad");
        const ProjectionResults r = projectCatalog(offers, req);
        int seen = 0;
        for (qsizetype i = 0; i < r.points.size(); ++i) {
            const AnswerPointText t = describeAnswerPoint(r, i, usdCurrency());
            const bool amd = r.offers.at(r.points.at(i).offerIndex).gpuId == u"mi300x";
            QVERIFY2(t.evidence.contains(u"by this GPU's own MLPerf Training figures (rule AG)"_s) == amd,
                     qPrintable(t.evidence));
            QVERIFY2(!amd || t.evidence.contains(u"scaled x0.67"_s), qPrintable(t.evidence));
            seen += amd ? 1 : 0;
        }
        QVERIFY(seen >= 1);
    }

    void textsInAnotherCurrency()
    {
        const ProjectionResults r = projectCatalog(catalog(), request());
        const Answer a = answerOf(r);
        const Currency eur = *CurrencyTable::shipped().find(u"EUR"_s);
        const AnswerPointText t = describeAnswerPoint(r, a.recommended, eur);
        const ProjectedOffer &p = r.points.at(a.recommended);
        QCOMPARE(t.figures.section(u" · "_s, 1), formatMoneyWithUnit(p.costUsd, eur));
        QVERIFY2(t.gpu.contains(u"EUR/h"_s) && t.gpu.contains(u"EUR/GPU-h"_s), qPrintable(t.gpu));
        QVERIFY2(t.likely.endsWith(formatMoneyWithUnit(p.costUsdHigh, eur)), qPrintable(t.likely));
        // The explanation of every number states the price and the cost in EUR too.
        const QString explained = t.explanation.join(u'\n');
        QVERIFY2(explained.contains(u" EUR/h "_s) && !explained.contains(u"USD/h"_s), qPrintable(explained));
        QVERIFY2(explained.contains(u"cost "_s + formatMoneyWithUnit(p.costUsd, eur)), qPrintable(explained));
        const QString why = answerWhyText(
            r, a, [](qsizetype) { return u"X"_s; }, eur);
        QVERIFY2(why.contains(u" EUR"_s) && !why.contains(u"USD"_s), qPrintable(why));
    }

    void shownLimitsFitThePoint()
    {
        // The shown deadline is rounded up: 8.234 h is shown as 8.24 h, not 8.23 h (which would not fit).
        const ProjectionResults free = projectCatalog(catalog(), request());
        const double fastest = free.points.at(answerOf(free).fastest).totalHours;
        const ProjectionResults r = projectCatalog(catalog(), request(fastest * 0.9));
        const Answer a = answerOf(r);
        const QString text = limitMoveTexts(r, a, [](qsizetype) { return u"X"_s; }).value(0);
        const QString shown = text.section(u" to "_s, 1).section(u':', 0, 0);
        QVERIFY2(!shown.isEmpty(), qPrintable(text));
        const double value = shown.section(u' ', 0, 0).toDouble();
        const QString unit = shown.section(u' ', 1, 1);
        const double hours = unit == u"min"_s ? value / 60.0 : unit == u"d"_s ? value * 24.0 : value;
        QVERIFY2(hours >= fastest, qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestAnswer)
#include "test_answer.moc"
