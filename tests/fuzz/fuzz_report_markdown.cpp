// libFuzzer target: the Markdown and HTML reports over a report whose offer names, regions, labels,
// workload name, title and snapshot origin are hostile strings. Checks that provider and user strings
// never become markup (no tag outside a code block, no code block closed early) and that names longer
// than the display limit are cut.
#include "fuzzreport.h"

#include <cstdlib>

namespace {

/// The lines of a Markdown document outside fenced code blocks (CommonMark: a block opens with a line
/// of 3+ backticks after at most 3 spaces and closes with a line of at least as many backticks and
/// nothing else; an unclosed block runs to the end).
QStringList linesOutsideCode(const QString &md, int *blocks)
{
    QStringList out;
    qsizetype fence = 0; // length of the open fence, 0 = none
    for (const QString &line : md.split(u'\n')) {
        const QString t = line.trimmed();
        qsizetype indent = 0;
        while (indent < line.size() && line.at(indent) == u' ')
            ++indent;
        qsizetype ticks = 0;
        while (ticks < t.size() && t.at(ticks) == u'`')
            ++ticks;
        if (fence == 0 && indent <= 3 && ticks >= 3) {
            fence = ticks;
            ++*blocks;
            continue;
        }
        if (fence > 0) {
            if (indent <= 3 && ticks >= fence && ticks == t.size())
                fence = 0;
            continue;
        }
        out.append(line);
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace gf::fuzz;
    const QStringList fields = reportFields(data, size);
    const gf::ReportInput in = hostileReport(fields);
    const auto md = gf::renderReport(in, gf::ReportFormat::Markdown);
    const auto html = gf::renderReport(in, gf::ReportFormat::Html);
    if (!md.ok() || !html.ok())
        std::abort();
    const QString mdText = QString::fromUtf8(md.value());
    const QString htmlText = QString::fromUtf8(html.value());
    // HTML escapes every string; Markdown escapes them outside its two code blocks (the ASCII chart and
    // the command that reproduces the report), and nothing in those closes them early.
    if (htmlText.contains(QStringLiteral("<script")))
        std::abort();
    int blocks = 0;
    for (const QString &line : linesOutsideCode(mdText, &blocks))
        if (line.contains(QStringLiteral("<script")))
            std::abort();
    if (blocks != 2)
        std::abort();
    // Offer names and regions longer than the limit never appear whole. Other strings may (the title in
    // the command that reproduces the report, the snapshot origin, ...): a name that is part of one of
    // them proves nothing.
    const QList<int> cut{Instance1, Instance2, Instance3, Region1, Region2};
    for (int f : cut) {
        const QString &s = fields.at(f);
        bool inOther = false;
        for (int j = 0; j < FieldCount; ++j)
            inOther = inOther || (!cut.contains(j) && fields.at(j).contains(s));
        if (s.size() > 200 && !inOther && (mdText.contains(s) || htmlText.contains(s)))
            std::abort();
    }
    return 0;
}
