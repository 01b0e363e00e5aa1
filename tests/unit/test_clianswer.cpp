// `gpufrontier-cli answer`: the Answer page on the command line, on the bundled catalog. The recommended
// offer is the frontier's, the cheapest and fastest within limits are those of the projected points, the
// reason names the rival, and when nothing fits the suggested flags, passed back, make an offer fit.
#include "cli.h"
#include "clirun.h"
#include "jsonschemacheck.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

QJsonObject object(const CliRun &r)
{
    const QJsonDocument d = QJsonDocument::fromJson(r.out.toUtf8());
    if (!d.isObject())
        qWarning("not a JSON object: %s", qPrintable(r.out.left(300)));
    return d.object();
}

QString key(const QJsonObject &point)
{
    return point.value(u"provider").toString() + u'/' + point.value(u"instance_type").toString() + u'/' +
           point.value(u"region").toString() + u'/' + point.value(u"zone").toString() + u'/' +
           point.value(u"price_mode").toString() + u'/' + QString::number(point.value(u"nodes").toInt());
}

} // namespace

class TestCliAnswer final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;

private Q_SLOTS:
    void agreesWithTheFrontier()
    {
        const QStringList workload{u"--workload"_s, u"resnet50"_s, u"--deadline"_s, u"24"_s};
        const CliRun answer = cli(m_db.path(), QStringList{u"answer"_s, u"--format"_s, u"json"_s} + workload);
        QCOMPARE(answer.rc, 0);
        const QJsonObject a = object(answer);
        const CliRun frontier =
            cli(m_db.path(), QStringList{u"frontier"_s, u"--format"_s, u"json"_s} + workload);
        QCOMPARE(frontier.rc, 0);
        const QJsonArray points = object(frontier).value(u"points").toArray();
        QVERIFY(points.size() > 1000);

        QString recommended;
        double cheapest = 1e300, fastest = 1e300;
        for (const QJsonValue &v : points) {
            const QJsonObject p = v.toObject();
            if (p.value(u"recommended").toBool())
                recommended = key(p);
            if (p.value(u"feasible").toBool()) {
                cheapest = std::min(cheapest, p.value(u"cost_usd").toDouble());
                fastest = std::min(fastest, p.value(u"total_h").toDouble());
            }
        }
        QCOMPARE(key(a.value(u"recommended").toObject()), recommended);
        QCOMPARE(a.value(u"cheapest_within_limits").toObject().value(u"cost_usd").toDouble(), cheapest);
        QCOMPARE(a.value(u"fastest_within_limits").toObject().value(u"total_h").toDouble(), fastest);
        QVERIFY(a.value(u"fastest_within_limits").toObject().value(u"total_h").toDouble() <= 24.0);
        // The points are in the report's point shape.
        QFile f(QStringLiteral(GF_SOURCE_DIR "/resources/report.schema.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        const JsonSchemaCheck schema(
            QJsonObject{{u"$defs"_s, root.value(u"$defs")}, {u"$ref"_s, u"#/$defs/point"_s}});
        QJsonObject rec = a.value(u"recommended").toObject();
        rec.remove(u"title");
        rec.remove(u"evidence");
        QVERIFY2(schema.validate(rec).isEmpty(), qPrintable(schema.validate(rec).join(u'\n')));

        const QString why = a.value(u"why").toString();
        QVERIFY(!a.value(u"rival").isNull());
        QVERIFY2(why.startsWith(a.value(u"rival").toObject().value(u"title").toString()), qPrintable(why));
        QVERIFY(a.value(u"nothing_fits").isNull());
        QVERIFY(a.value(u"limit_moves").toArray().isEmpty());
    }

    void textNamesEveryPart()
    {
        const CliRun r = cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"vit-b16"_s});
        QCOMPARE(r.rc, 0);
        for (const QString &needle :
             {u"Workload: vit-b16"_s, u"Limits: no deadline, no budget"_s, u"Recommended: "_s,
              u"Cheapest within limits: "_s, u"Fastest within limits: "_s, u"USD/GPU-h"_s, u"evidence"_s,
              u"typical PyTorch stack"_s, u"Why: "_s})
            QVERIFY2(r.out.contains(needle), qPrintable(needle + u"\n"_s + r.out));
        const CliRun tuned =
            cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"vit-b16"_s, u"--stack"_s, u"tuned"_s});
        QVERIFY2(tuned.out.contains(u"vendor-tuned stack"_s), qPrintable(tuned.out));
    }

    void nothingFitsSuggestsFlagsThatFit()
    {
        const CliRun r = cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"resnet50"_s, u"--deadline"_s,
                                           u"0.5"_s, u"--budget"_s, u"3"_s});
        QCOMPARE(r.rc, 0);
        QVERIFY2(r.out.contains(u"No offer fits: "_s), qPrintable(r.out));
        QVERIFY(!r.out.contains(u"Recommended: "_s));
        const QRegularExpression flags(u"\\[(--deadline [0-9.]+)?\\s*(--budget [0-9]+)?\\]"_s);
        const QRegularExpressionMatch m = flags.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QStringList args{u"answer"_s, u"--workload"_s, u"resnet50"_s};
        args += m.captured(1).isEmpty() ? QStringList{u"--deadline"_s, u"0.5"_s} : m.captured(1).split(u' ');
        args += m.captured(2).isEmpty() ? QStringList{u"--budget"_s, u"3"_s} : m.captured(2).split(u' ');
        const CliRun moved = cli(m_db.path(), args);
        QVERIFY2(moved.out.contains(u"Recommended: "_s), qPrintable(args.join(u' ') + u"\n"_s + moved.out));

        const CliRun j = cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"resnet50"_s, u"--deadline"_s,
                                           u"0.5"_s, u"--format"_s, u"json"_s});
        const QJsonObject a = object(j);
        QVERIFY(a.value(u"recommended").isNull());
        QVERIFY(a.value(u"nothing_fits").toString().contains(u"deadline"_s));
        const QJsonArray moves = a.value(u"limit_moves").toArray();
        QCOMPARE(moves.size(), 1);
        const QJsonObject move = moves.at(0).toObject();
        QVERIFY(move.value(u"deadline_hours").toDouble() >=
                move.value(u"point").toObject().value(u"total_h").toDouble());
        QVERIFY(move.value(u"budget_usd").isNull());
    }

    void inAnotherCurrency()
    {
        const CliRun r =
            cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"resnet50"_s, u"--currency"_s, u"EUR"_s});
        QCOMPARE(r.rc, 0);
        QVERIFY2(r.out.contains(u"Prices in EUR: 1 USD = "_s), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"EUR/GPU-h"_s) && !r.out.contains(u"USD/GPU-h"_s), qPrintable(r.out));
        const CliRun json = cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"resnet50"_s, u"--currency"_s,
                                              u"EUR"_s, u"--format"_s, u"json"_s});
        QCOMPARE(json.rc, 2);
        QCOMPARE(
            cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"resnet50"_s, u"--currency"_s, u"XYZ"_s}).rc, 2);
    }

    void badFormatIsAUsageError()
    {
        const CliRun r =
            cli(m_db.path(), {u"answer"_s, u"--workload"_s, u"resnet50"_s, u"--format"_s, u"xml"_s});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(u"xml"_s), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliAnswer)
#include "test_clianswer.moc"
