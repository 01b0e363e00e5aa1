// A catalog database that cannot be written (a read-only folder, another user's database) can still be
// read: the commands that only read open it read-only and say so; the ones that write say why they cannot.
#include "cli.h"
#include "clirun.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int rc = -1;
    QString out;
    QString err;
};

} // namespace

class TestReadOnlyDb final : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    QString m_setpriv;

    /// gpufrontier-cli as a user that cannot write the folder (root writes anywhere: run as nobody).
    Run run(const QStringList &args) const
    {
        QProcess p;
        QStringList all{u"--db"_s, m_db};
        all += args;
        if (geteuid() == 0) {
            all.prepend(builtExecutable(u"gpufrontier-cli"_s));
            all = QStringList{u"--reuid=65534"_s, u"--regid=65534"_s, u"--clear-groups"_s} + all;
            p.start(m_setpriv, all);
        } else {
            p.start(builtExecutable(u"gpufrontier-cli"_s), all);
        }
        Run r;
        if (!p.waitForFinished(120000))
            return r;
        r.rc = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (geteuid() == 0) {
            m_setpriv = QStandardPaths::findExecutable(u"setpriv"_s);
            if (m_setpriv.isEmpty())
                QSKIP("running as root without setpriv: cannot take write access away");
        }
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(u"catalog.sqlite"_s);
        const CliRun filled = cli(m_db, {u"catalogs"_s});
        QCOMPARE(filled.rc, 0);
        QVERIFY(QFile::setPermissions(m_db, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        QVERIFY(QFile::setPermissions(m_dir.path(), QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup |
                                                        QFile::ExeGroup | QFile::ReadOther |
                                                        QFile::ExeOther));
    }

    void cleanupTestCase()
    {
        QFile::setPermissions(m_dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    void readingCommandsWork()
    {
        Run r = run({u"offers"_s, u"--format"_s, u"json"_s, u"--limit"_s, u"3"_s});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).array().size(), 3);
        QVERIFY2(r.err.contains(u"read-only"_s), qPrintable(r.err));
        for (const QStringList &args :
             {QStringList{u"catalogs"_s}, QStringList{u"offers"_s, u"--gpu"_s, u"h100"_s},
              QStringList{u"history"_s, u"--provider"_s, u"aws"_s, u"--instance"_s, u"p4d.24xlarge"_s},
              QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--no-calibration"_s},
              QStringList{u"gpus"_s, u"--workload"_s, u"resnet50"_s}}) {
            r = run(args);
            QVERIFY2(r.rc == 0, qPrintable(args.join(u' ') + u": "_s + r.err));
        }
        // Nothing was created next to it (no journal, no lock file).
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files), QStringList{u"catalog.sqlite"_s});
    }

    void writingCommandsSayWhyNot()
    {
        const Run r = run({u"import"_s, u"--file"_s, fixturePath(u"providers/skypilot/paperspace.csv"_s),
                           u"--provider"_s, u"paperspace"_s});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"read-only"_s) && r.err.contains(m_db), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestReadOnlyDb)
#include "test_readonlydb.moc"
