// CSV reading benchmark (a program, not a test: it prints figures and asserts nothing).
//
// Measures, in memory (no disk, no SQLite), the two CSV readers' throughput:
//   1. the AWS price list CSV flavour of AwsOfferStream (streamed in 1 MiB chunks, as a download):
//      the rows of the real sample in tests/fixtures/providers/aws/ repeated (new SKUs) to --aws-mb,
//      one in 50 rewritten to a GPU row the import keeps;
//   2. parseCsv on the GPU Frontier catalog CSV: resources/catalog/aws.csv's rows repeated to
//      --catalog-mb.
// Prints the best of --runs runs in MB/s.
//
// Usage: bench_csv [--aws-mb N] [--catalog-mb N] [--runs N]
#include "domain/providertables.h"
#include "providers/awsoffers.h"
#include "util/csv.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

using namespace gf;

namespace {

QByteArray readSourceFile(const QString &relative)
{
    // The source tree, from this file's path (benchmarks are run from the build folder).
    const QDir root = QFileInfo(QString::fromUtf8(__FILE__)).dir().filePath(QStringLiteral("../.."));
    QFile f(root.filePath(relative));
    if (!f.open(QIODevice::ReadOnly))
        std::fprintf(stderr, "cannot read %s\n", qPrintable(f.fileName()));
    return f.readAll();
}

QByteArray makeAwsCsv(qint64 targetBytes)
{
    const QList<QByteArray> lines =
        readSourceFile(QStringLiteral("tests/fixtures/providers/aws/"
                                      "offer-index.csv.global-sample-20250912.ec2-priceit.csv"))
            .split('\n');
    QByteArray out;
    out.reserve(targetBytes + (1 << 20));
    for (int i = 0; i < 6 && i < lines.size(); ++i)
        out += lines.at(i) + '\n';
    QList<QByteArray> rows;
    for (qsizetype i = 6; i < lines.size(); ++i)
        if (lines.at(i).size() > 10)
            rows.append(lines.at(i).mid(lines.at(i).indexOf(','))); // without the SKU
    if (rows.isEmpty())
        return {};
    QByteArray kept = rows.first();
    for (const QByteArray &r : rows)
        if (r.contains("g5.48xlarge"))
            kept = r;
    kept.replace("\"SUSE\"", "\"Linux\"")
        .replace("\"Dedicated\"", "\"Shared\"")
        .replace("\"UnusedCapacityReservation\"", "\"Used\"")
        .replace("\"RunInstances:000g\"", "\"RunInstances\"");
    for (qint64 n = 0; out.size() < targetBytes; ++n) {
        out += "\"SKU" + QByteArray::number(n) + '"';
        out += n % 50 == 0 ? kept : rows.at(static_cast<qsizetype>(n % rows.size()));
        out += '\n';
    }
    return out;
}

QString makeCatalogCsv(qint64 targetBytes)
{
    // The comment lines and the header once, then the data rows again and again.
    const QString text = QString::fromUtf8(readSourceFile(QStringLiteral("resources/catalog/aws.csv")));
    const qsizetype header = text.indexOf(QStringLiteral("\nprovider,"));
    const qsizetype body = text.indexOf(u'\n', header + 1) + 1;
    if (header < 0 || body <= 0)
        return {};
    QString out = text.left(body);
    const QStringView rows = QStringView(text).mid(body);
    while (out.size() < targetBytes)
        out += rows;
    return out;
}

template <class F> double bestSeconds(int runs, F &&f)
{
    double best = 1e300;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        f();
        best = std::min(best, static_cast<double>(t.nsecsElapsed()) / 1e9);
    }
    return best;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    qint64 awsMb = 300, catalogMb = 50;
    int runs = 3;
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args.at(i) == u"--aws-mb" && i + 1 < args.size())
            awsMb = args.at(++i).toLongLong();
        else if (args.at(i) == u"--catalog-mb" && i + 1 < args.size())
            catalogMb = args.at(++i).toLongLong();
        else if (args.at(i) == u"--runs" && i + 1 < args.size())
            runs = std::max(1, args.at(++i).toInt());
        else {
            std::fprintf(stderr, "usage: bench_csv [--aws-mb N] [--catalog-mb N] [--runs N]\n");
            return 2;
        }
    }

    const QByteArray aws = makeAwsCsv(awsMb * 1000 * 1000);
    qsizetype offers = -1;
    const double awsS = bestSeconds(runs, [&] {
        AwsOfferStream s(ProviderTables::builtin(), QStringLiteral("bench.csv"));
        s.begin();
        constexpr qsizetype kChunk = 1 << 20;
        for (qsizetype i = 0; i < aws.size(); i += kChunk)
            if (!s.write(aws.constData() + i, static_cast<std::size_t>(std::min(kChunk, aws.size() - i))))
                break;
        auto r = s.finish();
        if (!r)
            std::fprintf(stderr, "%s\n", qPrintable(r.error().text()));
        offers = r ? r.value().offers.size() : -1;
    });
    const double awsMB = static_cast<double>(aws.size()) / 1e6;
    std::printf("AWS price list CSV: %.0f MB, %lld offers, best of %d: %.2f s, %.0f MB/s\n", awsMB,
                static_cast<long long>(offers), runs, awsS, awsMB / awsS);

    const QString catalog = makeCatalogCsv(catalogMb * 1000 * 1000);
    qsizetype records = -1;
    const double catS = bestSeconds(runs, [&] {
        auto r = parseCsv(catalog);
        records = r ? r.value().records.size() : -1;
    });
    const double catMB = static_cast<double>(catalog.toUtf8().size()) / 1e6;
    std::printf("catalog CSV (parseCsv): %.0f MB, %lld records, best of %d: %.2f s, %.0f MB/s\n", catMB,
                static_cast<long long>(records), runs, catS, catMB / catS);
    return offers > 0 && records > 0 ? 0 : 1;
}
