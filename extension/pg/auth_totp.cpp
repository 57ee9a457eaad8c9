// auth_totp.cpp: see auth_totp.hpp.
//
// Time: the step is that of now(), the transaction's start, so every check in
// one call sees the same step (and a test can compute the codes of its
// transaction's steps with corebank_internal.auth_totp_code).
#include "pg/auth_totp.hpp"

#include <openssl/crypto.h>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "core/seal.hpp"
#include "core/totp.hpp"
#include "pg/check.hpp"
#include "pg/root_key.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::auth_totp {

namespace {

// The sealing purpose: names the HKDF key and goes into the associated data,
// so these bytes open as nothing else (not as a signing key, not as another
// user's secret).
constexpr const char seal_purpose[] = "totp_secret";

constexpr const char now_step_sql[] = "SELECT floor(extract(epoch FROM now()) / 30)::bigint";

// Columns: 1 label (email, else phone), 2 enabled.
constexpr const char select_user_label_sql[] =
    "SELECT coalesce(u.email, u.phone), t.enabled_at IS NOT NULL "
    "FROM corebank.auth_users u LEFT JOIN corebank.auth_mfa_totp t ON t.user_id = u.id WHERE u.id = $1";

constexpr const char upsert_secret_sql[] =
    "INSERT INTO corebank.auth_mfa_totp AS t (user_id, secret_sealed, created_at, enabled_at, last_step) "
    "VALUES ($1, $2, now(), CASE WHEN $3 THEN now() END, NULL) "
    "ON CONFLICT (user_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, created_at = EXCLUDED.created_at, "
    "  enabled_at = EXCLUDED.enabled_at, last_step = NULL "
    "WHERE t.enabled_at IS NULL";

// Columns: 1 sealed secret, 2 enabled, 3 last accepted step.
constexpr const char select_secret_sql[] =
    "SELECT secret_sealed, enabled_at IS NOT NULL, last_step FROM corebank.auth_mfa_totp WHERE user_id = $1";

constexpr const char accept_step_sql[] =
    "UPDATE corebank.auth_mfa_totp SET last_step = $2, enabled_at = coalesce(enabled_at, now()) "
    "WHERE user_id = $1 AND (last_step IS NULL OR last_step < $2)";

constexpr const char use_recovery_code_sql[] =
    "UPDATE corebank.auth_mfa_recovery_codes SET used_at = now() "
    "WHERE user_id = $1 AND code_hash = decode($2, 'hex') AND used_at IS NULL";

constexpr const char delete_recovery_codes_sql[] = "DELETE FROM corebank.auth_mfa_recovery_codes WHERE user_id = $1";

constexpr const char insert_recovery_codes_sql[] =
    "INSERT INTO corebank.auth_mfa_recovery_codes (user_id, code_hash, created_at) "
    "SELECT $1, decode(h, 'hex'), now() FROM unnest($2::text[]) AS h";

constexpr const char delete_secret_sql[] = "DELETE FROM corebank.auth_mfa_totp WHERE user_id = $1";

constexpr const char roles_need_factor_sql[] =
    "SELECT u.roles && string_to_array(current_setting('corebank.staff_mfa_roles'), ',') "
    "FROM corebank.auth_users u WHERE u.id = $1";

// Overwrites key material before it is freed.
struct Wiped {
    std::string bytes;
    ~Wiped() { OPENSSL_cleanse(bytes.data(), bytes.size()); }
};

std::int64_t now_step() {
    CB_CHECK(spi::execute(now_step_sql, {}) == 1);
    return spi::get_int(0, 1).value();
}

struct Stored {
    Wiped key;
    bool enabled;
    std::optional<std::int64_t> last_step;
};

// The user's secret, opened; nullopt when there is none. A sealed value that
// does not open (another root key, changed or copied bytes) is an error,
// never a pass.
std::optional<Stored> open_secret(const Uuid& user_id) {
    if (spi::execute(select_secret_sql, {spi::Arg::uuid(user_id)}) == 0) return std::nullopt;
    const std::string sealed = spi::get_bytea(0, 1).value();
    const bool enabled = spi::get_bool(0, 2).value();
    const std::optional<std::int64_t> last_step = spi::get_int(0, 3);
    const Wiped root{root_key::load()};
    std::optional<std::string> key = core::seal::open(root.bytes, seal_purpose, uuid_to_string(user_id), sealed);
    if (!key)
        throw core::CoreError("XX001", "the sealed TOTP secret of user " + uuid_to_string(user_id) + " does not open",
                              "It was sealed under another root key, or its bytes were changed or copied from "
                              "another user; check corebank.root_key_file.");
    return Stored{Wiped{std::move(*key)}, enabled, last_step};
}

// Matches a code against the stored secret and, on a match, records its
// step as used (RFC 6238 section 5.2: each code is accepted once).
bool accept_code(const Uuid& user_id, const Stored& stored, const std::string& code) {
    const std::optional<std::int64_t> step = core::totp::match(stored.key.bytes, code, now_step(), stored.last_step);
    if (!step) return false;
    CB_CHECK(spi::execute(accept_step_sql, {spi::Arg::uuid(user_id), spi::Arg::int8(*step)}) == 1);
    return true;
}

bool use_recovery_code(const Uuid& user_id, const std::string& typed) {
    const std::optional<std::string> code = core::totp::recovery_code_normalise(typed);
    if (!code) return false;
    return spi::execute(use_recovery_code_sql, {spi::Arg::uuid(user_id), spi::Arg::text(core::sha256_hex(*code))}) == 1;
}

}  // namespace

Enrolment enrol(const Uuid& user_id, const std::string& issuer, bool enable_now) {
    CB_CHECK(spi::execute(select_user_label_sql, {spi::Arg::uuid(user_id)}) == 1);
    const std::string label = spi::get_text(0, 1).value();
    CB_CHECK(!spi::get_bool(0, 2).value());  // the caller refused an enabled secret
    const Wiped root{root_key::load()};
    const Wiped key{core::random_bytes(core::totp::secret_bytes)};
    const std::string sealed = core::seal::seal(root.bytes, seal_purpose, uuid_to_string(user_id), key.bytes);
    CB_CHECK(spi::execute(upsert_secret_sql,
                          {spi::Arg::uuid(user_id), spi::Arg::bytea(sealed), spi::Arg::boolean(enable_now)}) == 1);
    return Enrolment{core::totp::base32_encode(key.bytes), core::totp::otpauth_uri(issuer, label, key.bytes)};
}

State state(const Uuid& user_id) {
    if (spi::execute(select_secret_sql, {spi::Arg::uuid(user_id)}) == 0) return State::none;
    return spi::get_bool(0, 2).value() ? State::enabled : State::pending;
}

bool confirm(const Uuid& user_id, const std::string& code) {
    const std::optional<Stored> stored = open_secret(user_id);
    CB_CHECK(stored && !stored->enabled);  // the caller checked the state
    return accept_code(user_id, *stored, code);
}

Check verify(const Uuid& user_id, const std::optional<std::string>& totp_code,
             const std::optional<std::string>& recovery_code) {
    const std::optional<Stored> stored = open_secret(user_id);
    if (!stored || !stored->enabled) return Check::not_enrolled;
    if (totp_code) return accept_code(user_id, *stored, *totp_code) ? Check::ok_totp : Check::wrong;
    if (recovery_code) return use_recovery_code(user_id, *recovery_code) ? Check::ok_recovery : Check::wrong;
    return Check::missing;
}

std::vector<std::string> amr_of(Check check) {
    switch (check) {
        case Check::ok_totp: return {"pwd", "otp", "mfa"};
        case Check::ok_recovery: return {"pwd", "mfa"};
        default: return {"pwd"};
    }
}

Check verify_either(const Uuid& user_id, const std::string& code) {
    if (core::totp::is_code_format(code)) return verify(user_id, code, std::nullopt);
    return verify(user_id, std::nullopt, code);
}

std::vector<std::string> replace_recovery_codes(const Uuid& user_id) {
    std::vector<std::string> shown;
    std::vector<std::string> hashes;
    while (shown.size() < core::totp::recovery_codes_per_set) {
        const std::string code = core::totp::recovery_code();
        const std::string hash = core::sha256_hex(code);
        bool repeated = false;  // ~1e-13 per pair: drawn again rather than stored twice
        for (const std::string& h : hashes) repeated = repeated || h == hash;
        if (repeated) continue;
        hashes.push_back(hash);
        shown.push_back(core::totp::recovery_code_display(code));
    }
    spi::execute(delete_recovery_codes_sql, {spi::Arg::uuid(user_id)});
    CB_CHECK(spi::execute(insert_recovery_codes_sql, {spi::Arg::uuid(user_id), spi::Arg::text_array(hashes)}) ==
             core::totp::recovery_codes_per_set);
    return shown;
}

void remove(const Uuid& user_id) {
    spi::execute(delete_recovery_codes_sql, {spi::Arg::uuid(user_id)});
    spi::execute(delete_secret_sql, {spi::Arg::uuid(user_id)});
}

bool roles_need_factor(const Uuid& user_id) {
    CB_CHECK(spi::execute(roles_need_factor_sql, {spi::Arg::uuid(user_id)}) == 1);
    return spi::get_bool(0, 1).value_or(false);
}

}  // namespace corebank::pg::auth_totp
