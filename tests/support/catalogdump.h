#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gf::test {

/// A fingerprint of the catalog tables (snapshot, offer, gpu_model, fetch_state), read through a
/// fresh connection: equal before and after = the catalog did not change. refresh_log is left out:
/// a failed refresh records its error there on purpose.
QByteArray dumpCatalog(const QString &dbPath);
/// Number of rows of a table matching a WHERE clause (fresh read-only connection).
int countWhere(const QString &dbPath, const QString &table, const QString &where);
/// The newest refresh_log row of a provider as "outcome|message".
QString lastLog(const QString &dbPath, const QString &provider);
/// Every "table.column" of the database with a value (text or blob) containing `needle`.
QStringList columnsContaining(const QString &dbPath, const QString &needle);

} // namespace gf::test
