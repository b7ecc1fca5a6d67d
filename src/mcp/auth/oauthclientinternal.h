#pragma once

// What the files of the OAuth client share (internal to src/mcp/auth): the sign-in log, the
// limits of an exchange with an authorization server, and reading its answers. The classes are
// declared in oauthclient.h; CredentialStore is in oauthcredentials.cpp, the user agents in
// oauthagents.cpp, the Authorizer's sign-in in oauthclient.cpp and its token requests in
// oauthtokens.cpp.

#include "oauthclient.h"

#include <QLoggingCategory>
#include <QNetworkRequest>
#include <QString>

class QNetworkReply;

Q_DECLARE_LOGGING_CATEGORY(lcSignIn)

namespace Mcp::OAuth::Internal {

// Answers from authorization servers are small; anything bigger is not one.
constexpr qint64 MaxAnswerBytes = 1 << 20;

// Never followed: a token or registration endpoint that redirects is not one, and the
// authorization endpoint's redirect is the answer itself.
QNetworkRequest plainRequest(const QUrl &url);

// Aborts `reply` once it has brought more than MaxAnswerBytes.
void capSize(QNetworkReply *reply);

// The string member `key` of an answer, or an empty string.
QString member(const Json &object, const char *key);

// The server's own error in an OAuth error answer, in words.
QString serverError(const Json &answer, int status);

} // namespace Mcp::OAuth::Internal
