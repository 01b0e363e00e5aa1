#pragma once

#include "util/bytesink.h"
#include "util/result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace gf {

/// Network behaviour of one download. Defaults suit the real providers; tests shorten them.
struct HttpOptions
{
    int connectTimeoutMs = 20000;
    /// A transfer slower than lowSpeedBytesPerS for lowSpeedTimeS seconds is a stall (retried).
    int lowSpeedBytesPerS = 64;
    int lowSpeedTimeS = 60;
    int maxAttempts = 4;         ///< first try + retries
    int backoffInitialMs = 1000; ///< doubled per retry, with jitter
    int backoffMaxMs = 60000;
    int maxRetryAfterS = 300; ///< a longer Retry-After fails at once with a clear message
    qint64 maxBodyBytes = qint64(512) * 1024 * 1024; ///< for responses held in memory
    /// Time limit of one download (one fetch()), every attempt and the waits between them included;
    /// <= 0: none. A download still running then fails at once and is not retried: a server that
    /// trickles a few bytes a second never trips the low-speed check. 30 minutes leave room for the
    /// largest AWS offer file (several hundred MB) on a slow link.
    qint64 maxTimeMs = qint64(30) * 60 * 1000;
    /// PEM file of the certificate authorities to trust instead of the system store (a company
    /// proxy that inspects TLS). Empty: $GPUFRONTIER_CA_BUNDLE, then $CURL_CA_BUNDLE, then the
    /// system store. It only changes whom to trust: verification itself is never switched off.
    QString caBundle;
};

struct HttpRequest
{
    QString url;
    QByteArray method = "GET";
    QByteArray body; ///< POST body
    QList<QPair<QByteArray, QByteArray>> headers;
    QString ifNoneMatch;     ///< ETag of the copy we have
    QString ifModifiedSince; ///< Last-Modified of the copy we have
    bool expectJson = true;  ///< a 2xx HTML answer is an error (captive portal, login or error page)
};

struct HttpResponse
{
    int status = 0;
    bool notModified = false; ///< 304: our copy is current
    QString etag;
    QString lastModified;
    QString contentType;
    QString effectiveUrl;
    QByteArray body;  ///< only when no sink was given
    qint64 bytes = 0; ///< body bytes of the successful attempt (after decompression)
    int attempts = 0;
};

/// Progress of one transfer: bytes received so far and the expected total (0 = unknown).
using HttpProgress = std::function<void(qint64 received, qint64 total)>;

/// Blocking HTTP(S) client on libcurl, for worker threads. Every request has connect and
/// low-speed timeouts and a total time limit, retries with exponential backoff and jitter on
/// timeouts, broken connections, 429 and 5xx (honouring Retry-After), accepts compressed bodies,
/// sends conditional headers, verifies TLS (always; HttpOptions::caBundle picks the CAs), takes
/// proxies from the environment (http_proxy, https_proxy, no_proxy) and identifies itself as
/// GPUFrontier/<version>. One client keeps one libcurl handle for all its requests, so requests to
/// the same host reuse the connection and TLS session (HTTP/2 where the server offers it): use one
/// client for all pages of a source. Error texts never show URL userinfo, credential query
/// parameters or the values given to setSecrets(). Movable, not copyable; one thread at a time.
class HttpClient
{
public:
    explicit HttpClient(HttpOptions options = {});
    ~HttpClient();
    HttpClient(HttpClient &&other) noexcept;
    HttpClient &operator=(HttpClient &&other) noexcept;
    HttpClient(const HttpClient &) = delete;
    HttpClient &operator=(const HttpClient &) = delete;

    /// Cancels from any thread: the transfer in progress stops within ~100 ms.
    void setCancelFlag(const std::atomic_bool *cancel) { m_cancel = cancel; }
    void setProgress(HttpProgress progress) { m_progress = std::move(progress); }
    /// Values (API keys, passwords) replaced by "REDACTED" in every error text.
    void setSecrets(QStringList secrets) { m_secrets = std::move(secrets); }
    const HttpOptions &options() const { return m_options; }

    /// Downloads into memory (bounded by maxBodyBytes).
    Result<HttpResponse> fetch(const HttpRequest &request);
    /// Streams the body into `sink` (memory bounded by the sink).
    Result<HttpResponse> fetch(const HttpRequest &request, ByteSink &sink);

    static QString userAgent();
    /// Milliseconds to wait before retry `attempt` (1-based), with jitter in [d/2, d].
    static int backoffMs(const HttpOptions &options, int attempt, quint32 random);
    /// Parses a Retry-After value (seconds or an HTTP date) into seconds from `nowUtcSecs`; -1 when invalid.
    static int parseRetryAfter(const QString &value, qint64 nowUtcSecs);

private:
    Result<HttpResponse> run(const HttpRequest &request, ByteSink *sink);
    Result<HttpResponse> attempts(const HttpRequest &request, ByteSink *sink);
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    bool sleepMs(int ms) const; ///< false when cancelled meanwhile

    /// Frees the libcurl easy handle (and closes the connections it keeps).
    struct CurlCleanup
    {
        void operator()(void *handle) const;
    };

    HttpOptions m_options;
    const std::atomic_bool *m_cancel = nullptr;
    HttpProgress m_progress;
    QStringList m_secrets;
    std::unique_ptr<void, CurlCleanup> m_curl; ///< CURL *, created on the first request
};

} // namespace gf
