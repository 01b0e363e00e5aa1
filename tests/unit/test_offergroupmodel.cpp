#include "projection/catalogprojection.h"
#include "util/printable.h"
#include "viewmodels/offergroupmodel.h"
#include "viewmodels/offerorderproxy.h"
#include "viewmodels/offertablemodel.h"
#include "viewmodels/pointgroupmodel.h"
#include "viewmodels/pointtablemodel.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

using namespace gf;

namespace {
Offer offer(const QString &provider, const QString &type, const QString &region, const QString &zone,
            std::optional<double> od, std::optional<double> spot, double gpus = 1)
{
    Offer o;
    o.provider = provider;
    o.instanceType = type;
    o.gpuId = QStringLiteral("a100-40gb-sxm4");
    o.gpuRawName = QStringLiteral("A100");
    o.gpuCount = gpus;
    o.gpuMemGb = 40;
    o.onDemandUsdH = od;
    o.spotUsdH = spot;
    o.region = region;
    o.zone = zone;
    o.dataDate = QDate(2026, 11, 1);
    return o;
}

// Two GCP a2 offers in zones, three AWS p4d offers in regions, one single Azure offer.
QList<Offer> sample()
{
    return {
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("us-east-1"), {}, 32.77,
              12.0, 8),
        offer(QStringLiteral("gcp"), QStringLiteral("a2-highgpu-1g"), QStringLiteral("us-central1"),
              QStringLiteral("us-central1-a"), 3.67, 1.1),
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("eu-west-1"), {}, 35.00,
              10.5, 8),
        offer(QStringLiteral("azure"), QStringLiteral("Standard_ND96"), QStringLiteral("eastus"), {}, 27.2,
              {}, 8),
        offer(QStringLiteral("gcp"), QStringLiteral("a2-highgpu-1g"), QStringLiteral("europe-west4"),
              QStringLiteral("europe-west4-a"), 3.30, std::nullopt),
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("us-west-2"), {}, 32.77,
              14.0, 8),
    };
}

// Offers whose provider texts look like markup and carry terminal/bidi controls.
QList<Offer> hostileSample()
{
    const QString type = QStringLiteral("<b>p4d</b>\x1b]0;pwned\x07");
    return {
        offer(QStringLiteral("aws"), type, QStringLiteral("<img src=x>us-east-1\u202e"),
              QStringLiteral("use1-az6\n<a href='http://x'>z</a>"), 32.77, 12.0, 8),
        offer(QStringLiteral("aws"), type, QStringLiteral("<i>eu-west-1</i>\x1b[31m"),
              QStringLiteral("euw1-az1\u2066"), 35.00, 10.5, 8),
    };
}

// A tooltip that shows the provider's text escaped (rich text) or as plain text that cannot be read as
// markup, with no control character but line breaks.
void checkPlainTooltip(const QString &tip, const char *where)
{
    const QString what = QString::fromLatin1(where) + QStringLiteral(": ") + tip;
    QVERIFY2(!tip.isEmpty(), qPrintable(what));
    for (const char *markup : {"<img", "<b>p4d", "<a href", "<i>eu-west"})
        QVERIFY2(!tip.contains(QLatin1String(markup)), qPrintable(what));
    for (const QChar c : tip)
        QVERIFY2(c == u'\n' || !isUnprintableChar(c.unicode()), qPrintable(what));
}

int topRowOf(const QAbstractItemModel &m, const QString &instance)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, OfferTableModel::Instance).data().toString() == instance)
            return r;
    return -1;
}

// The projection of these offers for the first built-in workload, at 2026-11-02 12:00 UTC (kProjectedAt).
const QDateTime kProjectedAt(QDate(2026, 11, 2), QTime(12, 0), Qt::UTC);
ProjectionResultsPtr projectionOf(const QList<Offer> &offers)
{
    ProjectionRequest request;
    request.workload = builtinWorkloads().first();
    request.calibration = defaultCalibration();
    request.options.now = kProjectedAt;
    return std::make_shared<const ProjectionResults>(projectCatalog(offers, request));
}

// sample() and `count` vast.ai/RunPod offers with ties in both prices: every fourth is RunPod's, offer-K
// repeats every `distinct` offers (groups of two or more), one or two GPUs, some without a spot price.
QList<Offer> tiedSample(int count, int distinct)
{
    QList<Offer> list = sample();
    for (int i = 0; i < count; ++i)
        list.append(offer(i % 4 ? QStringLiteral("vastai") : QStringLiteral("runpod"),
                          QStringLiteral("offer-%1").arg(i % distinct), QStringLiteral("region-%1").arg(i),
                          {}, 1.0 + i % 7, i % 3 ? std::optional<double>(0.5 + i % 5) : std::nullopt,
                          1 + i % 2));
    return list;
}

// sample() and `count` vast.ai/Lambda offers with ties in every column: every fifth is Lambda's, offer-K
// repeats every `distinct` offers, `regions` regions, every fourth with a zone, some without a spot price.
QList<Offer> zonedSample(int count, int distinct, int regions)
{
    QList<Offer> list = sample();
    for (int i = 0; i < count; ++i)
        list.append(offer(i % 5 ? QStringLiteral("vastai") : QStringLiteral("lambda"),
                          QStringLiteral("offer-%1").arg(i % distinct),
                          QStringLiteral("region-%1").arg(i % regions),
                          i % 4 ? QString() : QStringLiteral("zone-%1").arg(i), 1.0 + i % 7,
                          i % 3 ? std::optional<double>(0.5 + i % 5) : std::nullopt, 1 + i % 2));
    return list;
}

// The same projection with every run cost mirrored, so that another member of each group is its best.
ProjectionResultsPtr withOtherBestMembers(const ProjectionResultsPtr &projected)
{
    auto edited = std::make_shared<ProjectionResults>(*projected);
    for (ProjectedOffer &p : edited->points)
        p.costUsd = p.costUsd > 0 ? 1000 - p.costUsd : p.costUsd;
    return edited;
}

// Every row the proxy shows, in order, children under their group: the catalog row it stands for and what
// every column shows.
QStringList dump(const QAbstractProxyModel &proxy, const GroupingModel &groups)
{
    QStringList out;
    auto line = [&](const QModelIndex &index, const QString &indent) {
        QString text = indent + QString::number(groups.sourceRow(proxy.mapToSource(index)));
        for (int c = 0; c < proxy.columnCount(); ++c)
            text += u'|' + proxy.index(index.row(), c, index.parent()).data().toString();
        out.append(text);
    };
    for (int r = 0; r < proxy.rowCount(); ++r) {
        const QModelIndex top = proxy.index(r, 0);
        line(top, QString());
        for (int c = 0; c < proxy.rowCount(top); ++c)
            line(proxy.index(c, 0, top), QStringLiteral("  "));
    }
    return out;
}

/// An order proxy working on its worker beside the same catalog ordered at once, by OfferOrderProxy and by
/// OfferFilterProxy (the reference); the worker's and the at-once offers may be one model.
struct WorkerBesideAtOnce
{
    WorkerBesideAtOnce(OfferTableModel *workerOffers, OfferTableModel *atOnceOffers)
        : tester(&worker, QAbstractItemModelTester::FailureReportingMode::QtTest)
    {
        groups.setOfferModel(workerOffers);
        worker.setSourceModel(&groups);
        atOnceGroups.setOfferModel(atOnceOffers);
        atOnce.setSourceModel(&atOnceGroups);
        reference.setSourceModel(&atOnceGroups);
    }
    void filterAtOnce(const OfferFilter &f)
    {
        atOnce.setFilter(f);
        reference.setFilter(f);
    }
    void setFilter(const OfferFilter &f)
    {
        worker.setFilter(f);
        filterAtOnce(f);
    }
    /// The two at once (the worker's sort is each test's own step).
    void sortAtOnce(int column, Qt::SortOrder order)
    {
        atOnce.sort(column, order);
        reference.sort(column, order);
    }
    void sortAll(int column, Qt::SortOrder order)
    {
        worker.sort(column, order);
        sortAtOnce(column, order);
    }
    bool showsAsAtOnce() const { return dump(worker, groups) == dump(atOnce, atOnceGroups); }
    bool showsAsReference() const { return dump(worker, groups) == dump(reference, atOnceGroups); }

    OfferGroupModel groups;
    OfferOrderProxy worker;
    QAbstractItemModelTester tester;
    OfferGroupModel atOnceGroups;
    OfferOrderProxy atOnce;
    OfferFilterProxy reference;
};
} // namespace

class TestOfferGroupModel final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void groupsPerInstanceType()
    {
        OfferTableModel offers;
        OfferGroupModel groups;
        QAbstractItemModelTester tester(&groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        groups.setOfferModel(&offers);
        offers.setOffers(sample());
        QCOMPARE(groups.rowCount(), 3); // p4d (3 regions), a2 (2 zones), the single Azure offer
        QCOMPARE(groups.columnCount(), int(OfferTableModel::ColumnCount));
        QCOMPARE(groups.acceptedCount(), 6);
        QCOMPARE(groups.acceptedGroupCount(), 3);

        const int p4d = topRowOf(groups, QStringLiteral("p4d.24xlarge"));
        const int a2 = topRowOf(groups, QStringLiteral("a2-highgpu-1g"));
        const int nd = topRowOf(groups, QStringLiteral("Standard_ND96"));
        QVERIFY(p4d >= 0 && a2 >= 0 && nd >= 0);
        const QModelIndex p4dRow = groups.index(p4d, 0);
        QVERIFY(groups.isGroupRow(p4dRow));
        QCOMPARE(groups.rowCount(p4dRow), 3);
        QCOMPARE(groups.index(p4d, 0).data(GroupingModel::GroupSizeRole).toInt(), 3);
        QCOMPARE(groups.index(p4d, OfferTableModel::Region).data().toString(),
                 QStringLiteral("in 3 regions"));
        QCOMPARE(groups.index(a2, OfferTableModel::Region).data().toString(), QStringLiteral("in 2 zones"));
        // The price range in the row, the lowest as its sort number.
        const QString range = groups.index(p4d, OfferTableModel::OnDemand).data().toString();
        QVERIFY2(range.contains(QStringLiteral("32.77")) && range.contains(QStringLiteral("35.00")),
                 qPrintable(range));
        QCOMPARE(groups.index(p4d, OfferTableModel::OnDemand).data(OfferTableModel::SortRole).toDouble(),
                 32.77);
        QCOMPARE(groups.index(p4d, OfferTableModel::Spot).data(OfferTableModel::SortRole).toDouble(), 10.5);
        QVERIFY(groups.index(p4d, OfferTableModel::OnDemand)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("eu-west-1")));
        // Without a projection the best member is the lowest price: a2 in europe-west4 (3.30).
        QCOMPARE(groups.sourceRow(groups.index(a2, 0)), 4);
        QCOMPARE(groups.index(a2, 0).data(OfferTableModel::OfferIndexRole),
                 offers.index(4, 0).data(OfferTableModel::OfferIndexRole));
        // A single offer is a plain row, no children.
        QVERIFY(!groups.isGroupRow(groups.index(nd, 0)));
        QCOMPARE(groups.rowCount(groups.index(nd, 0)), 0);
        QCOMPARE(groups.index(nd, OfferTableModel::Region).data(),
                 offers.index(3, OfferTableModel::Region).data());

        // Children show their own offers, in catalog order, and map back.
        for (int child = 0; child < 3; ++child) {
            const QModelIndex idx = groups.index(child, OfferTableModel::Region, p4dRow);
            const int source = groups.sourceRow(idx);
            QCOMPARE(idx.data(), offers.index(source, OfferTableModel::Region).data());
            QCOMPARE(groups.indexOfSourceRow(source, OfferTableModel::Region), idx);
        }
        QCOMPARE(groups.sourceRow(groups.index(0, 0, p4dRow)), 0);
        QCOMPARE(groups.sourceRow(groups.index(2, 0, p4dRow)), 5);
    }

    // An instance type offered with a spot price in some zones and without one in others is one group
    // (p5.48xlarge showed twice: the zones without a spot price have no spot label).
    void zonesWithoutSpotPriceJoinTheirGroup()
    {
        QList<Offer> list;
        for (const char *zone : {"use1-az1", "use1-az2", "use1-az4"}) {
            Offer o = offer(QStringLiteral("aws"), QStringLiteral("p5.48xlarge"), QStringLiteral("us-east-1"),
                            QString::fromLatin1(zone), 55.04, std::nullopt, 8);
            if (QByteArray(zone) != "use1-az4") {
                o.spotUsdH = 12.0;
                o.spotLabel = QStringLiteral("spot");
            }
            list.append(o);
        }
        OfferTableModel offers;
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        offers.setOffers(list);
        QCOMPARE(groups.rowCount(), 1);
        QCOMPARE(groups.rowCount(groups.index(0, 0)), 3);
        QCOMPARE(groups.index(0, OfferTableModel::Region).data().toString(), QStringLiteral("in 3 zones"));
    }

    void toggleToOneRowPerOffer()
    {
        OfferTableModel offers;
        offers.setOffers(sample());
        OfferGroupModel groups;
        QAbstractItemModelTester tester(&groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        groups.setOfferModel(&offers);
        groups.setGrouped(false);
        QCOMPARE(groups.rowCount(), 6);
        for (int r = 0; r < 6; ++r) {
            QCOMPARE(groups.sourceRow(groups.index(r, 0)), r);
            QVERIFY(!groups.hasChildren(groups.index(r, 0)));
            QCOMPARE(groups.index(r, OfferTableModel::OnDemand).data(),
                     offers.index(r, OfferTableModel::OnDemand).data());
        }
        groups.setGrouped(true);
        QCOMPARE(groups.rowCount(), 3);
        // A new catalog regroups; an empty one leaves no rows.
        offers.setOffers({});
        QCOMPARE(groups.rowCount(), 0);
        offers.setOffers(sample().mid(0, 3));
        QCOMPARE(groups.rowCount(), 2);
    }

    void filterThroughTheProxy()
    {
        OfferTableModel offers;
        offers.setOffers(sample());
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        OfferFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&groups);
        QCOMPARE(proxy.rowCount(), 3);

        // A region filter keeps only matching members, and the group row summarises just those.
        proxy.setRegion(QStringLiteral("us-"));
        QCOMPARE(groups.acceptedCount(), 3); // two p4d, one a2
        QCOMPARE(groups.acceptedGroupCount(), 2);
        QCOMPARE(proxy.rowCount(), 2);
        const int p4d = topRowOf(proxy, QStringLiteral("p4d.24xlarge"));
        QVERIFY(p4d >= 0);
        const QModelIndex p4dRow = proxy.index(p4d, 0);
        QCOMPARE(proxy.rowCount(p4dRow), 2);
        QCOMPARE(proxy.index(p4d, OfferTableModel::Region).data().toString(), QStringLiteral("in 2 regions"));
        QCOMPARE(proxy.index(p4d, OfferTableModel::OnDemand).data().toString(),
                 offers.index(0, OfferTableModel::OnDemand).data().toString()); // 32.77 in both: no range
        const int a2 = topRowOf(proxy, QStringLiteral("a2-highgpu-1g"));
        QCOMPARE(proxy.index(a2, OfferTableModel::Region).data().toString(), QStringLiteral("in 1 zone"));
        // The a2 row now shows its us-central1 offer (the other one is filtered out).
        QCOMPARE(groups.sourceRow(proxy.mapToSource(proxy.index(a2, 0))), 1);

        // Sorting orders group rows by their best numbers, children within their group.
        proxy.setRegion({});
        proxy.sort(OfferTableModel::OnDemand, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, OfferTableModel::Instance).data().toString(),
                 QStringLiteral("a2-highgpu-1g"));
        QCOMPARE(proxy.index(2, OfferTableModel::Instance).data().toString(), QStringLiteral("p4d.24xlarge"));
        const QModelIndex sortedP4d = proxy.index(2, 0);
        double last = 0;
        for (int c = 0; c < proxy.rowCount(sortedP4d); ++c) {
            const double v = proxy.index(c, OfferTableModel::OnDemand, sortedP4d)
                                 .data(OfferTableModel::SortRole)
                                 .toDouble();
            QVERIFY(v >= last);
            last = v;
        }
        proxy.sort(OfferTableModel::OnDemand, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, OfferTableModel::Instance).data().toString(), QStringLiteral("p4d.24xlarge"));
        QCOMPARE(proxy.index(1, OfferTableModel::Instance).data().toString(),
                 QStringLiteral("Standard_ND96"));

        // Filtering out everything leaves no rows.
        proxy.setGpu(QStringLiteral("no-such-gpu"));
        QCOMPARE(proxy.rowCount(), 0);
        QCOMPARE(groups.acceptedCount(), 0);
    }

    /// Group rows write their own tooltips from provider text (instance type, region, zone):
    /// those go through OfferTableModel::plainToolTip like the offer rows' tooltips.
    void groupTooltipsArePlainText()
    {
        OfferTableModel offers;
        offers.setOffers(hostileSample());
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        QCOMPARE(groups.rowCount(), 1);
        QVERIFY(groups.isGroupRow(groups.index(0, 0)));
        for (const int column :
             {int(OfferTableModel::Provider), int(OfferTableModel::Instance), int(OfferTableModel::Region),
              int(OfferTableModel::OnDemand), int(OfferTableModel::Spot)})
            checkPlainTooltip(groups.index(0, column).data(Qt::ToolTipRole).toString(), "offer group");
        // The escaped text is still there to read.
        QVERIFY(groups.index(0, OfferTableModel::Region)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("&lt;img src=x&gt;us-east-1")));

        // The Frontier table's group rows: the places of every member in one tooltip.
        auto results = std::make_shared<ProjectionResults>();
        results->offers = hostileSample();
        for (qint32 i = 0; i < 2; ++i) {
            ProjectedOffer p;
            p.offerIndex = i;
            p.projected = true;
            p.onFrontier = true;
            p.usdPerHour = results->offers.at(i).onDemandUsdH.value_or(0);
            p.costUsd = p.usdPerHour;
            p.totalHours = 1;
            results->points.append(p);
        }
        PointTableModel points;
        points.setPoints(results, {0, 1});
        PointGroupModel pointGroups;
        pointGroups.setPointModel(&points);
        QCOMPARE(pointGroups.rowCount(), 1);
        QVERIFY(pointGroups.isGroupRow(pointGroups.index(0, 0)));
        const QString tip = pointGroups.index(0, PointTableModel::Region).data(Qt::ToolTipRole).toString();
        checkPlainTooltip(tip, "point group");
        QVERIFY2(tip.contains(QStringLiteral("&lt;i&gt;eu-west-1&lt;/i&gt;")), qPrintable(tip));
    }

    /// The Time column of the Frontier table is in hours for every row (regression: "33.2 d" beside
    /// "12.3 h" and "45 min" in one sortable column); the tooltip may say it in days.
    void timeColumnIsInHours()
    {
        auto results = std::make_shared<ProjectionResults>();
        results->offers = sample();
        const double hours[] = {0.75, 12.3, 796.0};
        for (qint32 i = 0; i < 3; ++i) {
            ProjectedOffer p;
            p.offerIndex = i;
            p.projected = true;
            p.usdPerHour = results->offers.at(i).onDemandUsdH.value_or(0);
            p.totalHours = hours[i];
            p.costUsd = p.usdPerHour * p.totalHours;
            results->points.append(p);
        }
        PointTableModel points;
        points.setPoints(results, {0, 1, 2});
        QCOMPARE(points.index(0, PointTableModel::Hours).data().toString(), QStringLiteral("0.75 h"));
        QCOMPARE(points.index(1, PointTableModel::Hours).data().toString(), QStringLiteral("12.3 h"));
        QCOMPARE(points.index(2, PointTableModel::Hours).data().toString(), QStringLiteral("796 h"));
    }

    /// A change of every row (a new projection) is one layout change: the proxy sorts again with the new
    /// values (its cached sort keys are dropped), expanded groups and persistent indexes hold.
    void wholeModelChangeResorts()
    {
        QList<Offer> list;
        for (int i = 0; i < 200; ++i)
            list.append(offer(QStringLiteral("vastai"), QStringLiteral("offer-%1").arg(i),
                              QStringLiteral("Texas, US"), {}, 1.0 + i, std::nullopt));
        list.append(sample());
        OfferTableModel offers;
        offers.setOffers(list);
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        OfferFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&groups);
        proxy.setDynamicSortFilter(true);
        proxy.sort(OfferTableModel::OnDemand, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, OfferTableModel::Instance).data().toString(), QStringLiteral("offer-0"));
        const QPersistentModelIndex p4d = proxy.index(topRowOf(proxy, QStringLiteral("p4d.24xlarge")), 0);
        QVERIFY(p4d.isValid());
        QSignalSpy layout(&groups, &QAbstractItemModel::layoutChanged);
        QSignalSpy data(&groups, &QAbstractItemModel::dataChanged);

        // Every price changes (reversed order): as the projection's columns do for every row at once.
        QList<Offer> changed = list;
        for (int i = 0; i < 200; ++i)
            changed[i].onDemandUsdH = 1000.0 - i;
        const quint64 before = groups.generation();
        offers.setOffers(changed); // a reset: regrouped
        QVERIFY(groups.generation() != before);
        proxy.sort(OfferTableModel::OnDemand, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, OfferTableModel::Instance).data().toString(),
                 QStringLiteral("a2-highgpu-1g"));

        // A dataChanged over all rows from the table model: one layout change, the new order.
        layout.clear();
        data.clear();
        Q_EMIT offers.dataChanged(offers.index(0, 0),
                                  offers.index(offers.rowCount() - 1, OfferTableModel::ColumnCount - 1));
        QCOMPARE(layout.size(), 1);
        QCOMPARE(data.size(), 0);
        double last = 0;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const double v =
                proxy.index(r, OfferTableModel::OnDemand).data(OfferTableModel::SortRole).toDouble();
            QVERIFY2(v >= last, qPrintable(QStringLiteral("row %1").arg(r)));
            last = v;
        }
        // A few rows: dataChanged for their rows only, no layout change.
        layout.clear();
        data.clear();
        Q_EMIT offers.dataChanged(offers.index(3, 0), offers.index(4, OfferTableModel::ColumnCount - 1));
        QCOMPARE(layout.size(), 0);
        QVERIFY(data.size() >= 2);
    }

    /// A new projection sorted by a column it cannot change (the prices, the default On-demand): no layout
    /// change (the proxy keeps its mapping and order instead of mapping and sorting every row again), and
    /// the rows, their order and what they show are those of a proxy sorted afresh; by a projected column
    /// or one that follows the representative: a layout change and the fresh order. Ties and groups.
    void projectionKeepsTheOrderOfAnUnprojectedColumn()
    {
        QList<Offer> list = sample();
        for (int i = 0; i < 120; ++i) // ties in both prices; offer-0 .. offer-29 are groups of two
            list.append(offer(QStringLiteral("vastai"), QStringLiteral("offer-%1").arg(i % 90),
                              QStringLiteral("region-%1").arg(i), {}, 1.0 + i % 7,
                              i % 3 ? std::optional<double>(0.5 + i % 5) : std::nullopt, 1 + i % 2));
        ProjectionRequest request;
        request.workload = builtinWorkloads().first();
        request.calibration = defaultCalibration();
        request.options.now = QDateTime(QDate(2026, 11, 2), QTime(12, 0), Qt::UTC);
        const auto first = std::make_shared<const ProjectionResults>(projectCatalog(list, request));

        OfferTableModel offers;
        offers.setOffers(list, request.options.now);
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        OfferFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&groups);
        QSignalSpy layout(&groups, &QAbstractItemModel::layoutChanged);
        auto freshDump = [&] {
            OfferFilterProxy fresh;
            fresh.setSourceModel(&groups);
            fresh.sort(proxy.sortColumn(), proxy.sortOrder());
            return dump(fresh, groups);
        };

        // The second projection: the p4d group's best member (its representative) becomes another one.
        offers.setProjection(first);
        const int p4d = groups.groupOfSourceRow(0);
        QCOMPARE(groups.groupSize(p4d), 3);
        const int firstRep = groups.representative(p4d);
        auto edited = std::make_shared<ProjectionResults>(*first);
        for (const int row : groups.members(p4d)) {
            const qsizetype point = edited->pointForRow(row);
            QVERIFY(point >= 0);
            QVERIFY(edited->points.at(point).eligible());
            edited->points[point].costUsd = row == firstRep ? 1e6 : edited->points.at(point).costUsd;
        }
        const ProjectionResultsPtr second = edited;

        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            for (const int column : {int(OfferTableModel::OnDemand), int(OfferTableModel::Spot),
                                     int(OfferTableModel::Instance)}) {
                offers.setProjection({});
                proxy.sort(column, order);
                QCOMPARE(groups.orderColumn(), column);
                for (const ProjectionResultsPtr &r : {first, second, first}) {
                    layout.clear();
                    offers.setProjection(r);
                    QCOMPARE(layout.size(), 0);
                    QCOMPARE(dump(proxy, groups), freshDump());
                }
                QCOMPARE(groups.representative(p4d), firstRep);
                offers.setProjection(second);
                QVERIFY(groups.representative(p4d) != firstRep);
                QCOMPARE(dump(proxy, groups), freshDump());
            }
            // Filtered: the same, over the accepted rows.
            OfferFilter f;
            f.minGpus = 2;
            proxy.setFilter(f);
            proxy.sort(OfferTableModel::OnDemand, order);
            layout.clear();
            offers.setProjection(first);
            QCOMPARE(layout.size(), 0);
            QCOMPARE(dump(proxy, groups), freshDump());
            proxy.setFilter({});

            // Sorted by a projected column, or one that is the representative's: one layout change.
            for (const int column : {int(OfferTableModel::Cost), int(OfferTableModel::Region)}) {
                proxy.sort(column, order);
                for (const ProjectionResultsPtr &r : {second, first}) {
                    layout.clear();
                    offers.setProjection(r);
                    QCOMPARE(layout.size(), 1);
                    QCOMPARE(dump(proxy, groups), freshDump());
                }
            }
        }
    }

    /// A filter matched on a worker and shown by OfferOrderProxy shows exactly what the same filter applied
    /// at once shows through OfferFilterProxy (a QSortFilterProxyModel): rows, their order, every column,
    /// children, counts, whatever the sort; of filters set in a row only the newest is applied, never an
    /// older one after it; a projection or a new catalog arriving meanwhile is taken into account.
    void filterOnWorkerEqualsFilterAtOnce()
    {
        QList<Offer> list = tiedSample(120, 90); // offer-0 .. offer-29 are groups of two
        const ProjectionResultsPtr first = projectionOf(list);
        const ProjectionResultsPtr second = withOtherBestMembers(first);

        OfferTableModel offers;
        offers.setOffers(list, kProjectedAt);
        offers.setProjection(first);
        OfferGroupModel groups; // filtered on a worker, shown by the Offers table's proxy
        groups.setOfferModel(&offers);
        OfferOrderProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&groups);
        OfferGroupModel atOnce; // the same filter applied at once, shown by a QSortFilterProxyModel
        atOnce.setOfferModel(&offers);
        OfferFilterProxy reference;
        reference.setSourceModel(&atOnce);
        QSignalSpy applied(&groups, &OfferGroupModel::filterApplied);

        QList<OfferFilter> filters(7);
        filters[1].text = QStringLiteral("offer-1");
        filters[2].minGpus = 2;
        filters[3].spotOnly = true;
        filters[4].providers = {QStringLiteral("aws"), QStringLiteral("runpod")};
        filters[5].text = QStringLiteral("region-1");
        filters[5].maxPriceUsdH = 4;
        filters[6].text = QStringLiteral("no such offer");
        const auto same = [&](const OfferFilter &f, const char *where) {
            const auto equal = [](const OfferFilter &a, const OfferFilter &b) {
                return a.providers == b.providers && a.gpu == b.gpu && a.minGpus == b.minGpus &&
                       a.minGpuMemGb == b.minGpuMemGb && a.maxPriceUsdH == b.maxPriceUsdH &&
                       a.spotOnly == b.spotOnly && a.region == b.region && a.text == b.text;
            };
            QVERIFY2(equal(groups.filter(), f) && equal(proxy.filter(), f), where);
            QCOMPARE(groups.acceptedCount(), atOnce.acceptedCount());
            QCOMPARE(groups.acceptedGroupCount(), atOnce.acceptedGroupCount());
            QCOMPARE(proxy.rowCount(), atOnce.acceptedGroupCount());
            QCOMPARE(dump(proxy, groups), dump(reference, atOnce));
        };
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            for (const int column :
                 {int(OfferTableModel::OnDemand), int(OfferTableModel::Spot), int(OfferTableModel::Instance),
                  int(OfferTableModel::Cost), int(OfferTableModel::Region), int(OfferTableModel::GpuCount)}) {
                proxy.sort(column, order);
                reference.sort(column, order);
                for (const OfferFilter &f : std::as_const(filters)) {
                    applied.clear();
                    proxy.setFilterOnWorker(f);
                    QVERIFY(groups.isFilterPending());
                    reference.setFilter(f);
                    QVERIFY(applied.wait(5000));
                    QCOMPARE(applied.size(), 1);
                    QVERIFY(!groups.isFilterPending());
                    same(f, "one filter");
                }
            }
        }

        // Several in a row: only the newest is applied, once, and nothing older after it.
        proxy.sort(OfferTableModel::OnDemand, Qt::AscendingOrder);
        reference.sort(OfferTableModel::OnDemand, Qt::AscendingOrder);
        applied.clear();
        for (const OfferFilter &f : std::as_const(filters))
            proxy.setFilterOnWorker(f);
        proxy.setFilterOnWorker(filters[1]);
        reference.setFilter(filters[1]);
        QVERIFY(applied.wait(5000));
        QTest::qWait(50);
        QCOMPARE(applied.size(), 1);
        same(filters[1], "the newest of several");
        // One set at once after one on a worker: the one set at once stays, the worker's is dropped even when
        // it finishes later (the next one on a worker finishes after it: one thread, in order).
        applied.clear();
        proxy.setFilterOnWorker(filters[2]);
        proxy.setFilter(filters[3]);
        QVERIFY(!groups.isFilterPending());
        reference.setFilter(filters[3]);
        same(filters[3], "set at once");
        proxy.setFilterOnWorker(filters[4]);
        reference.setFilter(filters[4]);
        QVERIFY(applied.wait(5000));
        QTest::qWait(50);
        QCOMPARE(applied.size(), 1);
        same(filters[4], "after one set at once");

        // A projection arrives while the filter is computed from the older one: the rows summarise the new.
        applied.clear();
        proxy.setFilterOnWorker(filters[5]);
        offers.setProjection(second);
        reference.setFilter(filters[5]);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.size(), 1);
        same(filters[5], "a projection meanwhile");
        // And the catalog replaced meanwhile: the filter applies to the new catalog's groups.
        applied.clear();
        proxy.setFilterOnWorker(filters[1]);
        list.removeLast();
        offers.setOffers(list, kProjectedAt);
        reference.setFilter(filters[1]);
        QVERIFY(applied.wait(5000));
        same(filters[1], "a new catalog meanwhile");
    }

    /// OfferOrderProxy orders and filters as OfferFilterProxy (a QSortFilterProxyModel) does, row for row and
    /// child for child, for every column in both directions, with ties (kept in catalog order), missing
    /// values and filters set at once; after a projection, with a projected column or a kept one. (The model
    /// tester watches OfferOrderProxy in filterOnWorkerEqualsFilterAtOnce: here it would check the whole
    /// model at each of the 800 changes.)
    void orderProxyEqualsSortFilterProxy()
    {
        QList<Offer> list = zonedSample(150, 90, 40); // offer-0 .. offer-59 are groups of two or more
        const ProjectionResultsPtr projected = projectionOf(list);

        OfferTableModel offers;
        offers.setOffers(list, kProjectedAt);
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        OfferOrderProxy proxy;
        proxy.setSourceModel(&groups);
        OfferFilterProxy reference;
        reference.setSourceModel(&groups);
        QCOMPARE(dump(proxy, groups), dump(reference, groups)); // unsorted: catalog order

        QList<OfferFilter> filters(4);
        filters[1].text = QStringLiteral("offer-1");
        filters[2].minGpus = 2;
        filters[3].providers = {QStringLiteral("lambda"), QStringLiteral("gcp")};
        for (const ProjectionResultsPtr &r : {ProjectionResultsPtr(), ProjectionResultsPtr(projected)}) {
            offers.setProjection(r);
            for (int column = 0; column < OfferTableModel::ColumnCount; ++column)
                for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder})
                    for (const OfferFilter &f : std::as_const(filters)) {
                        proxy.sort(column, order);
                        proxy.setFilter(f);
                        reference.setFilter(f);
                        reference.sort(column, order);
                        const QByteArray where = QByteArray::number(column) + (order ? " desc" : " asc") +
                                                 " filter " + f.text.toUtf8() + (r ? " projected" : "");
                        QVERIFY2(dump(proxy, groups) == dump(reference, groups), where.constData());
                        QCOMPARE(proxy.rowCount(), groups.acceptedGroupCount());
                    }
        }
        // A projection arriving while sorted by a kept column (no layout change) and by a projected one.
        for (const int column : {int(OfferTableModel::OnDemand), int(OfferTableModel::Cost)}) {
            proxy.sort(column, Qt::DescendingOrder);
            reference.sort(column, Qt::DescendingOrder);
            offers.setProjection({});
            offers.setProjection(projected);
            QCOMPARE(dump(proxy, groups), dump(reference, groups));
        }
    }

    /// A sort on a worker (a large catalog: every catalog here) shows exactly what the same sort at once
    /// shows, and what OfferFilterProxy shows, for every column in both directions, under filters and a
    /// projection; of several sorts only the newest is applied; a sort computed from rows that changed
    /// meanwhile (a filter, a projection) is computed again, never adopted for the rows it was not computed
    /// for.
    void sortOnWorkerEqualsSortAtOnce()
    {
        QList<Offer> list = zonedSample(130, 80, 30); // offer-0 .. offer-49 are groups of two or more
        const ProjectionResultsPtr projected = projectionOf(list);
        const ProjectionResultsPtr second = withOtherBestMembers(projected);

        OfferTableModel offers;
        offers.setOffers(list, kProjectedAt);
        offers.setProjection(projected);
        WorkerBesideAtOnce rig(&offers, &offers);
        rig.worker.setWorkerAbove(0);
        QSignalSpy applied(&rig.worker, &OfferOrderProxy::sortApplied);
        const auto same = [&](const char *where) {
            QVERIFY2(!rig.worker.isSortPending(), where);
            QVERIFY2(rig.showsAsAtOnce(), where);
            QVERIFY2(rig.showsAsReference(), where);
        };

        QList<OfferFilter> filters(3);
        filters[1].text = QStringLiteral("offer-1");
        filters[2].minGpus = 2;
        for (const OfferFilter &f : std::as_const(filters)) {
            rig.setFilter(f);
            for (int column = 0; column < OfferTableModel::ColumnCount; ++column)
                for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                    applied.clear();
                    rig.worker.sort(column, order);
                    QVERIFY(rig.worker.isSortPending());
                    rig.sortAtOnce(column, order);
                    QVERIFY(applied.wait(5000));
                    QCOMPARE(applied.size(), 1);
                    QCOMPARE(rig.worker.sortColumn(), column);
                    QCOMPARE(rig.worker.sortOrder(), order);
                    const QByteArray where = QByteArray::number(column) + (order ? " desc" : " asc") +
                                             " filter " + f.text.toUtf8();
                    same(where.constData());
                }
        }

        // Several in a row: only the newest is applied, once.
        applied.clear();
        for (int column = 0; column < OfferTableModel::ColumnCount; ++column)
            rig.worker.sort(column, Qt::AscendingOrder);
        rig.sortAll(OfferTableModel::Region, Qt::DescendingOrder);
        QVERIFY(applied.wait(5000));
        QTest::qWait(50);
        QCOMPARE(applied.size(), 1);
        same("the newest of several");

        // The rows change while it is computed: a filter at once, then a projection. The result was computed
        // for other rows: it is computed again, and the rows are ordered as they are now.
        applied.clear();
        rig.worker.sort(OfferTableModel::Cost, Qt::AscendingOrder);
        rig.setFilter(filters[2]);
        rig.sortAtOnce(OfferTableModel::Cost, Qt::AscendingOrder);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.size(), 1);
        same("a filter meanwhile");
        applied.clear();
        rig.worker.sort(OfferTableModel::Hours, Qt::DescendingOrder);
        offers.setProjection(second);
        rig.sortAtOnce(OfferTableModel::Hours, Qt::DescendingOrder);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.size(), 1);
        same("a projection meanwhile");

        // A sort at once (a small catalog again) after one on a worker: the one at once stays.
        applied.clear();
        rig.worker.sort(OfferTableModel::OnDemand, Qt::DescendingOrder);
        rig.worker.setWorkerAbove(kLargeCatalogOffers);
        rig.worker.sort(OfferTableModel::Spot, Qt::AscendingOrder);
        QVERIFY(!rig.worker.isSortPending());
        rig.sortAtOnce(OfferTableModel::Spot, Qt::AscendingOrder);
        QTest::qWait(100);
        QCOMPARE(applied.size(), 0);
        same("at once after one on a worker");
    }

    /// A catalog grouped, matched, summarised and ordered on a worker shows exactly what the same catalog set
    /// at once shows (with its projection, the filter, the sort column); the newest catalog wins; a filter or
    /// a grouping changed meanwhile is taken into account; a dropped one never shows.
    void offersOnWorkerEqualOffersAtOnce()
    {
        QList<Offer> list = tiedSample(140, 90);
        const ProjectionResultsPtr projected = projectionOf(list);
        QList<Offer> shorter = list.mid(0, 100);

        OfferTableModel offers;
        OfferTableModel atOnceOffers;
        WorkerBesideAtOnce rig(&offers, &atOnceOffers);
        QSignalSpy applied(&rig.worker, &OfferOrderProxy::offersApplied);
        const auto same = [&](const char *where) {
            QVERIFY2(!rig.worker.isOffersPending(), where);
            QCOMPARE(offers.offers().size(), atOnceOffers.offers().size());
            QCOMPARE(offers.projection(), atOnceOffers.projection());
            QCOMPARE(rig.groups.acceptedCount(), rig.atOnceGroups.acceptedCount());
            QCOMPARE(rig.groups.acceptedGroupCount(), rig.atOnceGroups.acceptedGroupCount());
            QVERIFY2(rig.showsAsAtOnce(), where);
            QVERIFY2(rig.showsAsReference(), where);
        };

        OfferFilter runpod;
        runpod.providers = {QStringLiteral("runpod"), QStringLiteral("aws")};
        for (const int column :
             {-1, int(OfferTableModel::OnDemand), int(OfferTableModel::Cost), int(OfferTableModel::Instance)})
            for (const bool filtered : {false, true}) {
                const OfferFilter f = filtered ? runpod : OfferFilter();
                rig.setFilter(f);
                rig.sortAll(column, Qt::DescendingOrder);
                for (const bool withProjection : {false, true}) {
                    applied.clear();
                    const ProjectionResultsPtr p = withProjection ? projected : ProjectionResultsPtr();
                    rig.worker.setOffersOnWorker({}, kProjectedAt, {}); // replaced by the next: never shown
                    rig.worker.setOffersOnWorker(list, kProjectedAt, p);
                    QVERIFY(rig.worker.isOffersPending());
                    atOnceOffers.setOffers(list, kProjectedAt);
                    atOnceOffers.setProjection(p);
                    QVERIFY(applied.wait(5000));
                    QTest::qWait(20);
                    QCOMPARE(applied.size(), 1);
                    const QByteArray where = QByteArray::number(column) + (filtered ? " filtered" : "") +
                                             (withProjection ? " projected" : "");
                    same(where.constData());
                    rig.worker.setOffersOnWorker({}, kProjectedAt, {}); // the next starts from no offers
                    QVERIFY(applied.wait(5000));
                }
            }

        // A filter and the grouping changed while it is prepared: the catalog shows with them.
        rig.sortAll(OfferTableModel::OnDemand, Qt::AscendingOrder);
        applied.clear();
        rig.worker.setOffersOnWorker(list, kProjectedAt, projected);
        rig.worker.setFilter(runpod);
        atOnceOffers.setOffers(list, kProjectedAt);
        atOnceOffers.setProjection(projected);
        rig.filterAtOnce(runpod);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.size(), 1);
        same("a filter meanwhile");
        applied.clear();
        rig.worker.setOffersOnWorker(shorter, kProjectedAt, projected); // for another catalog: not kept
        rig.groups.setGrouped(false);
        rig.atOnceGroups.setGrouped(false);
        atOnceOffers.setOffers(shorter, kProjectedAt);
        atOnceOffers.setProjection(projected);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.size(), 1);
        QVERIFY(!offers.projection());
        same("ungrouped meanwhile");

        // Dropped (a catalog set at once instead): it never shows.
        applied.clear();
        rig.worker.setOffersOnWorker(list, kProjectedAt, projected);
        rig.worker.dropOffersOnWorker();
        QVERIFY(!rig.worker.isOffersPending());
        QTest::qWait(200);
        QCOMPARE(applied.size(), 0);
        QCOMPARE(offers.offers().size(), shorter.size());
    }

    /// A projection whose group summaries (and, sorted by a projected column, order) were computed on a
    /// worker shows exactly what the same projection set at once shows, sorted by a kept or a projected
    /// column, with or without a filter; the newest projection wins; rows that changed meanwhile (a filter)
    /// are taken into account.
    void projectionOnWorkerEqualsProjectionAtOnce()
    {
        QList<Offer> list = tiedSample(120, 70);
        const ProjectionResultsPtr first = projectionOf(list);
        const ProjectionResultsPtr second = withOtherBestMembers(first);

        OfferTableModel offers;
        offers.setOffers(list, kProjectedAt);
        OfferTableModel atOnceOffers;
        atOnceOffers.setOffers(list, kProjectedAt);
        WorkerBesideAtOnce rig(&offers, &atOnceOffers);
        QSignalSpy applied(&rig.worker, &OfferOrderProxy::projectionApplied);
        const auto same = [&](const char *where) {
            QVERIFY2(!rig.worker.isProjectionPending(), where);
            QCOMPARE(offers.projection(), atOnceOffers.projection());
            QVERIFY2(rig.showsAsAtOnce(), where);
            QVERIFY2(rig.showsAsReference(), where);
        };
        OfferFilter some;
        some.minGpus = 2;
        for (const int column :
             {int(OfferTableModel::OnDemand), int(OfferTableModel::Cost), int(OfferTableModel::Hours), -1})
            for (const bool filtered : {false, true}) {
                const OfferFilter f = filtered ? some : OfferFilter();
                rig.setFilter(f);
                rig.sortAll(column, Qt::AscendingOrder);
                for (const ProjectionResultsPtr &p : {first, second, ProjectionResultsPtr()}) {
                    applied.clear();
                    rig.worker.setProjectionOnWorker(second == p ? first : second); // replaced by the next
                    rig.worker.setProjectionOnWorker(p);
                    QVERIFY(rig.worker.isProjectionPending());
                    atOnceOffers.setProjection(p);
                    QVERIFY(applied.wait(5000));
                    QTest::qWait(20);
                    QCOMPARE(applied.size(), 1);
                    const QByteArray where = QByteArray::number(column) + (filtered ? " filtered" : "") +
                                             (p == first ? " first"
                                              : p        ? " second"
                                                         : " none");
                    same(where.constData());
                }
            }

        // A filter applied while the summaries are computed: they are computed again for the rows it shows.
        rig.sortAll(OfferTableModel::Cost, Qt::DescendingOrder);
        OfferFilter other;
        other.text = QStringLiteral("offer-1"); // another than the one applied
        applied.clear();
        rig.worker.setProjectionOnWorker(first);
        rig.worker.setFilter(other);
        atOnceOffers.setProjection(first);
        rig.filterAtOnce(other);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.size(), 1);
        same("a filter meanwhile");
        // One for another catalog is ignored, as at once.
        applied.clear();
        rig.worker.setProjectionOnWorker(projectionOf(list.mid(0, 50)));
        QVERIFY(applied.wait(5000));
        same("another catalog's");
    }

    /// The selection, the current row and expanded groups follow their rows through a filter on a worker and
    /// a sort; a row the filter hides leaves the selection, and comes back unselected.
    void orderProxyKeepsTheSelection()
    {
        QList<Offer> list = sample();
        for (int i = 0; i < 40; ++i)
            list.append(offer(QStringLiteral("vastai"), QStringLiteral("offer-%1").arg(i),
                              QStringLiteral("r"), {}, 1.0 + i % 7, std::nullopt, 1 + i % 2));
        OfferTableModel offers;
        offers.setOffers(list, QDateTime(QDate(2026, 11, 2), QTime(12, 0), Qt::UTC));
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        OfferOrderProxy proxy;
        proxy.setSourceModel(&groups);
        proxy.sort(OfferTableModel::OnDemand, Qt::AscendingOrder);
        QItemSelectionModel selection(&proxy);
        const auto selectedCatalogRows = [&] {
            QList<int> rows;
            for (const QModelIndex &i : selection.selectedRows())
                rows.append(groups.sourceRow(proxy.mapToSource(i)));
            std::sort(rows.begin(), rows.end());
            return rows;
        };
        const auto select = [&](int catalogRow) {
            const QModelIndex i = proxy.mapFromSource(groups.indexOfSourceRow(catalogRow));
            QVERIFY(i.isValid());
            selection.select(i, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        };
        const int p4d = groups.groupOfSourceRow(0); // aws p4d in three regions
        const QModelIndex p4dRow = proxy.mapFromSource(groups.index(p4d, 0));
        QCOMPARE(proxy.rowCount(p4dRow), 3);
        QPersistentModelIndex child(proxy.index(1, 0, p4dRow));
        const int childRow = groups.sourceRow(proxy.mapToSource(child));
        select(childRow);
        select(10); // offer-4, 1 GPU
        select(11); // offer-5, 2 GPUs
        const QPersistentModelIndex current = proxy.mapFromSource(groups.indexOfSourceRow(11));
        selection.setCurrentIndex(current, QItemSelectionModel::NoUpdate);
        QCOMPARE(selectedCatalogRows(), QList<int>({childRow, 10, 11}));

        QSignalSpy applied(&groups, &OfferGroupModel::filterApplied);
        OfferFilter twoGpus;
        twoGpus.minGpus = 2; // keeps the p4d offers (8 GPUs) and offer-5, hides offer-4
        proxy.setFilterOnWorker(twoGpus);
        QVERIFY(applied.wait(5000));
        QCOMPARE(selectedCatalogRows(), QList<int>({childRow, 11}));
        QVERIFY(child.isValid());
        QCOMPARE(groups.sourceRow(proxy.mapToSource(child)), childRow);
        QCOMPARE(groups.sourceRow(proxy.mapToSource(current)), 11);
        QCOMPARE(groups.sourceRow(proxy.mapToSource(selection.currentIndex())), 11);

        proxy.sort(OfferTableModel::OnDemand, Qt::DescendingOrder);
        QCOMPARE(selectedCatalogRows(), QList<int>({childRow, 11}));
        QCOMPARE(groups.sourceRow(proxy.mapToSource(child)), childRow);
        proxy.sort(OfferTableModel::Instance, Qt::AscendingOrder);
        QCOMPARE(selectedCatalogRows(), QList<int>({childRow, 11}));
        // Sorted on a worker: the same.
        QSignalSpy sorted(&proxy, &OfferOrderProxy::sortApplied);
        proxy.setWorkerAbove(0);
        proxy.sort(OfferTableModel::Region, Qt::DescendingOrder);
        QVERIFY(sorted.wait(5000));
        QCOMPARE(selectedCatalogRows(), QList<int>({childRow, 11}));
        QCOMPARE(groups.sourceRow(proxy.mapToSource(child)), childRow);
        QCOMPARE(groups.sourceRow(proxy.mapToSource(selection.currentIndex())), 11);
        proxy.setWorkerAbove(kLargeCatalogOffers);

        applied.clear();
        proxy.setFilterOnWorker({});
        QVERIFY(applied.wait(5000));
        QCOMPARE(selectedCatalogRows(), QList<int>({childRow, 11}));
        QVERIFY(proxy.mapFromSource(groups.indexOfSourceRow(10)).isValid()); // back, not selected
    }

    /// The groups are formed from the offers' fields without a key text per offer, and are those of the key:
    /// provider, instance type, GPU (id, else the provider's name), GPU count as written, billing terms.
    void groupsByFieldsAsByKey()
    {
        QList<Offer> list;
        const auto add = [&](double gpus, int increment, const QString &gpuId, const QString &raw) {
            Offer o = offer(QStringLiteral("vastai"), QStringLiteral("m1"),
                            QStringLiteral("r%1").arg(list.size()), {}, 1.0, std::nullopt, gpus);
            o.billingIncrementS = increment;
            o.gpuId = gpuId;
            o.gpuRawName = raw;
            list.append(o);
        };
        const QString a100 = QStringLiteral("a100-40gb-sxm4");
        add(1, 1, a100, QStringLiteral("A100"));         // 0
        add(1, 1, a100, QStringLiteral("A100 SXM"));     // 1: same group as 0 (the id decides)
        add(2, 1, a100, QStringLiteral("A100"));         // 2: another count
        add(0.5, 1, a100, QStringLiteral("A100"));       // 3
        add(0.5, 1, a100, QStringLiteral("A100"));       // 4: with 3
        add(1.0000001, 1, a100, QStringLiteral("A100")); // 5: written "1": with 0
        add(1, 3600, a100, QStringLiteral("A100"));      // 6: other billing
        add(1, 1, QString(), QStringLiteral("X1"));      // 7: by the provider's name
        add(1, 1, QString(), QStringLiteral("X2"));      // 8
        add(1, 1, QString(), QStringLiteral("X1"));      // 9: with 7
        OfferTableModel offers;
        offers.setOffers(list);
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        const QList<QList<int>> expected = {{0, 1, 5}, {2}, {3, 4}, {6}, {7, 9}, {8}};
        QCOMPARE(groups.groupCount(), expected.size());
        for (const QList<int> &members : expected)
            for (const int row : members)
                QCOMPARE(groups.groupOfSourceRow(row), groups.groupOfSourceRow(members.first()));
    }

    /// The filter's rules, as the prepared matcher applies them over many offers with remembered texts.
    void matcherRules()
    {
        Offer aws = offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("us-east-1"),
                          QStringLiteral("use1-az6"), 32.77, 12.0, 8);
        Offer aws2 = aws;
        aws2.zone = QStringLiteral("use1-az4");
        Offer vast = offer(QStringLiteral("vastai"), QStringLiteral("30000042"), QStringLiteral("Texas, US"),
                           {}, 0.4, 0.2);
        vast.gpuId = QStringLiteral("rtx-4090");
        vast.gpuRawName = QStringLiteral("RTX 4090");
        auto verdicts = [&](const OfferFilter &f) {
            OfferMatcher m(f);
            // Twice each: the second answer comes from the matcher's memory and must be the same.
            QList<bool> out;
            for (int pass = 0; pass < 2; ++pass)
                for (const Offer &o : {aws, aws2, vast})
                    out.append(m.accepts(o));
            return out;
        };
        auto expect = [&](const OfferFilter &f, QList<bool> three) {
            QCOMPARE(verdicts(f), three + three);
            for (int i = 0; i < 3; ++i)
                QCOMPARE(f.accepts(QList<Offer>{aws, aws2, vast}.at(i)), three.at(i));
        };
        OfferFilter f;
        f.region = QStringLiteral("us-east-1 (use1-az6)"); // as the tables show it
        expect(f, {true, false, false});
        f.region = QStringLiteral("USE1-AZ4"); // the zone alone, any case
        expect(f, {false, true, false});
        f.region = QStringLiteral("texas");
        expect(f, {false, false, true});
        f = {};
        f.text = QStringLiteral("AWS az6"); // the provider and the zone
        expect(f, {true, false, false});
        f.text = QStringLiteral("4090 0042"); // GPU name and part of the offer id
        expect(f, {false, false, true});
        f.text = QStringLiteral("4090 nothing");
        expect(f, {false, false, false});
        f = {};
        f.gpu = QStringLiteral("rtx_4090"); // normalised: separators and case do not matter
        expect(f, {false, false, true});
        f.gpu = QStringLiteral("A100");
        expect(f, {true, true, false});
    }

    // 100,000 offers in 5,000 groups: grouping is one pass; the figure goes to the log, nothing is
    // asserted about the machine's speed.
    void manyOffers()
    {
        QList<Offer> many;
        many.reserve(100000);
        for (int i = 0; i < 100000; ++i)
            many.append(offer(QStringLiteral("vastai"), QStringLiteral("type-%1").arg(i % 5000),
                              QStringLiteral("region-%1").arg(i / 5000), {}, 1.0 + i % 97, std::nullopt));
        OfferTableModel offers;
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        QElapsedTimer t;
        t.start();
        offers.setOffers(many);
        qInfo("grouped 100,000 offers into %d rows in %lld ms", groups.rowCount(), t.elapsed());
        QCOMPARE(groups.rowCount(), 5000);
        QCOMPARE(groups.rowCount(groups.index(0, 0)), 20);
        QCOMPARE(groups.acceptedCount(), 100000);
    }
};

QTEST_MAIN(TestOfferGroupModel)
#include "test_offergroupmodel.moc"
