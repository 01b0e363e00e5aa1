#include "domain/workload.h"
#include "jsonschemacheck.h"
#include "projection/catalogprojection.h"
#include "report/paintercanvas.h"
#include "report/report.h"
#include "report/reportdata.h"
#include "report/svgcanvas.h"
#include "testsupport.h"
#include "util/csv.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPdfWriter>
#include <QProcess>
#include <QRegularExpression>
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
        projectCatalog(catalog(), {OfferFilter{}, workload(), opt, defaultCalibration(), {}, 1}));
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

/// Output of a poppler tool (pdftotext, pdffonts, pdfinfo) on PDF bytes; empty when it fails.
QString poppler(const QString &name, const QByteArray &pdf, QStringList args = {})
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"r.pdf"_s);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(pdf) != pdf.size())
        return {};
    f.close();
    QProcess p;
    p.start(tool(name), args << path << (name == u"pdftotext" ? QStringList{u"-"_s} : QStringList{}));
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
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
        // A title cannot close the code block of the command that reproduces the report: its fence is
        // longer than any run of backticks in it.
        ReportInput in = input();
        in.title = u"x\n```\n<script>alert(1)</script>"_s;
        const QByteArray titled = render(in, ReportFormat::Markdown);
        QVERIFY(titled.contains("\n````sh\n"));
        QVERIFY(titled.trimmed().endsWith("\n````"));
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
            projectCatalog(catalog(), {filter, workload(), opt, defaultCalibration(), {}, 1}));
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
        ReportInput later = input();
        later.generatedAt = later.generatedAt.addSecs(60);
        const QByteArray c = render(later, f);
        if (f == ReportFormat::Pdf) {
            // The PDF is compared by its text and pages (the bytes are Qt's business), and its creation
            // date is the generated-at time.
            if (tool(u"pdftotext"_s).isEmpty())
                QSKIP("pdftotext (poppler-utils) is not installed");
            const QString ta = poppler(u"pdftotext"_s, a, {u"-layout"_s});
            QVERIFY(ta.contains(u"Frontier table"));
            QCOMPARE(poppler(u"pdftotext"_s, b, {u"-layout"_s}), ta);
            QVERIFY(a.contains("/CreationDate (D:20240720120000"));
            QVERIFY(c.contains("/CreationDate (D:20240720120100"));
            const QString tc = poppler(u"pdftotext"_s, c, {u"-layout"_s});
            QVERIFY(tc != ta);
            QCOMPARE(QString(tc)
                         .replace(u"2024-07-20 12:01"_s, u"2024-07-20 12:00"_s)
                         .replace(u"2024-07-20T12:01:00Z"_s, u"2024-07-20T12:00:00Z"_s),
                     ta);
            return;
        }
        QCOMPARE(a, b);
        // Only the generated-at time differs with another time (CSV has none; ages change with days only).
        if (f == ReportFormat::Csv)
            QCOMPARE(c, a);
        else
            QVERIFY(c != a);
    }

    // Qt writes the PDF: A4 pages, every font embedded.
    void pdfIsWellFormedWithEmbeddedFonts()
    {
        const QByteArray pdf = render(input(), ReportFormat::Pdf);
        QVERIFY(pdf.startsWith("%PDF-1."));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        if (tool(u"pdfinfo"_s).isEmpty() || tool(u"pdffonts"_s).isEmpty())
            QSKIP("pdfinfo/pdffonts (poppler-utils) are not installed");
        const QString info = poppler(u"pdfinfo"_s, pdf).simplified();
        QVERIFY2(info.contains(u"Page size: 595 x 842 pts (A4)"), qPrintable(info));
        QVERIFY2(info.contains(u"Title: Test report"), qPrintable(info));
        const int pages = QRegularExpression(u"Pages: +(\\d+)"_s).match(info).captured(1).toInt();
        QVERIFY2(pages >= 3, qPrintable(info));
        const QStringList fonts = poppler(u"pdffonts"_s, pdf).split(u'\n', Qt::SkipEmptyParts).mid(2);
        QVERIFY(!fonts.isEmpty());
        for (const QString &f : fonts) // columns: name type encoding emb sub uni object ID
            QVERIFY2(
                f.simplified().split(u' ').mid(0, f.simplified().split(u' ').size() - 2).contains(u"yes"),
                qPrintable(f));
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

    // Greek, CJK and emoji text comes out of the PDF as it went in, in embedded fonts (no "?").
    void pdfRendersUnicode()
    {
        if (tool(u"pdftotext"_s).isEmpty() || tool(u"pdffonts"_s).isEmpty())
            QSKIP("pdftotext/pdffonts (poppler-utils) are not installed");
        const QString greek = u"Εκπαίδευση μοντέλου"_s;
        const QString tokyo = u"東京都 渋谷区"_s;
        QList<Offer> offers = catalog();
        offers[4].region = tokyo;              // vast.ai host locations come in any script
        offers[6].gpuRawName = u"GPU 😀 ≤ ∞"_s; // an unrecognised GPU name with an emoji (a warning item)
        Workload w = workload();
        w.name = greek;
        ProjectionOptions opt;
        opt.nodeCounts = {1};
        opt.now = QDateTime(QDate(2024, 7, 20), QTime(12, 0), QTimeZone::utc());
        ReportInput in = input();
        in.results = std::make_shared<const ProjectionResults>(
            projectCatalog(offers, {OfferFilter{}, w, opt, defaultCalibration(), {}, 1}));
        in.title.clear(); // the title comes from the (Greek) workload name
        const QByteArray pdf = render(in, ReportFormat::Pdf);
        const QString text = poppler(u"pdftotext"_s, pdf);
        QVERIFY2(text.contains(u"GPU Frontier report: "_s + greek), qPrintable(text.left(400)));
        QVERIFY(text.contains(u"workload "_s + greek));
        QVERIFY(text.contains(tokyo));
        QVERIFY(text.contains(u"≤ ∞"_s));
        QVERIFY(!text.contains(u"?"));
        // The title in the document information is Unicode too.
        const QString info = poppler(u"pdfinfo"_s, pdf, {u"-enc"_s, u"UTF-8"_s}).simplified();
        QVERIFY2(info.contains(u"Title: GPU Frontier report: "_s + greek), qPrintable(info));
        // A font with CJK glyphs is embedded beside the Latin one.
        const QString fonts = poppler(u"pdffonts"_s, pdf);
        QVERIFY2(fonts.split(u'\n', Qt::SkipEmptyParts).size() >= 4, qPrintable(fonts)); // 2 header lines
    }

    // The PDF's text layout: wrapping and eliding measure with the embedded fonts, in linear time.
    void pdfWrapAndElide()
    {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        const PainterCanvas c(writer, nullptr);
        // Liberation Sans has Helvetica's widths: "A" is 667/1000 em, the space 278.
        QVERIFY(qAbs(c.textWidth(u"A A"_s, 10, false) - (667 + 278 + 667) / 100.0) < 0.05);
        const QString fox = u"the quick brown fox jumps over the lazy dog"_s;
        const QStringList lines = c.wrap(fox, 10, false, 60);
        QVERIFY(lines.size() > 2);
        QCOMPARE(lines.join(u' '), fox);
        for (const QString &l : lines)
            QVERIFY(c.textWidth(l, 10, false) <= 60.01);
        // A word longer than a line is cut, after a separator where there is one.
        const QStringList cut = c.wrap(u"Standard_NC24ads_A100_v4"_s, 10, false, 60);
        QVERIFY(cut.size() > 1);
        QCOMPARE(cut.join(QString()), u"Standard_NC24ads_A100_v4"_s);
        QVERIFY2(cut.first().endsWith(u'_'), qPrintable(cut.join(u'|')));
        // CJK text without spaces wraps too; a surrogate pair (emoji) is never split.
        const QString cjk = QString(40, QChar(0x6771)) + u"😀😀😀"_s;
        for (const QString &l : c.wrap(cjk, 10, false, 50)) {
            QVERIFY(c.textWidth(l, 10, false) <= 50.01);
            QVERIFY(!l.startsWith(QChar(0xDE00)) && !l.back().isHighSurrogate());
        }
        const QString elided = c.elide(fox, 10, false, 60);
        QVERIFY(elided.endsWith(u"…"_s));
        QVERIFY(c.textWidth(elided, 10, false) <= 60.01);
        QCOMPARE(c.elide(u"short"_s, 10, false, 60), u"short"_s);
        // 100,000 characters without a space: linear, so this is quick (no time is asserted).
        const QStringList many = c.wrap(QString(100000, u'g'), 7.4, false, 150);
        QVERIFY(many.size() > 100);
        QCOMPARE(many.join(QString()).size(), 100000);
        // The SVG chart's layout estimate without fonts: Helvetica's AFM widths, 1 em for CJK.
        QCOMPARE(helveticaTextWidth(u"A A", false, 10), (667 + 278 + 667) / 100.0);
        QCOMPARE(helveticaTextWidth(u"A", true, 10), 7.22);
        QCOMPARE(helveticaTextWidth(u"東京", false, 10), 20.0);
    }

    // Provider strings longer than 200 characters are cut for display in the documents, and kept whole
    // in the data formats.
    void longNamesAreCutForDisplay()
    {
        QCOMPARE(report::shown(u"short"_s), u"short"_s);
        QCOMPARE(report::shown(QString(200, u'x')), QString(200, u'x'));
        QCOMPARE(report::shown(QString(201, u'x')), QString(199, u'x') + u'…');
        // Never inside a surrogate pair.
        const QString emoji = QString(198, u'x') + u"😀😀"_s;
        QCOMPARE(report::shown(emoji), QString(198, u'x') + u'…');

        const QString name = QString(100000, u'g');
        QList<Offer> offers = catalog();
        for (Offer &o : offers)
            if (o.provider == u"aws")
                o.instanceType = name + o.instanceType;
        ReportInput in = input();
        in.results = std::make_shared<const ProjectionResults>(projectCatalog(
            offers, {OfferFilter{}, workload(), in.results->options, defaultCalibration(), {}, 1}));
        const QString cut = QString(199, u'g') + u'…';
        const QString md = QString::fromUtf8(render(in, ReportFormat::Markdown));
        QVERIFY(md.contains(cut));
        QVERIFY(!md.contains(QString(200, u'g')));
        const QString html = QString::fromUtf8(render(in, ReportFormat::Html));
        QVERIFY(html.contains(cut));
        QVERIFY(!html.contains(QString(200, u'g')));
        const QJsonObject j = QJsonDocument::fromJson(render(in, ReportFormat::Json)).object();
        bool whole = false;
        for (const QJsonValue &p : j.value(u"points").toArray())
            whole = whole || p.toObject().value(u"instance_type").toString().startsWith(name);
        QVERIFY(whole);
        QVERIFY(render(in, ReportFormat::Csv).contains(name.toUtf8()));
        const QByteArray pdf = render(in, ReportFormat::Pdf);
        QVERIFY(pdf.startsWith("%PDF-"));
        if (tool(u"pdftotext"_s).isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        const QString text = poppler(u"pdftotext"_s, pdf);
        QVERIFY(text.contains(u"g…"_s));
        QVERIFY(text.count(u'g') < 20000); // every occurrence is cut to 199 characters
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

QTEST_MAIN(TestReport)
#include "test_report.moc"
