// The CLI's table writer (writeTableRows, and writeTable over it) and the rows of `frontier --format table`
// (FrontierTableRows) write the same bytes as the writer and the row function they replaced (kept below
// as the reference): varied cells (wide and non-ASCII texts, line breaks, escape and bidi characters,
// lone surrogates, trailing blanks, rows shorter or longer than the header), varied offers and points
// (unrecognised GPUs, unknown providers, zones, missing prices, unprojected points, several node counts,
// another currency).
#include "cli.h"
#include "domain/currency.h"
#include "domain/gpucatalog.h"
#include "domain/offertable.h"
#include "domain/provider.h"
#include "domain/workload.h"
#include "offerfixture.h"
#include "projection/catalogprojection.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"
#include "projection/tableprojection.h"
#include "util/bufferedoutput.h"
#include "util/format.h"
#include "util/printable.h"

#include <QRandomGenerator>
#include <QTest>
#include <QTimeZone>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

// The writer of 369f308, verbatim but for the names.
void oldAppendTableLine(QString &s, const QStringList &cells, const QList<qsizetype> &widths,
                        const QList<bool> &rightAligned)
{
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const bool right = i < rightAligned.size() && rightAligned.at(i);
        const qsizetype width = i < widths.size() ? widths.at(i) : 0;
        if (i)
            s += QStringLiteral("  ");
        if (right)
            s += cells.at(i).rightJustified(width);
        else
            s += cells.at(i).leftJustified(width);
    }
    while (s.endsWith(u' '))
        s.chop(1);
    s += u'\n';
}

QByteArray oldWriteTable(const QStringList &header, qsizetype rowCount,
                         const std::function<QStringList(qsizetype)> &row, const QList<bool> &rightAligned)
{
    QByteArray bytes;
    ByteArraySink sink(bytes);
    BufferedOutput out(sink);
    auto printableRow = [&](qsizetype r) {
        QStringList cells = row(r);
        for (QString &c : cells)
            c = printableText(c);
        return cells;
    };
    QList<qsizetype> widths;
    for (const QString &h : header)
        widths.append(h.size());
    for (qsizetype r = 0; r < rowCount; ++r) {
        const QStringList cells = printableRow(r);
        for (qsizetype i = 0; i < cells.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], cells.at(i).size());
    }
    QString line;
    oldAppendTableLine(line, header, widths, rightAligned);
    QStringList rule;
    for (qsizetype w : std::as_const(widths))
        rule.append(QString(w, u'-'));
    oldAppendTableLine(line, rule, widths, rightAligned);
    out.appendText(line);
    for (qsizetype r = 0; r < rowCount; ++r) {
        line.clear();
        oldAppendTableLine(line, printableRow(r), widths, rightAligned);
        out.appendText(line);
    }
    out.flush();
    return bytes;
}

QByteArray newWriteTableRows(const QStringList &header, qsizetype rowCount,
                             const std::function<void(qsizetype, TableRow &)> &row,
                             const QList<bool> &rightAligned)
{
    QByteArray bytes;
    ByteArraySink sink(bytes);
    BufferedOutput out(sink, 100); // small chunks: lines cross chunk edges
    writeTableRows(out, header, rowCount, row, rightAligned);
    out.flush();
    return bytes;
}

/// Pieces of cells: ASCII, wide and non-ASCII texts, what printableText replaces, blanks.
const QStringList &pieces()
{
    static const QStringList p{u""_s,
                               u"a"_s,
                               u"p4d.24xlarge"_s,
                               u"a rather long instance type name that widens its column"_s,
                               u"Ünïcødé"_s,
                               u"日本語のテキスト"_s,
                               u"😀"_s,
                               u"\t"_s,
                               u"\n"_s,
                               u"\r\n"_s,
                               u"\x1b[31mred"_s,
                               QString(QChar(0x202E)) + u"evil"_s,
                               QString(QChar(0x2028)),
                               QString(QChar(0x85)),
                               QString(QChar(0x7F)),
                               QString(QChar(0xD800)), // a lone surrogate
                               u" "_s,
                               u"trailing  "_s,
                               u"12.345"_s,
                               u"–"_s};
    return p;
}

QString randomCell(QRandomGenerator &rng)
{
    QString s;
    const int n = rng.bounded(4);
    for (int k = 0; k < n; ++k)
        s += pieces().at(rng.bounded(int(pieces().size())));
    return s;
}

/// The cells of the old frontier row function (369f308's cli_frontier.cpp) for point i.
QStringList oldFrontierRow(const TableProjection &res, qsizetype i, const Currency &cur)
{
    const QString dash = QStringLiteral("–");
    auto modeName = [](const ProjectedOffer &pt) {
        return pt.mode == PriceMode::Spot ? QStringLiteral("spot") : QStringLiteral("on-demand");
    };
    Offer o;
    const ProjectedOffer pt = res.point(i, &o);
    const bool priced = pt.projected && !hasFlag(pt.flags, ProjectionFlag::InvalidPrice);
    QString gpusText = formatNumber(o.gpuCount);
    if (pt.nodes > 1)
        gpusText = QStringLiteral("%1x%2").arg(pt.nodes).arg(gpusText);
    return QStringList{pt.recommended ? QStringLiteral("=>")
                                      : (pt.onFrontier ? QStringLiteral("*") : QString()),
                       providerDisplayName(o.provider),
                       o.instanceType,
                       locationText(o),
                       gpuModelName(o),
                       gpusText,
                       modeName(pt),
                       pt.usdPerHour > 0 ? formatMoneyPerHour(pt.usdPerHour, cur) : dash,
                       formatMoneyPerHour(pt.usdPerGpuHour(o), cur),
                       pt.projected ? formatNumber(pt.samplesPerS, pt.samplesPerS < 100 ? 2 : 0) : dash,
                       pt.projected ? formatHours(pt.totalHours) : dash,
                       priced ? formatMoney(pt.costUsd, cur) : dash,
                       priced ? QString::number(pt.samplesPerUsd / cur.unitsPerUsd, 'f', 0) : dash,
                       pt.feasible ? QStringLiteral("yes") : QStringLiteral("no"),
                       projectionFlagNames(pt.flags).join(u',')};
}

/// Offers of every kind a frontier row shows differently.
QList<Offer> variedOffers(qsizetype n, quint32 seed)
{
    QRandomGenerator rng(seed);
    const QStringList providers{u"aws"_s, u"gcp"_s, u"azure"_s, u"vastai"_s, u"runpod"_s, u"acme-cloud"_s};
    const QStringList gpus{u"h100-80gb-sxm"_s, u"a100-40gb-sxm4"_s, u"a10g"_s,           u"t4"_s,
                           u"rtx-4090"_s,      QString(),           u"not-a-known-gpu"_s};
    QList<Offer> out;
    for (qsizetype i = 0; i < n; ++i) {
        const QString provider = providers.at(rng.bounded(int(providers.size())));
        const QString gpu = gpus.at(rng.bounded(int(gpus.size())));
        const double count = QList<double>{1, 1, 2, 4, 8, 0.5, 0, 3.25}.at(rng.bounded(8));
        const double price = (0.05 + rng.generateDouble() * 60) * std::max(1.0, count);
        std::optional<double> spot;
        if (rng.bounded(2))
            spot = price * (0.2 + 0.6 * rng.generateDouble());
        QString type = provider + u"-type-"_s + QString::number(i);
        if (rng.bounded(5) == 0)
            type += randomCell(rng);
        Offer o = makeOffer(provider, type, gpu, count, price, spot);
        o.id = i + 1;
        if (rng.bounded(6) == 0)
            o.onDemandUsdH.reset();
        if (rng.bounded(8) == 0)
            o.onDemandUsdH = 0.0;
        if (gpu.isEmpty() || gpu == u"not-a-known-gpu")
            o.gpuRawName = u"Mystery GPU "_s + randomCell(rng);
        switch (rng.bounded(5)) {
        case 0:
            o.zone = QString();
            break;
        case 1:
            o.zone = o.region;
            break;
        case 2:
            o.zone = o.region + u"-b"_s;
            break;
        case 3:
            o.region = u"eu-west "_s + randomCell(rng);
            o.zone = randomCell(rng);
            break;
        default:
            o.zone = u""_s;
        }
        o.spotLabel = spot ? u"spot"_s : QString();
        o.fetchedAt = QDateTime(QDate(2026, 11, 20), QTime(8, 30), QTimeZone::utc());
        o.snapshotId = 7;
        if (rng.bounded(10) == 0) // stale
            o.fetchedAt = QDateTime(QDate(2024, 1, 1), QTime(0, 0), QTimeZone::utc());
        out.append(o);
    }
    return out;
}

} // namespace

class TestCliTable final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // writeTable (a list of cells per row) and writeTableRows (cells written into a TableRow) write
    // what the old writer wrote, for tables of random cells.
    void writerEqualsOld()
    {
        QRandomGenerator rng(26);
        for (int t = 0; t < 300; ++t) {
            QStringList header;
            const int columns = rng.bounded(7);
            for (int c = 0; c < columns; ++c)
                header.append(rng.bounded(3) ? u"Col"_s + QString::number(c) : QString());
            QList<bool> right;
            const int rights = rng.bounded(columns + 2);
            for (int c = 0; c < rights; ++c)
                right.append(rng.bounded(2) == 1);
            QList<QStringList> rows;
            const int rowCount = rng.bounded(12);
            for (int r = 0; r < rowCount; ++r) {
                QStringList cells;
                const int n = rng.bounded(columns + 3); // shorter or longer than the header
                for (int c = 0; c < n; ++c)
                    cells.append(randomCell(rng));
                rows.append(cells);
            }
            const QByteArray expected = oldWriteTable(
                header, rows.size(), [&](qsizetype r) { return rows.at(r); }, right);
            QByteArray viaList;
            {
                ByteArraySink sink(viaList);
                BufferedOutput out(sink, 64);
                writeTable(
                    out, header, rows.size(), [&](qsizetype r) { return rows.at(r); }, right);
                out.flush();
            }
            QCOMPARE(viaList, expected);
            const QByteArray viaRows = newWriteTableRows(
                header, rows.size(),
                [&](qsizetype r, TableRow &cells) {
                    // each cell in pieces, as the frontier rows write theirs
                    for (const QString &c : rows.at(r)) {
                        const qsizetype half = c.size() / 2;
                        cells.append(QStringView(c).first(half))
                            .append(QStringView(c).sliced(half))
                            .endCell();
                    }
                },
                right);
            QCOMPARE(viaRows, expected);
            QCOMPARE(renderTable(header, rows, right), QString::fromUtf8(expected));
        }
    }

    void tableRowCells()
    {
        TableRow row;
        row.add(u"ab"_s).add(QLatin1StringView("cd")).append(u'e').append(QLatin1StringView("f")).endCell();
        row.endCell();
        QCOMPARE(row.size(), 4);
        QCOMPARE(row.cell(0).toString(), u"ab"_s);
        QCOMPARE(row.cell(1).toString(), u"cd"_s);
        QCOMPARE(row.cell(2).toString(), u"ef"_s);
        QVERIFY(row.cell(3).isEmpty());
        row.clear();
        QCOMPARE(row.size(), 0);
        row.add(u"x"_s);
        QCOMPARE(row.cell(0).toString(), u"x"_s);
    }

    // FrontierTableRows gives every point the cells of the old row function, and the frontier table in
    // time order is the same bytes, in USD and in another currency.
    void frontierRowsEqualOld_data()
    {
        QTest::addColumn<double>("unitsPerUsd");
        QTest::addColumn<QList<int>>("nodes");
        QTest::newRow("usd, one node") << 1.0 << QList<int>{1};
        QTest::newRow("eur, nodes 1 2 4") << 0.9317 << QList<int>{1, 2, 4};
        QTest::newRow("jpy, nodes 2 16") << 156.3 << QList<int>{2, 16};
    }
    void frontierRowsEqualOld()
    {
        QFETCH(double, unitsPerUsd);
        QFETCH(QList<int>, nodes);
        const QList<Offer> catalog = variedOffers(3000, 7);
        OfferTable table;
        for (const Offer &o : catalog)
            table.append(o);
        ProjectionRequest request;
        request.workload = *findWorkload(builtinWorkloads(), u"resnet50");
        request.options.now = QDateTime(QDate(2026, 11, 27), QTime(9, 0), QTimeZone::utc());
        request.options.nodeCounts = nodes;
        request.options.deadlineHours = 20;
        request.calibration = defaultCalibration();
        const TableProjection res(table, request);
        QVERIFY(res.points().size() >= catalog.size());
        QVERIFY(res.projectedCount() > 0 && res.projectedCount() < res.points().size()); // some unprojected
        Currency cur;
        if (unitsPerUsd != 1.0) {
            cur.code = u"EUR"_s;
            cur.unitsPerUsd = unitsPerUsd;
        }
        QList<qsizetype> order;
        for (qsizetype i = 0; i < res.points().size(); ++i)
            order.append(i);
        {
            // Every point in its own order, each row made twice (the second from the kept figures).
            FrontierTableRows rows(res, order, cur);
            TableRow cells;
            for (int pass = 0; pass < 2; ++pass) {
                for (qsizetype i = 0; i < order.size(); ++i) {
                    cells.clear();
                    rows.cells(i, cells);
                    const QStringList expected = oldFrontierRow(res, i, cur);
                    QCOMPARE(cells.size(), expected.size());
                    for (qsizetype c = 0; c < expected.size(); ++c)
                        QCOMPARE(cells.cell(c).toString(), expected.at(c));
                }
            }
        }
        sortByTime(res.points(), order);
        FrontierTableRows rows(res, order, cur);
        const QStringList header{QString(), u"Provider"_s, u"GPUs"_s, u"Flags"_s};
        const QList<bool> right{false, false, true, true, true, true, false, true, true, true};
        const QByteArray expected = oldWriteTable(
            header, order.size(), [&](qsizetype r) { return oldFrontierRow(res, order.at(r), cur); }, right);
        const QByteArray written = newWriteTableRows(
            header, order.size(), [&](qsizetype r, TableRow &c) { rows.cells(r, c); }, right);
        QCOMPARE(written, expected);
    }
};

QTEST_GUILESS_MAIN(TestCliTable)
#include "test_clitable.moc"
