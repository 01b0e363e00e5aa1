#pragma once

#include "refresh/pricesource.h"
#include <QDate>

namespace gf {

/// Paperspace: no public price API. The source is a curated table: the one shipped with the
/// application, or a GPU Frontier / SkyPilot catalog CSV at an overriding base URL.
class PaperspacePriceSource final : public PriceSource
{
public:
    QString provider() const override { return QStringLiteral("paperspace"); }
    QString defaultBaseUrl() const override { return QString(); }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;
    /// The date of the curated table shipped with the application.
    static QDate tableDate();
};

} // namespace gf
