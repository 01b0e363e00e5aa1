// Issue 13 item 6: the recommendation on the bundled snapshot is an offer a practitioner can rent and
// trust, for every preset and for deadline/budget combinations; and models/projection/PROJECTION.md's
// "Recommendations on the bundled snapshot" table is exactly what the code recommends (regenerate it
// with GF_UPDATE_RECOMMENDATIONS=1 build/dev/tests/unit_recommendation).
#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "projection/frontier.h"
#include "projection/offerprojection.h"
#include "refresh/bundledsnapshot.h"
#include "testsupport.h"
#include "util/format.h"

#include <QFile>
#include <QTest>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

struct Case
{
    QString name;
    QString workload;
    std::optional<double> deadline;
    std::optional<double> budget;
};

QList<Case> cases()
{
    QList<Case> out;
    for (const Workload &w : builtinWorkloads())
        out.append({w.id, w.id, std::nullopt, std::nullopt});
    out.append({u"resnet50, deadline 3 h, budget 10 USD"_s, u"resnet50"_s, 3.0, 10.0});
    out.append({u"bert-large-squad, budget 1 USD"_s, u"bert-large-squad"_s, std::nullopt, 1.0});
    out.append({u"llm7b-lora, deadline 30 min"_s, u"llm7b-lora"_s, 0.5, std::nullopt});
    return out;
}

const QList<Offer> &bundled()
{
    static const QList<Offer> offers = [] {
        TempDb db;
        auto store = db.open();
        if (!importBundledIfEmpty(*store, GpuCatalog::builtin()))
            qFatal("bundled import failed");
        return store->currentOffers().value();
    }();
    return offers;
}

ProjectionOptions optionsFor(const Case &c, bool includeSuspect = false)
{
    ProjectionOptions o; // the GUI's and the CLI's defaults: both prices, weight 0.5, 10 min boot
    o.deadlineHours = c.deadline;
    o.budgetUsd = c.budget;
    o.now = QDateTime(QDate(2025, 8, 2), QTime(0, 0), QTimeZone::utc());
    o.includeSuspect = includeSuspect;
    return o;
}

QString pricing(const Offer &o, const ProjectedOffer &p)
{
    return p.mode == PriceMode::Spot ? (o.spotLabel.isEmpty() ? u"spot"_s : o.spotLabel) : u"on-demand"_s;
}

QString title(const Offer &o, const ProjectedOffer &p)
{
    const GpuModel *m = GpuCatalog::builtin().model(o.gpuId);
    return u"%1 %2 (%3), %4 x %5, %6"_s.arg(providerDisplayName(o.provider), o.instanceType, locationText(o),
                                            formatNumber(o.gpuCount), m ? m->name : o.gpuRawName,
                                            pricing(o, p));
}

/// The recommendation score of frontier.h recommendPoint, for every feasible frontier point.
QList<std::pair<qsizetype, double>> ranked(const QList<ProjectedOffer> &pts, double weight)
{
    QList<qsizetype> feasible;
    double tMin = 1e300, tMax = -1e300, cMin = 1e300, cMax = -1e300;
    for (qsizetype i = 0; i < pts.size(); ++i) {
        const ProjectedOffer &p = pts.at(i);
        if (!p.onFrontier || !p.feasible)
            continue;
        feasible.append(i);
        tMin = std::min(tMin, p.totalHours);
        tMax = std::max(tMax, p.totalHours);
        cMin = std::min(cMin, p.costUsd);
        cMax = std::max(cMax, p.costUsd);
    }
    QList<std::pair<qsizetype, double>> out;
    for (qsizetype i : feasible) {
        const ProjectedOffer &p = pts.at(i);
        const double nt = tMax > tMin ? (p.totalHours - tMin) / (tMax - tMin) : 0.0;
        const double nc = cMax > cMin ? (p.costUsd - cMin) / (cMax - cMin) : 0.0;
        out.append({i, weight * nt + (1 - weight) * nc});
    }
    std::stable_sort(out.begin(), out.end(), [&](const auto &a, const auto &b) {
        if (a.second != b.second)
            return a.second < b.second;
        return fasterThan(pts.at(a.first), pts.at(b.first));
    });
    return out;
}

QString money(double usd)
{
    return formatUsd(usd);
}

/// "0.31 h slower, 2.40 USD cheaper" relative to the pick.
QString versus(const ProjectedOffer &p, const ProjectedOffer &pick)
{
    const double dt = p.totalHours - pick.totalHours;
    const double dc = p.costUsd - pick.costUsd;
    QStringList parts;
    if (std::abs(dt) >= 1.0 / 120)
        parts.append(u"%1 %2"_s.arg(formatHours(std::abs(dt)), dt > 0 ? u"slower"_s : u"faster"_s));
    else
        parts.append(u"same time"_s);
    if (std::abs(dc) >= 0.005)
        parts.append(u"%1 USD %2"_s.arg(money(std::abs(dc)), dc > 0 ? u"dearer"_s : u"cheaper"_s));
    else
        parts.append(u"same cost"_s);
    return parts.join(u", "_s);
}

/// The markdown of one case: the pick, the next three distinct offers by score, and what a suspect
/// price would have changed.
QString caseTable(const Case &c)
{
    const QList<Offer> &offers = bundled();
    const Workload &w = *findWorkload(builtinWorkloads(), c.workload);
    const ProjectionOptions opt = optionsFor(c);
    const QList<ProjectedOffer> pts = projectOffers(offers, w, opt, defaultCalibration());
    const QList<std::pair<qsizetype, double>> order = ranked(pts, opt.weight);
    QString s = u"**%1** (weight %2%3%4): "_s.arg(
        c.name, QString::number(opt.weight),
        c.deadline ? u", deadline "_s + formatHours(*c.deadline) : QString(),
        c.budget ? u", budget "_s + money(*c.budget) + u" USD"_s : QString());
    const qsizetype rec = recommendedIndex(pts);
    if (rec < 0)
        return s + u"no feasible offer.\n"_s;
    const ProjectedOffer &pick = pts.at(rec);
    qsizetype frontierFeasible = order.size();
    s += u"%1 feasible frontier points of %2 projected.\n\n"_s.arg(frontierFeasible)
             .arg(std::count_if(pts.cbegin(), pts.cend(),
                                [](const ProjectedOffer &p) { return p.projected; }));
    s += u"| rank | offer | USD/h | prices dated | time | cost (USD) | score | why |\n"
         "|---|---|---|---|---|---|---|---|\n"_s;
    QStringList seen;
    int shown = 0;
    for (const auto &[i, score] : order) {
        const ProjectedOffer &p = pts.at(i);
        const Offer &o = offers.at(p.offerIndex);
        const QString key = o.provider + o.instanceType + pricing(o, p) + QString::number(p.nodes);
        if (seen.contains(key))
            continue; // the same instance type in another zone at the same price
        seen.append(key);
        QString why;
        if (i == rec) {
            why = u"**recommended**: the lowest score = %1 x normalised time + %2 x normalised cost over the "
                  "feasible frontier; %3 %4/s"_s.arg(QString::number(opt.weight),
                                                     QString::number(1 - opt.weight),
                                                     QString::number(p.samplesPerS, 'f', 0), w.sampleUnit);
            if (p.mode == PriceMode::Spot)
                why += u", %1 expected interruptions (%2 overhead)"_s.arg(
                    QString::number(p.expectedInterruptions, 'f', 2), formatHours(p.interruptionHours));
            if (hasFlag(p.flags, ProjectionFlag::CpuBound))
                why += u", input pipeline caps it (cpu-bound)"_s;
        } else {
            why = versus(p, pick);
            if (p.mode == PriceMode::Spot)
                why += u"; %1 expected interruptions"_s.arg(QString::number(p.expectedInterruptions, 'f', 2));
        }
        s += u"| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 |\n"_s.arg(
            i == rec ? u"1"_s : QString::number(shown + 1), title(o, p), formatUsdPerHour(p.usdPerHour),
            o.effectivePriceDate().toString(Qt::ISODate), formatHours(p.totalHours), money(p.costUsd),
            QString::number(score, 'f', 3), why);
        if (++shown == 4)
            break;
    }
    // What the price-sanity rules kept out: the pick with suspect prices included, when it differs.
    const QList<ProjectedOffer> all = projectOffers(offers, w, optionsFor(c, true), defaultCalibration());
    const qsizetype recAll = recommendedIndex(all);
    if (recAll >= 0 && (all.at(recAll).offerIndex != pick.offerIndex || all.at(recAll).mode != pick.mode)) {
        const ProjectedOffer &p = all.at(recAll);
        const Offer &o = offers.at(p.offerIndex);
        s += u"\nWith suspect prices included the pick would be %1 at %2 USD/h (%3, %4 USD), flagged %5.\n"_s
                 .arg(title(o, p), formatUsdPerHour(p.usdPerHour), formatHours(p.totalHours),
                      money(p.costUsd), projectionFlagNames(p.flags & kSuspectFlags).join(u", "_s));
    }
    return s;
}

QString fullTable()
{
    QString s =
        u"Generated by tests/unit/test_recommendation.cpp from the bundled snapshot, the documented "
        "defaults (both prices, weight 0.5, 10 min boot, checkpoint 30 min, restore 10 min, suspect prices "
        "excluded) and datasheet-only calibration. Rank 2-4 are the next distinct offers by the same "
        "score; \"why\" compares them with the pick.\n\n"_s;
    for (const Case &c : cases())
        s += caseTable(c) + u'\n';
    return s;
}

const QString kBegin = u"<!-- recommendations:begin (generated: do not edit by hand) -->"_s;
const QString kEnd = u"<!-- recommendations:end -->"_s;

} // namespace

class TestRecommendation final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void picks_data()
    {
        QTest::addColumn<int>("index");
        const QList<Case> all = cases();
        for (qsizetype i = 0; i < all.size(); ++i)
            QTest::addRow("%s", qPrintable(all.at(i).name)) << int(i);
    }
    void picks()
    {
        QFETCH(int, index);
        const Case c = cases().at(index);
        const QList<Offer> &offers = bundled();
        const Workload &w = *findWorkload(builtinWorkloads(), c.workload);
        const QList<ProjectedOffer> pts = projectOffers(offers, w, optionsFor(c), defaultCalibration());
        const qsizetype rec = recommendedIndex(pts);
        QVERIFY2(rec >= 0, "nothing recommended");
        const ProjectedOffer &p = pts.at(rec);
        const Offer &o = offers.at(p.offerIndex);
        const QString what = title(o, p) + u" flags "_s + projectionFlagNames(p.flags).join(u',');
        // Rentable and trusted: no price-sanity flag on the point or on its option of the offer.
        QVERIFY2((p.flags & kSuspectFlags) == 0, qPrintable(what));
        const int suspectOption = p.mode == PriceMode::Spot ? kSuspectSpotFlags : kSuspectOnDemandFlags;
        QVERIFY2((o.flags & suspectOption) == 0, qPrintable(what));
        QVERIFY2(!hasFlag(o.flags, OfferFlag::Stale), qPrintable(what));
        QVERIFY2(o.recognised() && p.eligible() && p.feasible && p.onFrontier, qPrintable(what));
        QVERIFY2((p.flags & kBlockingFlags) == 0, qPrintable(what));
        // Not one of the artefacts.
        QVERIFY2(!(o.provider == u"vastai" && o.onDemandUsdH && *o.onDemandUsdH < 0.2), qPrintable(what));
        QVERIFY2(!(o.region == u"ap-southeast-3" && p.mode == PriceMode::Spot &&
                   o.instanceType.startsWith(u"p5"_s)),
                 qPrintable(what));
        if (c.deadline)
            QVERIFY(p.totalHours <= *c.deadline);
        if (c.budget)
            QVERIFY(p.costUsd <= *c.budget);
        // A spot pick carries a visible interruption risk in its time.
        if (p.mode == PriceMode::Spot)
            QVERIFY2(p.expectedInterruptions > 0 && p.interruptionHours > 0, qPrintable(what));
    }

    // Excluding suspect prices changes at least one pick on this snapshot (else the rule would be idle).
    void suspectPricesMatter()
    {
        int changed = 0;
        for (const Case &c : cases()) {
            const Workload &w = *findWorkload(builtinWorkloads(), c.workload);
            const auto a = projectOffers(bundled(), w, optionsFor(c), defaultCalibration());
            const auto b = projectOffers(bundled(), w, optionsFor(c, true), defaultCalibration());
            const qsizetype ra = recommendedIndex(a), rb = recommendedIndex(b);
            changed += ra >= 0 && rb >= 0 &&
                       (a.at(ra).offerIndex != b.at(rb).offerIndex || a.at(ra).mode != b.at(rb).mode);
        }
        QVERIFY(changed > 0);
    }

    void tableMatchesProjectionMd()
    {
        const QString path = QStringLiteral(GF_SOURCE_DIR "/models/projection/PROJECTION.md");
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString doc = QString::fromUtf8(f.readAll());
        f.close();
        const qsizetype b = doc.indexOf(kBegin);
        const qsizetype e = doc.indexOf(kEnd);
        QVERIFY2(b >= 0 && e > b, "PROJECTION.md lacks the recommendation markers");
        const QString generated = u"\n"_s + fullTable();
        const QString current = doc.mid(b + kBegin.size(), e - b - kBegin.size());
        if (current == generated)
            return;
        if (qEnvironmentVariableIsSet("GF_UPDATE_RECOMMENDATIONS")) {
            doc.replace(b + kBegin.size(), e - b - kBegin.size(), generated);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(doc.toUtf8());
            return;
        }
        qWarning().noquote() << generated;
        QFAIL("models/projection/PROJECTION.md differs from what the code recommends: rerun with "
              "GF_UPDATE_RECOMMENDATIONS=1");
    }
};

QTEST_GUILESS_MAIN(TestRecommendation)
#include "test_recommendation.moc"
