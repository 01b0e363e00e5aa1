// appendNumberG writes the bytes of QString::number(v, 'g', precision) without Qt's conversions: the
// fingerprint of every imported snapshot (its checksum, "unchanged" detection) is made of these numbers, so
// one differing byte would make an unchanged download count as a change.
#include "util/numbertext.h"

#include <QString>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace gf;

class TestNumberText final : public QObject
{
    Q_OBJECT

    static QByteArray mine(double v, int precision)
    {
        std::string out = "x";
        appendNumberG(out, v, precision);
        return QByteArray::fromStdString(out.substr(1)); // appended, not replaced
    }
    static bool same(double v, int precision, int *failures)
    {
        const QByteArray qt = QString::number(v, 'g', precision).toUtf8();
        const QByteArray got = mine(v, precision);
        if (qt == got)
            return true;
        if ((*failures)++ < 10)
            qWarning("%.17g precision %d: Qt %s, appendNumberG %s", v, precision, qt.constData(),
                     got.constData());
        return false;
    }

private Q_SLOTS:
    void specialValuesAsQt()
    {
        int failures = 0;
        const double values[] = {0.0,
                                 -0.0,
                                 1,
                                 -1,
                                 0.1,
                                 0.5,
                                 1e-5,
                                 1e-4,
                                 9.99999999999e-5,
                                 1e12,
                                 999999999999.0,
                                 999999999999.5, // exactly halfway at 12 digits: Qt rounds away from zero
                                 704837339352.5,
                                 5395013852665000.0,
                                 -7324610423385.0,
                                 123456789012.0,
                                 1234567890123.0,
                                 1e15,
                                 1e16,
                                 1e21,
                                 1e-300,
                                 5e-324,
                                 std::numeric_limits<double>::max(),
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::quiet_NaN(),
                                 0.246676,
                                 64.4,
                                 0.30000000000000004,
                                 2.5e-7};
        for (double v : values)
            for (int p = 1; p <= 17; ++p)
                same(v, p, &failures);
        QCOMPARE(failures, 0);
    }

    void randomValuesAsQt()
    {
        int failures = 0;
        std::mt19937_64 rnd(7);
        std::uniform_real_distribution<double> unit(0, 1);
        std::uniform_int_distribution<int> exponent(-30, 30);
        for (int i = 0; i < 200000; ++i) {
            double v = unit(rnd) * std::pow(10.0, exponent(rnd));
            if (i % 3 == 0)
                v = std::round(v * 1e6) / 1e6; // prices as the APIs give them
            if (i % 5 == 0)
                v = -v;
            same(v, 12, &failures);
            same(v, 1 + i % 17, &failures);
        }
        for (int i = 0; i < 50000; ++i) { // any bit pattern
            const quint64 bits = rnd();
            double v;
            std::memcpy(&v, &bits, sizeof v);
            same(v, 12, &failures);
        }
        // Values with few digits (prices, sizes, scores as the APIs give them) at every exponent and
        // precision: written from their shortest digits when these are no more than the precision.
        for (int i = 0; i < 60000; ++i) {
            const int digits = 1 + i % 17;
            std::uniform_int_distribution<qint64> mantissa(0,
                                                           static_cast<qint64>(std::pow(10.0, digits)) - 1);
            const double v = static_cast<double>(mantissa(rnd)) * std::pow(10.0, exponent(rnd) % 25);
            same(i % 2 ? v : -v, 1 + (i / 17) % 17, &failures);
            same(v, 12, &failures);
        }
        for (qint64 k = 0; k < 50000; ++k) { // values exactly halfway at the 12th digit
            const double v =
                static_cast<double>(k * 1000 + 500) * std::pow(10.0, static_cast<int>(k % 20) - 10);
            same(v, 12, &failures);
        }
        QCOMPARE(failures, 0);
    }
};

QTEST_GUILESS_MAIN(TestNumberText)
#include "test_numbertext.moc"
