#pragma once

#include "fixtures.h"
#include "providers/snapshotfile.h"
#include "store/catalogstore.h"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace gf::test {

/// A temporary folder with a database path inside it; removed at the end of the test.
class TempDb
{
public:
    TempDb();
    QString path() const { return m_dir.filePath(QStringLiteral("catalog.sqlite")); }
    QString dir() const { return m_dir.path(); }
    /// Opens (migrating) the database; fails the test on error.
    std::unique_ptr<CatalogStore> open() const;

private:
    QTemporaryDir m_dir;
};

/// A small valid catalog CSV for `provider` with `rows` offers (prices 1.00, 2.00, ...).
QByteArray makeCatalogCsv(const QString &provider, int rows,
                          const QString &gpuName = QStringLiteral("A100-80GB"));
/// Writes `bytes` to `path` (replacing it); a test cannot go on without the file, so failure is fatal.
void writeFile(const QString &path, const QByteArray &bytes);
/// Counts rows of a table through a fresh read-only connection (independent of the store under test).
int countRows(const QString &dbPath, const QString &table);

} // namespace gf::test
