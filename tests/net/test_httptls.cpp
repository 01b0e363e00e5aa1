// TLS verification of HttpClient against a real HTTPS server on 127.0.0.1: `openssl s_server`
// with certificates made by `openssl req` for this run. Checks that verification is on (an
// unknown CA and a wrong host name are refused, not retried, with a message saying what to do),
// and that a CA bundle (option or GPUFRONTIER_CA_BUNDLE) is the only way to trust another CA.

#include "refresh/httpclient.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace gf;

namespace {

HttpOptions fast()
{
    HttpOptions o;
    o.connectTimeoutMs = 5000;
    o.maxAttempts = 3;
    o.backoffInitialMs = 20;
    o.backoffMaxMs = 50;
    return o;
}

/// `openssl s_server -www` on 127.0.0.1 with a free port; stopped in the destructor.
class TlsServer
{
public:
    ~TlsServer()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    bool start(const QString &openssl, const QString &cert, const QString &key, const QStringList &extra = {})
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(openssl, QStringList{QStringLiteral("s_server"), QStringLiteral("-accept"),
                                             QStringLiteral("127.0.0.1:0"), QStringLiteral("-cert"), cert,
                                             QStringLiteral("-key"), key, QStringLiteral("-www")} +
                                     extra);
        if (!m_process.waitForStarted(10000))
            return false;
        static const QRegularExpression accept(QStringLiteral("ACCEPT 127\\.0\\.0\\.1:(\\d+)"));
        QByteArray seen;
        while (m_process.waitForReadyRead(10000)) {
            seen += m_process.readAll();
            const QRegularExpressionMatch m = accept.match(QString::fromLatin1(seen));
            if (m.hasMatch()) {
                m_port = m.captured(1).toInt();
                m_output = seen;
                return true;
            }
        }
        qWarning("openssl s_server did not report its port: %s", seen.constData());
        return false;
    }

    QString url() const { return QStringLiteral("https://127.0.0.1:%1/").arg(m_port); }

    /// Everything the server printed, once it ended by itself (-naccept; its output is buffered).
    QByteArray outputAtExit()
    {
        m_process.waitForFinished(10000);
        m_output += m_process.readAll();
        return m_output;
    }

private:
    QProcess m_process;
    int m_port = 0;
    QByteArray m_output;
};

} // namespace

class TestHttpTls final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_openssl;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    /// A self-signed certificate (its own CA) for the given subjectAltName.
    bool makeCertificate(const QString &name, const QString &altName)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(m_openssl, {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                            QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                            path(name + QStringLiteral(".key")), QStringLiteral("-out"),
                            path(name + QStringLiteral(".pem")), QStringLiteral("-days"), QStringLiteral("2"),
                            QStringLiteral("-subj"), QStringLiteral("/CN=GPU Frontier test ") + name,
                            QStringLiteral("-addext"), QStringLiteral("subjectAltName=") + altName});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning("openssl req failed: %s", p.readAll().constData());
            return false;
        }
        return true;
    }

    std::unique_ptr<TlsServer> serve(const QString &name, const QStringList &extra = {})
    {
        auto server = std::make_unique<TlsServer>();
        if (!server->start(m_openssl, path(name + QStringLiteral(".pem")),
                           path(name + QStringLiteral(".key")), extra))
            return nullptr;
        return server;
    }

    /// Serves certificate `name` and fetches it with `caBundle` (empty: the default lookup).
    Result<HttpResponse> fetchFrom(const QString &name, const QString &caBundle, QString *url = nullptr)
    {
        auto server = serve(name);
        if (!server)
            return makeError(QStringLiteral("the test server for %1 did not start").arg(name));
        if (url)
            *url = server->url();
        HttpOptions o = fast();
        o.caBundle = caBundle;
        HttpClient client(o);
        HttpRequest r;
        r.url = server->url();
        r.expectJson = false; // s_server -www answers with an HTML status page
        return client.fetch(r);
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("no_proxy", "127.0.0.1,localhost");
        qunsetenv("GPUFRONTIER_CA_BUNDLE");
        qunsetenv("CURL_CA_BUNDLE");
        m_openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (m_openssl.isEmpty())
            QSKIP("the openssl command is not installed (.ci/install-deps installs it)");
        QVERIFY(m_dir.isValid());
        QVERIFY(makeCertificate(QStringLiteral("local"), QStringLiteral("IP:127.0.0.1")));
        QVERIFY(makeCertificate(QStringLiteral("elsewhere"), QStringLiteral("DNS:prices.example.invalid")));
    }

    void unknownAuthorityIsRefused()
    {
        QString url;
        const auto r = fetchFrom(QStringLiteral("local"), QString(), &url);
        QVERIFY(!r);
        const QString e = r.error().message;
        QVERIFY2(e.contains(QStringLiteral("TLS certificate could not be verified")), qPrintable(e));
        // The core names the fact; the front ends add where a CA bundle is set (by this code).
        QCOMPARE(r.error().code, QStringLiteral("tls-untrusted"));
        QVERIFY2(!url.isEmpty() && e.contains(url), qPrintable(e));
        QVERIFY2(!e.contains(QStringLiteral("attempts")), qPrintable(e)); // not retried
    }

    void trustedBundleConnects()
    {
        const auto r = fetchFrom(QStringLiteral("local"), path(QStringLiteral("local.pem")));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QCOMPARE(r.value().status, 200);
        QVERIFY(r.value().body.contains("s_server"));
    }

    void bundleFromTheEnvironment()
    {
        qputenv("GPUFRONTIER_CA_BUNDLE", QFile::encodeName(path(QStringLiteral("local.pem"))));
        const auto r = fetchFrom(QStringLiteral("local"), QString());
        qunsetenv("GPUFRONTIER_CA_BUNDLE");
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QCOMPARE(r.value().status, 200);
    }

    void wrongHostNameIsRefused()
    {
        // Trusted CA, but the certificate names another host: verification of the name stays on.
        const auto r = fetchFrom(QStringLiteral("elsewhere"), path(QStringLiteral("elsewhere.pem")));
        QVERIFY(!r);
        const QString e = r.error().message;
        QVERIFY2(e.contains(QStringLiteral("TLS certificate could not be verified")), qPrintable(e));
        QVERIFY2(e.contains(QStringLiteral("with the CA bundle ") + path(QStringLiteral("elsewhere.pem"))),
                 qPrintable(e));
    }

    void sessionReusedBetweenRequests()
    {
        // One client keeps its TLS session: s_server -www closes the connection after each page,
        // and the second handshake resumes the first session instead of a full handshake.
        auto server = serve(QStringLiteral("local"));
        QVERIFY(server);
        HttpOptions o = fast();
        o.caBundle = path(QStringLiteral("local.pem"));
        HttpClient client(o);
        HttpRequest r;
        r.url = server->url();
        r.expectJson = false;
        const auto first = client.fetch(r);
        QVERIFY2(first, first ? "" : qPrintable(first.error().message));
        QVERIFY2(first.value().body.contains("\nNew, "), first.value().body.constData());
        const auto second = client.fetch(r);
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        QVERIFY2(second.value().body.contains("\nReused, "), second.value().body.constData());
    }

    void offersHttp2()
    {
        // HTTP/2 where the server supports it: the client offers h2 by ALPN. (s_server speaks only
        // HTTP/1.1 and picks it, which the client accepts.)
        auto server = serve(QStringLiteral("local"), {QStringLiteral("-alpn"), QStringLiteral("http/1.1"),
                                                      QStringLiteral("-naccept"), QStringLiteral("1")});
        QVERIFY(server);
        HttpOptions o = fast();
        o.caBundle = path(QStringLiteral("local.pem"));
        HttpClient client(o);
        HttpRequest r;
        r.url = server->url();
        r.expectJson = false;
        const auto got = client.fetch(r);
        QVERIFY2(got, got ? "" : qPrintable(got.error().message));
        const QByteArray said = server->outputAtExit();
        QVERIFY2(said.contains("ALPN protocols advertised by the client: h2, http/1.1"), said.constData());
    }

    void unreadableBundleIsNamed()
    {
        const auto r = fetchFrom(QStringLiteral("local"), path(QStringLiteral("no-such-bundle.pem")));
        QVERIFY(!r);
        const QString e = r.error().message;
        QVERIFY2(e.contains(QStringLiteral("no-such-bundle.pem cannot be read as PEM certificates")),
                 qPrintable(e));
        QCOMPARE(r.error().code, QStringLiteral("ca-bundle-unreadable"));
        QVERIFY2(!e.contains(QStringLiteral("attempts")), qPrintable(e)); // not retried
    }
};

QTEST_GUILESS_MAIN(TestHttpTls)
#include "test_httptls.moc"
