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

    // The streaming reader gives the same records whatever the chunks (also a quote, a doubled quote
    // or a CRLF cut in two), with the line each record starts on.
    void streamingChunks()
    {
        const QByteArray text = "\"h1\",\"h2\"\r\n\"a\"\"b\",\"two\r\nlines\"\r\n\r\nplain,\"\"\r\nlast,x";
        const QList<QPair<qint64, QStringList>> expected{
            {1, {QStringLiteral("h1"), QStringLiteral("h2")}},
            {2, {QStringLiteral("a\"b"), QStringLiteral("two\r\nlines")}},
            {5, {QStringLiteral("plain"), QString()}},
            {6, {QStringLiteral("last"), QStringLiteral("x")}}};
        for (qsizetype chunk : {qsizetype(1), qsizetype(2), qsizetype(3), qsizetype(7), text.size()}) {
            QList<QPair<qint64, QStringList>> got;
            CsvRecordReader reader([&](std::span<const std::string> fields, qint64 line) {
                QStringList f;
                for (const std::string &x : fields)
                    f.append(QString::fromStdString(x));
                got.append({line, f});
                return true;
            });
            for (qsizetype i = 0; i < text.size(); i += chunk)
                QVERIFY(reader.write(text.constData() + i,
                                     static_cast<std::size_t>(std::min(chunk, text.size() - i))));
            QVERIFY(reader.finish());
            QCOMPARE(got, expected);
        }
    }

    void streamingErrors()
    {
        int records = 0;
        auto count = [&](std::span<const std::string>, qint64) { return ++records < 2; };
        CsvRecordReader longField(count, 8);
        QVERIFY(!longField.write("a,123456789\n", 12));
        QVERIFY2(longField.error().contains(QStringLiteral("longer than 8 bytes on line 1")),
                 qPrintable(longField.error()));
        QVERIFY(!longField.write("b\n", 2)); // stays failed
        CsvRecordReader strict(count);
        QVERIFY(!strict.write("a,b\"c\n", 7));
        QVERIFY(strict.error().contains(QStringLiteral("quote inside")));
        CsvRecordReader open(count);
        QVERIFY(open.write("a,\"b", 4));
        QVERIFY(!open.finish());
        QVERIFY(open.error().contains(QStringLiteral("not closed")));
        // The handler stops the reading: false, and no error of the reader's own.
        records = 0;
        CsvRecordReader stop(count);
        QVERIFY(!stop.write("1\n2\n3\n", 6));
        QCOMPARE(records, 2);
        QVERIFY(stop.error().isEmpty());
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
