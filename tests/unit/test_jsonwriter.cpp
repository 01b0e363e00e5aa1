// The streaming JSON writer writes the same bytes as QJsonDocument::toJson(Indented) followed by
// escapeJsonUnprintable, for any document: numbers of every magnitude, strings with controls, bidi
// characters, surrogate pairs and lone surrogates, empty and nested containers, streamed members.
#include "util/jsonwriter.h"
#include "util/printable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <limits>

using namespace gf;

namespace {

class StringSink final : public ByteSink
{
public:
    bool write(const char *data, std::size_t size) override
    {
        bytes.append(data, static_cast<qsizetype>(size));
        return true;
    }
    QByteArray bytes;
};

class FailingSink final : public ByteSink
{
public:
    bool write(const char *, std::size_t) override { return ++calls < 2; }
    QString errorString() const override { return QStringLiteral("disk full"); }
    int calls = 0;
};

QByteArray reference(const QJsonValue &v)
{
    const QJsonDocument doc = v.isObject() ? QJsonDocument(v.toObject()) : QJsonDocument(v.toArray());
    return escapeJsonUnprintable(doc.toJson(QJsonDocument::Indented));
}

QByteArray written(const QJsonValue &v, qsizetype chunk = 64)
{
    StringSink sink;
    {
        BufferedOutput out(sink, chunk);
        JsonWriter w(out);
        w.value(v);
    }
    return sink.bytes;
}

double randomNumber(QRandomGenerator &rng)
{
    switch (rng.bounded(8)) {
    case 0:
        return double(rng.bounded(2000000)) - 1000000;
    case 1:
        return std::round(rng.generateDouble() * 1e6) / 1000.0;
    case 2:
        return (rng.generateDouble() - 0.5) * std::pow(10.0, rng.bounded(-320, 308));
    case 3:
        return std::ldexp(1.0, rng.bounded(40, 64)) + double(rng.bounded(3)) - 1;
    case 4: {
        static const double specials[] = {0.0,
                                          -0.0,
                                          1e15,
                                          1e16,
                                          1e17,
                                          1e21,
                                          9007199254740992.0,
                                          9007199254740993.0,
                                          -9007199254740992.0,
                                          1e-5,
                                          0.0001,
                                          5e-324,
                                          std::numeric_limits<double>::max(),
                                          123456789012345678.0,
                                          0.1,
                                          2.5};
        return specials[rng.bounded(int(std::size(specials)))];
    }
    default:
        return rng.generateDouble() * std::pow(10.0, rng.bounded(-8, 20));
    }
}

QString randomString(QRandomGenerator &rng)
{
    static const char16_t pool[] = {u'a',   u'Z',   u' ',   u'"',   u'\\',  u'/',   0x00,   0x01,   0x08,
                                    0x09,   0x0A,   0x0C,   0x0D,   0x1B,   0x1F,   0x7F,   0x80,   0x9B,
                                    0x9F,   0xA0,   0xE9,   0x3B1,  0x4E2D, 0x061C, 0x200E, 0x2028, 0x2029,
                                    0x202E, 0x2066, 0x2069, 0xFEFF, 0xFFFD, 0xD83D, 0xDE00, 0xDC00, 0xD800};
    QString s;
    const int n = rng.bounded(12);
    for (int i = 0; i < n; ++i)
        s.append(QChar(pool[rng.bounded(int(std::size(pool)))]));
    return s;
}

QJsonValue randomValue(QRandomGenerator &rng, int depth)
{
    const int kind = rng.bounded(depth > 3 ? 5 : 7);
    switch (kind) {
    case 0:
        return QJsonValue(QJsonValue::Null);
    case 1:
        return rng.bounded(2) == 1;
    case 2:
        return randomNumber(rng);
    case 3:
        return qint64(rng.generate64());
    case 4:
        return randomString(rng);
    case 5: {
        QJsonArray a;
        const int n = rng.bounded(5);
        for (int i = 0; i < n; ++i)
            a.append(randomValue(rng, depth + 1));
        return a;
    }
    default: {
        QJsonObject o;
        const int n = rng.bounded(6);
        for (int i = 0; i < n; ++i)
            o.insert(rng.bounded(3) == 0 ? randomString(rng) : QStringLiteral("k%1").arg(rng.bounded(20)),
                     randomValue(rng, depth + 1));
        return o;
    }
    }
}

/// Writes `v` with the Latin-1 calls where they apply (keys of plain ASCII, strings of Latin-1), the
/// way the documented shapes are written.
void writeLatin1(JsonWriter &w, const QJsonValue &v)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        w.beginObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QByteArray key = it.key().toLatin1();
            w.key(QLatin1StringView(key));
            writeLatin1(w, it.value());
        }
        w.endObject();
    } else if (v.isArray()) {
        w.beginArray();
        for (const QJsonValue &x : v.toArray())
            writeLatin1(w, x);
        w.endArray();
    } else if (v.isString() && QString::fromLatin1(v.toString().toLatin1()) == v.toString()) {
        const QByteArray text = v.toString().toLatin1();
        w.value(QLatin1StringView(text));
    } else {
        w.value(v);
    }
}

/// A string of up to `max` characters, mostly plain ASCII (long runs) with escapes and non-ASCII
/// characters among them.
QString longString(QRandomGenerator &rng, int max)
{
    static const char16_t rare[] = {u'"', u'\\',  0x01,   0x0A,   0x7F,  0x80,
                                    0xE9, 0x4E2D, 0x2028, 0xD83D, 0xDE00};
    QString s;
    const int n = rng.bounded(max);
    for (int i = 0; i < n; ++i)
        s.append(rng.bounded(40) == 0 ? QChar(rare[rng.bounded(int(std::size(rare)))])
                                      : QChar(char16_t(0x20 + rng.bounded(95))));
    return s;
}

} // namespace

class TestJsonWriter final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void numbersAsQt()
    {
        QRandomGenerator rng(7);
        for (int i = 0; i < 200000; ++i) {
            const double v = randomNumber(rng);
            QJsonArray a;
            a.append(v);
            const QByteArray qt = QJsonDocument(a).toJson(QJsonDocument::Compact);
            QCOMPARE(JsonWriter::numberText(v), qt.mid(1, qt.size() - 2));
        }
        QCOMPARE(JsonWriter::numberText(std::nan("")), QByteArray("null"));
        QCOMPARE(JsonWriter::numberText(std::numeric_limits<double>::infinity()), QByteArray("null"));
    }

    void randomDocumentsAsQt()
    {
        QRandomGenerator rng(11);
        for (int i = 0; i < 3000; ++i) {
            QJsonValue v = randomValue(rng, 0);
            if (!v.isObject() && !v.isArray())
                v = QJsonArray{v};
            const QByteArray expected = reference(v);
            QCOMPARE(written(v, 1 + rng.bounded(200)), expected);
        }
    }

    void longStringsAsQt()
    {
        // Runs of plain ASCII longer than the writer's 256-byte buffer, escapes at its edges.
        QRandomGenerator rng(5);
        for (int i = 0; i < 300; ++i) {
            QJsonArray a;
            for (int k = 0; k < 4; ++k)
                a.append(longString(rng, 2000));
            QCOMPARE(written(a, 1 + rng.bounded(500)), reference(a));
        }
    }

    void latin1KeysAndValuesAsQt()
    {
        // key(QLatin1StringView) and value(QLatin1StringView), as the points and offers are written:
        // shallow and deep (past 16 levels), short and long keys (past 64 characters), texts of plain
        // ASCII and of other Latin-1 characters.
        QRandomGenerator rng(13);
        for (int i = 0; i < 400; ++i) {
            QJsonValue v = QJsonObject{{QStringLiteral("x"), longString(rng, 80)}};
            const int depth = rng.bounded(22);
            for (int d = 0; d < depth; ++d) {
                QJsonObject o;
                const QString key = rng.bounded(4) == 0 ? QString(65 + rng.bounded(40), QChar(u'k'))
                                                        : QStringLiteral("k%1").arg(rng.bounded(50));
                o.insert(key, v);
                o.insert(QStringLiteral("aa"), QString(QString(QChar(char16_t(0xE9))) + longString(rng, 30)));
                o.insert(QStringLiteral("zz"),
                         QJsonArray{QStringLiteral("on-demand"), QStringLiteral("spot"), 1});
                v = rng.bounded(3) == 0 ? QJsonValue(QJsonArray{o, QJsonObject()}) : QJsonValue(o);
            }
            if (!v.isObject() && !v.isArray())
                v = QJsonArray{v};
            StringSink sink;
            {
                BufferedOutput out(sink, 1 + rng.bounded(300));
                JsonWriter w(out);
                writeLatin1(w, v);
            }
            QCOMPARE(sink.bytes, reference(v));
        }
    }

    void emptyAndNested()
    {
        for (const QJsonValue &v : {QJsonValue(QJsonObject()), QJsonValue(QJsonArray()),
                                    QJsonValue(QJsonObject{{QStringLiteral("a"), QJsonObject()},
                                                           {QStringLiteral("b"), QJsonArray()},
                                                           {QStringLiteral("c"), QJsonArray{QJsonArray{}}}})})
            QCOMPARE(written(v), reference(v));
    }

    void streamedMembersTakeTheirSortedPlace()
    {
        QJsonObject small{{QStringLiteral("calibration"), 1},
                          {QStringLiteral("counts"), QJsonObject{{QStringLiteral("n"), 2}}},
                          {QStringLiteral("workload"), QStringLiteral("w")}};
        QJsonArray points;
        for (int i = 0; i < 3; ++i)
            points.append(QJsonObject{{QStringLiteral("i"), i}, {QStringLiteral("x"), 0.5 * i}});
        QJsonObject whole = small;
        whole.insert(QStringLiteral("points"), points);
        whole.insert(QStringLiteral("zz"), true);

        StringSink sink;
        {
            BufferedOutput out(sink, 16);
            JsonWriter w(out);
            w.writeObjectWith(small, {{QLatin1StringView("zz"), [&] { w.value(true); }},
                                      {QLatin1StringView("points"), [&] {
                                           w.beginArray();
                                           for (int i = 0; i < 3; ++i) {
                                               w.beginObject();
                                               w.key(QLatin1StringView("i"));
                                               w.value(i);
                                               w.key(QLatin1StringView("x"));
                                               w.value(0.5 * i);
                                               w.endObject();
                                           }
                                           w.endArray();
                                       }}});
        }
        QCOMPARE(sink.bytes, reference(whole));
    }

    void isoDatesAsQt()
    {
        // memberIsoDateOrNull writes what the QString of QDate::toString(Qt::ISODate) gives, null for an
        // invalid date or an empty text (years outside Qt's ISO range take Qt's own path).
        QList<QDate> dates{QDate(),
                           QDate(1, 1, 1),
                           QDate(9, 2, 3),
                           QDate(99, 10, 11),
                           QDate(999, 12, 31),
                           QDate(1000, 1, 1),
                           QDate(2026, 11, 27),
                           QDate(9999, 12, 31),
                           QDate(10000, 1, 1),
                           QDate(-1, 6, 15),
                           QDate(-4713, 1, 2),
                           QDate(2024, 2, 29)};
        QRandomGenerator rng(26);
        for (int i = 0; i < 2000; ++i)
            dates.append(QDate(1, 1, 1).addDays(rng.bounded(3652059)));
        for (const QDate &d : std::as_const(dates)) {
            const QString text = d.isValid() ? d.toString(Qt::ISODate) : QString();
            const QJsonObject expected{
                {QStringLiteral("d"), text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text)}};
            StringSink sink;
            {
                BufferedOutput out(sink, 5);
                JsonWriter w(out);
                w.beginObject();
                w.memberIsoDateOrNull(QLatin1StringView("d"), d);
                w.endObject();
            }
            QCOMPARE(sink.bytes, reference(expected));
        }
    }

    void sinkErrorStopsTheOutput()
    {
        FailingSink sink;
        BufferedOutput out(sink, 8);
        JsonWriter w(out);
        w.beginArray();
        for (int i = 0; i < 100; ++i)
            w.value(QStringLiteral("some text"));
        w.endArray();
        QVERIFY(!out.flush());
        QVERIFY(!out.ok());
        QCOMPARE(out.errorString(), QStringLiteral("disk full"));
        QCOMPARE(sink.calls, 2); // nothing more is written after the failure
    }

    void textStreamSinkKeepsSplitUtf8()
    {
        QString target;
        QTextStream stream(&target);
        TextStreamSink sink(stream);
        {
            BufferedOutput out(sink, 1); // every byte its own write: sequences are split
            out.appendText(QStringLiteral("α中😀 ok"));
        }
        stream.flush();
        QCOMPARE(target, QStringLiteral("α中😀 ok"));
    }
};

QTEST_APPLESS_MAIN(TestJsonWriter)
#include "test_jsonwriter.moc"
