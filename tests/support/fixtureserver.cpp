#include "fixtureserver.h"

#include <QHostAddress>
#include <QMutexLocker>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace gf::test {

namespace {

QByteArray reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

} // namespace

class FixtureServer::Worker
{
public:
    explicit Worker(FixtureServer *owner) : m_owner(owner) {}

    quint16 listen()
    {
        m_server = new QTcpServer();
        if (!m_server->listen(QHostAddress::LocalHost, 0))
            return 0;
        QObject::connect(m_server, &QTcpServer::newConnection, m_server, [this] {
            while (QTcpSocket *s = m_server->nextPendingConnection())
                accept(s);
        });
        m_base = QByteArray("http://127.0.0.1:") + QByteArray::number(m_server->serverPort());
        return m_server->serverPort();
    }

    void stop()
    {
        delete m_server; // closes the listening socket and deletes the connections (its children)
        m_server = nullptr;
    }

private:
    /// One connection: bytes not parsed yet, and whether an answer is still being sent.
    struct Connection
    {
        QByteArray buffer;
        bool busy = false;
    };

    void accept(QTcpSocket *s)
    {
        s->setParent(m_server);
        m_owner->countConnection();
        auto conn = std::make_shared<Connection>();
        QObject::connect(s, &QTcpSocket::readyRead, s, [this, s, conn] {
            conn->buffer.append(s->readAll());
            next(s, conn);
        });
        QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
    }

    /// Answers the next complete request in the buffer, if any and none is being answered.
    void next(QTcpSocket *s, const std::shared_ptr<Connection> &conn)
    {
        if (conn->busy)
            return;
        QByteArray &buffer = conn->buffer;
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        FixtureRequest req;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        req.method = first.value(0);
        const QByteArray target = first.value(1);
        const qsizetype q = target.indexOf('?');
        req.path = q < 0 ? target : target.left(q);
        req.query = q < 0 ? QByteArray() : target.mid(q + 1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                req.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
        }
        const qint64 length = req.headers.value("content-length").toLongLong();
        if (buffer.size() - (end + 4) < length)
            return; // the body is not complete yet
        req.body = buffer.mid(end + 4, length);
        buffer.remove(0, end + 4 + length);
        conn->busy = true;
        const FixtureResponse r = m_owner->take(req);
        if (r.delayMs > 0)
            QTimer::singleShot(r.delayMs, s, [this, s, conn, r, req] { answer(s, conn, r, req); });
        else
            answer(s, conn, r, req);
    }

    /// The answer is out: keep the connection for the next request, or close it.
    void done(QTcpSocket *s, const std::shared_ptr<Connection> &conn, bool keep)
    {
        if (!keep) {
            s->disconnectFromHost();
            return;
        }
        conn->busy = false;
        next(s, conn);
    }

    void answer(QTcpSocket *s, const std::shared_ptr<Connection> &conn, const FixtureResponse &r,
                const FixtureRequest &req)
    {
        int status = r.status;
        QByteArray body = r.body;
        body.replace("{{BASE}}", m_base);
        if (!r.etag.isEmpty() && req.headers.value("if-none-match") == r.etag) {
            status = 304;
            body.clear();
        }
        const bool keep = m_owner->keepAlive() && req.headers.value("connection").toLower() != "close" &&
                          r.closeAfter < 0 && r.stallAfter < 0;
        QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason(status) + "\r\n";
        if (status != 304 && !r.contentType.isEmpty())
            head += "Content-Type: " + r.contentType + "\r\n";
        if (!r.etag.isEmpty())
            head += "ETag: " + r.etag + "\r\n";
        if (!r.lastModified.isEmpty())
            head += "Last-Modified: " + r.lastModified + "\r\n";
        if (r.deflate && status != 304) {
            body = qCompress(body).mid(4); // zlib stream = HTTP "deflate"
            head += "Content-Encoding: deflate\r\n";
        }
        for (const auto &[name, value] : r.headers)
            head += name + ": " + value + "\r\n";
        head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
        head += keep ? QByteArray("\r\n") : QByteArray("Connection: close\r\n\r\n");
        s->write(head);
        if (r.closeAfter >= 0) {
            s->write(body.left(r.closeAfter));
            s->disconnectFromHost(); // after the bytes: the client sees the end before Content-Length
            return;
        }
        if (r.stallAfter >= 0) {
            s->write(body.left(r.stallAfter));
            s->flush();
            QPointer<QTcpSocket> guard(s);
            QTimer::singleShot(r.stallMs, s, [guard] {
                if (guard)
                    guard->abort();
            });
            return;
        }
        if (r.trickleBytes > 0 && !body.isEmpty()) {
            s->flush();
            auto *timer = new QTimer(s);
            auto sent = std::make_shared<qint64>(0);
            QObject::connect(timer, &QTimer::timeout, s, [this, s, conn, timer, sent, body, r, keep] {
                s->write(body.mid(*sent, r.trickleBytes));
                s->flush();
                *sent += r.trickleBytes;
                if (*sent >= body.size()) {
                    timer->stop();
                    timer->deleteLater();
                    done(s, conn, keep);
                }
            });
            timer->start(std::max(1, r.trickleMs));
            return;
        }
        s->write(body);
        done(s, conn, keep);
    }

    FixtureServer *m_owner;
    QTcpServer *m_server = nullptr;
    QByteArray m_base;
};

FixtureServer::FixtureServer() = default;

FixtureServer::~FixtureServer()
{
    if (m_thread) {
        QObject ctx;
        ctx.moveToThread(m_thread);
        QMetaObject::invokeMethod(
            &ctx, [this] { m_worker->stop(); }, Qt::BlockingQueuedConnection);
        m_thread->quit();
        m_thread->wait();
        delete m_thread;
    }
    delete m_worker;
}

bool FixtureServer::start()
{
    m_thread = new QThread();
    m_thread->setObjectName(QStringLiteral("fixture-server"));
    m_thread->start();
    m_worker = new Worker(this);
    QObject ctx;
    ctx.moveToThread(m_thread);
    quint16 port = 0;
    QMetaObject::invokeMethod(
        &ctx, [this, &port] { port = m_worker->listen(); }, Qt::BlockingQueuedConnection);
    m_port = port;
    return port != 0;
}

QString FixtureServer::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m_port);
}

void FixtureServer::route(const QByteArray &path, const QList<FixtureResponse> &answers,
                          const QByteArray &queryContains)
{
    QMutexLocker lock(&m_mutex);
    for (Route &r : m_routes) {
        if (r.path == path && r.queryContains == queryContains) {
            r.answers = answers;
            r.served = 0;
            return;
        }
    }
    m_routes.append({path, queryContains, answers, 0});
}

void FixtureServer::clearRoutes()
{
    QMutexLocker lock(&m_mutex);
    m_routes.clear();
}

QList<FixtureRequest> FixtureServer::requests() const
{
    QMutexLocker lock(&m_mutex);
    return m_requests;
}

int FixtureServer::count(const QByteArray &path) const
{
    QMutexLocker lock(&m_mutex);
    int n = 0;
    for (const FixtureRequest &r : m_requests)
        n += r.path == path ? 1 : 0;
    return n;
}

void FixtureServer::clearRequests()
{
    QMutexLocker lock(&m_mutex);
    m_requests.clear();
    m_connections = 0;
}

int FixtureServer::connections() const
{
    QMutexLocker lock(&m_mutex);
    return m_connections;
}

void FixtureServer::countConnection()
{
    QMutexLocker lock(&m_mutex);
    ++m_connections;
}

void FixtureServer::setKeepAlive(bool on)
{
    QMutexLocker lock(&m_mutex);
    m_keepAlive = on;
}

bool FixtureServer::keepAlive() const
{
    QMutexLocker lock(&m_mutex);
    return m_keepAlive;
}

FixtureResponse FixtureServer::take(const FixtureRequest &request)
{
    QMutexLocker lock(&m_mutex);
    m_requests.append(request);
    // A route with a query condition wins over one without.
    Route *best = nullptr;
    for (Route &r : m_routes) {
        if (r.path != request.path)
            continue;
        if (!r.queryContains.isEmpty() && !request.query.contains(r.queryContains))
            continue;
        if (!best || (best->queryContains.isEmpty() && !r.queryContains.isEmpty()))
            best = &r;
    }
    if (!best || best->answers.isEmpty()) {
        FixtureResponse nf;
        nf.status = 404;
        nf.contentType = "text/plain";
        nf.body = "no fixture for " + request.path;
        return nf;
    }
    const FixtureResponse r = best->answers.at(std::min<qsizetype>(best->served, best->answers.size() - 1));
    ++best->served;
    return r;
}

} // namespace gf::test
