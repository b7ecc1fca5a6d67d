#pragma once

#include <mcp/wire/jsonrpc.h>

#include <QTest>

// QCOMPARE for nlohmann values (QTest's generic compare cannot print them): compares the
// serialized forms, so a failure shows both documents.
#define QCOMPARE_JSON(actual, expected)                                                            \
    QCOMPARE(QString::fromStdString(Mcp::Json(actual).dump()),                                     \
             QString::fromStdString(Mcp::Json(expected).dump()))
