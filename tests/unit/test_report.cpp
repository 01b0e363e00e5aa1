#include "domain/workload.h"
#include "jsonschemacheck.h"
#include "report/pdfwriter.h"
#include "report/report.h"
#include "report/svgcanvas.h"
#include "testsupport.h"
#include "util/csv.h"
#include "viewmodels/projectioncontroller.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

Offer offer(const QString &provider, const QString &instance, const QString &gpuId, const QString &raw,
            double gpus, std::optional<double> onDemand, std::optional<double> spot, double memGb)
{
    Offer o;
    o.provider = provider;
    o.instanceType = instance;
    o.region = u"us-east-1"_s;
    o.gpuId = gpuId;
    o.gpuRawName = raw;
    o.gpuCount = gpus;
    o.gpuMemGb = memGb;
    o.vcpus = 8 * gpus;
    o.ramGb = 61 * gpus;
    o.networkGbps = 25;
    o.onDemandUsdH = onDemand;
    o.spotUsdH = spot;
    o.spotLabel = spot ? u"spot"_s : QString();
    o.source = u"test fixture"_s;
    o.snapshotId = provider == u"aws" ? 1 : 2;
    o.dataDate = QDate(2024, 7, 1);
    o.fetchedAt = QDateTime(QDate(2024, 7, 2), QTime(8, 0), QTimeZone::utc());
    return o;
}

QList<Offer> catalog()
{
    return {
        offer(u"aws"_s, u"p3.2xlarge"_s, u"v100-32gb-sxm2"_s, u"V100"_s, 1, 3.06, 0.92, 32),
        offer(u"aws"_s, u"p3.8xlarge"_s, u"v100-32gb-sxm2"_s, u"V100"_s, 4, 12.24, 3.67, 32),
        offer(u"aws"_s, u"p4d.24xlarge"_s, u"a100-40gb-sxm4"_s, u"A100"_s, 8, 32.77, 11.57, 40),
        offer(u"aws"_s, u"g4dn.xlarge"_s, u"t4"_s, u"T4"_s, 1, 0.526, 0.158, 16),
        offer(u"vastai"_s, u"<script>alert(1)</script>"_s, u"a100-80gb-sxm4"_s, u"A100 SXM4"_s, 1, 1.10, 0.55,
              80),
        offer(u"vastai"_s, u"=HYPERLINK(\"http://x\")"_s, u"a100-80gb-sxm4"_s, u"A100 SXM4"_s, 2, 2.30,
              std::nullopt, 80),
        offer(u"vastai"_s, u"mystery-1"_s, QString(), u"Mystery GPU 9000"_s, 1, 0.3, std::nullopt, 24),
    };
}

Workload workload()
{
    Workload w = *findWorkload(builtinWorkloads(), u"resnet50");
    w.memoryGb = 20; // T4 (16 GB) cannot hold it
    w.epochs = 10;
    return w;
}

ReportInput input(ReportOfferSet set = ReportOfferSet::All, ProjectionOptions opt = {})
{
    opt.nodeCounts = {1, 2, 4};
    opt.deadlineHours = 48;
    opt.now = QDateTime(QDate(2024, 7, 20), QTime(12, 0), QTimeZone::utc());
    ReportInput in;
    in.results = std::make_shared<const ProjectionResults>(
        ProjectionController::compute(1, catalog(), OfferFilter{}, workload(), opt, defaultCalibration()));
    Snapshot aws;
    aws.id = 1;
    aws.provider = u"aws"_s;
    aws.origin = u"https://pricing.us-east-1.amazonaws.com/<test>"_s;
    aws.fetchedAt = QDateTime(QDate(2024, 7, 2), QTime(8, 0), QTimeZone::utc());
    aws.dataDate = QDate(2024, 7, 1);
    aws.rowCount = 4;
    aws.current = true;
    Snapshot vast = aws;
    vast.id = 2;
    vast.provider = u"vastai"_s;
    vast.origin = u"vast.ai search"_s;
    vast.rowCount = 3;
    vast.unrecognisedCount = 1;
    in.snapshots = {aws, vast};
    in.offerSet = set;
    in.generatedAt = opt.now;
    in.title = u"Test report"_s;
    return in;
}

QByteArray render(const ReportInput &in, ReportFormat f)
{
    auto r = renderReport(in, f);
    if (!r)
        qWarning("render failed: %s", qPrintable(r.error().text()));
    return r.ok() ? r.value() : QByteArray();
}

QString tool(const QString &name)
{
    return QStandardPaths::findExecutable(name);
}

} // namespace

class TestReport final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formatNames()
    {
        for (ReportFormat f : allReportFormats())
            QCOMPARE(reportFormatFromName(reportFormatName(f)), f);
        QCOMPARE(reportFormatFromName(u"Markdown"), ReportFormat::Markdown);
        QCOMPARE(reportFormatFromPath(u"/x/report.HTML"_s), ReportFormat::Html);
        QCOMPARE(reportFormatFromPath(u"out.pdf"_s), ReportFormat::Pdf);
        QVERIFY(!reportFormatFromPath(u"out"_s));
        QVERIFY(!reportFormatFromName(u"docx"));
        QCOMPARE(reportOfferSetFromName(u"Frontier"), ReportOfferSet::Frontier);
    }

    // Every projected point comes back from the CSV with exactly the same numbers.
    void csvParsesBackToTheSameNumbers()
    {
        const ReportInput in = input();
        const QByteArray csv = render(in, ReportFormat::Csv);
        QVERIFY(!csv.isEmpty());
        QVERIFY(csv.contains("\r\n"));
        auto doc = parseCsv(QString::fromUtf8(csv), false);
        QVERIFY2(doc.ok(), qPrintable(doc.ok() ? QString() : doc.error().text()));
        const CsvDocument &d = doc.value();
        for (const char *col : {"provider", "instance_type", "price_usd_per_h", "total_h", "cost_usd",
                                "samples_per_usd", "gpu_mem_gb", "price_age_days", "on_frontier"})
            QVERIFY2(d.column(QString::fromLatin1(col)) >= 0, col);
        const ProjectionResults &r = *in.results;
        QCOMPARE(d.records.size(), r.points.size());
        int matched = 0;
        for (const CsvRecord &rec : d.records) {
            QCOMPARE(rec.fields.size(), d.header.size());
            auto field = [&](const char *name) { return rec.fields.at(d.column(QString::fromLatin1(name))); };
            // Find the point: instance (neutralised cells start with an apostrophe), mode and nodes.
            QString instance = field("instance_type");
            if (instance.startsWith(u'\''))
                instance = instance.mid(1);
            const bool spot = field("price_mode") == u"spot";
            const int nodes = field("nodes").toInt();
            const ProjectedOffer *pt = nullptr;
            for (const ProjectedOffer &p : r.points)
                if (r.offers.at(p.offerIndex).instanceType == instance &&
                    (p.mode == PriceMode::Spot) == spot && p.nodes == nodes)
                    pt = &p;
            QVERIFY2(pt, qPrintable(instance));
            QCOMPARE(field("on_frontier"), pt->onFrontier ? u"true"_s : u"false"_s);
            if (!pt->projected) {
                QVERIFY(field("total_h").isEmpty());
                continue;
            }
            QCOMPARE(field("total_h").toDouble(), pt->totalHours);
            QCOMPARE(field("train_h").toDouble(), pt->trainHours);
            QCOMPARE(field("samples_per_s").toDouble(), pt->samplesPerS);
            QCOMPARE(field("price_usd_per_h").toDouble(), pt->usdPerHour);
            if (!hasFlag(pt->flags, ProjectionFlag::InvalidPrice)) {
                QCOMPARE(field("cost_usd").toDouble(), pt->costUsd);
                QCOMPARE(field("samples_per_usd").toDouble(), pt->samplesPerUsd);
            }
            QCOMPARE(field("price_age_days").toInt(), 19);
            ++matched;
        }
        QVERIFY(matched > 5);
    }

    void csvNeutralisesFormulaCells()
    {
        const QByteArray csv = render(input(), ReportFormat::Csv);
        QVERIFY(csv.contains("\"'=HYPERLINK(\"\"http://x\"\")\""));
        // No cell anywhere starts with a formula character.
        auto doc = parseCsv(QString::fromUtf8(csv), false);
        QVERIFY(doc.ok());
        for (const CsvRecord &rec : doc.value().records)
            for (const QString &f : rec.fields)
                QVERIFY2(f.isEmpty() || !QStringLiteral("=+@").contains(f.at(0)), qPrintable(f));
    }

    void htmlEscapesProviderStrings()
    {
        const QByteArray html = render(input(), ReportFormat::Html);
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY(!html.contains("<script"));
        QVERIFY(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        QVERIFY(html.contains("&lt;test&gt;")); // snapshot origin
        // Self-contained: inline SVG, no external resources, no scripts.
        QVERIFY(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        QVERIFY(!html.contains("src=\""));
        QVERIFY(!html.contains("href=\"http"));
        QVERIFY(!html.contains("<link"));
    }

    void markdownEscapesProviderStrings()
    {
        const QByteArray md = render(input(), ReportFormat::Markdown);
        QVERIFY(!md.contains("<script"));
        QVERIFY(md.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        QVERIFY(md.contains("| Provider | Instance |"));
        QVERIFY(md.contains("```text"));
    }

    void contentCoversTheIssue()
    {
        const QByteArray html = render(input(), ReportFormat::Html);
        for (const char *s :
             {"Recommended", "Cheapest within limits", "Fastest within limits", "Efficiency frontier",
              "Frontier table", "Spot versus on-demand",
              "Single-GPU spot instances versus one multi-GPU on-demand instance", "Catalog snapshots",
              "Calibration", "Workload and assumptions", "Checkpoint interval", "Deadline", "2024-07-01",
              "datasheet", "Mystery GPU 9000", "less GPU memory than the workload needs",
              "older than 7 days"})
            QVERIFY2(html.contains(s), s);
        const QJsonObject j = QJsonDocument::fromJson(render(input(), ReportFormat::Json)).object();
        QStringList codes;
        for (const QJsonValue &w : j.value(u"warnings").toArray())
            codes.append(w.toObject().value(u"code").toString());
        for (const char *c : {"datasheet-only", "stale-prices", "unrecognised-gpus", "memory-too-small"})
            QVERIFY2(codes.contains(QString::fromLatin1(c)), c);
        // 4 × 1-GPU V100 spot against the 4-GPU on-demand p3.8xlarge; 2 × A100 80GB spot against the 2-GPU
        // offer.
        const QJsonArray multi = j.value(u"multi_node").toArray();
        QStringList pairs;
        for (const QJsonValue &m : multi)
            pairs.append(QStringLiteral("%1x%2")
                             .arg(m.toObject().value(u"gpu").toString())
                             .arg(m.toObject().value(u"gpus").toInt()));
        QVERIFY2(pairs.contains(u"v100-32gb-sxm2x4"_s), qPrintable(pairs.join(u' ')));
        QVERIFY2(pairs.contains(u"a100-80gb-sxm4x2"_s), qPrintable(pairs.join(u' ')));
        QVERIFY(!j.value(u"spot_savings").toArray().isEmpty());
        QVERIFY(j.value(u"recommended").isObject());
        QVERIFY(j.value(u"recommended").toObject().value(u"recommended").toBool());
    }

    void jsonValidatesAgainstItsSchema_data()
    {
        QTest::addColumn<int>("set");
        QTest::newRow("all") << int(ReportOfferSet::All);
        QTest::newRow("frontier") << int(ReportOfferSet::Frontier);
        QTest::newRow("selected") << int(ReportOfferSet::Selected);
    }
    void jsonValidatesAgainstItsSchema()
    {
        QFETCH(int, set);
        QFile f(QStringLiteral(GF_SOURCE_DIR "/resources/report.schema.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError pe;
        const QJsonDocument schema = QJsonDocument::fromJson(f.readAll(), &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        ReportInput in = input(static_cast<ReportOfferSet>(set));
        in.selectedOffers = {0, 4};
        const QByteArray json = render(in, ReportFormat::Json);
        const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        const QStringList errors = JsonSchemaCheck(schema.object()).validate(doc.object());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.mid(0, 10).join(u'\n')));
        QCOMPARE(doc.object().value(u"schema_version").toInt(), kReportSchemaVersion);
        QCOMPARE(doc.object().value(u"generated_at").toString(), u"2024-07-20T12:00:00Z"_s);
        // The validator is not a rubber stamp.
        QJsonObject broken = doc.object();
        broken.insert(u"unexpected"_s, 1);
        QJsonObject counts = broken.value(u"counts").toObject();
        counts.insert(u"offers"_s, u"seven"_s);
        broken.insert(u"counts"_s, counts);
        QCOMPARE(JsonSchemaCheck(schema.object()).validate(broken).size(), 2);
    }

    void selectedListsOnlyTheSelection()
    {
        ReportInput in = input(ReportOfferSet::Selected);
        in.selectedOffers = {1};
        const QJsonObject j = QJsonDocument::fromJson(render(in, ReportFormat::Json)).object();
        const QJsonArray points = j.value(u"points").toArray();
        QVERIFY(!points.isEmpty());
        for (const QJsonValue &p : points)
            QCOMPARE(p.toObject().value(u"instance_type").toString(), u"p3.8xlarge"_s);
        const QJsonObject front =
            QJsonDocument::fromJson(render(input(ReportOfferSet::Frontier), ReportFormat::Json)).object();
        for (const QJsonValue &p : front.value(u"points").toArray())
            QVERIFY(p.toObject().value(u"on_frontier").toBool());
    }

    void emptySelectionIsAnError()
    {
        ReportInput in = input(ReportOfferSet::Selected);
        for (ReportFormat f : allReportFormats()) {
            auto r = renderReport(in, f);
            QVERIFY(!r.ok());
            QVERIFY(r.error().message.contains(u"No offers are selected"));
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(u"r.html"_s);
        QVERIFY(!writeReport(in, ReportFormat::Html, path).ok());
        QVERIFY(!QFile::exists(path));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
        // No results at all.
        ReportInput none;
        QVERIFY(!renderReport(none, ReportFormat::Csv).ok());
        // A filter that excludes everything.
        ProjectionOptions opt;
        OfferFilter filter;
        filter.providers = {u"paperspace"_s};
        ReportInput empty = input();
        empty.results = std::make_shared<const ProjectionResults>(
            ProjectionController::compute(1, catalog(), filter, workload(), opt, defaultCalibration()));
        auto r = renderReport(empty, ReportFormat::Pdf);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(u"filter excludes every offer"));
    }

    void unwritablePathLeavesNoFile()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(u"no/such/folder/r.pdf"_s);
        auto st = writeReport(input(), ReportFormat::Pdf, missing);
        QVERIFY(!st.ok());
        QVERIFY(st.error().message.contains(u"does not exist"));
        QVERIFY(!QFile::exists(missing));
        // A read-only folder (skipped when running as root, which may write anywhere).
        const QString ro = dir.filePath(u"ro"_s);
        QVERIFY(QDir().mkpath(ro));
        QFile::setPermissions(ro, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const QString inRo = ro + u"/r.html"_s;
        QFile probe(ro + u"/probe"_s);
        const bool writable = probe.open(QIODevice::WriteOnly);
        if (writable)
            probe.remove();
        if (!writable) {
            st = writeReport(input(), ReportFormat::Html, inRo);
            QVERIFY(!st.ok());
            QVERIFY(st.error().message.contains(u"Cannot write"));
            QVERIFY(QDir(ro).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
        }
        QFile::setPermissions(ro, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        // A folder where the file should be.
        QVERIFY(!writeReport(input(), ReportFormat::Html, dir.path()).ok());
        // An existing report is replaced only when the new one is complete.
        const QString good = dir.filePath(u"keep.csv"_s);
        QVERIFY(writeReport(input(), ReportFormat::Csv, good).ok());
        const QByteArray before = [&] {
            QFile f(good);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!writeReport(input(ReportOfferSet::Selected), ReportFormat::Csv, good).ok());
        QFile after(good);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
    }

    void deterministic_data()
    {
        QTest::addColumn<int>("format");
        for (ReportFormat f : allReportFormats())
            QTest::newRow(qPrintable(reportFormatName(f))) << int(f);
    }
    void deterministic()
    {
        QFETCH(int, format);
        const auto f = static_cast<ReportFormat>(format);
        const QByteArray a = render(input(), f);
        const QByteArray b = render(input(), f);
        QVERIFY(!a.isEmpty());
        QCOMPARE(a, b);
        // Only the generated-at time differs with another time (CSV has none; ages change with days only).
        ReportInput later = input();
        later.generatedAt = later.generatedAt.addSecs(60);
        const QByteArray c = render(later, f);
        if (f == ReportFormat::Csv)
            QCOMPARE(c, a);
        else
            QVERIFY(c != a);
    }

    void pdfIsWellFormed()
    {
        const QByteArray pdf = render(input(), ReportFormat::Pdf);
        QVERIFY(pdf.startsWith("%PDF-1.4\n"));
        QVERIFY(pdf.endsWith("%%EOF\n"));
        // The xref offsets point at their objects.
        const qsizetype sx = pdf.lastIndexOf("startxref\n");
        const qsizetype xref = pdf.mid(sx + 10, pdf.indexOf('\n', sx + 10) - sx - 10).toLongLong();
        QVERIFY(pdf.mid(xref).startsWith("xref\n0 "));
        const QList<QByteArray> lines = pdf.mid(xref).split('\n');
        const int count = lines.at(1).split(' ').at(1).toInt();
        QVERIFY(count > 7);
        for (int n = 1; n < count; ++n) {
            const qsizetype off = lines.at(2 + n).left(10).toLongLong();
            QVERIFY2(pdf.mid(off).startsWith(QByteArray(QByteArray::number(n) + " 0 obj")),
                     qPrintable(QString::number(n)));
        }
    }

    // pdftotext (poppler-utils) reads the frontier table back.
    void pdfTextContainsTheFrontierTable()
    {
        const QString pdftotext = tool(u"pdftotext"_s);
        if (pdftotext.isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        QTemporaryDir dir;
        const QString path = dir.filePath(u"r.pdf"_s);
        const ReportInput in = input();
        QVERIFY(writeReport(in, ReportFormat::Pdf, path).ok());
        QProcess p;
        p.start(pdftotext, {u"-layout"_s, path, u"-"_s});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY(text.contains(u"Frontier table"));
        const ProjectionResults &r = *in.results;
        int rows = 0;
        for (const ProjectedOffer &pt : r.points) {
            if (!pt.onFrontier)
                continue;
            const Offer &o = r.offers.at(pt.offerIndex);
            // Some line holds the instance and the cost of the run.
            bool found = false;
            const QString cost = QLocale::c().toString(pt.costUsd, 'f', pt.costUsd < 100 ? 2 : 0);
            for (const QString &line : text.split(u'\n'))
                found = found || (line.contains(o.instanceType) && line.contains(cost));
            QVERIFY2(found, qPrintable(o.instanceType + u' ' + cost));
            ++rows;
        }
        QVERIFY(rows >= 2);
        QVERIFY(text.contains(u"<script>alert(1)</script>"));
    }

    void pdfTextEncoding()
    {
        QCOMPARE(toWinAnsi(u"a–b × 3 €"), QByteArray("a\x96"
                                                     "b \xd7 3 \x80"));
        QCOMPARE(toWinAnsi(u"≤ ∞ 😀"), QByteArray("<= inf ?"));
        // Helvetica: "A" is 667/1000 em, space 278.
        QCOMPARE(pdfTextWidth(u"A A", PdfFont::Helvetica, 10), (667 + 278 + 667) / 100.0);
        QCOMPARE(pdfTextWidth(u"A", PdfFont::HelveticaBold, 10), 7.22);
        const QStringList lines =
            pdfWrap(u"the quick brown fox jumps over the lazy dog"_s, PdfFont::Helvetica, 10, 60);
        QVERIFY(lines.size() > 2);
        for (const QString &l : lines)
            QVERIFY(pdfTextWidth(l, PdfFont::Helvetica, 10) <= 60);
    }

    void svgEscapesText()
    {
        QCOMPARE(xmlEscape(u"<a href=\"x\">&'"), u"&lt;a href=&quot;x&quot;&gt;&amp;&#39;"_s);
        SvgCanvas c(100, 50);
        c.text(QPointF(1, 2), u"<script>"_s, 10, false, Rgb{});
        const QString svg = c.toSvg(true);
        QVERIFY(svg.contains(u"&lt;script&gt;"));
        QVERIFY(!svg.contains(u"<script>"));
        const QString chart = frontierChartSvgDocument(*input().results, u"Chart <1>"_s);
        QVERIFY(chart.startsWith(u"<?xml"));
        QVERIFY(chart.contains(u"Chart &lt;1&gt;"));
        QVERIFY(chart.contains(u"<circle"));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "test_report.moc"
