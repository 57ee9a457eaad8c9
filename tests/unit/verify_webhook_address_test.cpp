// verify_webhook_address_test.cpp: which webhook hosts are refused
// (httpd/src/verify/webhook_address.hpp).
//
// Goal: webhook-add refuses hosts in loopback, link-local, private and the
// other non-public ranges, in IPv4, IPv6 and IPv4-mapped IPv6, and by name
// when the name resolves to one (issue 13); public addresses pass.
// Method: address literals at both sides of each range's edge, URLs of
// every shape for the host parser, and "localhost" through the resolver.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "verify/webhook_address.hpp"

namespace {

using corebank::httpd::verify::is_non_public_address;
using corebank::httpd::verify::refuse_non_public_webhook;
using corebank::httpd::verify::url_host;

// Goal: each non-public range is refused, its neighbours outside are not.
TEST(WebhookAddress, NonPublicRanges) {
    for (const char* refused :
         {"127.0.0.1", "127.255.255.254", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255",
          "192.168.1.1", "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "198.18.0.1",
          "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
          "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254"})
        EXPECT_TRUE(is_non_public_address(refused)) << refused;
    for (const char* allowed : {"8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "192.169.0.1", "100.63.255.255",
                                "100.128.0.1", "169.253.255.255", "11.0.0.1", "2001:4860:4860::8888",
                                "::ffff:8.8.8.8", "not-an-address"})
        EXPECT_FALSE(is_non_public_address(allowed)) << allowed;
}

// Goal: the host is found whatever the URL carries around it.
TEST(WebhookAddress, UrlHost) {
    EXPECT_EQ(url_host("https://hooks.example.com/path?q=1"), "hooks.example.com");
    EXPECT_EQ(url_host("http://127.0.0.1:8080/hook"), "127.0.0.1");
    EXPECT_EQ(url_host("http://user:pw@10.0.0.5:80/"), "10.0.0.5");
    EXPECT_EQ(url_host("http://[::1]:9000/x"), "::1");
    EXPECT_EQ(url_host("http://example.com#frag"), "example.com");
    EXPECT_EQ(url_host("http:///nohost"), std::nullopt);
    EXPECT_EQ(url_host("no-scheme"), std::nullopt);
}

// Goal: literal and named non-public hosts are refused with the address named.
TEST(WebhookAddress, RefusesNonPublicHosts) {
    for (const char* url : {"http://127.0.0.1:9/hook", "http://[::1]/hook", "http://169.254.169.254/latest",
                            "http://localhost:8080/hook", "http://user@10.0.0.1/"}) {
        try {
            refuse_non_public_webhook(url);
            ADD_FAILURE() << url << " was not refused";
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("verify_webhook_allow_private"), std::string::npos) << e.what();
        }
    }
    EXPECT_NO_THROW(refuse_non_public_webhook("http://8.8.8.8/hook"));
    EXPECT_NO_THROW(refuse_non_public_webhook("https://[2001:4860:4860::8888]/hook"));
}

}  // namespace
