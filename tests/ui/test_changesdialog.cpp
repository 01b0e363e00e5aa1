// What changed since the last refresh, in the GUI: after an import the Catalogs page's status line says what
// the new snapshot changed, and "What changed…" opens the comparison of each provider's two newest snapshots
// (new, gone and re-priced offers). GF_SCREENSHOT_DIR=DIR [GF_SCREENSHOT_THEME=dark|light] saves the dialog.
#include "apptheme.h"
#include "catalogspage.h"
#include "changesdialog.h"
#include "testsupport.h"
#include "viewmodels/catalogservice.h"

#include <QApplication>
#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace gf;
using namespace gf::test;

namespace {

/// makeCatalogCsv("lambda", 6) with type-1 at 1.50 instead of 1.00, type-6 gone and type-7 new.
QByteArray changedCsv()
{
    QList<QByteArray> lines = makeCatalogCsv(QStringLiteral("lambda"), 7).split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    QList<QByteArray> out;
    for (QByteArray l : lines) {
        if (l.contains(",type-6,"))
            continue;
        if (l.contains(",type-1,"))
            l.replace(",1.00,", ",1.50,");
        out.append(l);
    }
    return out.join('\n') + '\n';
}

} // namespace

class TestChangesDialog final : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_config;

    void importThroughThePage(CatalogsPage &page, const QString &file)
    {
        page.setFileChooser([file] { return QStringList{file}; });
        QSignalSpy summarised(&page, &CatalogsPage::changesSummarised);
        QTest::mouseClick(page.importButton(), Qt::LeftButton);
        QVERIFY(summarised.wait(30000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier test"));
        QCoreApplication::setApplicationName(QStringLiteral("gpufrontier-changes-test"));
        if (qEnvironmentVariable("GF_SCREENSHOT_THEME") == u"dark")
            applyTheme(Theme::Dark);
    }

    void statusLineAndDialogSayWhatChanged()
    {
        TempDb db;
        const QString first = db.dir() + QStringLiteral("/first.csv");
        const QString second = db.dir() + QStringLiteral("/second.csv");
        writeFile(first, makeCatalogCsv(QStringLiteral("lambda"), 6));
        writeFile(second, changedCsv());
        CatalogService service(db.path());
        CatalogsPage page(&service, nullptr);
        QSignalSpy loaded(&page, &CatalogsPage::statusLoaded);
        QVERIFY(loaded.wait(30000));
        page.resize(1200, 700);
        page.show();

        importThroughThePage(page, first);
        QVERIFY2(page.statusText().contains(QStringLiteral("What changed — Lambda: ")),
                 qPrintable(page.statusText()));
        importThroughThePage(page, second);
        QVERIFY2(page.statusText().contains(QStringLiteral(
                     "What changed — Lambda: 1 new, 1 gone, 1 dearer (median +50.0 %), 4 unchanged")),
                 qPrintable(page.statusText()));

        // The button opens the dialog over every provider; choosing Lambda shows its three changes.
        QTest::mouseClick(page.changesButton(), Qt::LeftButton);
        auto *dialog = page.findChild<ChangesDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        QSignalSpy dialogLoaded(dialog, &ChangesDialog::loaded);
        QVERIFY(dialogLoaded.count() > 0 || dialogLoaded.wait(30000));
        QVERIFY(dialog->tree()->topLevelItemCount() > 5); // every provider with a snapshot
        auto *provider = dialog->findChild<QComboBox *>(QStringLiteral("changesProvider"));
        QVERIFY(provider);
        dialogLoaded.clear();
        provider->setCurrentIndex(provider->findData(QStringLiteral("lambda")));
        QVERIFY(dialogLoaded.wait(30000));
        QCOMPARE(dialog->tree()->topLevelItemCount(), 1);
        QTreeWidgetItem *lambda = dialog->tree()->topLevelItem(0);
        QVERIFY2(lambda->text(0).startsWith(QStringLiteral("Lambda: 1 new, 1 gone, 1 dearer")),
                 qPrintable(lambda->text(0)));
        QVERIFY(lambda->isExpanded());
        QCOMPARE(lambda->childCount(), 3);
        QCOMPARE(lambda->child(0)->text(0), QStringLiteral("type-1"));
        QCOMPARE(lambda->child(0)->text(3), QStringLiteral("1.000 → 1.500"));
        QCOMPARE(lambda->child(0)->text(5), QStringLiteral("+50.0 %"));
        QCOMPARE(lambda->child(1)->text(0), QStringLiteral("type-7"));
        QCOMPARE(lambda->child(1)->text(5), QStringLiteral("new"));
        QCOMPARE(lambda->child(2)->text(0), QStringLiteral("type-6"));
        QCOMPARE(lambda->child(2)->text(5), QStringLiteral("gone"));
        QVERIFY(!dialog->statusText().isEmpty());
        if (const QString dir = qEnvironmentVariable("GF_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog->grab().save(dir + QStringLiteral("/changes-") +
                                qEnvironmentVariable("GF_SCREENSHOT_THEME", QStringLiteral("light")) +
                                QStringLiteral(".png"));
        dialog->close();
    }
};

QTEST_MAIN(TestChangesDialog)
#include "test_changesdialog.moc"
