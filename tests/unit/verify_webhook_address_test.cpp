// verify_webhook_address_test.cpp: which webhook hosts are refused
// (httpd/src/verify/webhook_address.hpp).
//
// Goal: webhook-add refuses hosts in loopback, link-local, private and the
// other non-public ranges, in IPv4, IPv6 and IPv4-mapped IPv6, and by name
// when the name resolves to one (issue 13); public addresses pass; and every
// delivery checks the address it connects to (WebhookDelivery).
// Method: address literals at both sides of each range's edge, URLs of
// every shape for the host parser, and "localhost" through the resolver.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "verify/webhook_address.hpp"
#include "verify/webhook_sender.hpp"

namespace {

using corebank::httpd::verify::is_non_public_address;
using corebank::httpd::verify::refuse_non_public_webhook;
using corebank::httpd::verify::url_host;
using corebank::httpd::verify::DeliveryResult;
using corebank::httpd::verify::post_webhook;

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

// A loopback listener that counts the connections made to it.
class CountingListener {
public:
    CountingListener() {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
        listen(fd_, 8);
        socklen_t length = sizeof address;
        getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
        port_ = ntohs(address.sin_port);
        fcntl(fd_, F_SETFL, O_NONBLOCK);
    }
    ~CountingListener() { close(fd_); }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook"; }
    int accepted() {
        int count = 0;
        for (int client; (client = accept(fd_, nullptr, nullptr)) >= 0; ++count) close(client);
        return count;
    }

private:
    int fd_ = -1;
    int port_ = 0;
};

// Goal: the check holds at delivery, not only at registration (a name that
// resolved publicly then and privately now: DNS rebinding): with
// allow_private false the attempt fails naming the address and no
// connection is ever opened; with it true the same URL is connected to.
TEST(WebhookDelivery, RefusesNonPublicAddressesWhenConnecting) {
    CountingListener receiver;
    const DeliveryResult refused = post_webhook(receiver.url(), "{}", "t=1,v1=x", "evt_1", 300, false);
    EXPECT_FALSE(refused.ok);
    EXPECT_EQ(refused.http_status, 0);
    EXPECT_NE(refused.error.find("127.0.0.1"), std::string::npos) << refused.error;
    EXPECT_NE(refused.error.find("not a public address"), std::string::npos) << refused.error;
    EXPECT_EQ(receiver.accepted(), 0) << "a refused delivery must not connect";

    const DeliveryResult named = post_webhook("http://localhost:9/hook", "{}", "t=1,v1=x", "evt_1", 300, false);
    EXPECT_NE(named.error.find("not a public address"), std::string::npos) << named.error;

    // Allowed: it connects (the listener never answers, so the attempt times out).
    const DeliveryResult allowed = post_webhook(receiver.url(), "{}", "t=1,v1=x", "evt_1", 300, true);
    EXPECT_FALSE(allowed.ok);
    EXPECT_EQ(allowed.error.find("not a public address"), std::string::npos) << allowed.error;
    EXPECT_EQ(receiver.accepted(), 1);
}

}  // namespace
