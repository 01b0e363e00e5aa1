#include "refresh/httpclient.h"

#include "refresh/redact.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

#include <curl/curl.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <optional>

namespace gf {

namespace {

std::once_flag s_curlInit;

void initCurl()
{
    std::call_once(s_curlInit, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

QString reasonPhrase(long code)
{
    switch (code) {
    case 400:
        return QStringLiteral("Bad Request");
    case 401:
        return QStringLiteral("Unauthorized");
    case 403:
        return QStringLiteral("Forbidden");
    case 404:
        return QStringLiteral("Not Found");
    case 408:
        return QStringLiteral("Request Timeout");
    case 410:
        return QStringLiteral("Gone");
    case 429:
        return QStringLiteral("Too Many Requests");
    case 500:
        return QStringLiteral("Internal Server Error");
    case 502:
        return QStringLiteral("Bad Gateway");
    case 503:
        return QStringLiteral("Service Unavailable");
    case 504:
        return QStringLiteral("Gateway Timeout");
    default:
        return {};
    }
}

/// State of one attempt, shared with libcurl's callbacks.
struct Transfer
{
    CURL *curl = nullptr;
    const HttpRequest *request = nullptr;
    ByteSink *sink = nullptr;
    QByteArray *memory = nullptr;
    qint64 maxBody = 0;
    const std::atomic_bool *cancel = nullptr;
    const HttpProgress *progress = nullptr;
    QElapsedTimer progressClock;
    const QElapsedTimer *clock = nullptr; ///< started with the download (first attempt)
    qint64 limitMs = 0;                   ///< HttpOptions::maxTimeMs; <= 0: none

    QString etag, lastModified, contentType, retryAfter;
    bool started = false;
    bool sinkFailed = false;
    bool tooLarge = false;
    bool badContentType = false;
    bool cancelled = false;
    bool timeLimit = false; ///< the download ran past HttpOptions::maxTimeMs
    QByteArray errorBody;   ///< first bytes of a non-2xx body, for the message
    qint64 bytes = 0;
};

size_t onHeader(char *buffer, size_t size, size_t count, void *userData)
{
    auto *t = static_cast<Transfer *>(userData);
    const size_t len = size * count;
    const QByteArray line = QByteArray(buffer, static_cast<qsizetype>(len)).trimmed();
    if (line.startsWith("HTTP/")) {
        // A new response (after a redirect or "100 Continue"): forget the previous headers.
        t->etag.clear();
        t->lastModified.clear();
        t->contentType.clear();
        t->retryAfter.clear();
        return len;
    }
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return len;
    const QByteArray name = line.left(colon).trimmed().toLower();
    const QString value = QString::fromLatin1(line.mid(colon + 1).trimmed());
    if (name == "etag")
        t->etag = value;
    else if (name == "last-modified")
        t->lastModified = value;
    else if (name == "content-type")
        t->contentType = value;
    else if (name == "retry-after")
        t->retryAfter = value;
    return len;
}

size_t onWrite(char *data, size_t size, size_t count, void *userData)
{
    auto *t = static_cast<Transfer *>(userData);
    const size_t len = size * count;
    long code = 0;
    curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
    if (code < 200 || code >= 300) {
        if (t->errorBody.size() < 2048)
            t->errorBody.append(data, static_cast<qsizetype>(std::min<size_t>(len, 2048)));
        return len;
    }
    if (!t->started) {
        t->started = true;
        const QString ct = t->contentType.toLower();
        if (t->request->expectJson && (ct.startsWith(QStringLiteral("text/html")) ||
                                       ct.startsWith(QStringLiteral("application/xhtml")))) {
            t->badContentType = true;
            t->errorBody = QByteArray(data, static_cast<qsizetype>(std::min<size_t>(len, 2048)));
            return 0;
        }
        if (t->sink)
            t->sink->begin();
    }
    t->bytes += static_cast<qint64>(len);
    if (t->sink) {
        if (!t->sink->write(data, len)) {
            t->sinkFailed = true;
            return 0;
        }
        return len;
    }
    if (t->memory->size() + static_cast<qint64>(len) > t->maxBody) {
        t->tooLarge = true;
        return 0;
    }
    t->memory->append(data, static_cast<qsizetype>(len));
    return len;
}

int onProgress(void *userData, curl_off_t dlTotal, curl_off_t dlNow, curl_off_t, curl_off_t)
{
    auto *t = static_cast<Transfer *>(userData);
    if (t->cancel && t->cancel->load()) {
        t->cancelled = true;
        return 1;
    }
    if (t->limitMs > 0 && t->clock->elapsed() >= t->limitMs) {
        t->timeLimit = true;
        return 1;
    }
    if (t->progress && *t->progress &&
        (t->progressClock.elapsed() >= 100 || (dlTotal > 0 && dlNow == dlTotal))) {
        t->progressClock.restart();
        (*t->progress)(static_cast<qint64>(dlNow), static_cast<qint64>(dlTotal));
    }
    return 0;
}

bool retryableCurlCode(CURLcode rc)
{
    switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_COULDNT_CONNECT:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_BAD_CONTENT_ENCODING:
        return true;
    default:
        return false;
    }
}

/// libcurl's answer to a response header too large to hold: CURLE_OUT_OF_MEMORY (its "Avoided giant
/// realloc for header") before curl 8.6, CURLE_TOO_LARGE since; only before any body arrived.
bool oversizedHeader(CURLcode rc, const Transfer &t)
{
    if (t.started)
        return false;
#if LIBCURL_VERSION_NUM >= 0x080600
    if (rc == CURLE_TOO_LARGE)
        return true;
#endif
    return rc == CURLE_OUT_OF_MEMORY;
}

/// "0.3 s", "45 s", "30 min": a time limit for messages.
QString limitText(qint64 ms)
{
    if (ms % 1000 != 0)
        return QStringLiteral("%1 s").arg(QString::number(static_cast<double>(ms) / 1000.0, 'g', 6));
    const qint64 s = ms / 1000;
    if (s >= 120 && s % 60 == 0)
        return QStringLiteral("%1 min").arg(s / 60);
    return QStringLiteral("%1 s").arg(s);
}

/// Empties the handle's options after a transfer: it must not keep pointers to the transfer's
/// buffers, headers and callbacks. Live connections, the TLS session and DNS caches stay.
struct ResetAfter
{
    CURL *curl;
    ~ResetAfter() { curl_easy_reset(curl); }
};

QString snippet(const QByteArray &body)
{
    QString s = QString::fromUtf8(body.left(300)).simplified();
    if (body.size() > 300)
        s += QStringLiteral("…");
    return s;
}

/// The CA bundle trusted instead of the system's: the option, else GPUFRONTIER_CA_BUNDLE, else
/// CURL_CA_BUNDLE; empty for the system's CAs.
QByteArray caBundleFor(const HttpOptions &options)
{
    QString caPath = options.caBundle;
    if (caPath.isEmpty())
        caPath = qEnvironmentVariable("GPUFRONTIER_CA_BUNDLE");
    if (caPath.isEmpty())
        caPath = qEnvironmentVariable("CURL_CA_BUNDLE");
    return QFile::encodeName(caPath);
}

/// Past the time limit for one download: a message with the URL and the limit, and no further attempt.
Error timeLimitError(const QString &message)
{
    return makeCodedError(QStringLiteral("download-time-limit"), message);
}

/// The request's header lines (the caller frees them with curl_slist_free_all).
curl_slist *requestHeaders(const HttpRequest &request)
{
    curl_slist *headers = nullptr;
    headers = curl_slist_append(headers,
                                request.expectJson ? "Accept: application/json, */*;q=0.5" : "Accept: */*");
    if (!request.ifNoneMatch.isEmpty())
        headers = curl_slist_append(
            headers, QByteArray("If-None-Match: " + request.ifNoneMatch.toLatin1()).constData());
    if (!request.ifModifiedSince.isEmpty())
        headers = curl_slist_append(
            headers, QByteArray("If-Modified-Since: " + request.ifModifiedSince.toLatin1()).constData());
    for (const auto &[name, value] : request.headers)
        headers = curl_slist_append(headers, QByteArray(name + ": " + value).constData());
    return headers;
}

/// What one attempt's handle needs besides the request: texts that outlive the transfer, its buffers
/// and callbacks' data, and the time left.
struct AttemptSetup
{
    const QByteArray &url;
    const QByteArray &agent;
    const QByteArray &caBundle;
    curl_slist *headers;
    char *errorBuffer;
    Transfer *transfer;
    qint64 limitMs;     ///< HttpOptions::maxTimeMs; <= 0: none
    qint64 remainingMs; ///< of the limit, when there is one
};

/// Every option of the handle for one attempt (the handle was reset after the previous one).
void setCurlOptions(CURL *curl, const HttpRequest &request, const HttpOptions &options, const AttemptSetup &a)
{
    curl_easy_setopt(curl, CURLOPT_URL, a.url.constData());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, a.errorBuffer);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, a.agent.constData());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, a.headers);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""); // every encoding libcurl was built with
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    // HTTP/2 over TLS where the server offers it (ALPN), HTTP/1.1 otherwise and for plain http.
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
    // TLS verification is always on; there is deliberately no switch to turn it off.
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!a.caBundle.isEmpty()) {
        // Instead of the system's CAs: libcurl keeps its built-in CA folder (Debian:
        // /etc/ssl/certs) next to CAINFO unless it is cleared.
        curl_easy_setopt(curl, CURLOPT_CAINFO, a.caBundle.constData());
        curl_easy_setopt(curl, CURLOPT_CAPATH, static_cast<const char *>(nullptr));
    }
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connectTimeoutMs));
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, static_cast<long>(options.lowSpeedBytesPerS));
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options.lowSpeedTimeS));
    if (a.limitMs > 0) // the progress callback stops at the limit; libcurl's own timeout is a backstop
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                         static_cast<long>(std::min<qint64>(a.remainingMs + 1000, LONG_MAX)));
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &onHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, a.transfer);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &onWrite);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, a.transfer);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &onProgress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, a.transfer);
    if (request.method == "POST") {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
    } else if (request.method != "GET") {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.constData());
        if (!request.body.isEmpty()) {
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
        }
    }
}

/// What libcurl says of a finished attempt.
struct AttemptOutcome
{
    CURLcode rc = CURLE_OK;
    long code = 0;            ///< HTTP status
    QString effectiveUrl;     ///< after redirects
    curl_off_t expected = -1; ///< Content-Length; -1 when unknown
    QString curlText;         ///< libcurl's message
};

AttemptOutcome readOutcome(CURL *curl, CURLcode rc, const char *errorBuffer, const QString &requestUrl)
{
    AttemptOutcome out;
    out.rc = rc;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.code);
    char *effective = nullptr;
    curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective);
    out.effectiveUrl = effective ? QString::fromUtf8(effective) : requestUrl; // owned by the handle
    curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &out.expected);
    out.curlText = QString::fromLocal8Bit(errorBuffer[0] ? errorBuffer : curl_easy_strerror(rc));
    return out;
}

QString expectedText(curl_off_t expected)
{
    return expected >= 0 ? QString::number(expected) : QStringLiteral("?");
}

/// Why an attempt failed, and whether another attempt may succeed.
struct AttemptFailure
{
    QString text;
    QString code; ///< Error::code ("tls-untrusted", "ca-bundle-unreadable"), empty when none
    bool retry = false;
    std::optional<int> retryAfterS; ///< the server's Retry-After (-1 when unreadable), when it sent one
};

/// A transfer libcurl could not complete.
AttemptFailure curlFailure(const AttemptOutcome &out, const Transfer &t, const QByteArray &caBundle)
{
    AttemptFailure f;
    const CURLcode rc = out.rc;
    f.retry = retryableCurlCode(rc);
    if (rc == CURLE_PARTIAL_FILE)
        f.text = QStringLiteral("the connection closed before the end of the body (received %1 of %2 bytes)")
                     .arg(t.bytes)
                     .arg(expectedText(out.expected));
    else if (rc == CURLE_SSL_CACERT_BADFILE) {
        f.text = QStringLiteral("the CA bundle %1 cannot be read as PEM certificates (%2)")
                     .arg(QString::fromLocal8Bit(caBundle), out.curlText);
        f.code = QStringLiteral("ca-bundle-unreadable");
    } else if (rc == CURLE_PEER_FAILED_VERIFICATION) {
        f.text = caBundle.isEmpty()
                     ? QStringLiteral("the server's TLS certificate could not be verified (%1) with the "
                                      "system's CA certificates")
                           .arg(out.curlText)
                     : QStringLiteral("the server's TLS certificate could not be verified (%1) with the "
                                      "CA bundle %2 trusted instead of the system's.")
                           .arg(out.curlText, QString::fromLocal8Bit(caBundle));
        f.code = QStringLiteral("tls-untrusted");
    } else if (oversizedHeader(rc, t))
        f.text = QStringLiteral(
            "the server's response headers are larger than libcurl accepts (100 KB a header line): "
            "a broken or hostile server or proxy, not this computer running out of memory; check "
            "the URL and any proxy, or try again later");
    else if (rc == CURLE_OPERATION_TIMEDOUT && t.bytes > 0)
        f.text = QStringLiteral("the transfer stalled after %1 bytes (%2)").arg(t.bytes).arg(out.curlText);
    else
        f.text = out.curlText;
    return f;
}

/// A response with an HTTP status other than 2xx and 304.
AttemptFailure httpFailure(long code, const Transfer &t)
{
    AttemptFailure f;
    const QString phrase = reasonPhrase(code);
    f.text = QStringLiteral("HTTP %1%2").arg(code).arg(phrase.isEmpty() ? QString() : u' ' + phrase);
    if (!t.errorBody.isEmpty())
        f.text += QStringLiteral(": ") + snippet(t.errorBody);
    f.retry = code == 408 || code == 429 || code >= 500;
    if (f.retry && !t.retryAfter.isEmpty())
        f.retryAfterS = HttpClient::parseRetryAfter(t.retryAfter, QDateTime::currentSecsSinceEpoch());
    return f;
}

} // namespace

HttpClient::HttpClient(HttpOptions options) : m_options(options)
{
    initCurl();
}

HttpClient::~HttpClient() = default;
HttpClient::HttpClient(HttpClient &&other) noexcept = default;
HttpClient &HttpClient::operator=(HttpClient &&other) noexcept = default;

void HttpClient::CurlCleanup::operator()(void *handle) const
{
    curl_easy_cleanup(static_cast<CURL *>(handle));
}

QString HttpClient::userAgent()
{
    const curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
    return QStringLiteral("GPUFrontier/%1 (+https://github.com/gpufrontier/gpufrontier) libcurl/%2")
        .arg(QStringLiteral(GPUFRONTIER_VERSION), QString::fromLatin1(v ? v->version : "?"));
}

int HttpClient::backoffMs(const HttpOptions &options, int attempt, quint32 random)
{
    qint64 d = options.backoffInitialMs;
    for (int i = 1; i < attempt && d < options.backoffMaxMs; ++i)
        d *= 2;
    d = std::min<qint64>(d, options.backoffMaxMs);
    // "Equal jitter": half fixed, half random, so retries of many clients spread out.
    const qint64 half = d / 2;
    return static_cast<int>(half +
                            (half > 0 ? static_cast<qint64>(random % static_cast<quint32>(half + 1)) : 0));
}

int HttpClient::parseRetryAfter(const QString &value, qint64 nowUtcSecs)
{
    const QString v = value.trimmed();
    if (v.isEmpty())
        return -1;
    bool ok = false;
    const long long secs = v.toLongLong(&ok);
    if (ok)
        return secs < 0 ? -1 : static_cast<int>(std::min<long long>(secs, 1 << 30));
    // HTTP-date (RFC 9110: "Sun, 06 Nov 1994 08:49:37 GMT"); Qt's RFC 2822 parser wants a numeric zone.
    QString date = v;
    if (date.endsWith(QStringLiteral(" GMT")) || date.endsWith(QStringLiteral(" UTC")))
        date = date.chopped(4) + QStringLiteral(" +0000");
    const QDateTime when = QDateTime::fromString(date, Qt::RFC2822Date);
    if (!when.isValid())
        return -1;
    return static_cast<int>(std::clamp<qint64>(when.toSecsSinceEpoch() - nowUtcSecs, 0, 1 << 30));
}

bool HttpClient::sleepMs(int ms) const
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        if (cancelled())
            return false;
        QThread::msleep(static_cast<unsigned long>(std::min<qint64>(50, ms - t.elapsed())));
    }
    return !cancelled();
}

Result<HttpResponse> HttpClient::fetch(const HttpRequest &request)
{
    return run(request, nullptr);
}

Result<HttpResponse> HttpClient::fetch(const HttpRequest &request, ByteSink &sink)
{
    return run(request, &sink);
}

Result<HttpResponse> HttpClient::run(const HttpRequest &request, ByteSink *sink)
{
    auto result = attempts(request, sink);
    if (result)
        return result;
    // A URL with user:password@, a key=... parameter or an API key echoed in an error body.
    Error e = result.error();
    e.message = redactSecrets(e.message, m_secrets);
    e.detail = redactSecrets(e.detail, m_secrets);
    return e;
}

Result<HttpResponse> HttpClient::attempts(const HttpRequest &request, ByteSink *sink)
{
    const QString what = QString::fromLatin1(request.method) + u' ' + request.url;
    const QByteArray url = request.url.toUtf8();
    const QByteArray agent = userAgent().toUtf8();
    const QByteArray caBundle = caBundleFor(m_options);
    QString lastFailure;
    QElapsedTimer clock; // the time limit covers every attempt and the waits between them
    clock.start();
    const qint64 limitMs = m_options.maxTimeMs;
    if (!m_curl)
        m_curl.reset(curl_easy_init());
    CURL *curl = static_cast<CURL *>(m_curl.get());
    if (!curl)
        return makeError(QStringLiteral("%1: cannot initialise libcurl").arg(what));
    for (int attempt = 1; attempt <= std::max(1, m_options.maxAttempts); ++attempt) {
        if (cancelled())
            return makeError(QStringLiteral("%1: cancelled").arg(what));
        const qint64 remainingMs = limitMs > 0 ? limitMs - clock.elapsed() : 0;
        if (limitMs > 0 && remainingMs <= 0)
            return timeLimitError(
                QStringLiteral("%1: %2; no time is left for another attempt within the time "
                               "limit of %3 for one download")
                    .arg(what, lastFailure, limitText(limitMs)));
        HttpResponse response;
        response.attempts = attempt;
        Transfer t;
        t.request = &request;
        t.sink = sink;
        t.memory = &response.body;
        t.maxBody = m_options.maxBodyBytes;
        t.cancel = m_cancel;
        t.progress = &m_progress;
        t.progressClock.start();
        t.clock = &clock;
        t.limitMs = limitMs;

        // One handle for every request of this client: its connection cache lets the next request
        // to the same host reuse the connection and TLS session. Every option is set again below.
        const ResetAfter resetAfter{curl};
        t.curl = curl;
        char errorBuffer[CURL_ERROR_SIZE] = {};
        curl_slist *headers = requestHeaders(request);
        setCurlOptions(curl, request, m_options,
                       AttemptSetup{url, agent, caBundle, headers, errorBuffer, &t, limitMs, remainingMs});
        const AttemptOutcome out = readOutcome(curl, curl_easy_perform(curl), errorBuffer, request.url);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, static_cast<curl_slist *>(nullptr));
        curl_slist_free_all(headers);

        response.status = static_cast<int>(out.code);
        response.etag = t.etag;
        response.lastModified = t.lastModified;
        response.contentType = t.contentType;
        response.effectiveUrl = out.effectiveUrl;
        response.bytes = t.bytes;

        if (t.cancelled || cancelled())
            return makeError(QStringLiteral("%1: cancelled").arg(what));
        if (t.timeLimit || (limitMs > 0 && out.rc == CURLE_OPERATION_TIMEDOUT && clock.elapsed() >= limitMs))
            return timeLimitError(
                QStringLiteral("%1: not finished within the time limit of %2 for one download "
                               "(received %3 of %4 bytes); not retried")
                    .arg(what, limitText(limitMs), QString::number(t.bytes), expectedText(out.expected)));
        if (t.sinkFailed)
            return makeError(QStringLiteral("%1: %2").arg(what, sink ? sink->errorString() : QString()));
        if (t.badContentType)
            return makeError(
                QStringLiteral("%1: expected JSON but the server sent %2 (an error or login page?): %3")
                    .arg(what, t.contentType, snippet(t.errorBody)));
        if (t.tooLarge)
            return makeError(QStringLiteral("%1: the response is larger than %2 MB")
                                 .arg(what, QString::number(m_options.maxBodyBytes / (1024 * 1024))));

        if (out.rc == CURLE_OK && out.code == 304) {
            response.notModified = true;
            return response;
        }
        if (out.rc == CURLE_OK && out.code >= 200 && out.code < 300)
            return response;
        const AttemptFailure failure =
            out.rc != CURLE_OK ? curlFailure(out, t, caBundle) : httpFailure(out.code, t);
        lastFailure = failure.text;
        int waitMs = -1;
        if (failure.retryAfterS) {
            const int s = *failure.retryAfterS;
            if (s > m_options.maxRetryAfterS)
                return makeError(
                    QStringLiteral("%1: %2; the server asks to retry after %3 s, longer than the %4 s "
                                   "this refresh waits. Try again later.")
                        .arg(what, lastFailure, QString::number(s),
                             QString::number(m_options.maxRetryAfterS)));
            if (s >= 0)
                waitMs = s * 1000;
        }
        if (!failure.retry || attempt >= m_options.maxAttempts)
            return makeCodedError(failure.code, attempt > 1
                                                    ? QStringLiteral("%1: %2 (after %3 attempts)")
                                                          .arg(what, lastFailure, QString::number(attempt))
                                                    : QStringLiteral("%1: %2").arg(what, lastFailure));
        if (waitMs < 0)
            waitMs = backoffMs(m_options, attempt, QRandomGenerator::global()->generate());
        if (limitMs > 0 && clock.elapsed() + waitMs >= limitMs)
            return timeLimitError(
                QStringLiteral("%1: %2; a retry in %3 s would pass the time limit of %4 for "
                               "one download")
                    .arg(what, lastFailure, QString::number(waitMs / 1000.0, 'g', 6), limitText(limitMs)));
        if (!sleepMs(waitMs))
            return makeError(QStringLiteral("%1: cancelled").arg(what));
    }
    return makeError(QStringLiteral("%1: %2").arg(what, lastFailure));
}

} // namespace gf
