// base64url.cpp: Base64 via OpenSSL's EVP_EncodeBlock / EVP_DecodeBlock, with
// the URL-safe alphabet and padding handled around it.
#include "core/base64url.hpp"

#include <openssl/evp.h>

#include <cassert>
#include <vector>

namespace corebank::core {

namespace {

// EVP_DecodeBlock ignores nothing and rejects bad characters, but it counts
// padding into its output length, so the caller strips those bytes.
std::optional<std::string> decode_standard_padded(std::string_view padded) {
    if (padded.size() % 4 != 0) return std::nullopt;
    if (padded.empty()) return std::string();
    std::vector<unsigned char> out(padded.size() / 4 * 3 + 1);
    const int written = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(padded.data()),
                                        static_cast<int>(padded.size()));
    if (written < 0) return std::nullopt;
    std::size_t length = static_cast<std::size_t>(written);
    std::size_t padding = 0;
    if (padded.back() == '=') padding++;
    if (padded.size() >= 2 && padded[padded.size() - 2] == '=') padding++;
    assert(length >= padding);
    length -= padding;
    return std::string(reinterpret_cast<const char*>(out.data()), length);
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                        reinterpret_cast<const unsigned char*>(bytes.data()),
                                        static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(written));
    return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
    // '=' may only pad the end, at most twice: EVP_DecodeBlock would read an
    // inner '=' as zero bits.
    std::size_t padding = 0;
    while (padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
    if (padding > 2) return std::nullopt;
    for (char c : text.substr(0, text.size() - padding)) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                        c == '+' || c == '/';
        if (!ok) return std::nullopt;
    }
    return decode_standard_padded(text);
}

std::string base64url_encode(std::string_view bytes) {
    std::string out = base64_encode(bytes);
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) {
        if (c == '+') c = '-';
        else if (c == '/') c = '_';
    }
    return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    if (text.size() % 4 == 1) return std::nullopt;
    std::string standard;
    standard.reserve(text.size() + 3);
    for (char c : text) {
        if (c == '-') standard.push_back('+');
        else if (c == '_') standard.push_back('/');
        else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) standard.push_back(c);
        else return std::nullopt;  // '+', '/', '=' inside and anything else are not base64url
    }
    while (standard.size() % 4 != 0) standard.push_back('=');
    return decode_standard_padded(standard);
}

}  // namespace corebank::core
