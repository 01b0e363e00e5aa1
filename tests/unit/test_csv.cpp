#include "util/csv.h"

#include <QTest>

using namespace gf;

class TestCsv final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesValid_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("records");
        QTest::addColumn<QString>("lastField");
        QTest::newRow("plain") << QStringLiteral("a,b\n1,2\n") << 1 << QStringLiteral("2");
        QTest::newRow("crlf") << QStringLiteral("a,b\r\n1,2\r\n3,4\r\n") << 2 << QStringLiteral("4");
        QTest::newRow("no final newline") << QStringLiteral("a,b\n1,2") << 1 << QStringLiteral("2");
        QTest::newRow("quoted comma") << QStringLiteral("a,b\n1,\"x,y\"\n") << 1 << QStringLiteral("x,y");
        QTest::newRow("doubled quote")
            << QStringLiteral("a,b\n1,\"say \"\"hi\"\"\"\n") << 1 << QStringLiteral("say \"hi\"");
        QTest::newRow("embedded newline")
            << QStringLiteral("a,b\n1,\"two\nlines\"\n") << 1 << QStringLiteral("two\nlines");
        QTest::newRow("empty fields") << QStringLiteral("a,b,c\n,,\n") << 1 << QString();
        QTest::newRow("comments") << QStringLiteral("# provider: aws\n# x: y\na\n1\n") << 1
                                  << QStringLiteral("1");
        QTest::newRow("bom") << QStringLiteral("\uFEFFa\n1\n") << 1 << QStringLiteral("1");
        QTest::newRow("blank lines skipped") << QStringLiteral("a\n1\n\n2\n") << 2 << QStringLiteral("2");
    }
    void parsesValid()
    {
        QFETCH(QString, text);
        QFETCH(int, records);
        QFETCH(QString, lastField);
        auto r = parseCsv(text);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().records.size(), records);
        QCOMPARE(r.value().records.last().fields.last(), lastField);
    }

    void lineNumbers()
    {
        auto r = parseCsv(QStringLiteral("# c\nh1,h2\n1,\"a\nb\"\n3,4\n"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().comments, QStringList{QStringLiteral("c")});
        QCOMPARE(r.value().records.at(0).line, 3);
        QCOMPARE(r.value().records.at(1).line, 5);
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unclosed quote") << QStringLiteral("a,b\n1,\"open\n") << QStringLiteral("not closed");
        QTest::newRow("quote inside field")
            << QStringLiteral("a,b\n1,ab\"c\n") << QStringLiteral("quote inside");
        QTest::newRow("text after quote")
            << QStringLiteral("a,b\n1,\"ab\"c\n") << QStringLiteral("after a closing quote");
        QTest::newRow("empty") << QString() << QStringLiteral("no header");
    }
    void rejectsMalformed()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        auto r = parseCsv(text);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(message), qPrintable(r.error().message));
    }

    void quoting()
    {
        QCOMPARE(csvQuote(QStringLiteral("plain")), QStringLiteral("plain"));
        QCOMPARE(csvQuote(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
        QCOMPARE(csvQuote(QStringLiteral("a\"b")), QStringLiteral("\"a\"\"b\""));
        QCOMPARE(csvQuoteSafe(QStringLiteral("=cmd()")), QStringLiteral("'=cmd()"));
        QCOMPARE(csvQuoteSafe(QStringLiteral("@SUM(A1)")), QStringLiteral("'@SUM(A1)"));
        QCOMPARE(csvQuoteSafe(QStringLiteral("+1,2")), QStringLiteral("\"'+1,2\""));
        QCOMPARE(csvQuoteSafe(QStringLiteral("A100")), QStringLiteral("A100"));
        // Round trip through the parser.
        const QString row =
            csvQuoteSafe(QStringLiteral("x\"y,z")) + u',' + csvQuote(QStringLiteral("line\nbreak"));
        auto r = parseCsv(QStringLiteral("a,b\n") + row + u'\n');
        QVERIFY(r.ok());
        QCOMPARE(r.value().records.at(0).fields,
                 (QStringList{QStringLiteral("x\"y,z"), QStringLiteral("line\nbreak")}));
    }
};

QTEST_APPLESS_MAIN(TestCsv)
#include "test_csv.moc"
