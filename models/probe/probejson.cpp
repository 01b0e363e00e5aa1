#include "probe/probejson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QRegularExpression>

#include <cmath>

namespace gf {

namespace {

constexpr int kSupportedSchema = 1;
constexpr qsizetype kMaxGemms = 1000;
constexpr qsizetype kShortText = 64;
constexpr qsizetype kNameText = 256;
constexpr qsizetype kErrorText = 2000;

/// Reads fields of one JSON object, keeping the first error. Paths name fields as
/// "device.name" or "gemm[2].tflops" in messages.
class FieldReader
{
public:
    FieldReader(const QJsonObject &object, QString path, std::optional<Error> *error)
        : m_o(object), m_path(std::move(path)), m_error(error)
    {
    }

    QString name(const QString &key) const { return m_path.isEmpty() ? key : m_path + u'.' + key; }
    bool failed() const { return m_error->has_value(); }

    /// The value, or undefined when absent or null (null counts as absent).
    QJsonValue find(const QString &key, bool required)
    {
        if (failed())
            return {};
        const QJsonValue v = m_o.value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required)
                fail(QStringLiteral("Missing required field \"%1\"").arg(name(key)));
            return QJsonValue(QJsonValue::Undefined);
        }
        return v;
    }

    QString string(const QString &key, bool required, qsizetype maxLength)
    {
        const QJsonValue v = find(key, required);
        if (v.isUndefined())
            return {};
        if (!v.isString()) {
            fail(QStringLiteral("Field \"%1\" must be a string").arg(name(key)));
            return {};
        }
        const QString s = v.toString();
        if (s.size() > maxLength) {
            fail(QStringLiteral("Field \"%1\" is too long (%2 characters, at most %3)")
                     .arg(name(key), QString::number(s.size()), QString::number(maxLength)));
            return {};
        }
        for (const QChar c : s) {
            if (c.category() == QChar::Other_Control) {
                fail(QStringLiteral("Field \"%1\" contains control characters").arg(name(key)));
                return {};
            }
        }
        if (required && s.trimmed().isEmpty()) {
            fail(QStringLiteral("Field \"%1\" is empty").arg(name(key)));
            return {};
        }
        return s;
    }

    std::optional<double> number(const QString &key, bool required, double min, double max,
                                 bool wholeNumber = false)
    {
        const QJsonValue v = find(key, required);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isDouble()) {
            fail(QStringLiteral("Field \"%1\" must be a number").arg(name(key)));
            return std::nullopt;
        }
        const double d = v.toDouble();
        if (!std::isfinite(d)) {
            fail(QStringLiteral("Field \"%1\" is not a finite number").arg(name(key)));
            return std::nullopt;
        }
        if (wholeNumber && std::floor(d) != d) {
            fail(QStringLiteral("Field \"%1\" must be a whole number, not %2")
                     .arg(name(key), QString::number(d, 'g', 10)));
            return std::nullopt;
        }
        if (d < min || d > max) {
            fail(QStringLiteral("Field \"%1\" is out of range: %2 (expected %3 to %4)")
                     .arg(name(key), QString::number(d, 'g', 10), QString::number(min, 'g', 10),
                          QString::number(max, 'g', 10)));
            return std::nullopt;
        }
        return d;
    }

    /// A measured rate: absent/null, or a number > 0 and <= max.
    std::optional<double> rate(const QString &key, double max)
    {
        const auto v = number(key, false, 0, max);
        if (v && *v <= 0) {
            fail(QStringLiteral("Field \"%1\" must be greater than zero").arg(name(key)));
            return std::nullopt;
        }
        return v;
    }

    int integer(const QString &key, bool required, int min, int max)
    {
        return static_cast<int>(number(key, required, min, max, true).value_or(0));
    }

    std::optional<bool> boolean(const QString &key, bool required)
    {
        const QJsonValue v = find(key, required);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isBool()) {
            fail(QStringLiteral("Field \"%1\" must be true or false").arg(name(key)));
            return std::nullopt;
        }
        return v.toBool();
    }

    std::optional<QJsonObject> object(const QString &key, bool required)
    {
        const QJsonValue v = find(key, required);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isObject()) {
            fail(QStringLiteral("Field \"%1\" must be an object").arg(name(key)));
            return std::nullopt;
        }
        return v.toObject();
    }

    std::optional<QJsonArray> array(const QString &key, bool required, qsizetype maxEntries)
    {
        const QJsonValue v = find(key, required);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isArray()) {
            fail(QStringLiteral("Field \"%1\" must be an array").arg(name(key)));
            return std::nullopt;
        }
        const QJsonArray a = v.toArray();
        if (a.size() > maxEntries) {
            fail(QStringLiteral("Field \"%1\" has too many entries (%2, at most %3)")
                     .arg(name(key), QString::number(a.size()), QString::number(maxEntries)));
            return std::nullopt;
        }
        return a;
    }

    void fail(const QString &message)
    {
        if (!failed())
            *m_error = makeError(message);
    }

private:
    QJsonObject m_o;
    QString m_path;
    std::optional<Error> *m_error;
};

Error documentError(const QString &message, const QString &detail = {})
{
    return makeError(QStringLiteral("Invalid probe document: ") + message, detail);
}

/// Parses the document into an object, or says why it cannot.
Result<QJsonObject> parseObject(const QByteArray &json)
{
    if (json.trimmed().isEmpty())
        return documentError(QStringLiteral("it is empty"));
    if (json.size() > kMaxProbeJsonBytes)
        return documentError(QStringLiteral("it is too large (%1 bytes, at most %2)")
                                 .arg(json.size())
                                 .arg(kMaxProbeJsonBytes));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return documentError(QStringLiteral("it is not valid JSON (%1 at byte %2)")
                                 .arg(pe.errorString(), QString::number(pe.offset)));
    if (!doc.isObject())
        return documentError(QStringLiteral("it is not a JSON object"));
    return doc.object();
}

/// The probe's own error from the "error" object; *malformed is set when "error" is there but
/// is not an object.
std::optional<Error> errorObject(const QJsonObject &root, bool *malformed)
{
    *malformed = false;
    const QJsonValue e = root.value(QStringLiteral("error"));
    if (e.isUndefined() || e.isNull())
        return std::nullopt;
    if (!e.isObject()) {
        *malformed = true;
        return std::nullopt;
    }
    const QJsonObject o = e.toObject();
    auto text = [&](const QString &key) {
        const QString s = o.value(key).toString().simplified();
        return s.size() > kErrorText ? s.left(kErrorText) + QStringLiteral("...") : s;
    };
    QString message = text(QStringLiteral("message"));
    if (message.isEmpty())
        message = QStringLiteral("unknown error");
    const QString code = text(QStringLiteral("code"));
    const QString detail = text(QStringLiteral("detail"));
    QString d = code;
    if (!detail.isEmpty())
        d += (d.isEmpty() ? QString() : QStringLiteral(": ")) + detail;
    return makeError(message, d);
}

} // namespace

std::optional<Error> probeJsonError(const QByteArray &json)
{
    auto root = parseObject(json);
    if (!root)
        return std::nullopt;
    bool malformed = false;
    return errorObject(root.value(), &malformed);
}

Result<ProbeResult> parseProbeJson(const QByteArray &json)
{
    auto rootResult = parseObject(json);
    if (!rootResult)
        return rootResult.error();
    const QJsonObject root = rootResult.value();

    std::optional<Error> error;
    FieldReader top(root, {}, &error);
    ProbeResult r;

    // The version first: a newer schema may change everything else.
    const auto version = top.number(QStringLiteral("schema_version"), true, -1e9, 1e9, true);
    if (error)
        return documentError(error->message);
    if (*version != kSupportedSchema)
        return documentError(
            QStringLiteral("unsupported schema_version %1 (this version of GPU Frontier reads %2)")
                .arg(*version, 0, 'g', 10)
                .arg(kSupportedSchema));
    r.schemaVersion = kSupportedSchema;

    // A failed run: the probe's own message is the most useful one.
    bool malformed = false;
    if (auto e = errorObject(root, &malformed))
        return makeError(QStringLiteral("The probe reported an error: ") + e->message, e->detail);
    if (malformed)
        return documentError(QStringLiteral("Field \"error\" must be an object"));

    r.kind = top.string(QStringLiteral("kind"), true, kShortText);
    if (!error && r.kind != u"cuda" && r.kind != u"cpu")
        top.fail(QStringLiteral("Field \"kind\" must be \"cuda\" or \"cpu\", not \"%1\"").arg(r.kind));
    r.probeVersion = top.string(QStringLiteral("probe_version"), true, kShortText);
    const QString created = top.string(QStringLiteral("created_at"), true, kShortText);
    if (!error) {
        static const QRegularExpression zoned(QStringLiteral("(Z|[+-]\\d\\d:?\\d\\d)$"));
        r.createdAt = QDateTime::fromString(created, Qt::ISODate);
        if (!r.createdAt.isValid() || !zoned.match(created).hasMatch())
            top.fail(
                QStringLiteral("Field \"created_at\" is not an ISO 8601 date-time with a time zone: \"%1\"")
                    .arg(created));
        else if (r.createdAt.date().year() < 2000 || r.createdAt.date().year() > 2200)
            top.fail(QStringLiteral("Field \"created_at\" is out of range: \"%1\"").arg(created));
        else
            r.createdAt = r.createdAt.toUTC();
    }
    r.hostName = top.string(QStringLiteral("host_name"), false, kNameText);
    r.quick = top.boolean(QStringLiteral("quick"), false).value_or(false);
    r.elapsedS = top.number(QStringLiteral("elapsed_s"), false, 0, 7 * 86400).value_or(0);
    if (error)
        return documentError(error->message);

    // Device facts.
    const auto device = top.object(QStringLiteral("device"), true);
    if (error)
        return documentError(error->message);
    FieldReader dev(*device, QStringLiteral("device"), &error);
    const bool cuda = r.kind == u"cuda";
    r.deviceName = dev.string(QStringLiteral("name"), true, kNameText);
    r.computeCapability = dev.string(QStringLiteral("compute_capability"), cuda, kShortText);
    if (!error && cuda) {
        static const QRegularExpression cc(QStringLiteral("^\\d{1,2}\\.\\d{1,2}$"));
        if (!cc.match(r.computeCapability).hasMatch())
            dev.fail(QStringLiteral("Field \"device.compute_capability\" must look like \"9.0\", not \"%1\"")
                         .arg(r.computeCapability));
    }
    r.smCount = cuda ? dev.integer(QStringLiteral("sm_count"), true, 1, 100000)
                     : dev.integer(QStringLiteral("threads"), false, 1, 100000);
    r.memoryGb = dev.number(QStringLiteral("memory_gb"), false, 0, 1e6).value_or(0);
    r.smClockMhz = dev.number(QStringLiteral("sm_clock_mhz"), false, 0, 1e5).value_or(0);
    r.memClockMhz = dev.number(QStringLiteral("mem_clock_mhz"), false, 0, 1e5).value_or(0);
    r.memBusWidthBits = dev.integer(QStringLiteral("mem_bus_width_bits"), false, 0, 100000);
    r.peakMemBandwidthGbs = dev.number(QStringLiteral("peak_mem_bandwidth_gbs"), false, 0, 1e6).value_or(0);
    r.pcieGen = dev.integer(QStringLiteral("pcie_gen"), false, 0, 32);
    r.pcieWidth = dev.integer(QStringLiteral("pcie_width"), false, 0, 64);
    r.driverVersion = dev.string(QStringLiteral("driver_version"), false, kShortText);
    r.cudaVersion = dev.string(QStringLiteral("cuda_version"), false, kShortText);
    if (error)
        return documentError(error->message);

    // GEMM measurements.
    if (const auto gemms = top.array(QStringLiteral("gemm"), false, kMaxGemms)) {
        static const QStringList dtypes{QStringLiteral("fp32"), QStringLiteral("tf32"),
                                        QStringLiteral("fp16"), QStringLiteral("bf16"),
                                        QStringLiteral("fp8"),  QStringLiteral("fp64")};
        for (qsizetype i = 0; i < gemms->size() && !error; ++i) {
            const QString path = QStringLiteral("gemm[%1]").arg(i);
            const QJsonValue v = gemms->at(i);
            if (!v.isObject()) {
                top.fail(QStringLiteral("Field \"%1\" must be an object").arg(path));
                break;
            }
            FieldReader g(v.toObject(), path, &error);
            ProbeGemm pg;
            pg.dtype = g.string(QStringLiteral("dtype"), true, kShortText);
            if (!error && !dtypes.contains(pg.dtype))
                g.fail(QStringLiteral("Field \"%1.dtype\" is not a known type: \"%2\" (known: %3)")
                           .arg(path, pg.dtype, dtypes.join(QStringLiteral(", "))));
            pg.m = g.integer(QStringLiteral("m"), true, 1, 10000000);
            pg.n = g.integer(QStringLiteral("n"), true, 1, 10000000);
            pg.k = g.integer(QStringLiteral("k"), true, 1, 10000000);
            const auto tflops = g.rate(QStringLiteral("tflops"), 1e5);
            if (!error && !tflops)
                g.fail(QStringLiteral("Missing required field \"%1.tflops\"").arg(path));
            pg.tflops = tflops.value_or(0);
            pg.maxRelError = g.number(QStringLiteral("max_rel_error"), false, 0, 1e6);
            r.gemms.append(pg);
        }
    }
    if (error)
        return documentError(error->message);

    // The summary: best figures, each optional, but at least one present.
    const auto summary = top.object(QStringLiteral("summary"), true);
    if (error)
        return documentError(error->message);
    FieldReader sum(*summary, QStringLiteral("summary"), &error);
    r.fp32Tflops = sum.rate(QStringLiteral("fp32_tflops"), 1e5);
    r.tf32Tflops = sum.rate(QStringLiteral("tf32_tflops"), 1e5);
    r.fp16Tflops = sum.rate(QStringLiteral("fp16_tflops"), 1e5);
    r.bf16Tflops = sum.rate(QStringLiteral("bf16_tflops"), 1e5);
    r.fp8Tflops = sum.rate(QStringLiteral("fp8_tflops"), 1e5);
    r.fp64Tflops = sum.rate(QStringLiteral("fp64_tflops"), 1e5);
    r.memBandwidthGbs = sum.rate(QStringLiteral("mem_bandwidth_gbs"), 1e6);
    r.h2dGbs = sum.rate(QStringLiteral("h2d_gbs"), 1e4);
    r.d2hGbs = sum.rate(QStringLiteral("d2h_gbs"), 1e4);
    r.launchOverheadUs = sum.rate(QStringLiteral("launch_overhead_us"), 1e6);
    if (error)
        return documentError(error->message);
    if (!r.fp32Tflops && !r.tf32Tflops && !r.fp16Tflops && !r.bf16Tflops && !r.fp8Tflops && !r.fp64Tflops &&
        !r.memBandwidthGbs)
        return documentError(QStringLiteral("Field \"summary\" holds no measurement"));
    return r;
}

} // namespace gf
