#pragma once

#include <QHttpServer>
#include <QMap>
#include <QSet>
#include <QString>
#include <QUrlQuery>

#include <functional>

class QNetworkAccessManager;

// A small OAuth 2.1 authorization server on 127.0.0.1 (Qt HttpServer) for sign-in tests:
// RFC 8414 metadata, dynamic client registration, an authorization endpoint that answers at
// once with a redirect (as if the user had agreed), and a token endpoint that checks PKCE and
// issues access and refresh tokens. It also serves the protected resource metadata of one MCP
// server (`resource`), so a 401 can point here. Every request is counted.
class OAuthServer
{
public:
    OAuthServer();

    QString issuer() const; // http://127.0.0.1:PORT
    QString resourceMetadataUrl() const { return issuer() + QStringLiteral("/prm"); }

    // The MCP server whose metadata this serves (the `resource` of /prm).
    QString resource;
    // Authorization requests are refused with this error (e.g. "access_denied") when set.
    QString refuseWith;

    // Whether an Authorization header value carries a live access token.
    bool accepts(const QByteArray &authorization) const;
    // Every access token issued so far stops working (refresh tokens still do).
    void expireAccessTokens() { m_liveAccess.clear(); }

    int registrations = 0;
    int authorizations = 0;
    int codeGrants = 0;
    int refreshGrants = 0;
    QUrlQuery lastAuthorization;          // the query of the last authorization request
    QMap<QString, QString> lastTokenForm; // the last token request's fields

private:
    QHttpServer m_http;
    quint16 m_port = 0;
    int m_counter = 0;
    QMap<QString, QString> m_codeChallenges; // code → PKCE challenge
    QSet<QByteArray> m_liveAccess;
    QSet<QString> m_liveRefresh;
};

// The browser of a sign-in test: GETs the authorization URL without following its redirect,
// then the address it redirects to (the application's loopback listener); `done` gets that
// address and the page found there.
void followSignIn(QNetworkAccessManager &network, const QUrl &authorizationUrl,
                  std::function<void(const QUrl &redirect, const QByteArray &page)> done = {});
