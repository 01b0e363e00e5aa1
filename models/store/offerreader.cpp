#include "store/offerreader.h"
#include "store/storetime.h"
#include "util/sharedtexts.h"

#include <QDateTime>
#include <QSqlDriver>

#include <sqlite3.h>

#include <memory>

namespace gf::store {

namespace {

/// The previous row's value of a column that repeats in runs (the snapshot's dates): parsed once per run.
template <typename T> class RunCache
{
public:
    template <typename Parse> T value(const unsigned char *data, int size, Parse parse)
    {
        if (!data)
            return T();
        const QByteArrayView bytes(reinterpret_cast<const char *>(data), size);
        if (!m_valid || bytes != QByteArrayView(m_bytes)) {
            m_bytes = bytes.toByteArray();
            m_value = parse(QString::fromLatin1(bytes));
            m_valid = true;
        }
        return m_value;
    }

private:
    QByteArray m_bytes;
    T m_value{};
    bool m_valid = false;
};

QDate dateFrom(const QString &s)
{
    return QDate::fromString(s, Qt::ISODate);
}

std::optional<double> optionalDouble(sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return std::nullopt;
    return sqlite3_column_double(st, col);
}

struct StatementDeleter
{
    void operator()(sqlite3_stmt *st) const { sqlite3_finalize(st); }
};

} // namespace

QByteArray offerQuery(const QString &where)
{
    return QByteArrayLiteral(
               "SELECT o.id, o.snapshot_id, o.provider, o.instance_type, o.region, o.zone, o.gpu_raw_name, "
               "o.gpu_id, "
               "o.gpu_count, o.gpu_mem_gb, o.vcpus, o.ram_gb, o.network_gbps, o.interconnect, "
               "o.ondemand_usd_h, "
               "o.spot_usd_h, o.spot_label, o.interruption, o.reliability, o.billing_increment_s, "
               "o.billing_minimum_s, o.source, o.flags, s.fetched_at, s.data_date, o.upload_gbps, o.dlperf, "
               "o.price_date, o.listing_end "
               "FROM offer o JOIN snapshot s ON s.id = o.snapshot_id WHERE ") +
           where.toUtf8();
}

Status readOffers(const QSqlDatabase &db, const QString &path, const QString &where,
                  const QVariantList &binds, QList<Offer> &out)
{
    return readOffers(db, path, where, binds, [&out](Offer &&o) { out.append(std::move(o)); });
}

Status readOffers(const QSqlDatabase &db, const QString &path, const QString &where,
                  const QVariantList &binds, const std::function<void(Offer &&)> &sink)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    sqlite3 *conn = handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0
                        ? *static_cast<sqlite3 *const *>(handle.constData())
                        : nullptr;
    if (!conn)
        return makeError(QStringLiteral("Cannot read the offers from %1").arg(path),
                         QStringLiteral("the database connection is not an open SQLite connection"));
    const QByteArray sql = offerQuery(where);
    sqlite3_stmt *raw = nullptr;
    if (sqlite3_prepare_v2(conn, sql.constData(), static_cast<int>(sql.size()), &raw, nullptr) != SQLITE_OK)
        return makeError(QStringLiteral("Cannot read the offers from %1").arg(path),
                         QString::fromUtf8(sqlite3_errmsg(conn)));
    const std::unique_ptr<sqlite3_stmt, StatementDeleter> st(raw);
    for (int i = 0; i < binds.size(); ++i) {
        const QVariant &b = binds.at(i);
        int rc = SQLITE_OK;
        if (b.typeId() == QMetaType::Int || b.typeId() == QMetaType::LongLong) {
            rc = sqlite3_bind_int64(st.get(), i + 1, b.toLongLong());
        } else {
            const QByteArray text = b.toString().toUtf8();
            rc = sqlite3_bind_text(st.get(), i + 1, text.constData(), static_cast<int>(text.size()),
                                   SQLITE_TRANSIENT);
        }
        if (rc != SQLITE_OK)
            return makeError(QStringLiteral("Cannot read the offers from %1").arg(path),
                             QString::fromUtf8(sqlite3_errmsg(conn)));
    }

    // Pools sized for catalogs of millions of rows: the labels repeat, offer ids do not.
    SharedTexts providers(64), instances(8192), regions(8192), zones(8192), gpuNames(4096), gpuIds(1024),
        interconnects(64), spotLabels(64), interruptions(64), sources(8192);
    RunCache<QDateTime> fetchedAt;
    RunCache<QDate> dataDate, priceDate, listingEnd;
    auto text = [&](SharedTexts &pool, int col) {
        return pool.fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st.get(), col)),
                             sqlite3_column_bytes(st.get(), col));
    };
    auto runDate = [&](auto &cache, int col, auto parse) {
        const unsigned char *data = sqlite3_column_text(st.get(), col);
        return cache.value(data, sqlite3_column_bytes(st.get(), col), parse);
    };
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
        sqlite3_stmt *s = st.get();
        Offer o;
        o.id = sqlite3_column_int64(s, 0);
        o.snapshotId = sqlite3_column_int64(s, 1);
        o.provider = text(providers, 2);
        o.instanceType = text(instances, 3);
        o.region = text(regions, 4);
        o.zone = text(zones, 5);
        o.gpuRawName = text(gpuNames, 6);
        o.gpuId = text(gpuIds, 7);
        o.gpuCount = sqlite3_column_double(s, 8);
        o.gpuMemGb = optionalDouble(s, 9);
        o.vcpus = optionalDouble(s, 10);
        o.ramGb = optionalDouble(s, 11);
        o.networkGbps = optionalDouble(s, 12);
        o.interconnect = text(interconnects, 13);
        o.onDemandUsdH = optionalDouble(s, 14);
        o.spotUsdH = optionalDouble(s, 15);
        o.spotLabel = text(spotLabels, 16);
        o.interruption = text(interruptions, 17);
        o.reliability = optionalDouble(s, 18);
        o.billingIncrementS = sqlite3_column_int(s, 19);
        o.billingMinimumS = sqlite3_column_int(s, 20);
        o.source = text(sources, 21);
        o.flags = sqlite3_column_int(s, 22);
        o.fetchedAt = runDate(fetchedAt, 23, fromIso);
        o.dataDate = runDate(dataDate, 24, dateFrom);
        o.uploadGbps = optionalDouble(s, 25);
        o.dlperf = optionalDouble(s, 26);
        o.priceDate = runDate(priceDate, 27, dateFrom);
        o.listingEnd = runDate(listingEnd, 28, dateFrom);
        sink(std::move(o));
    }
    if (rc != SQLITE_DONE)
        return makeError(QStringLiteral("Cannot read the offers from %1").arg(path),
                         QString::fromUtf8(sqlite3_errmsg(conn)));
    return Ok{};
}

} // namespace gf::store
