#include "oauthserver.h"

#include <QCryptographicHash>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QUrl>

#include <nlohmann/json.hpp>

namespace {

using Status = QHttpServerResponder::StatusCode;

void answerJson(QHttpServerResponder &responder, const nlohmann::json &body,
                Status status = Status::Ok)
{
    responder.write(QByteArray::fromStdString(body.dump()), "application/json", status);
}

QMap<QString, QString> readForm(const QByteArray &body)
{
    QMap<QString, QString> form;
    const QUrlQuery query(QString::fromUtf8(body));
    for (const auto &[name, value] : query.queryItems(QUrl::FullyDecoded))
        form.insert(name, value);
    return form;
}

} // namespace

OAuthServer::OAuthServer()
{
    m_http.setMissingHandler([this](const QHttpServerRequest &request,
                                    QHttpServerResponder &&responder) {
        const QString path = request.url().path();
        const std::string base = issuer().toStdString();
        if (path == QLatin1String("/prm")) {
            answerJson(responder, {{"resource", resource.toStdString()},
                                   {"authorization_servers", {base}},
                                   {"scopes_supported", {"mcp:read"}}});
        } else if (path == QLatin1String("/.well-known/oauth-authorization-server")) {
            answerJson(responder, {{"issuer", base},
                                   {"authorization_endpoint", base + "/authorize"},
                                   {"token_endpoint", base + "/token"},
                                   {"registration_endpoint", base + "/register"},
                                   {"code_challenge_methods_supported", {"S256"}},
                                   {"scopes_supported", {"mcp:read", "offline_access"}},
                                   {"token_endpoint_auth_methods_supported", {"none"}},
                                   {"authorization_response_iss_parameter_supported", true}});
        } else if (path == QLatin1String("/register")) {
            ++registrations;
            const auto metadata
                    = nlohmann::json::parse(request.body().toStdString(), nullptr, false);
            answerJson(responder,
                       {{"client_id", "client-" + std::to_string(++m_counter)},
                        {"redirect_uris", metadata.value("redirect_uris", nlohmann::json())},
                        {"token_endpoint_auth_method", "none"}},
                       Status::Created);
        } else if (path == QLatin1String("/authorize")) {
            ++authorizations;
            lastAuthorization = QUrlQuery(request.url());
            QUrl back(lastAuthorization.queryItemValue(QStringLiteral("redirect_uri"),
                                                       QUrl::FullyDecoded));
            QUrlQuery answer;
            if (!refuseWith.isEmpty()) {
                answer.addQueryItem(QStringLiteral("error"), refuseWith);
            } else {
                const QString code = QStringLiteral("code-%1").arg(++m_counter);
                m_codeChallenges.insert(
                        code, lastAuthorization.queryItemValue(QStringLiteral("code_challenge")));
                answer.addQueryItem(QStringLiteral("code"), code);
            }
            answer.addQueryItem(
                    QStringLiteral("state"),
                    lastAuthorization.queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded));
            answer.addQueryItem(QStringLiteral("iss"), issuer());
            back.setQuery(answer);
            responder.write({{"Location", back.toEncoded()}}, Status::Found);
        } else if (path == QLatin1String("/token")) {
            lastTokenForm = readForm(request.body());
            const QString grant = lastTokenForm.value(QStringLiteral("grant_type"));
            bool ok = false;
            if (grant == QLatin1String("authorization_code")) {
                ++codeGrants;
                const QString challenge
                        = m_codeChallenges.take(lastTokenForm.value(QStringLiteral("code")));
                const QByteArray verifier
                        = lastTokenForm.value(QStringLiteral("code_verifier")).toLatin1();
                ok = !challenge.isEmpty()
                     && QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
                                        .toBase64(QByteArray::Base64UrlEncoding
                                                  | QByteArray::OmitTrailingEquals)
                                == challenge.toLatin1();
            } else if (grant == QLatin1String("refresh_token")) {
                ++refreshGrants;
                ok = m_liveRefresh.contains(lastTokenForm.value(QStringLiteral("refresh_token")));
            }
            if (!ok) {
                answerJson(responder, {{"error", "invalid_grant"}}, Status::BadRequest);
                return;
            }
            const int n = ++m_counter;
            const QByteArray access = "access-" + QByteArray::number(n);
            const QString refresh = QStringLiteral("refresh-%1").arg(n);
            m_liveAccess.insert(access);
            m_liveRefresh.insert(refresh);
            answerJson(responder, {{"access_token", access.toStdString()},
                                   {"token_type", "Bearer"},
                                   {"expires_in", 3600},
                                   {"refresh_token", refresh.toStdString()}});
        } else {
            responder.write(Status::NotFound);
        }
    });
    m_port = m_http.listen(QHostAddress::LocalHost);
}

QString OAuthServer::issuer() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m_port);
}

bool OAuthServer::accepts(const QByteArray &authorization) const
{
    return authorization.startsWith("Bearer ") && m_liveAccess.contains(authorization.mid(7));
}

void followSignIn(QNetworkAccessManager &network, const QUrl &authorizationUrl,
                  std::function<void(const QUrl &, const QByteArray &)> done)
{
    QNetworkRequest request(authorizationUrl);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    QNetworkReply *authorize = network.get(request);
    QObject::connect(authorize, &QNetworkReply::finished, &network,
                     [&network, authorize, done = std::move(done)] {
                         authorize->deleteLater();
                         const QUrl redirect = QUrl::fromEncoded(authorize->rawHeader("Location"));
                         QNetworkReply *callback = network.get(QNetworkRequest(redirect));
                         QObject::connect(callback, &QNetworkReply::finished, &network,
                                          [callback, redirect, done] {
                                              callback->deleteLater();
                                              const QByteArray page = callback->readAll();
                                              if (done)
                                                  done(redirect, page);
                                          });
                     });
}
