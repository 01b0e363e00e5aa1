#include "providers/awsoffers.h"

#include "domain/providertables.h"
#include "util/csv.h"
#include "util/jsondocument.h"
#include "util/jsonstream.h"
#include "util/printable.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <span>
#include <string>
#include <unordered_map>

namespace gf {

namespace {

using Action = JsonHandler::Action;

/// Product attributes the filter and the offer need.
enum class Attr : std::uint8_t
{
    None,
    InstanceType,
    OperatingSystem,
    Tenancy,
    PreInstalledSw,
    CapacityStatus,
    LicenseModel,
    Operation,
    MarketOption,
    RegionCode,
    Location,
    Vcpu,
    Memory,
    Gpu,
    GpuMemory,
    Count
};

Attr attrFromKey(std::string_view k)
{
    switch (k.size()) {
    case 3:
        return k == "gpu" ? Attr::Gpu : Attr::None;
    case 4:
        return k == "vcpu" ? Attr::Vcpu : Attr::None;
    case 6:
        return k == "memory" ? Attr::Memory : Attr::None;
    case 7:
        return k == "tenancy" ? Attr::Tenancy : Attr::None;
    case 8:
        return k == "location" ? Attr::Location : Attr::None;
    case 9:
        return k == "operation" ? Attr::Operation : (k == "gpuMemory" ? Attr::GpuMemory : Attr::None);
    case 10:
        return k == "regionCode" ? Attr::RegionCode : Attr::None;
    case 12:
        if (k == "instanceType")
            return Attr::InstanceType;
        if (k == "licenseModel")
            return Attr::LicenseModel;
        if (k == "marketoption")
            return Attr::MarketOption;
        return Attr::None;
    case 14:
        return k == "preInstalledSw" ? Attr::PreInstalledSw
                                     : (k == "capacitystatus" ? Attr::CapacityStatus : Attr::None);
    case 15:
        return k == "operatingSystem" ? Attr::OperatingSystem : Attr::None;
    default:
        return Attr::None;
    }
}

struct Product
{
    std::array<std::string, static_cast<std::size_t>(Attr::Count)> attrs;
    std::string family;
    const std::string &get(Attr a) const { return attrs[static_cast<std::size_t>(a)]; }
    std::string &at(Attr a) { return attrs[static_cast<std::size_t>(a)]; }
    void clear()
    {
        for (auto &s : attrs)
            s.clear();
        family.clear();
    }
};

/// Families that may have accelerators even when the project table does not know them yet.
bool acceleratorCandidate(std::string_view type, const ProviderTables &tables)
{
    const std::size_t dot = type.find('.');
    const std::string_view family = type.substr(0, dot);
    if (tables.awsAcceleratorFamily(
            QString::fromLatin1(family.data(), static_cast<qsizetype>(family.size()))))
        return true;
    auto startsDigit = [&](std::size_t i) {
        return family.size() > i && family[i] >= '0' && family[i] <= '9';
    };
    if (!family.empty() && (family[0] == 'p' || family[0] == 'g') && startsDigit(1))
        return true;
    return family.size() > 2 &&
           ((family[0] == 'g' && family[1] == 'r') || (family[0] == 'd' && family[1] == 'l')) &&
           startsDigit(2);
}

std::optional<double> leadingNumber(const std::string &s)
{
    std::size_t n = 0;
    while (n < s.size() && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.' || s[n] == ','))
        ++n;
    if (n == 0)
        return std::nullopt;
    std::string t = s.substr(0, n);
    t.erase(std::remove(t.begin(), t.end(), ','), t.end());
    double v = 0;
    if (!parseDecimal(t, &v))
        return std::nullopt;
    return v;
}

QString q(const std::string &s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// The filter and the join shared by both flavours.
class OfferBuilder
{
public:
    OfferBuilder(const ProviderTables &tables, QString origin, QString defaultRegion)
        : m_tables(tables), m_origin(std::move(origin)), m_defaultRegion(std::move(defaultRegion))
    {
    }

    /// True when the product is a Linux/Shared/NA/Used on-demand GPU instance.
    bool keep(const Product &p)
    {
        const std::string &family = p.family;
        if (!family.empty() && family.rfind("Compute Instance", 0) != 0)
            return false;
        if (p.get(Attr::OperatingSystem) != "Linux" || p.get(Attr::Tenancy) != "Shared")
            return false;
        const std::string &sw = p.get(Attr::PreInstalledSw);
        if (!sw.empty() && sw != "NA")
            return false;
        const std::string &cap = p.get(Attr::CapacityStatus);
        if (!cap.empty() && cap != "Used")
            return false;
        const std::string &lic = p.get(Attr::LicenseModel);
        if (!lic.empty() && lic != "No License required")
            return false;
        const std::string &op = p.get(Attr::Operation);
        if (!op.empty() && op != "RunInstances")
            return false;
        const std::string &market = p.get(Attr::MarketOption);
        if (!market.empty() && market != "OnDemand")
            return false;
        const std::string &type = p.get(Attr::InstanceType);
        if (type.empty())
            return false;
        if (m_tables.awsInstance(q(type)))
            return true;
        const auto gpus = leadingNumber(p.get(Attr::Gpu));
        return gpus && *gpus > 0;
    }

    void add(const Product &p, double usdPerHour)
    {
        Offer o;
        o.provider = QStringLiteral("aws");
        o.instanceType = q(p.get(Attr::InstanceType));
        o.region = q(p.get(Attr::RegionCode));
        if (o.region.isEmpty())
            o.region = m_defaultRegion;
        if (o.region.isEmpty()) {
            ++m_noRegion;
            return;
        }
        const MachineShape *shape = m_tables.awsInstance(o.instanceType);
        const auto fileGpus = leadingNumber(p.get(Attr::Gpu));
        if (shape) {
            o.gpuRawName = shape->gpuName;
            o.gpuCount = shape->gpuCount;
            o.gpuMemGb = shape->gpuMemGb;
            o.networkGbps = shape->networkGbps;
            o.interconnect = shape->interconnect;
            if (fileGpus && *fileGpus >= 1 && shape->gpuCount >= 1 &&
                std::abs(*fileGpus - shape->gpuCount) > 1e-9)
                ++m_countMismatch;
        } else {
            o.gpuCount = fileGpus.value_or(0);
            if (const auto total = leadingNumber(p.get(Attr::GpuMemory)); total && o.gpuCount > 0)
                o.gpuMemGb = std::round(*total / o.gpuCount * 100) / 100;
            // A size the table does not list, of a family it knows (g7, p6e-gb200, a new g6e size): the
            // family's GPU, the file's count and memory.
            if (const MachineShape *family = m_tables.awsFamily(o.instanceType)) {
                o.gpuRawName = family->gpuName;
                if (!o.gpuMemGb)
                    o.gpuMemGb = family->gpuMemGb;
                if (o.gpuCount >= 2)
                    o.interconnect = family->interconnect;
                m_familyTypes.insert(o.instanceType, true);
            } else {
                m_unknownTypes.insert(o.instanceType, true);
            }
        }
        o.vcpus = leadingNumber(p.get(Attr::Vcpu));
        if (!o.vcpus && shape)
            o.vcpus = shape->vcpus;
        o.ramGb = leadingNumber(p.get(Attr::Memory));
        if (!o.ramGb && shape)
            o.ramGb = shape->ramGb;
        o.onDemandUsdH = usdPerHour;
        o.billingIncrementS = 1;
        o.billingMinimumS = 60;
        const QString key = o.instanceType + u'\x1f' + o.region;
        if (auto it = m_index.constFind(key); it != m_index.constEnd()) {
            ++m_duplicates;
            Offer &prev = m_offers[*it];
            if (usdPerHour < prev.onDemandUsdH.value_or(usdPerHour))
                prev.onDemandUsdH = usdPerHour;
            return;
        }
        m_index.insert(key, m_offers.size());
        m_regions.insert(o.region, true);
        m_offers.append(std::move(o));
    }

    void finishInto(AwsOfferResult &r, const QString &version)
    {
        for (Offer &o : m_offers)
            o.source = version.isEmpty() ? QStringLiteral("AWS price list")
                                         : QStringLiteral("AWS price list %1").arg(version);
        r.offers = std::move(m_offers);
        r.regions = m_regions.keys();
        r.regions.sort();
        auto listTypes = [&](const QHash<QString, bool> &set, const QString &what) {
            if (set.isEmpty())
                return;
            QStringList types = set.keys();
            types.sort();
            r.warnings.append(
                QStringLiteral("%1 GPU instance types are not in the project's instance table, so %2: %3")
                    .arg(types.size())
                    .arg(what, types.mid(0, 8).join(QStringLiteral(", "))));
        };
        listTypes(m_unknownTypes, QStringLiteral("their GPU model is unknown (kept, flagged unrecognised)"));
        listTypes(m_familyTypes,
                  QStringLiteral("their GPU model is their family's (count and memory from the offer "
                                 "file)"));
        if (m_countMismatch)
            r.warnings.append(
                QStringLiteral("%1 rows give a GPU count different from the project's table (table used)")
                    .arg(m_countMismatch));
        if (m_duplicates)
            r.warnings.append(
                QStringLiteral(
                    "%1 duplicate on-demand rows for the same instance type and region (lowest price kept)")
                    .arg(m_duplicates));
        if (m_noRegion)
            r.warnings.append(QStringLiteral("%1 rows without a region code skipped").arg(m_noRegion));
    }

    const ProviderTables &tables() const { return m_tables; }

private:
    const ProviderTables &m_tables;
    QString m_origin;
    QString m_defaultRegion;
    QList<Offer> m_offers;
    QHash<QString, qsizetype> m_index;
    QHash<QString, bool> m_regions;
    QHash<QString, bool> m_unknownTypes;
    QHash<QString, bool> m_familyTypes;
    int m_countMismatch = 0;
    int m_duplicates = 0;
    int m_noRegion = 0;
};

/// JSON flavour: a JsonHandler that tracks where it is in the offer file.
class JsonOfferHandler final : public JsonHandler
{
public:
    enum class Ctx : std::uint8_t
    {
        None,
        Root,
        Products,
        Product,
        Attributes,
        Terms,
        OnDemand,
        SkuTerms,
        Term,
        PriceDims,
        Rate,
        PricePerUnit,
    };
    enum class Field : std::uint8_t
    {
        None,
        Version,
        Publication,
        OfferCode,
        Family,
        Attribute,
        Unit,
        BeginRange,
        Price
    };

    explicit JsonOfferHandler(OfferBuilder &builder) : m_builder(builder) {}

    Action startObject() override
    {
        Ctx next = m_pending;
        m_pending = Ctx::None;
        if (m_depth == 0)
            next = Ctx::Root;
        else if (next == Ctx::None)
            return Action::SkipValue;
        if (m_depth + 1 >= static_cast<int>(m_ctx.size()))
            return Action::SkipValue;
        m_ctx[static_cast<std::size_t>(++m_depth)] = next;
        if (next == Ctx::Product) {
            m_product.clear();
            m_productDropped = false;
            ++m_products;
        } else if (next == Ctx::Rate) {
            m_unit.clear();
            m_beginRange.clear();
            m_price.clear();
            m_currency.clear();
        }
        return Action::Continue;
    }

    Action endObject() override
    {
        const Ctx ending = ctx();
        --m_depth;
        switch (ending) {
        case Ctx::Attributes:
            return m_productDropped ? Action::SkipRest : Action::Continue;
        case Ctx::Product:
            if (!m_productDropped && m_builder.keep(m_product))
                m_kept.emplace(m_sku, m_product);
            break;
        case Ctx::Products:
            m_productsDone = true;
            break;
        case Ctx::Rate:
            if (m_unit == "Hrs" && (m_beginRange.empty() || m_beginRange == "0")) {
                if (m_currency == "USD") {
                    double v = 0;
                    if (parseDecimal(m_price, &v) && v > 0) {
                        auto &slot = m_prices[m_termSku];
                        if (slot <= 0 || v < slot)
                            slot = v;
                    } else {
                        if (m_zeroPrices++ < 3)
                            m_zeroExamples.push_back(m_price);
                    }
                } else if (!m_currency.empty()) {
                    m_otherCurrency = m_currency;
                }
            }
            break;
        default:
            break;
        }
        return Action::Continue;
    }

    Action startArray() override
    {
        if (m_pending != Ctx::None)
            return fail(QStringLiteral("\"%1\" is an array, an object was expected").arg(q(m_lastKey)));
        if (m_depth == 0)
            return fail(QStringLiteral("the document is an array, not an AWS offer file"));
        return Action::SkipValue;
    }

    Action key(std::string_view k) override
    {
        const Action a = onKey(k);
        if (m_pending != Ctx::None)
            m_lastKey.assign(k);
        return a;
    }

    Action onKey(std::string_view k)
    {
        m_field = Field::None;
        switch (ctx()) {
        case Ctx::Root:
            if (k == "products") {
                m_pending = Ctx::Products;
                m_sawProducts = true;
            } else if (k == "terms") {
                m_pending = Ctx::Terms;
            } else if (k == "version") {
                m_field = Field::Version;
            } else if (k == "publicationDate") {
                m_field = Field::Publication;
            } else if (k == "offerCode") {
                m_field = Field::OfferCode;
            } else {
                return Action::SkipValue;
            }
            return Action::Continue;
        case Ctx::Products:
            m_sku.assign(k);
            m_pending = Ctx::Product;
            return Action::Continue;
        case Ctx::Product:
            if (k == "productFamily") {
                m_field = Field::Family;
                return Action::Continue;
            }
            if (k == "attributes") {
                m_pending = Ctx::Attributes;
                return Action::Continue;
            }
            return Action::SkipValue;
        case Ctx::Attributes:
            m_attr = attrFromKey(k);
            if (m_attr == Attr::None)
                return Action::SkipValue;
            m_field = Field::Attribute;
            return Action::Continue;
        case Ctx::Terms:
            if (k == "OnDemand") {
                m_pending = Ctx::OnDemand;
                return Action::Continue;
            }
            return Action::SkipValue; // Reserved, savings plans...
        case Ctx::OnDemand:
            m_termSku.assign(k); // (no allocation per SKU: the buffer is reused)
            if (m_productsDone && m_kept.find(m_termSku) == m_kept.end())
                return Action::SkipValue; // not a kept GPU product: skip its terms unparsed
            m_pending = Ctx::SkuTerms;
            return Action::Continue;
        case Ctx::SkuTerms:
            m_pending = Ctx::Term;
            return Action::Continue;
        case Ctx::Term:
            if (k == "priceDimensions") {
                m_pending = Ctx::PriceDims;
                return Action::Continue;
            }
            return Action::SkipValue;
        case Ctx::PriceDims:
            m_pending = Ctx::Rate;
            return Action::Continue;
        case Ctx::Rate:
            if (k == "unit") {
                m_field = Field::Unit;
                return Action::Continue;
            }
            if (k == "beginRange") {
                m_field = Field::BeginRange;
                return Action::Continue;
            }
            if (k == "pricePerUnit") {
                m_pending = Ctx::PricePerUnit;
                return Action::Continue;
            }
            return Action::SkipValue;
        case Ctx::PricePerUnit:
            if (m_currency.empty() || k == "USD") {
                m_currency.assign(k);
                m_field = Field::Price;
                return Action::Continue;
            }
            return Action::SkipValue;
        default:
            return Action::SkipValue;
        }
    }

    Action string(std::string_view s) override
    {
        const Field f = m_field;
        m_field = Field::None;
        if (m_pending != Ctx::None)
            return fail(QStringLiteral("\"%1\" is a string, an object was expected").arg(q(m_lastKey)));
        switch (f) {
        case Field::Version:
            m_version.assign(s);
            break;
        case Field::Publication:
            m_publication.assign(s);
            break;
        case Field::OfferCode:
            if (s != "AmazonEC2")
                return fail(QStringLiteral("offer code \"%1\", expected AmazonEC2 (not an EC2 price list)")
                                .arg(QString::fromUtf8(
                                    s.data(), static_cast<qsizetype>(std::min<std::size_t>(s.size(), 40)))));
            break;
        case Field::Family:
            m_product.family.assign(s);
            if (m_product.family.rfind("Compute Instance", 0) != 0) {
                m_productDropped = true;
                return Action::SkipRest; // storage, data transfer, IPs...: not a machine
            }
            break;
        case Field::Attribute:
            m_product.at(m_attr).assign(s);
            if (m_attr == Attr::InstanceType && !candidate(s)) {
                m_productDropped = true;
                return Action::SkipRest;
            }
            break;
        case Field::Unit:
            m_unit.assign(s);
            break;
        case Field::BeginRange:
            m_beginRange.assign(s);
            break;
        case Field::Price:
            m_price.assign(s);
            break;
        case Field::None:
            break;
        }
        return Action::Continue;
    }

    Action number(std::string_view) override { return scalar(); }
    Action boolean(bool) override { return scalar(); }
    Action null() override { return scalar(); }

    QString error() const { return m_error; }

    void finishInto(AwsOfferResult &r)
    {
        r.version = q(m_version);
        r.publicationDate = q(m_publication);
        r.products = m_products;
        for (const auto &[sku, product] : m_kept) {
            auto it = m_prices.find(sku);
            if (it == m_prices.end()) {
                ++m_keptWithoutPrice;
                continue;
            }
            m_builder.add(product, it->second);
        }
        if (m_keptWithoutPrice)
            r.warnings.append(
                QStringLiteral("%1 GPU products have no on-demand hourly USD price").arg(m_keptWithoutPrice));
        if (m_zeroPrices) {
            QStringList examples;
            for (const std::string &e : m_zeroExamples)
                examples.append(u'"' + q(e).left(40) + u'"');
            r.warnings.append(QStringLiteral("pricePerUnit (USD per hour) is zero or unreadable on %1 rows, "
                                             "skipped (first: %2)")
                                  .arg(m_zeroPrices)
                                  .arg(examples.join(QStringLiteral(", "))));
        }
    }

    bool sawProducts() const { return m_sawProducts; }
    const std::string &otherCurrency() const { return m_otherCurrency; }
    std::size_t keptProducts() const { return m_kept.size(); }

private:
    Ctx ctx() const { return m_ctx[static_cast<std::size_t>(m_depth)]; }
    /// acceleratorCandidate, remembered per family (the part before the dot): a file has a few hundred
    /// families and a hundred thousand products.
    bool candidate(std::string_view type)
    {
        const std::string_view family = type.substr(0, type.find('.'));
        m_familyKey.assign(family);
        if (auto it = m_candidates.find(m_familyKey); it != m_candidates.end())
            return it->second;
        const bool yes = acceleratorCandidate(type, m_builder.tables());
        if (m_candidates.size() < 4096)
            m_candidates.emplace(m_familyKey, yes);
        return yes;
    }
    Action scalar()
    {
        m_field = Field::None;
        if (m_pending != Ctx::None)
            return fail(
                QStringLiteral("\"%1\" has the wrong type: an object was expected").arg(q(m_lastKey)));
        if (m_depth == 0)
            return fail(QStringLiteral("the document is not an object"));
        return Action::Continue;
    }
    Action fail(const QString &what)
    {
        m_error = what;
        return Action::Abort;
    }

    OfferBuilder &m_builder;
    std::array<Ctx, 16> m_ctx{};
    int m_depth = 0;
    Ctx m_pending = Ctx::None;
    Field m_field = Field::None;
    Attr m_attr = Attr::None;
    std::string m_lastKey;
    std::string m_version, m_publication;
    std::string m_sku, m_termSku;
    Product m_product;
    bool m_productDropped = false;
    bool m_productsDone = false;
    bool m_sawProducts = false;
    std::unordered_map<std::string, Product> m_kept;
    std::unordered_map<std::string, bool> m_candidates; ///< family -> acceleratorCandidate
    std::string m_familyKey;
    /// Hourly USD price per SKU. After the products only kept SKUs get here; a file with the terms
    /// first (never seen, but JSON does not fix key order) holds one number per SKU.
    std::unordered_map<std::string, double> m_prices;
    std::string m_unit, m_beginRange, m_price, m_currency, m_otherCurrency;
    qint64 m_products = 0;
    int m_zeroPrices = 0;
    std::vector<std::string> m_zeroExamples; ///< the first zero or unreadable prices, as written
    int m_keptWithoutPrice = 0;
    QString m_error;
};

/// CSV flavour: records from util's streaming CSV reader; 5 metadata lines, the header on line 6.
class CsvOfferReader
{
public:
    explicit CsvOfferReader(OfferBuilder &builder)
        : m_builder(builder),
          m_reader([this](std::span<const std::string> fields, qint64 line) { return record(fields, line); },
                   1024 * 1024)
    {
    }

    bool write(const char *data, std::size_t size) { return m_reader.write(data, size); }

    bool finish()
    {
        if (!m_reader.finish())
            return false;
        if (m_header.empty())
            return fail(QStringLiteral("no header line: not an AWS price list CSV (truncated?)"));
        return true;
    }

    /// What write() or finish() found wrong: the CSV itself, or its content.
    QString error() const { return m_error.isEmpty() ? m_reader.error() : m_error; }
    void finishInto(AwsOfferResult &r)
    {
        r.version = q(m_version);
        r.publicationDate = q(m_publication);
        r.products = m_rows;
        if (m_zeroPrices)
            r.warnings.append(QStringLiteral("PricePerUnit (USD per hour) is zero or unreadable on %1 rows, "
                                             "skipped (%2)")
                                  .arg(m_zeroPrices)
                                  .arg(m_zeroExamples.join(QStringLiteral(", "))));
        if (m_otherCurrency && r.offers.isEmpty())
            r.warnings.append(
                QStringLiteral("%1 rows are priced in another currency than USD").arg(m_otherCurrency));
    }

private:
    bool fail(const QString &what)
    {
        m_error = what;
        return false;
    }
    int col(const char *name) const
    {
        auto it = m_columns.find(name);
        return it == m_columns.end() ? -1 : it->second;
    }
    const std::string &field(int c) const
    {
        static const std::string empty;
        return c >= 0 && static_cast<std::size_t>(c) < m_fields.size() ? m_fields[static_cast<std::size_t>(c)]
                                                                       : empty;
    }
    bool record(std::span<const std::string> fields, qint64 line)
    {
        m_fields = fields;
        m_line = line;
        if (m_header.empty()) {
            if (m_fields.size() == 2 && m_line <= 5) {
                if (m_fields[0] == "Version")
                    m_version = m_fields[1];
                else if (m_fields[0] == "Publication Date")
                    m_publication = m_fields[1];
                else if (m_fields[0] == "OfferCode" && m_fields[1] != "AmazonEC2")
                    return fail(
                        QStringLiteral("offer code \"%1\", expected AmazonEC2").arg(q(m_fields[1]).left(40)));
                return true;
            }
            if (m_fields.size() < 10)
                return fail(
                    QStringLiteral("line %1: expected the header of an AWS price list CSV").arg(m_line));
            m_header.assign(m_fields.begin(), m_fields.end());
            for (std::size_t i = 0; i < m_header.size(); ++i)
                m_columns.emplace(m_header[i], static_cast<int>(i));
            for (const char *required : {"SKU", "TermType", "Unit", "PricePerUnit", "Currency",
                                         "Instance Type", "Operating System", "Tenancy"})
                if (col(required) < 0)
                    return fail(QStringLiteral("the column \"%1\" is missing: not an AWS EC2 price list CSV")
                                    .arg(QLatin1String(required)));
            m_cTerm = col("TermType");
            m_cUnit = col("Unit");
            m_cPrice = col("PricePerUnit");
            m_cCurrency = col("Currency");
            m_cStart = col("StartingRange");
            m_cFamily = col("Product Family");
            m_map = {{Attr::InstanceType, col("Instance Type")},
                     {Attr::OperatingSystem, col("Operating System")},
                     {Attr::Tenancy, col("Tenancy")},
                     {Attr::PreInstalledSw, col("Pre Installed S/W")},
                     {Attr::CapacityStatus, col("CapacityStatus")},
                     {Attr::LicenseModel, col("License Model")},
                     {Attr::Operation, col("operation")},
                     {Attr::MarketOption, col("MarketOption")},
                     {Attr::RegionCode, col("Region Code")},
                     {Attr::Location, col("Location")},
                     {Attr::Vcpu, col("vCPU")},
                     {Attr::Memory, col("Memory")},
                     {Attr::Gpu, col("GPU")},
                     {Attr::GpuMemory, col("GPU Memory")}};
            return true;
        }
        if (m_fields.size() != m_header.size())
            return fail(QStringLiteral("line %1 has %2 fields, the header has %3 (truncated file?)")
                            .arg(m_line)
                            .arg(m_fields.size())
                            .arg(m_header.size()));
        ++m_rows;
        if (field(m_cTerm) != "OnDemand" || field(m_cUnit) != "Hrs")
            return true;
        const std::string &start = field(m_cStart);
        if (!start.empty() && start != "0")
            return true;
        Product p;
        p.family = field(m_cFamily);
        for (const auto &[attr, c] : m_map)
            p.at(attr) = field(c);
        // The CSV writes "no pre-installed software" as an empty cell, the JSON as "NA".
        if (!m_builder.keep(p))
            return true;
        if (field(m_cCurrency) != "USD") {
            ++m_otherCurrency;
            return true;
        }
        double v = 0;
        if (!parseDecimal(field(m_cPrice), &v) || !(v > 0)) {
            if (m_zeroPrices++ < 3)
                m_zeroExamples.append(
                    QStringLiteral("line %1: \"%2\"").arg(m_line).arg(q(field(m_cPrice)).left(40)));
            return true;
        }
        m_builder.add(p, v);
        return true;
    }

    OfferBuilder &m_builder;
    CsvRecordReader m_reader;
    std::span<const std::string> m_fields; ///< the record being read
    std::vector<std::string> m_header;
    std::map<std::string, int, std::less<>> m_columns;
    std::vector<std::pair<Attr, int>> m_map;
    int m_cTerm = -1, m_cUnit = -1, m_cPrice = -1, m_cCurrency = -1, m_cStart = -1, m_cFamily = -1;
    qint64 m_line = 0;
    qint64 m_rows = 0;
    int m_otherCurrency = 0;
    int m_zeroPrices = 0;
    QStringList m_zeroExamples;
    std::string m_version, m_publication;
    QString m_error;
};

} // namespace

struct AwsOfferStream::Impl
{
    Impl(const ProviderTables &t, QString o, QString r)
        : tables(t), origin(std::move(o)), defaultRegion(std::move(r))
    {
        reset();
    }

    void reset()
    {
        parser.reset();
        json.reset();
        csv.reset();
        builder = std::make_unique<OfferBuilder>(tables, origin, defaultRegion);
        flavour = Flavour::Unknown;
        bytes = 0;
        utf8 = Utf8Validator();
        error.clear();
    }

    enum class Flavour
    {
        Unknown,
        Json,
        Csv
    };
    const ProviderTables &tables;
    QString origin;
    QString defaultRegion;
    std::unique_ptr<OfferBuilder> builder;
    std::unique_ptr<JsonOfferHandler> json;
    std::unique_ptr<JsonStreamParser> parser;
    std::unique_ptr<CsvOfferReader> csv;
    Flavour flavour = Flavour::Unknown;
    qint64 bytes = 0;
    Utf8Validator utf8;
    QString error;
};

AwsOfferStream::AwsOfferStream(const ProviderTables &tables, QString origin, QString defaultRegion)
    : d(std::make_unique<Impl>(tables, std::move(origin), std::move(defaultRegion)))
{
}

AwsOfferStream::~AwsOfferStream() = default;

void AwsOfferStream::begin()
{
    d->reset();
}

bool AwsOfferStream::write(const char *data, std::size_t size)
{
    if (!d->error.isEmpty())
        return false;
    d->bytes += static_cast<qint64>(size);
    if (!d->utf8.feed(data, size)) {
        // Every other reader refuses what is not UTF-8; this one must not turn it into U+FFFD.
        d->error = QStringLiteral("%1: not valid UTF-8 at byte %2")
                       .arg(d->origin, QString::number(d->utf8.errorOffset()));
        return false;
    }
    if (d->flavour == Impl::Flavour::Unknown) {
        std::size_t i = 0;
        if (size >= 3 && static_cast<unsigned char>(data[0]) == 0xEF &&
            static_cast<unsigned char>(data[1]) == 0xBB && static_cast<unsigned char>(data[2]) == 0xBF)
            i = 3; // UTF-8 byte order mark
        while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
            ++i;
        if (i == size)
            return true; // only whitespace so far
        if (data[i] == '{') {
            d->flavour = Impl::Flavour::Json;
            d->json = std::make_unique<JsonOfferHandler>(*d->builder);
            d->parser = std::make_unique<JsonStreamParser>(*d->json);
        } else if (data[i] == '"' || data[i] == 'F') {
            d->flavour = Impl::Flavour::Csv;
            d->csv = std::make_unique<CsvOfferReader>(*d->builder);
        } else {
            d->error =
                QStringLiteral("%1: not an AWS price list (neither the JSON nor the CSV offer file format)")
                    .arg(d->origin);
            return false;
        }
        data += i;
        size -= i;
    }
    if (d->flavour == Impl::Flavour::Json) {
        if (!d->parser->feed(data, size)) {
            const QString why = d->json->error().isEmpty() ? d->parser->errorString() : d->json->error();
            d->error = QStringLiteral("%1: invalid AWS offer file: %2").arg(d->origin, why);
            return false;
        }
        return true;
    }
    if (!d->csv->write(data, size)) {
        d->error = QStringLiteral("%1: invalid AWS offer CSV: %2").arg(d->origin, d->csv->error());
        return false;
    }
    return true;
}

QString AwsOfferStream::errorString() const
{
    return d->error;
}

Result<AwsOfferResult> AwsOfferStream::finish()
{
    if (!d->error.isEmpty())
        return makeError(d->error);
    if (!d->utf8.finish())
        return makeError(QStringLiteral("%1: not valid UTF-8 at byte %2 (cut off)")
                             .arg(d->origin, QString::number(d->utf8.errorOffset())));
    AwsOfferResult r;
    r.bytes = d->bytes;
    switch (d->flavour) {
    case Impl::Flavour::Unknown:
        return makeError(QStringLiteral("%1: the AWS offer file is empty").arg(d->origin));
    case Impl::Flavour::Json:
        if (!d->parser->finish())
            return makeError(
                QStringLiteral("%1: invalid AWS offer file: %2").arg(d->origin, d->parser->errorString()));
        if (!d->json->sawProducts())
            return makeError(QStringLiteral("%1: no \"products\" in the document: not an AWS EC2 offer file")
                                 .arg(d->origin));
        d->json->finishInto(r);
        d->builder->finishInto(r, r.version);
        if (r.offers.isEmpty() && !d->json->otherCurrency().empty())
            return makeError(
                QStringLiteral(
                    "%1: prices are in %2, not USD (China partition?); only USD price lists are supported")
                    .arg(d->origin, q(d->json->otherCurrency())));
        break;
    case Impl::Flavour::Csv:
        if (!d->csv->finish())
            return makeError(QStringLiteral("%1: invalid AWS offer CSV: %2").arg(d->origin, d->csv->error()));
        d->builder->finishInto(r, QString());
        d->csv->finishInto(r);
        for (Offer &o : r.offers)
            o.source = QStringLiteral("AWS price list %1 (CSV)").arg(r.version);
        break;
    }
    return r;
}

Result<AwsOfferResult> parseAwsOffers(QByteArrayView data, const ProviderTables &tables,
                                      const QString &origin, const QString &defaultRegion)
{
    AwsOfferStream s(tables, origin, defaultRegion);
    s.begin();
    // Feed in pieces, as a download would.
    constexpr qsizetype kChunk = 64 * 1024;
    for (qsizetype i = 0; i < data.size(); i += kChunk) {
        if (!s.write(data.data() + i, static_cast<std::size_t>(std::min(kChunk, data.size() - i))))
            return makeError(s.errorString());
    }
    return s.finish();
}

Result<AwsRegionIndex> parseAwsRegionIndex(QByteArrayView data, const QString &origin)
{
    auto parsed = parseJsonDocument(data, origin);
    if (!parsed)
        return parsed.error();
    const QJsonDocument doc = std::move(parsed).value();
    if (!doc.isObject() || !doc.object().value(QStringLiteral("regions")).isObject())
        return makeError(QStringLiteral("%1: not an AWS region index (no \"regions\" object)").arg(origin));
    AwsRegionIndex idx;
    idx.publicationDate = doc.object().value(QStringLiteral("publicationDate")).toString();
    const QJsonObject regions = doc.object().value(QStringLiteral("regions")).toObject();
    for (auto it = regions.begin(); it != regions.end(); ++it) {
        const QJsonObject r = it.value().toObject();
        const QString code = r.value(QStringLiteral("regionCode")).toString(it.key());
        const QString url = r.value(QStringLiteral("currentVersionUrl")).toString();
        if (code.isEmpty() || url.isEmpty())
            return makeError(
                QStringLiteral("%1: region \"%2\" has no currentVersionUrl").arg(origin, it.key()));
        idx.regions.append({code, url});
    }
    std::sort(idx.regions.begin(), idx.regions.end());
    if (idx.regions.isEmpty())
        return makeError(QStringLiteral("%1: the region index lists no regions").arg(origin));
    return idx;
}

} // namespace gf
