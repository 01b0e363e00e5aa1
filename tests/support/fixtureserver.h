#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QPair>
#include <QString>

#include <memory>

class QThread;

namespace gf::test {

/// One canned answer of the fixture server, with the misbehaviours the refresh must survive.
struct FixtureResponse
{
    int status = 200;
    QByteArray body;
    QByteArray contentType = "application/json";
    QList<QPair<QByteArray, QByteArray>> headers; ///< extra headers (Retry-After, ...)
    QByteArray etag;         ///< sent as ETag; a request with If-None-Match equal to it gets 304
    QByteArray lastModified; ///< sent as Last-Modified
    bool deflate = false;    ///< Content-Encoding: deflate (zlib)
    qint64 closeAfter = -1;  ///< announce the whole body, send this many bytes, then close
    qint64 stallAfter = -1;  ///< send this many bytes, then nothing for stallMs (connection kept open)
    int stallMs = 0;
    int delayMs = 0; ///< wait before answering
    /// A slow link: the body goes out trickleBytes at a time, one piece every trickleMs.
    qint64 trickleBytes = 0;
    int trickleMs = 0;

    static FixtureResponse json(const QByteArray &body, int status = 200)
    {
        FixtureResponse r;
        r.status = status;
        r.body = body;
        return r;
    }
};

/// A request as the server received it (header names lower case).
struct FixtureRequest
{
    QByteArray method;
    QByteArray path;  ///< without the query
    QByteArray query; ///< without '?'
    QHash<QByteArray, QByteArray> headers;
    QByteArray body;
};

/// A real HTTP/1.1 server on 127.0.0.1 (random port) running on its own thread, so blocking clients
/// on the test thread can talk to it. Routes answer by path (and optionally a substring of the
/// query); a route holds a sequence of answers: the n-th request gets the n-th, the last repeats.
/// "{{BASE}}" in a body is replaced by the server's base URL (for absolute next-page links).
/// Connections are persistent as with real servers (HTTP/1.1 keep-alive: one connection answers
/// requests until the client closes it) unless setKeepAlive(false); answers that cut or stall the
/// connection close it.
class FixtureServer
{
public:
    FixtureServer();
    ~FixtureServer();
    FixtureServer(const FixtureServer &) = delete;
    FixtureServer &operator=(const FixtureServer &) = delete;

    /// Listens; false when no port could be opened.
    bool start();
    QString baseUrl() const;
    quint16 port() const { return m_port; }

    void route(const QByteArray &path, const QList<FixtureResponse> &answers,
               const QByteArray &queryContains = {});
    void clearRoutes();

    QList<FixtureRequest> requests() const;
    int count(const QByteArray &path) const;
    /// Forgets the requests seen and resets the connection count.
    void clearRequests();

    /// TCP connections accepted since start() or the last clearRequests().
    int connections() const;
    /// Off: every answer says "Connection: close" and closes the connection (an HTTP/1.0-style server).
    void setKeepAlive(bool on);
    bool keepAlive() const;

    struct Route
    {
        QByteArray path;
        QByteArray queryContains;
        QList<FixtureResponse> answers;
        int served = 0;
    };
    /// Used by the server thread.
    FixtureResponse take(const FixtureRequest &request);
    void countConnection();

private:
    mutable QMutex m_mutex;
    QList<Route> m_routes;
    QList<FixtureRequest> m_requests;
    int m_connections = 0;
    bool m_keepAlive = true;
    QThread *m_thread = nullptr;
    class Worker;
    Worker *m_worker = nullptr;
    quint16 m_port = 0;
};

} // namespace gf::test
