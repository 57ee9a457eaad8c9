#include "verify/webhook_address.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace corebank::httpd::verify {

namespace {

bool ipv4_non_public(std::uint32_t a) {  // host byte order
    const auto in = [a](std::uint32_t network, int bits) {
        const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
        return (a & mask) == network;
    };
    return in(0x00000000, 8)      // 0.0.0.0/8 "this network"
           || in(0x0A000000, 8)   // 10/8 private
           || in(0x64400000, 10)  // 100.64/10 shared (carrier NAT)
           || in(0x7F000000, 8)   // 127/8 loopback
           || in(0xA9FE0000, 16)  // 169.254/16 link-local (cloud metadata)
           || in(0xAC100000, 12)  // 172.16/12 private
           || in(0xC0000000, 24)  // 192.0.0/24 protocol assignments
           || in(0xC0A80000, 16)  // 192.168/16 private
           || in(0xC6120000, 15)  // 198.18/15 benchmarking
           || in(0xE0000000, 3);  // 224/4 multicast, 240/4 reserved, broadcast
}

bool ipv6_non_public(const std::array<std::uint8_t, 16>& b) {
    bool zero_first_10 = true;
    for (int i = 0; i < 10; ++i) zero_first_10 = zero_first_10 && b[i] == 0;
    const auto v4_at_12 = [&b] {
        return (std::uint32_t{b[12]} << 24) | (std::uint32_t{b[13]} << 16) | (std::uint32_t{b[14]} << 8) | b[15];
    };
    if (zero_first_10 && b[10] == 0xff && b[11] == 0xff) return ipv4_non_public(v4_at_12());  // ::ffff:a.b.c.d
    if (zero_first_10 && b[10] == 0 && b[11] == 0) return true;  // ::, ::1 and the old IPv4-compatible form
    return (b[0] & 0xfe) == 0xfc                         // fc00::/7 unique local
           || (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)    // fe80::/10 link-local
           || (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)    // fec0::/10 site-local (deprecated)
           || b[0] == 0xff;                              // ff00::/8 multicast
}

bool sockaddr_non_public(const sockaddr* address) {
    if (address->sa_family == AF_INET) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(address);
        return ipv4_non_public(ntohl(v4->sin_addr.s_addr));
    }
    if (address->sa_family == AF_INET6) {
        const auto* v6 = reinterpret_cast<const sockaddr_in6*>(address);
        std::array<std::uint8_t, 16> bytes{};
        std::memcpy(bytes.data(), &v6->sin6_addr, bytes.size());
        return ipv6_non_public(bytes);
    }
    return true;  // a family we do not know is not known to be public
}

std::string text_of(const sockaddr* address) {
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw = address->sa_family == AF_INET
                          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(address)->sin_addr)
                          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr);
    return inet_ntop(address->sa_family, raw, text, sizeof text) ? text : "an address";
}

}  // namespace

std::optional<std::string> url_host(const std::string& url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos) return std::nullopt;
    std::string authority = url.substr(scheme_end + 3);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    if (const auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
    std::string host;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string::npos) return std::nullopt;
        host = authority.substr(1, close - 1);
    } else {
        host = authority.substr(0, authority.find(':'));
    }
    if (host.empty()) return std::nullopt;
    return host;
}

bool is_non_public_address(const std::string& address) {
    in_addr v4{};
    if (inet_pton(AF_INET, address.c_str(), &v4) == 1) return ipv4_non_public(ntohl(v4.s_addr));
    in6_addr v6{};
    if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) {
        std::array<std::uint8_t, 16> bytes{};
        std::memcpy(bytes.data(), &v6, bytes.size());
        return ipv6_non_public(bytes);
    }
    return false;
}

void refuse_non_public_webhook(const std::string& url) {
    const auto host = url_host(url);
    if (!host) throw std::runtime_error("--url has no host");
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = getaddrinfo(host->c_str(), nullptr, &hints, &found);
    if (rc != 0) throw std::runtime_error("--url host " + *host + " does not resolve: " + gai_strerror(rc));
    const std::unique_ptr<addrinfo, void (*)(addrinfo*)> owned(found, freeaddrinfo);
    // Every address: a name with one public and one private address is refused.
    for (const addrinfo* entry = found; entry != nullptr; entry = entry->ai_next) {
        if (entry->ai_addr != nullptr && sockaddr_non_public(entry->ai_addr)) {
            throw std::runtime_error("--url host " + *host + " resolves to " + text_of(entry->ai_addr) +
                                     ", a loopback, link-local or private address; webhooks go to public addresses "
                                     "unless verify_webhook_allow_private = true");
        }
    }
}

}  // namespace corebank::httpd::verify
