// verify_args.cpp: see verify_args.hpp.
#include "pg/verify_args.hpp"

#include "core/limits.hpp"
#include "pg/args.hpp"
#include "pg/verify_rules.hpp"

namespace corebank::pg::verify_args {

namespace {

constexpr std::size_t user_agent_bytes_max = 512;

}  // namespace

std::string require_hash(FunctionCallInfo fcinfo, int index, const char* name) {
    const std::string hash = args::require(args::bytea(fcinfo, index), name);
    if (hash.size() != verify::sha256_bytes) args::throw_validation(std::string(name) + ": must be 32 bytes");
    return hash;
}

std::string require_idempotency_key(FunctionCallInfo fcinfo, int index) {
    const std::string key = args::require(args::text(fcinfo, index), "Idempotency-Key");
    if (!verify::idempotency_key_valid(key)) {
        args::throw_validation("Idempotency-Key: must be 1 to 255 printable ASCII characters without spaces");
    }
    return key;
}

ConsentRequest read_consent(FunctionCallInfo fcinfo, int first) {
    ConsentRequest r;
    r.granted = args::require(args::boolean(fcinfo, first), "granted");
    r.version = args::require(args::text(fcinfo, first + 1), "version");
    if (!verify::consent_version_valid(r.version)) {
        args::throw_validation("version: must be 1 to 50 of A-Z a-z 0-9 . _ : -");
    }
    r.text_sha256 = args::bytea(fcinfo, first + 2);
    if (r.text_sha256 && r.text_sha256->size() != verify::sha256_bytes) {
        args::throw_validation("textSha256: must be a SHA-256 digest (32 bytes)");
    }
    r.ip = args::blank_to_null(args::text(fcinfo, first + 3));
    r.user_agent = args::blank_to_null(args::text(fcinfo, first + 4));
    args::check_length(r.ip, "ip", core::limits::client_ip_length_max);
    if (r.user_agent && r.user_agent->size() > user_agent_bytes_max) {
        std::size_t cut = user_agent_bytes_max;
        while (cut > 0 && (static_cast<unsigned char>((*r.user_agent)[cut]) & 0xC0) == 0x80) --cut;
        r.user_agent->resize(cut);
    }
    return r;
}

}  // namespace corebank::pg::verify_args
