// webhook_address.hpp: whether a webhook URL points into our own network.
//
// A webhook is a request the server makes to a URL an operator typed: aimed
// at 127.0.0.1, 169.254.169.254 (a cloud's metadata service) or 10.x, it
// reaches what only the server can reach (issue 13). `webhook-add` therefore
// refuses a URL whose host is, or resolves to, any such address unless the
// setting verify_webhook_allow_private is true (the tests' receivers listen
// on loopback).
#pragma once

#include <optional>
#include <string>

namespace corebank::httpd::verify {

// The host of an absolute http(s) URL, without brackets, userinfo or port
// ("[::1]:8080" gives "::1"); nullopt when there is none.
std::optional<std::string> url_host(const std::string& url);

// True when the textual IPv4 or IPv6 address is not a public one: loopback,
// link-local, private (RFC 1918, fc00::/7), shared (100.64/10), unspecified,
// benchmarking, multicast or reserved, also inside an IPv4-mapped IPv6
// address. False for a public address and for text that is no address.
bool is_non_public_address(const std::string& address);

// Resolves the URL's host (every address it has) and throws
// std::runtime_error naming the first non-public one, or saying that the
// host has no address.
void refuse_non_public_webhook(const std::string& url);

}  // namespace corebank::httpd::verify
