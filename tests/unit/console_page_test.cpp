// console_page_test.cpp: the approvals console's page (httpd/src/console/):
// its CSP forbids everything the page does not need, and the page and its
// assets are written so that CSP can hold (no inline script or style, nothing
// from another origin), each asset with nosniff and no-store.
#include <gtest/gtest.h>

#include <string>

#include "console/console.hpp"

namespace {

using corebank::httpd::HttpRequest;
using corebank::httpd::HttpResponse;
namespace console = corebank::httpd::console;

std::string header(const HttpResponse& response, const std::string& name) {
    for (const auto& [key, value] : response.headers)
        if (key == name) return value;
    return {};
}

// Goal: nothing but this origin's script, style, images and fetches; no
// framing, no <base>, no form posts; no 'unsafe-*' source anywhere.
TEST(ConsolePage, PolicyAllowsOnlyTheOrigin) {
    const std::string csp = console::content_security_policy();
    EXPECT_EQ(csp.rfind("default-src 'none';", 0), 0u) << csp;
    for (const char* directive : {"script-src 'self';", "style-src 'self';", "connect-src 'self';",
                                  "frame-ancestors 'none';", "base-uri 'none';", "form-action 'none'"})
        EXPECT_NE(csp.find(directive), std::string::npos) << directive;
    EXPECT_EQ(csp.find("unsafe"), std::string::npos);
    EXPECT_EQ(csp.find("http"), std::string::npos) << "no other origin";
    EXPECT_EQ(csp.find('*'), std::string::npos);
}

// Goal: the page would break under its own CSP if it held inline script or
// style, or loaded anything from another origin.
TEST(ConsolePage, HtmlHasNoInlineScriptStyleOrForeignAsset) {
    const HttpResponse page = console::page_html(HttpRequest{});
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    EXPECT_EQ(page.body.find("<script>"), std::string::npos);
    EXPECT_EQ(page.body.find("<style"), std::string::npos);
    EXPECT_EQ(page.body.find("style="), std::string::npos);
    EXPECT_EQ(page.body.find(" on"), std::string::npos) << "no inline event handler attribute";
    EXPECT_EQ(page.body.find("http"), std::string::npos) << "no absolute URL";
    EXPECT_NE(page.body.find("<script src=\"/console/app.js\" defer></script>"), std::string::npos);
}

// Goal: every asset carries the same policy, nosniff and no-store.
TEST(ConsolePage, EveryAssetCarriesTheHeaders) {
    const HttpRequest request;
    for (const HttpResponse& response :
         {console::page_html(request), console::page_script(request), console::page_style(request)}) {
        EXPECT_EQ(header(response, "Content-Security-Policy"), console::content_security_policy());
        EXPECT_EQ(header(response, "X-Content-Type-Options"), "nosniff");
        EXPECT_EQ(header(response, "Cache-Control"), "no-store");
    }
    EXPECT_EQ(console::page_script(request).content_type, "text/javascript; charset=utf-8");
    EXPECT_EQ(console::page_style(request).content_type, "text/css; charset=utf-8");
}

// Goal: the token never leaves the script's memory: the script names no
// storage, cookie or address bar write.
TEST(ConsolePage, ScriptKeepsTheTokenInMemory) {
    const std::string script = console::page_script(HttpRequest{}).body;
    for (const char* forbidden : {"localStorage", "sessionStorage", "document.cookie", "indexedDB", "history."})
        EXPECT_EQ(script.find(forbidden), std::string::npos) << forbidden;
    EXPECT_NE(script.find("credentials: 'omit'"), std::string::npos);
}

}  // namespace
