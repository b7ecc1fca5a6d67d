#pragma once

#include <mcp/client/client.h>

namespace Cli {

class TerminalApprovalGate;

// A server's question (elicitation/create) asked on the terminal, through the gate's queue so
// it never overlaps an approval: the server and its message, then [a] answer, [d] decline or
// [c] cancel. Answering asks each field of the flat schema in turn (its type, whether it is
// required, its default and its choices) and asks again when a value does not fit (three
// tries, then cancel). A URL request shows the whole address and its host; [o] means the
// person opens it themselves (accept). The end of input cancels. Exactly one reply.
void askElicitationOnTerminal(TerminalApprovalGate *gate, const QString &server,
                              const Mcp::Json &params, Mcp::Client::Reply reply);

} // namespace Cli
