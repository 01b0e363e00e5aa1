#include "domain/gpucatalog.h"
#include "exportdialog.h"
#include "frontierchart.h"
#include "mainwindow.h"
#include "projection/catalogprojection.h"
#include "refresh/bundledsnapshot.h"
#include "testsupport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

class TestExportDialog final : public QObject
{
    Q_OBJECT
private:
    QList<Offer> m_catalog;
    QList<Snapshot> m_snapshots;

    /// Results of a filtered projection (AWS only), as the GUI has them.
    ExportContext context(QList<int> selected = {}) const
    {
        OfferFilter filter;
        filter.providers = {u"aws"_s};
        ProjectionOptions opt;
        opt.now = QDateTime(QDate(2024, 7, 15), QTime(12, 0), QTimeZone::utc());
        ExportContext ctx;
        ctx.results = std::make_shared<const ProjectionResults>(projectCatalog(
            m_catalog,
            {filter, *findWorkload(builtinWorkloads(), u"resnet50"), opt, defaultCalibration(), {}, 1}));
        ctx.catalog = m_catalog;
        ctx.snapshots = m_snapshots;
        ctx.selectedCatalogRows = selected;
        ctx.filter = filter;
        return ctx;
    }

    static bool exportAndWait(ExportDialog &d, bool expectOk)
    {
        QSignalSpy ok(&d, &ExportDialog::exported);
        QSignalSpy bad(&d, &ExportDialog::failed);
        QTest::mouseClick(d.exportButton(), Qt::LeftButton);
        if (!QTest::qWaitFor([&] { return !ok.isEmpty() || !bad.isEmpty(); }, 60000))
            return false;
        return expectOk ? !ok.isEmpty() : !bad.isEmpty();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(u"GPU Frontier Tests"_s);
        QApplication::setApplicationName(u"gpufrontier-exportdialog-test"_s);
        QSettings().clear();
        TempDb db;
        auto store = db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        m_catalog = store->currentOffers().value();
        m_snapshots = store->snapshots().value();
    }

    void cleanupTestCase() { QSettings().clear(); }

    void exportsEveryFormatInTheBackground_data()
    {
        QTest::addColumn<int>("kind");
        for (ExportKind k : {ExportKind::Html, ExportKind::Pdf, ExportKind::Csv, ExportKind::Json,
                             ExportKind::Markdown, ExportKind::ChartSvg})
            QTest::newRow(qPrintable(exportKindSuffix(k))) << int(k);
    }
    void exportsEveryFormatInTheBackground()
    {
        QFETCH(int, kind);
        QTemporaryDir dir;
        ExportDialog d(context());
        d.setGeneratedAt(QDateTime(QDate(2024, 7, 15), QTime(12, 0), QTimeZone::utc()));
        d.show();
        d.setKind(static_cast<ExportKind>(kind));
        d.setOfferSet(ReportOfferSet::Frontier);
        // The suffix follows the format.
        QVERIFY(d.path().endsWith(u'.' + exportKindSuffix(static_cast<ExportKind>(kind))));
        const QString path = dir.filePath(u"report."_s + exportKindSuffix(static_cast<ExportKind>(kind)));
        d.setPath(path);
        QVERIFY(exportAndWait(d, true));
        QVERIFY(QFile::exists(path));
        QVERIFY(QFileInfo(path).size() > 500);
        QVERIFY(d.statusText().contains(u"Saved"));
        QVERIFY(d.exportButton()->isEnabled());
    }

    void allOffersProjectsTheWholeCatalog()
    {
        QTemporaryDir dir;
        ExportDialog d(context());
        d.setKind(ExportKind::Json);
        d.setOfferSet(ReportOfferSet::All);
        const QString path = dir.filePath(u"all.json"_s);
        d.setPath(path);
        QVERIFY(exportAndWait(d, true));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root.value(u"counts").toObject().value(u"offers").toInt(), m_catalog.size());
        // Filtered: only the AWS offers.
        d.setOfferSet(ReportOfferSet::Filtered);
        QVERIFY(exportAndWait(d, true));
        f.close();
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject filtered = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(filtered.value(u"counts").toObject().value(u"offers").toInt() < m_catalog.size());
        for (const QJsonValue &p : filtered.value(u"points").toArray())
            QCOMPARE(p.toObject().value(u"provider").toString(), u"aws"_s);
    }

    void selectedOffers()
    {
        // Row 0 is AWS (in the filtered results); the last row is another provider (filtered out).
        int other = -1;
        for (int i = static_cast<int>(m_catalog.size()) - 1; i >= 0 && other < 0; --i)
            if (m_catalog.at(i).provider != u"aws")
                other = i;
        int aws = -1;
        for (int i = 0; i < m_catalog.size() && aws < 0; ++i)
            if (m_catalog.at(i).provider == u"aws")
                aws = i;
        QVERIFY(other >= 0 && aws >= 0);
        QTemporaryDir dir;
        ExportDialog d(context({aws, other}));
        d.setKind(ExportKind::Csv);
        d.setOfferSet(ReportOfferSet::Selected);
        const QString path = dir.filePath(u"sel.csv"_s);
        d.setPath(path);
        QVERIFY(exportAndWait(d, true));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(f.readAll());
        QVERIFY(csv.contains(m_catalog.at(aws).instanceType));
        QVERIFY(csv.contains(m_catalog.at(other).instanceType));
    }

    void emptySelectionShowsAnErrorAndWritesNothing()
    {
        QTemporaryDir dir;
        ExportDialog d(context());
        d.setKind(ExportKind::Pdf);
        d.setOfferSet(ReportOfferSet::Selected);
        const QString path = dir.filePath(u"none.pdf"_s);
        d.setPath(path);
        QVERIFY(exportAndWait(d, false));
        QVERIFY2(d.statusText().contains(u"No offers are selected"), qPrintable(d.statusText()));
        QVERIFY(!QFile::exists(path));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
    }

    void unwritablePathShowsAnError()
    {
        QTemporaryDir dir;
        ExportDialog d(context());
        d.setKind(ExportKind::Html);
        d.setOfferSet(ReportOfferSet::Frontier);
        const QString path = dir.filePath(u"missing/folder/r.html"_s);
        d.setPath(path);
        QVERIFY(exportAndWait(d, false));
        QVERIFY(d.statusText().contains(u"does not exist"));
        QVERIFY(!QFile::exists(path));
        // No path at all.
        d.setPath(QString());
        QSignalSpy bad(&d, &ExportDialog::failed);
        QVERIFY(!d.startExport());
        QCOMPARE(bad.size(), 1);
    }

    // A fresh profile: the default folder (~/Documents) does not exist; the export makes it.
    void defaultFolderIsMadeOnAFreshProfile()
    {
        QTemporaryDir home;
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        qputenv("XDG_CONFIG_HOME", (home.path() + u"/.config"_s).toUtf8()); // no user-dirs.dirs there
        QSettings().remove(u"export/dir"_s);
        const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QVERIFY2(documents.startsWith(home.path()), qPrintable(documents));
        QVERIFY(!QFileInfo::exists(documents));
        {
            ExportDialog d(context());
            d.setKind(ExportKind::Html);
            d.setOfferSet(ReportOfferSet::Frontier);
            QCOMPARE(QFileInfo(d.path()).absolutePath(), documents);
            QVERIFY2(exportAndWait(d, true), qPrintable(d.statusText()));
            QVERIFY(QFileInfo(d.path()).isFile());
        }
        qputenv("HOME", oldHome);
        qunsetenv("XDG_CONFIG_HOME");
    }

    void pngChartImage()
    {
        FrontierChart chart;
        chart.resize(900, 560);
        QList<ChartPoint> pts;
        for (int i = 0; i < 20; ++i)
            pts.append({1.0 + i, 100.0 / (1 + i), i % 5, i % 2 == 0, i % 3 == 0, true, i});
        chart.setPoints(pts, 10.0, 50.0, 3);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        ExportContext ctx = context();
        ctx.chartWidget = &chart;
        QTemporaryDir dir;
        ExportDialog d(ctx);
        d.setKind(ExportKind::ChartPng);
        QVERIFY(!d.offersBox()->isEnabled());
        const QString path = dir.filePath(u"chart.png"_s);
        d.setPath(path);
        QVERIFY(exportAndWait(d, true));
        const QImage img(path);
        QVERIFY(!img.isNull());
        // For a look at the dialog: GF_SCREENSHOT_DIR=/tmp/x ui_exportdialog pngChartImage
        if (const QString shots = qEnvironmentVariable("GF_SCREENSHOT_DIR"); !shots.isEmpty()) {
            d.show();
            QVERIFY(QTest::qWaitForWindowExposed(&d));
            d.grab().save(shots + u"/exportdialog.png"_s);
            QFile::copy(path, shots + u"/chart.png"_s);
        }
        QVERIFY(img.width() >= 300 && img.height() >= 200);
    }

    void browseUsesTheChooserAndSettingsAreRemembered()
    {
        QTemporaryDir dir;
        {
            ExportDialog d(context());
            d.setKind(ExportKind::Markdown);
            d.setOfferSet(ReportOfferSet::Frontier);
            d.titleEdit()->setText(u"Team decision"_s);
            d.setFileChooser([&](QWidget *, const QString &, const QString &, const QString &filter) {
                [&] { QVERIFY(filter.contains(u"*.md")); }();
                return dir.filePath(u"chosen"_s);
            });
            d.browse();
            QCOMPARE(QDir::fromNativeSeparators(d.path()), dir.filePath(u"chosen.md"_s));
            QVERIFY(exportAndWait(d, true));
            QVERIFY(QFile::exists(dir.filePath(u"chosen.md"_s)));
        }
        ExportDialog again(context());
        QCOMPARE(again.kind(), ExportKind::Markdown);
        QCOMPARE(again.offerSet(), ReportOfferSet::Frontier);
        QCOMPARE(again.titleEdit()->text(), u"Team decision"_s);
        QCOMPARE(QDir::fromNativeSeparators(again.path()), dir.filePath(u"chosen.md"_s));
        // Changing the format keeps the name and changes the suffix.
        again.setKind(ExportKind::Pdf);
        QCOMPARE(QDir::fromNativeSeparators(again.path()), dir.filePath(u"chosen.pdf"_s));
        QSettings().clear();
    }

    void mainWindowHasTheExportActions()
    {
        TempDb db;
        MainWindow w(db.path());
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.show();
        QVERIFY(loaded.wait(30000));
        auto *report = w.findChild<QAction *>(u"exportReportAction"_s);
        auto *chart = w.findChild<QAction *>(u"exportChartAction"_s);
        QVERIFY(report && chart);
        QCOMPARE(report->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        report->trigger();
        auto *d = w.findChild<ExportDialog *>();
        QVERIFY(d);
        QVERIFY(d->isVisible());
        QVERIFY(d->kind() != ExportKind::ChartPng && d->kind() != ExportKind::ChartSvg);
        d->close();
        QTRY_VERIFY(!w.findChild<ExportDialog *>());
        chart->trigger();
        d = w.findChild<ExportDialog *>();
        QVERIFY(d);
        QCOMPARE(d->kind(), ExportKind::ChartPng);
        d->close();
    }
};

QTEST_MAIN(TestExportDialog)
#include "test_exportdialog.moc"
