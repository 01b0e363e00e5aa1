#include "util/jsonstream.h"

#include <QTest>

#include <random>
#include <string>

using namespace gf;
using Action = JsonHandler::Action;

namespace {

/// Records every event as text; can be told to skip at a given key.
class Trace final : public JsonHandler
{
public:
    std::string out;
    std::string skipValueAt;  ///< key whose value is skipped
    std::string skipRestAt;   ///< key after which the rest of the object is skipped
    bool skipObjects = false; ///< skip every nested object at depth >= 2
    int depth = 0;

    Action startObject() override
    {
        if (skipObjects && depth >= 1) {
            out += "{skipped}";
            return Action::SkipValue;
        }
        ++depth;
        out += '{';
        return Action::Continue;
    }
    Action endObject() override
    {
        --depth;
        out += '}';
        return Action::Continue;
    }
    Action startArray() override
    {
        ++depth;
        out += '[';
        return Action::Continue;
    }
    Action endArray() override
    {
        --depth;
        out += ']';
        return Action::Continue;
    }
    Action key(std::string_view k) override
    {
        out += "K(" + std::string(k) + ")";
        if (!skipValueAt.empty() && k == skipValueAt)
            return Action::SkipValue;
        if (!skipRestAt.empty() && k == skipRestAt)
            return Action::SkipRest;
        return Action::Continue;
    }
    Action string(std::string_view s) override
    {
        out += "S(" + std::string(s) + ")";
        return Action::Continue;
    }
    Action number(std::string_view s) override
    {
        out += "N(" + std::string(s) + ")";
        return Action::Continue;
    }
    Action boolean(bool b) override
    {
        out += b ? "T" : "F";
        return Action::Continue;
    }
    Action null() override
    {
        out += "Z";
        return Action::Continue;
    }
};

std::string run(const std::string &doc, const std::vector<std::size_t> &cuts, Trace &t,
                QString *error = nullptr)
{
    JsonStreamParser p(t);
    std::size_t prev = 0;
    bool ok = true;
    for (std::size_t c : cuts) {
        ok = ok && p.feed(doc.data() + prev, c - prev);
        prev = c;
    }
    ok = ok && p.feed(doc.data() + prev, doc.size() - prev) && p.finish();
    if (!ok && error)
        *error = p.errorString();
    return ok ? t.out : std::string("ERROR");
}

// The document, written without a raw string (moc does not lex those with backslashes).
const std::string kDoc = " {\"a\": [1, -2.5e+3, 0, true, false, null, \"x\\\"y\\\\z\\/\\b\\f\\n\\r\\t\", "
                         "\"\\u00e9\\ud83d\\ude00\\u20ac\"],\n  \"nested\": {\"k\": {\"deep\": [[], {}]}, "
                         "\"s\": \"plain\"}, \"num\": 123456789012, \"e\": \"\" } ";

/// A random JSON value with long strings (brackets, quotes, backslash runs and UTF-8 inside), whitespace
/// runs and nesting: what the 64-byte skip meets in a real file and at its block edges.
void randomValue(std::mt19937 &rng, std::string &out, int depth)
{
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const auto space = [&] {
        out.append(static_cast<std::size_t>(pick(3) == 0 ? pick(20) : pick(2)), pick(4) ? ' ' : '\n');
    };
    const int kind = depth > 6 ? 2 + pick(2) : pick(5);
    if (kind == 0 || kind == 1) {
        const bool object = kind == 0;
        out += object ? '{' : '[';
        const int n = pick(6);
        for (int i = 0; i < n; ++i) {
            if (i)
                out += ',';
            space();
            if (object) {
                out += "\"k" + std::to_string(pick(50)) + "\"";
                space();
                out += ':';
                space();
            }
            randomValue(rng, out, depth + 1);
            space();
        }
        out += object ? '}' : ']';
    } else if (kind == 2) {
        out += '"';
        const int n = pick(4) == 0 ? pick(200) : pick(12);
        static const char *const pieces[] = {"a",    "b",   " ",       "{",        "}",
                                             "[",    "]",   ",",       ":",        "\\\"",
                                             "\\\\", "\\n", "\\u00e9", "\xC3\xA9", "\xE2\x82\xAC",
                                             "xyz"};
        for (int i = 0; i < n; ++i)
            out += pieces[pick(16)];
        out += '"';
    } else {
        static const char *const scalars[] = {"1", "-2.5e3", "true", "false", "null", "0.0666"};
        out += scalars[pick(6)];
    }
}

} // namespace

class TestJsonStream final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everySplitGivesTheSameEvents()
    {
        Trace whole;
        const std::string expected = run(kDoc, {}, whole);
        QVERIFY(expected != "ERROR");
        QVERIFY(expected.find("S(x\"y\\z/\b\f\n\r\t)") != std::string::npos);
        QVERIFY(expected.find("S(\xC3\xA9\xF0\x9F\x98\x80\xE2\x82\xAC)") != std::string::npos);
        QVERIFY(expected.find("N(-2.5e+3)") != std::string::npos);
        for (std::size_t i = 1; i < kDoc.size(); ++i) {
            Trace t;
            QCOMPARE(run(kDoc, {i}, t), expected);
        }
        // One byte at a time.
        std::vector<std::size_t> cuts;
        for (std::size_t i = 1; i < kDoc.size(); ++i)
            cuts.push_back(i);
        Trace t;
        QCOMPARE(run(kDoc, cuts, t), expected);
    }

    // The skip reads 64-byte blocks when it can and bytes at the edges: fed whole (blocks) and one byte at
    // a time (bytes only), every document gives the same events, or the same error at the same place;
    // also once broken by a random byte (a stray bracket, quote, comma or backslash) and with a depth
    // limit that skipped values reach.
    void blockSkipMatchesByteSkip()
    {
        std::mt19937 rng(20261127);
        int errors = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string doc = "{\"head\": 1, \"body\": [";
            const int n = 1 + static_cast<int>(rng() % 6);
            for (int i = 0; i < n; ++i) {
                if (i)
                    doc += ", ";
                randomValue(rng, doc, 1);
            }
            doc += "], \"tail\": {\"x\": [1, 2]}}";
            if (round % 2) {
                static const char breakers[] = "{}[]\",\\: ";
                doc.insert(rng() % doc.size(), 1, breakers[rng() % (sizeof breakers - 1)]);
            }
            Trace a, b;
            a.skipObjects = b.skipObjects = round % 3 != 0;
            a.skipValueAt = b.skipValueAt = round % 3 == 1 ? "body" : "";
            a.skipRestAt = b.skipRestAt = round % 5 == 0 ? "k7" : "";
            JsonStreamParser::Limits limits;
            limits.maxDepth = round % 4 == 0 ? 5 : 512;
            JsonStreamParser whole(a, limits), bytes(b, limits);
            const bool okWhole = whole.feed(doc) && whole.finish();
            bool okBytes = true;
            for (std::size_t i = 0; i < doc.size() && okBytes; ++i)
                okBytes = bytes.feed(doc.data() + i, 1);
            okBytes = okBytes && bytes.finish();
            QCOMPARE(okWhole, okBytes);
            // A word or number cut by the inserted byte is reported where its step began, which depends
            // on the split (not the skip's doing): compare only what was wrong for those.
            const bool tokenError = whole.errorString().contains(QLatin1String("unexpected word")) ||
                                    whole.errorString().contains(QLatin1String("invalid number"));
            if (tokenError)
                QCOMPARE(whole.errorString().section(QLatin1String(": "), 1),
                         bytes.errorString().section(QLatin1String(": "), 1));
            else
                QCOMPARE(whole.errorString(), bytes.errorString());
            QCOMPARE(a.out, b.out);
            errors += okWhole ? 0 : 1;
        }
        QVERIFY(errors > 300); // the broken documents do reach the error paths
        QVERIFY(errors < 2700);
    }

    void skipValueAndRest()
    {
        Trace t;
        t.skipValueAt = "a";
        const std::string r = run(kDoc, {17}, t);
        QVERIFY(r.find("S(x") == std::string::npos); // the array was skipped
        QVERIFY(r.find("K(nested)") != std::string::npos);
        Trace rest;
        rest.skipRestAt = "k";
        const std::string r2 = run(kDoc, {40, 41}, rest);
        // After "k" the rest of "nested" (its value and "s") is skipped, then its end is reported.
        QVERIFY(r2.find("K(deep)") == std::string::npos);
        QVERIFY(r2.find("S(plain)") == std::string::npos);
        QVERIFY(r2.find("K(k)}K(num)") != std::string::npos);
        Trace objects;
        objects.skipObjects = true;
        const std::string r3 =
            run("{\"x\": {\"y\": \"}{\\\"]\"}, \"z\": [{\"w\": 1}], \"v\": 2}", {5, 9}, objects);
        QCOMPARE(r3, std::string("{K(x){skipped}K(z)[{skipped}]K(v)N(2)}"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QString>("expected");
        QTest::newRow("trailing comma") << QByteArray(R"({"a":1,})") << QStringLiteral("trailing comma");
        QTest::newRow("truncated") << QByteArray(R"({"a":[1,2)") << QStringLiteral("incomplete");
        QTest::newRow("empty") << QByteArray("  ") << QStringLiteral("empty document");
        QTest::newRow("leading zero") << QByteArray("[01]") << QStringLiteral("invalid number");
        QTest::newRow("bad escape") << QByteArray("[\"\\q\"]") << QStringLiteral("invalid escape");
        QTest::newRow("control char") << QByteArray("[\"a\x01\"]") << QStringLiteral("control character");
        QTest::newRow("bad word") << QByteArray("[tru]") << QStringLiteral("unexpected word");
        QTest::newRow("extra data") << QByteArray("{} {}") << QStringLiteral("after the end");
        QTest::newRow("mismatch") << QByteArray("[1}") << QStringLiteral("does not close");
        QTest::newRow("bad hex") << QByteArray("[\"\\u12x4\"]") << QStringLiteral("invalid \\u escape");
        QTest::newRow("missing colon") << QByteArray(R"({"a" 1})") << QStringLiteral("expected ':'");
        QTest::newRow("garbage") << QByteArray("<html>") << QStringLiteral("unexpected character '<'");
    }

    void errors()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QString, expected);
        Trace t;
        QString error;
        QCOMPARE(run(doc.toStdString(), {}, t, &error), std::string("ERROR"));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(error.startsWith(QStringLiteral("line 1, column")), qPrintable(error));
    }

    void errorPositionCountsLines()
    {
        Trace t;
        QString error;
        run("{\n  \"a\": 1,\n  \"b\": x\n}", {5}, t, &error);
        QVERIFY2(error.startsWith(QStringLiteral("line 3, column 8")), qPrintable(error));
    }

    void limits()
    {
        Trace t;
        JsonStreamParser::Limits limits;
        limits.maxDepth = 4;
        limits.maxTokenBytes = 8;
        JsonStreamParser deep(t, limits);
        QVERIFY(!deep.feed(std::string_view("[[[[[1]]]]]")));
        QVERIFY(deep.errorString().contains(QStringLiteral("nesting deeper")));
        Trace t2;
        JsonStreamParser longString(t2, limits);
        QVERIFY(!(longString.feed(std::string_view(R"(["abcdefghijkl"])")) && longString.finish()));
        QVERIFY2(longString.errorString().contains(QStringLiteral("longer than 8 bytes")),
                 qPrintable(longString.errorString()));
    }

    void abortStops()
    {
        class Stop final : public JsonHandler
        {
        public:
            Action key(std::string_view) override { return Action::Abort; }
        } stop;
        JsonStreamParser p(stop);
        QVERIFY(!p.feed(std::string_view(R"({"a": 1})")));
        QVERIFY(p.aborted());
        QVERIFY(!p.feed(std::string_view("garbage"))); // stays failed
    }

    void numbers()
    {
        double v = 0;
        QVERIFY(parseJsonNumber("12.2400000000", &v));
        QCOMPARE(v, 12.24);
        QVERIFY(parseDecimal("0.0666", &v));
        QCOMPARE(v, 0.0666);
        QVERIFY(!parseDecimal("N/A*", &v));
        QVERIFY(!parseDecimal("Inf", &v));
        QVERIFY(!parseDecimal("", &v));
    }
};

QTEST_APPLESS_MAIN(TestJsonStream)
#include "test_jsonstream.moc"
