#include "probe/calibrationchoice.h"
#include "testsupport.h"

#include <QTest>
#include <QTimeZone>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

const QDateTime kDay = QDateTime(QDate(2026, 11, 22), QTime(12, 0), QTimeZone::utc());

ProbeRunRecord run(qint64 id, const QString &fixture, int ageDays)
{
    ProbeRunRecord r;
    r.id = id;
    r.createdAt = kDay.addDays(-ageDays);
    r.json = readFixture(fixture);
    return r;
}

ProbeRunRecord h100(qint64 id, int ageDays)
{
    return run(id, u"probe/cuda_h100.json"_s, ageDays);
}

ProbeRunRecord cpu(qint64 id, int ageDays)
{
    return run(id, u"probe/cpu_quick.json"_s, ageDays);
}

ProbeRunRecord unreadable(qint64 id, int ageDays)
{
    ProbeRunRecord r;
    r.id = id;
    r.createdAt = kDay.addDays(-ageDays);
    r.kind = u"cuda"_s;
    r.json = "{\"schema_version\": 1, \"kind\": ";
    return r;
}

} // namespace

class TestCalibrationChoice final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noRuns()
    {
        const CalibrationChoice c = chooseCalibration({});
        QCOMPARE(c.runId, 0);
        QVERIFY(!c.probe);
        QVERIFY(c.skipped.isEmpty());
        QVERIFY(!c.calibration.measured);
        QVERIFY(c.calibration.source.startsWith(u"datasheet-only defaults"_s));
        QVERIFY(c.calibration.source.contains(u"no probe run"_s));
        QCOMPARE(c.calibration.computeEfficiency, defaultCalibration().computeEfficiency);
        // A picked run that is not there: noted, still the defaults.
        const CalibrationChoice p = chooseCalibration({}, 7);
        QCOMPARE(p.runId, 0);
        QCOMPARE(p.skipped, QStringList{u"probe run #7 is not in the database"_s});
    }

    // The newest run cannot be read: the next one calibrates, and the skipped run is named.
    void newestUnreadable()
    {
        const CalibrationChoice c = chooseCalibration({h100(1, 3), unreadable(2, 0)});
        QCOMPARE(c.runId, 1);
        QVERIFY(c.probe);
        QVERIFY(c.calibration.measured);
        QCOMPARE(c.calibration.probedGpuId, u"h100-80gb-sxm"_s);
        QVERIFY2(c.calibration.source.endsWith(u" [probe run #1]"_s), qPrintable(c.calibration.source));
        QCOMPARE(c.skipped.size(), 1);
        QVERIFY2(c.skipped.first().startsWith(u"probe run #2 cannot be read: "_s),
                 qPrintable(c.skipped.first()));
        QCOMPARE(c.calibration.notes.first(), c.skipped.first()); // every front end shows the notes

        // Nothing readable: the defaults, each run noted.
        const CalibrationChoice none = chooseCalibration({unreadable(3, 1), unreadable(4, 0)});
        QCOMPARE(none.runId, 0);
        QVERIFY(!none.calibration.measured);
        QVERIFY(none.calibration.source.contains(u"can be read"_s));
        QCOMPARE(none.skipped.size(), 2);
        QVERIFY(none.skipped.at(0).startsWith(u"probe run #4"_s)); // newest first
    }

    void newestWins()
    {
        // The order of the list does not matter: latest created_at, then the highest id.
        QCOMPARE(chooseCalibration({h100(1, 0), cpu(2, 5)}).runId, 1);
        QCOMPARE(chooseCalibration({cpu(2, 5), h100(1, 0)}).runId, 1);
        QCOMPARE(chooseCalibration({h100(1, 0), h100(3, 0), h100(2, 0)}).runId, 3);
    }

    void pickedRun()
    {
        const QList<ProbeRunRecord> runs{h100(1, 10), cpu(2, 1), unreadable(3, 0)};
        // Without a pick: the newest readable run (the CPU run; #3 is skipped).
        QCOMPARE(chooseCalibration(runs).runId, 2);
        // The picked run, although it is not the newest; nothing skipped on the way.
        const CalibrationChoice c = chooseCalibration(runs, 1);
        QCOMPARE(c.runId, 1);
        QVERIFY(c.calibration.measured);
        QVERIFY(c.skipped.isEmpty());
        // A picked run that cannot be read, or is not there: noted, then the newest readable run.
        const CalibrationChoice bad = chooseCalibration(runs, 3);
        QCOMPARE(bad.runId, 2);
        QCOMPARE(bad.skipped.size(), 1);
        QVERIFY(bad.skipped.first().startsWith(u"probe run #3 cannot be read"_s));
        const CalibrationChoice missing = chooseCalibration(runs, 42);
        QCOMPARE(missing.runId, 2);
        QCOMPARE(missing.skipped.size(), 2); // #42 missing, #3 unreadable
        QCOMPARE(missing.skipped.first(), u"probe run #42 is not in the database"_s);
    }

    // A CPU probe run is readable and used, but calibrates nothing: the defaults, with the reason.
    void cpuProbe()
    {
        const CalibrationChoice c = chooseCalibration({h100(1, 10), cpu(2, 0)});
        QCOMPARE(c.runId, 2);
        QVERIFY(c.probe);
        QCOMPARE(c.probe->kind, u"cpu"_s);
        QVERIFY(!c.calibration.measured);
        QVERIFY(c.calibration.probedGpuId.isEmpty());
        QCOMPARE(c.calibration.computeEfficiency, defaultCalibration().computeEfficiency);
        QVERIFY2(c.calibration.source.contains(u"ran on a CPU"_s), qPrintable(c.calibration.source));
        QVERIFY(c.calibration.source.endsWith(u" [probe run #2]"_s));
        bool noted = false;
        for (const QString &n : c.calibration.notes)
            noted = noted || n.startsWith(u"datasheet-only"_s);
        QVERIFY(noted);
    }
};

QTEST_GUILESS_MAIN(TestCalibrationChoice)
#include "test_calibrationchoice.moc"
