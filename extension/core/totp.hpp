// totp.hpp: one-time passwords for the staff second factor (docs/identity.md,
// "Staff second factor"): HOTP (RFC 4226) and TOTP (RFC 6238) with HMAC-SHA-1,
// 6 digits, 30-second steps; base32 (RFC 4648) for the secret as
// authenticator apps take it; the otpauth:// enrolment URI; recovery codes.
//
// Pure C++ over OpenSSL's HMAC: no PostgreSQL, tested by
// tests/unit/totp_test.cpp against the RFC 4226 Appendix D and RFC 6238
// Appendix B vectors. Which step was last accepted (a code is good once) is
// the database's to remember, not this file's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corebank::core::totp {

inline constexpr std::size_t secret_bytes = 20;        // RFC 4226 recommends 160 bits
inline constexpr int digits = 6;
inline constexpr std::int64_t step_seconds = 30;
inline constexpr std::int64_t window_steps = 1;        // the current step and one either side
inline constexpr std::size_t recovery_code_length = 10;
inline constexpr std::size_t recovery_codes_per_set = 10;
// Lower-case letters and digits without 0 o 1 l i: 31 symbols, so a code of 10
// holds log2(31^10) ~ 49.5 bits, read aloud or typed without confusion.
inline constexpr std::string_view recovery_alphabet = "23456789abcdefghjkmnpqrstuvwxyz";
// Labels and issuers in the URI are limited so the URI fits a QR code.
inline constexpr std::size_t uri_label_length_max = 254;

// The HOTP value of `counter` under `key` (RFC 4226 section 5.3), as a
// zero-padded string of `code_digits` digits (6..8). Throws CoreError on an
// empty key or digits out of range.
std::string hotp(std::string_view key, std::uint64_t counter, int code_digits = digits);

// The time step of a Unix time (RFC 6238: T = floor((t - T0) / X), T0 = 0).
std::int64_t step_of(std::int64_t unix_seconds);

// The TOTP code of `step` under `key`: hotp(key, step).
std::string code_at(std::string_view key, std::int64_t step, int code_digits = digits);

// True when `code` is exactly `digits` ASCII digits.
bool is_code_format(std::string_view code);

// The step within [now_step - window_steps, now_step + window_steps] whose
// code equals `code`, comparing in constant time, or nullopt. A step at or
// before `last_accepted_step` never matches (RFC 6238 section 5.2: a code is
// accepted once). nullopt as well when the code is not well formed.
std::optional<std::int64_t> match(std::string_view key, std::string_view code, std::int64_t now_step,
                                  std::optional<std::int64_t> last_accepted_step);

// RFC 4648 base32, upper case, without padding (what authenticator apps take).
std::string base32_encode(std::string_view bytes);
// Decodes upper or lower case, ignoring spaces and '=' padding; nullopt on
// any other character or trailing bits that are not zero.
std::optional<std::string> base32_decode(std::string_view text);

// otpauth://totp/<issuer>:<account>?secret=<base32>&issuer=<issuer>&algorithm=SHA1&digits=6&period=30
// (the Key Uri Format of Google Authenticator), label and issuer
// percent-encoded. Throws CoreError when issuer or account is empty or longer
// than uri_label_length_max.
std::string otpauth_uri(std::string_view issuer, std::string_view account, std::string_view key);

// A recovery code from `random` (at least recovery_code_length bytes; each
// byte picks a symbol by rejection, so every symbol is equally likely):
// recovery_code_length symbols of recovery_alphabet, or nullopt when the
// bytes ran out before enough were accepted (the caller draws more).
std::optional<std::string> recovery_code_from(std::string_view random);
// A fresh recovery code (RAND_bytes).
std::string recovery_code();
// "abcde-fghjk": the code as shown, grouped in fives.
std::string recovery_code_display(std::string_view code);
// The code as typed, normalised for comparison: lower case, spaces and
// hyphens dropped; nullopt unless it then is recovery_code_length symbols of
// the alphabet.
std::optional<std::string> recovery_code_normalise(std::string_view typed);

}  // namespace corebank::core::totp
