// libFuzzer target: the PDF report (QPdfWriter + QPainter, the layout, wrapping and eliding) over a report
// whose offer names, regions, labels, workload name, title and snapshot origin are hostile strings.
// Each input must render in bounded time and memory (-timeout, -rss_limit_mb in run_fuzzers.sh).
#include "fuzzreport.h"

#include <QGuiApplication>

#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***argv)
{
    // Fonts need a QGuiApplication; the offscreen platform needs no display. Created once, kept.
    static char platformFlag[] = "-platform";
    static char platformName[] = "offscreen";
    static int argc = 3;
    static char *args[] = {(*argv)[0], platformFlag, platformName, nullptr};
    static QGuiApplication app(argc, args);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gf::ReportInput in = gf::fuzz::hostileReport(gf::fuzz::reportFields(data, size));
    const auto pdf = gf::renderReport(in, gf::ReportFormat::Pdf);
    if (!pdf.ok() || !pdf.value().startsWith("%PDF-") || !pdf.value().trimmed().endsWith("%%EOF"))
        std::abort();
    return 0;
}
