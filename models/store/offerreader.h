#pragma once

#include "domain/offer.h"
#include "util/result.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QVariant>

#include <functional>

namespace gf::store {

/// Reads offer rows straight from SQLite's C API on the connection's own handle: forward-only, columns
/// by index, no QVariant per value, and repeated texts (provider, region, GPU names, source, ...) shared
/// between offers instead of copied per row. `where` follows "FROM offer o JOIN snapshot s ON s.id =
/// o.snapshot_id WHERE "; `binds` are its ? parameters (texts and integers). The rows are appended to
/// `out` in the query's order. `path` names the database in messages.
Status readOffers(const QSqlDatabase &db, const QString &path, const QString &where,
                  const QVariantList &binds, QList<Offer> &out);
/// The same, each row handed to `sink` as it is read (no list of every row).
Status readOffers(const QSqlDatabase &db, const QString &path, const QString &where,
                  const QVariantList &binds, const std::function<void(Offer &&)> &sink);

/// The SELECT that readOffers runs for `where`.
QByteArray offerQuery(const QString &where);

} // namespace gf::store
