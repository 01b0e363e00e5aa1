// Import benchmark (a program, not a test: it prints figures and asserts nothing).
//
// Generates an AWS EC2 offer file in the real format (products, OnDemand and Reserved terms, pretty
// printed like the price list) of at least 1 GB, then in the same run measures, each in a child
// process (wall time, and peak RSS from wait4()):
//   1. GPU Frontier's import of it: the streaming reader, validation and the SQLite transaction
//      (CatalogRefresher::importFiles, the code path of `gpufrontier-cli import --provider aws`);
//   2. python3 -c 'import json; json.load(open(F))' on the same file;
// and prints throughput (MB/s), peak RSS and the ratios. The file is deleted afterwards.
//
// Usage: bench_import [--size-mb N] [--dir DIR] [--keep] [--no-python]
#include "domain/providertables.h"
#include "refresh/catalogrefresher.h"
#include "store/catalogstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace gf;

namespace {

struct ChildResult
{
    int status = -1;
    double seconds = 0;
    double cpuSeconds = 0; ///< user + system: what the figure would be on an idle machine
    long maxRssKb = 0;
};

ChildResult runChild(const std::vector<std::string> &argv)
{
    std::vector<char *> args;
    for (const std::string &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    QElapsedTimer t;
    t.start();
    const pid_t pid = fork();
    if (pid == 0) {
        execvp(args[0], args.data());
        _exit(127);
    }
    ChildResult r;
    struct rusage ru = {};
    int status = 0;
    if (pid > 0 && wait4(pid, &status, 0, &ru) == pid) {
        r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.maxRssKb = ru.ru_maxrss;
        r.cpuSeconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                       static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    }
    r.seconds = static_cast<double>(t.nsecsElapsed()) / 1e9;
    return r;
}

/// Writes a realistic region offer file until it reaches `targetBytes`. Returns the GPU products kept
/// by the Linux/Shared/NA/Used filter.
int generate(const QString &path, qint64 targetBytes)
{
    FILE *f = std::fopen(path.toLocal8Bit().constData(), "wb");
    if (!f)
        return -1;
    std::string out;
    out.reserve(1 << 22);
    auto flush = [&] {
        std::fwrite(out.data(), 1, out.size(), f);
        out.clear();
    };
    const QStringList gpuTypes = [] {
        QStringList t;
        for (const char *x :
             {"p3.2xlarge", "p3.8xlarge", "p3.16xlarge", "p4d.24xlarge", "p5.48xlarge", "g4dn.xlarge",
              "g4dn.12xlarge", "g5.xlarge", "g5.48xlarge", "g6.xlarge", "g6e.xlarge", "g6e.48xlarge"})
            t.append(QString::fromLatin1(x));
        return t;
    }();
    const char *families[] = {"m5", "c5", "r5", "m6i", "c6i", "r6i", "t3", "i3", "x2iedn", "m7g"};
    const char *sizes[] = {"large",   "xlarge",   "2xlarge",  "4xlarge",
                           "8xlarge", "12xlarge", "16xlarge", "24xlarge"};
    const char *oses[] = {"Linux",     "Windows", "RHEL", "SUSE", "Red Hat Enterprise Linux with HA",
                          "Ubuntu Pro"};
    const char *tenancies[] = {"Shared", "Dedicated", "Host"};
    const char *caps[] = {"Used", "UnusedCapacityReservation", "AllocatedCapacityReservation"};
    char sku[17];
    auto makeSku = [&](std::uint64_t n) {
        static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        std::uint64_t x = n * 0x9E3779B97F4A7C15ULL + 0x1234567;
        for (int i = 0; i < 16; ++i) {
            sku[i] = alphabet[x % 32];
            x = x / 32 + (x << 59) + n;
        }
        sku[16] = 0;
    };
    const qint64 productShare = targetBytes * 45 / 100; // products ~45%, then the terms
    out += "{\n  \"formatVersion\" : \"v1.0\",\n  \"disclaimer\" : \"This pricing list is for informational "
           "purposes only.\",\n"
           "  \"offerCode\" : \"AmazonEC2\",\n  \"version\" : \"20250912225308\",\n  \"publicationDate\" : "
           "\"2025-09-12T22:53:08Z\",\n"
           "  \"products\" : {\n";
    qint64 written = 0;
    std::uint64_t n = 0;
    int gpuKept = 0;
    char buf[4096];
    while (written + static_cast<qint64>(out.size()) < productShare) {
        makeSku(n);
        const bool gpu = n % 97 == 0;
        const bool kept = gpu && (n / 97) % 7 == 0; // Linux/Shared/NA/Used: what the import keeps
        std::string type;
        if (gpu)
            type = gpuTypes.at(static_cast<qsizetype>((n / 97) % static_cast<std::uint64_t>(gpuTypes.size())))
                       .toStdString();
        else
            type = std::string(families[n % 10]) + "." + sizes[(n / 10) % 8];
        const char *os = kept ? "Linux" : oses[(n / 3) % 6];
        const char *ten = kept ? "Shared" : tenancies[(n / 5) % 3];
        const char *cap = kept ? "Used" : caps[(n / 7) % 3];
        gpuKept += kept ? 1 : 0;
        std::snprintf(
            buf, sizeof buf,
            "%s    \"%s\" : {\n      \"sku\" : \"%s\",\n      \"productFamily\" : \"Compute Instance\",\n    "
            "  \"attributes\" : {\n"
            "        \"servicecode\" : \"AmazonEC2\",\n        \"location\" : \"US East (N. Virginia)\",\n"
            "        \"locationType\" : \"AWS Region\",\n        \"instanceType\" : \"%s\",\n        "
            "\"currentGeneration\" : \"Yes\",\n"
            "        \"instanceFamily\" : \"%s\",\n        \"vcpu\" : \"%d\",\n        \"physicalProcessor\" "
            ": \"Intel Xeon Platinum 8175\",\n"
            "        \"clockSpeed\" : \"3.1 GHz\",\n        \"memory\" : \"%d GiB\",\n        \"storage\" : "
            "\"EBS only\",\n"
            "        \"networkPerformance\" : \"Up to 10 Gigabit\",\n        \"processorArchitecture\" : "
            "\"64-bit\",\n"
            "        \"tenancy\" : \"%s\",\n        \"operatingSystem\" : \"%s\",\n        \"licenseModel\" "
            ": \"No License required\",\n"
            "        \"usagetype\" : \"USE1-BoxUsage:%s\",\n        \"operation\" : \"%s\",\n        "
            "\"availabilityzone\" : \"NA\",\n"
            "        \"capacitystatus\" : \"%s\",\n        \"classicnetworkingsupport\" : \"false\",\n"
            "        \"dedicatedEbsThroughput\" : \"Up to 2120 Mbps\",\n        \"ecu\" : \"10\",\n        "
            "\"enhancedNetworkingSupported\" : \"Yes\",\n"
            "        \"gpu\" : \"%s\",\n        \"gpuMemory\" : \"NA\",\n        \"intelAvxAvailable\" : "
            "\"Yes\",\n        \"intelAvx2Available\" : \"Yes\",\n"
            "        \"intelTurboAvailable\" : \"Yes\",\n        \"marketoption\" : \"OnDemand\",\n        "
            "\"normalizationSizeFactor\" : \"4\",\n"
            "        \"preInstalledSw\" : \"NA\",\n        \"processorFeatures\" : \"Intel AVX; Intel AVX2; "
            "Intel AVX512; Intel Turbo\",\n"
            "        \"regionCode\" : \"us-east-1\",\n        \"servicename\" : \"Amazon Elastic Compute "
            "Cloud\",\n        \"vpcnetworkingsupport\" : \"true\"\n"
            "      }\n    }",
            n ? ",\n" : "", sku, sku, type.c_str(), gpu ? "GPU instance" : "General purpose", 2 << (n % 6),
            8 << (n % 6), ten, os, type.c_str(), kept ? "RunInstances" : "RunInstances:0002", cap,
            gpu ? "8" : "NA");
        out += buf;
        ++n;
        if (out.size() > (1u << 22)) {
            written += static_cast<qint64>(out.size());
            flush();
        }
    }
    const std::uint64_t products = n;
    out += "\n  },\n  \"terms\" : {\n    \"OnDemand\" : {\n";
    for (std::uint64_t i = 0; i < products; ++i) {
        makeSku(i);
        std::snprintf(
            buf, sizeof buf,
            "%s      \"%s\" : {\n        \"%s.JRTCKXETXF\" : {\n          \"offerTermCode\" : "
            "\"JRTCKXETXF\",\n          \"sku\" : \"%s\",\n"
            "          \"effectiveDate\" : \"2025-09-01T00:00:00Z\",\n          \"priceDimensions\" : {\n"
            "            \"%s.JRTCKXETXF.6YS6EN2CT7\" : {\n              \"rateCode\" : "
            "\"%s.JRTCKXETXF.6YS6EN2CT7\",\n"
            "              \"description\" : \"$%.3f per On Demand Linux Instance Hour\",\n              "
            "\"beginRange\" : \"0\",\n"
            "              \"endRange\" : \"Inf\",\n              \"unit\" : \"Hrs\",\n              "
            "\"pricePerUnit\" : {\n"
            "                \"USD\" : \"%.10f\"\n              },\n              \"appliesTo\" : [ ]\n      "
            "      }\n          },\n"
            "          \"termAttributes\" : { }\n        }\n      }",
            i ? ",\n" : "", sku, sku, sku, sku, sku, 0.1 + static_cast<double>(i % 500) * 0.07,
            0.1 + static_cast<double>(i % 500) * 0.07);
        out += buf;
        if (out.size() > (1u << 22)) {
            written += static_cast<qint64>(out.size());
            flush();
        }
    }
    out += "\n    },\n    \"Reserved\" : {\n";
    bool firstSku = true;
    for (std::uint64_t i = 0; written + static_cast<qint64>(out.size()) < targetBytes; ++i) {
        makeSku(i % products + products * (i / products)); // more terms than products if needed
        out += firstSku ? "" : ",\n";
        firstSku = false;
        out += "      \"";
        out += sku;
        out += "\" : {\n";
        for (int k = 0; k < 6; ++k) {
            std::snprintf(
                buf, sizeof buf,
                "%s        \"%s.%dNA7Y494T4\" : {\n          \"offerTermCode\" : \"%dNA7Y494T4\",\n          "
                "\"sku\" : \"%s\",\n"
                "          \"effectiveDate\" : \"2025-09-01T00:00:00Z\",\n          \"priceDimensions\" : {\n"
                "            \"%s.%dNA7Y494T4.6YS6EN2CT7\" : {\n              \"rateCode\" : "
                "\"%s.%dNA7Y494T4.6YS6EN2CT7\",\n"
                "              \"description\" : \"Linux/UNIX (Amazon VPC), reserved instance applied\",\n"
                "              \"beginRange\" : \"0\",\n              \"endRange\" : \"Inf\",\n              "
                "\"unit\" : \"Hrs\",\n"
                "              \"pricePerUnit\" : {\n                \"USD\" : \"0.0%d60000000\"\n           "
                "   },\n"
                "              \"appliesTo\" : [ ]\n            }\n          },\n          "
                "\"termAttributes\" : {\n"
                "            \"LeaseContractLength\" : \"%dyr\",\n            \"OfferingClass\" : "
                "\"standard\",\n"
                "            \"PurchaseOption\" : \"No Upfront\"\n          }\n        }",
                k ? ",\n" : "", sku, k, k, sku, sku, k, sku, k, k + 1, 1 + k % 3);
            out += buf;
        }
        out += "\n      }";
        if (out.size() > (1u << 22)) {
            written += static_cast<qint64>(out.size());
            flush();
        }
    }
    out += "\n    }\n  },\n  \"attributesList\" : { }\n}\n";
    flush();
    std::fclose(f);
    return gpuKept;
}

int childImport(const QString &file, const QString &dbPath)
{
    auto store = CatalogStore::open(dbPath);
    if (!store) {
        std::fprintf(stderr, "%s\n", qPrintable(store.error().text()));
        return 1;
    }
    RefreshOptions options;
    options.minRows = 1;
    CatalogRefresher importer(*store.value(), options);
    const RefreshOutcome o = importer.importFiles(QStringLiteral("aws"), {file});
    std::printf("%s\n", qPrintable(o.message));
    return o.ok() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args.at(1) == u"--child-import")
        return childImport(args.at(2), args.at(3));
    qint64 sizeMb = 1100;
    QString dir = QDir::tempPath();
    bool keep = false, python = true;
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args.at(i) == u"--size-mb" && i + 1 < args.size())
            sizeMb = args.at(++i).toLongLong();
        else if (args.at(i) == u"--dir" && i + 1 < args.size())
            dir = args.at(++i);
        else if (args.at(i) == u"--keep")
            keep = true;
        else if (args.at(i) == u"--no-python")
            python = false;
        else {
            std::fprintf(stderr, "usage: bench_import [--size-mb N] [--dir DIR] [--keep] [--no-python]\n");
            return 2;
        }
    }
    QTemporaryDir work(dir + QStringLiteral("/gpufrontier-bench-XXXXXX"));
    if (!work.isValid())
        return 1;
    work.setAutoRemove(!keep);
    const QString file = work.filePath(QStringLiteral("us-east-1-index.json"));
    const QString db = work.filePath(QStringLiteral("bench.sqlite"));

    QElapsedTimer t;
    t.start();
    const int kept = generate(file, sizeMb * 1000 * 1000);
    const double mb = static_cast<double>(QFile(file).size()) / 1e6;
    std::printf("generated %s: %.0f MB AWS offer file (%d GPU products pass the filter) in %.1f s\n",
                qPrintable(file), mb, kept, static_cast<double>(t.elapsed()) / 1000);
    std::fflush(stdout);

    const std::string self = QCoreApplication::applicationFilePath().toStdString();
    const ChildResult ours = runChild({self, "--child-import", file.toStdString(), db.toStdString()});
    // On a shared machine the wall clock counts the time other processes had the cores: the CPU time
    // (user + system) and the load average are printed with it.
    const auto load = [] {
        QFile f(QStringLiteral("/proc/loadavg"));
        return f.open(QIODevice::ReadOnly) ? f.readLine().trimmed().split(' ').mid(0, 3).join(' ')
                                           : QByteArray("?");
    };
    std::printf("GPU Frontier import: %.2f s, %.0f MB/s, peak RSS %.1f MB (exit %d); CPU %.2f s, %.0f MB/s; "
                "load %s\n",
                ours.seconds, mb / ours.seconds, static_cast<double>(ours.maxRssKb) / 1024, ours.status,
                ours.cpuSeconds, mb / std::max(1e-3, ours.cpuSeconds), load().constData());
    std::fflush(stdout);
    if (python) {
        const std::string script = "import json; json.load(open('" + file.toStdString() + "'))";
        const ChildResult py = runChild({"python3", "-c", script});
        std::printf(
            "python3 json.load:   %.2f s, %.0f MB/s, peak RSS %.1f MB (exit %d); CPU %.2f s, %.0f MB/s; "
            "load %s\n",
            py.seconds, mb / py.seconds, static_cast<double>(py.maxRssKb) / 1024, py.status, py.cpuSeconds,
            mb / std::max(1e-3, py.cpuSeconds), load().constData());
        std::printf("ratio: %.1fx python's throughput (%.1fx by CPU time), %.1fx less peak memory\n",
                    py.seconds / ours.seconds, py.cpuSeconds / std::max(1e-3, ours.cpuSeconds),
                    static_cast<double>(py.maxRssKb) / static_cast<double>(std::max(1L, ours.maxRssKb)));
    }
    if (!keep)
        QFile::remove(file);
    return ours.status;
}
