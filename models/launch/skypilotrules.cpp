#include "launch/skypilotrules.h"

#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

/// One resource table: parsed, with the columns looked up by name; `field(record, i)` is the trimmed text.
struct Table
{
    CsvDocument doc;
    QList<int> columns;
    QString field(const CsvRecord &r, int i) const
    {
        const int c = columns.at(i);
        return c < r.fields.size() ? r.fields.at(c).trimmed() : QString();
    }
};

Result<Table> readTable(const QString &file, const QString &text, const QStringList &columns)
{
    auto doc = parseCsv(text);
    if (!doc)
        return doc.error().prefixed(file + QStringLiteral(": "));
    Table t{doc.value(), {}};
    for (const QString &c : columns) {
        t.columns.append(t.doc.column(c));
        if (t.columns.last() < 0)
            return makeError(
                QStringLiteral("%1: needs columns %2").arg(file, columns.join(QStringLiteral(", "))));
    }
    return t;
}

template <typename T> const T &builtinTable(const char *file, const char *second = nullptr)
{
    static const T table = [file, second] {
        auto text = [](const char *name) {
            return name ? readResourceText(QStringLiteral("providers/") + QLatin1String(name)) : QString();
        };
        auto t = T::fromCsv(text(file), text(second));
        if (!t)
            qFatal("%s", qPrintable(t.error().text()));
        return t.value();
    }();
    return table;
}

bool hostMatches(const QString &pattern, const QString &host)
{
    return pattern.endsWith(u'*') ? host.startsWith(QStringView(pattern).chopped(1)) : host == pattern;
}

std::optional<double> optionalNumber(const QString &text, bool *ok)
{
    *ok = true;
    if (text.isEmpty())
        return std::nullopt;
    const double v = text.toDouble(ok);
    *ok = *ok && std::isfinite(v) && v > 0;
    return v;
}

} // namespace

Result<SkypilotHostTable> SkypilotHostTable::fromCsv(const QString &text, const QString &zonesText)
{
    const QString file = QStringLiteral("skypilot_hosts.csv");
    auto table =
        readTable(file, text,
                  {QStringLiteral("cloud"), QStringLiteral("accelerator"), QStringLiteral("count"),
                   QStringLiteral("hosts"), QStringLiteral("max_vcpus"), QStringLiteral("max_memory_gib")});
    if (!table)
        return table.error();
    const Table &t = table.value();
    SkypilotHostTable out;
    for (const CsvRecord &r : t.doc.records) {
        Row row;
        row.line = r.line;
        row.cloud = t.field(r, 0);
        row.accelerator = t.field(r, 1);
        const QString count = t.field(r, 2);
        bool ok = true;
        row.count = count == u"*" ? 0 : count.toInt(&ok);
        row.hosts = t.field(r, 3).split(u'|', Qt::SkipEmptyParts);
        bool okCpu = false, okMem = false;
        row.maxVcpus = optionalNumber(t.field(r, 4), &okCpu);
        row.maxMemoryGib = optionalNumber(t.field(r, 5), &okMem);
        if (row.cloud.isEmpty() || row.accelerator.isEmpty() || row.hosts.isEmpty() || !ok ||
            (count != u"*" && row.count < 1) || !okCpu || !okMem)
            return makeError(
                QStringLiteral("%1 line %2: needs a cloud, an accelerator, a count (a whole number "
                               "or *), hosts and empty or positive limits")
                    .arg(file, QString::number(r.line)));
        out.m_rows.append(row);
    }
    if (zonesText.isEmpty())
        return out;
    const QString zonesFile = QStringLiteral("skypilot_host_zones.csv");
    auto zones =
        readTable(zonesFile, zonesText,
                  {QStringLiteral("cloud"), QStringLiteral("instance_type"), QStringLiteral("zones")});
    if (!zones)
        return zones.error();
    for (const CsvRecord &r : zones.value().doc.records) {
        const QString key = zones.value().field(r, 0) + u'/' + zones.value().field(r, 1);
        const QStringList list = zones.value().field(r, 2).split(u' ', Qt::SkipEmptyParts);
        if (key.startsWith(u'/') || key.endsWith(u'/') || list.isEmpty() || out.m_zones.contains(key))
            return makeError(
                QStringLiteral("%1 line %2: needs a cloud, an instance type given once and its zones")
                    .arg(zonesFile, QString::number(r.line)));
        out.m_zones.insert(key, list);
    }
    return out;
}

const SkypilotHostTable &SkypilotHostTable::builtin()
{
    return builtinTable<SkypilotHostTable>("skypilot_hosts.csv", "skypilot_host_zones.csv");
}

QStringList SkypilotHostTable::hostsFor(const QString &cloud, const QString &accelerator, int count) const
{
    QStringList out;
    for (const Row &r : rulesFor(cloud, accelerator))
        if (r.count == 0 || r.count == count)
            for (const QString &h : r.hosts)
                if (!h.endsWith(u'*'))
                    out.append(h);
    return out;
}

const QStringList *SkypilotHostTable::zonesOf(const QString &cloud, const QString &host) const
{
    const auto it = m_zones.constFind(cloud + u'/' + host);
    return it == m_zones.cend() ? nullptr : &*it;
}

QList<SkypilotHostTable::Row> SkypilotHostTable::rulesFor(const QString &cloud,
                                                          const QString &accelerator) const
{
    QList<Row> own, any;
    for (const Row &r : m_rows) {
        if (r.cloud != cloud)
            continue;
        if (r.accelerator == accelerator)
            own.append(r);
        else if (r.accelerator == u"*")
            any.append(r);
    }
    return own.isEmpty() ? any : own;
}

bool SkypilotHostTable::countAttachable(const QString &cloud, const QString &accelerator, int count) const
{
    const QList<Row> rules = rulesFor(cloud, accelerator);
    if (rules.isEmpty())
        return true;
    for (const Row &r : rules)
        if (r.count == 0 || r.count == count)
            return true;
    return false;
}

Status SkypilotHostTable::checkPair(const QString &cloud, const QString &host, const QString &accelerator,
                                    int count, std::optional<double> vcpus,
                                    std::optional<double> memoryGib) const
{
    const QList<Row> rules = rulesFor(cloud, accelerator);
    if (rules.isEmpty())
        return Ok{};
    QStringList counts;
    for (const Row &r : rules) {
        if (r.count != 0 && r.count != count) {
            counts.append(QString::number(r.count));
            continue;
        }
        const bool hostOk = std::any_of(r.hosts.cbegin(), r.hosts.cend(),
                                        [&](const QString &p) { return hostMatches(p, host); });
        if (!hostOk)
            return makeError(QStringLiteral("SkyPilot attaches %1:%2 on %3 only to %4, not to %5")
                                 .arg(accelerator, QString::number(count), cloud,
                                      r.hosts.join(QStringLiteral(", ")), host));
        const std::pair<std::optional<double>, std::optional<double>> limits[] = {
            {r.maxVcpus, vcpus}, {r.maxMemoryGib, memoryGib}};
        const QString units[] = {QStringLiteral("vCPUs"), QStringLiteral("GiB of memory")};
        for (int k = 0; k < 2; ++k) {
            const auto &[limit, have] = limits[k];
            if (limit && have && *have > *limit)
                return makeError(
                    QStringLiteral("SkyPilot attaches %1:%2 on %3 only to hosts of at most %4 %5; %6 has %7")
                        .arg(accelerator, QString::number(count), cloud, QString::number(*limit), units[k],
                             host, QString::number(*have)));
        }
        return Ok{};
    }
    return makeError(QStringLiteral("SkyPilot attaches %1 on %2 only in counts of %3, not %4")
                         .arg(accelerator, cloud, counts.join(QStringLiteral(", ")), QString::number(count)));
}

Result<SkypilotCloudTable> SkypilotCloudTable::fromCsv(const QString &text, const QString &)
{
    const QString file = QStringLiteral("skypilot_clouds.csv");
    auto table =
        readTable(file, text, {QStringLiteral("cloud"), QStringLiteral("spot"), QStringLiteral("source")});
    if (!table)
        return table.error();
    const Table &t = table.value();
    SkypilotCloudTable out;
    for (const CsvRecord &r : t.doc.records) {
        Row row{t.field(r, 0), t.field(r, 1) == u"yes", t.field(r, 2)};
        if (row.cloud.isEmpty() || (t.field(r, 1) != u"yes" && t.field(r, 1) != u"no") ||
            row.source.isEmpty())
            return makeError(QStringLiteral("%1 line %2: needs a cloud, spot yes or no, and a source")
                                 .arg(file, QString::number(r.line)));
        out.m_rows.append(row);
    }
    return out;
}

const SkypilotCloudTable &SkypilotCloudTable::builtin()
{
    return builtinTable<SkypilotCloudTable>("skypilot_clouds.csv");
}

const SkypilotCloudTable::Row *SkypilotCloudTable::row(const QString &cloud) const
{
    for (const Row &r : m_rows)
        if (r.cloud == cloud)
            return &r;
    return nullptr;
}

bool SkypilotCloudTable::spotPriced(const QString &cloud) const
{
    const Row *r = row(cloud);
    return r && r->spot;
}

Result<RetiredInstanceTable> RetiredInstanceTable::fromCsv(const QString &text, const QString &)
{
    const QString file = QStringLiteral("retired_instances.csv");
    auto table = readTable(file, text,
                           {QStringLiteral("provider"), QStringLiteral("pattern"), QStringLiteral("family"),
                            QStringLiteral("retired"), QStringLiteral("source")});
    if (!table)
        return table.error();
    const Table &t = table.value();
    static const QRegularExpression date(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}$"));
    RetiredInstanceTable out;
    for (const CsvRecord &r : t.doc.records) {
        Row row;
        row.provider = t.field(r, 0);
        row.pattern = QRegularExpression(QRegularExpression::anchoredPattern(t.field(r, 1)));
        row.family = t.field(r, 2);
        row.retired = t.field(r, 3);
        row.source = t.field(r, 4);
        if (row.provider.isEmpty() || t.field(r, 1).isEmpty() || !row.pattern.isValid() ||
            row.family.isEmpty() || !date.match(row.retired).hasMatch() || row.source.isEmpty())
            return makeError(QStringLiteral("%1 line %2: needs a provider, a valid pattern, a family, a date "
                                            "YYYY-MM-DD and a source")
                                 .arg(file, QString::number(r.line)));
        out.m_rows.append(row);
    }
    return out;
}

const RetiredInstanceTable &RetiredInstanceTable::builtin()
{
    return builtinTable<RetiredInstanceTable>("retired_instances.csv");
}

const RetiredInstanceTable::Row *RetiredInstanceTable::retired(const QString &provider,
                                                               const QString &instanceType) const
{
    for (const Row &r : m_rows)
        if (r.provider == provider && r.pattern.match(instanceType).hasMatch())
            return &r;
    return nullptr;
}

std::optional<QString> retiredText(const Offer &offer, const RetiredInstanceTable &table)
{
    const RetiredInstanceTable::Row *r = table.retired(offer.provider, offer.instanceType);
    if (!r)
        return std::nullopt;
    return QStringLiteral("%1 is retired: %2, retired %3 (%4)")
        .arg(offer.instanceType, r->family, r->retired, r->source);
}

} // namespace gf
