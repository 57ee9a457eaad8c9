// auth_signing.cpp: see auth_signing.hpp.
//
// Locking: key creation takes pg_advisory_xact_lock(signing_key_lock_id) and
// re-reads the active key after acquiring it (a fresh snapshot per statement,
// so it sees a key another transaction committed while we waited).
//
// Cache: the last used private key, parsed, per backend. It is looked up by
// the kid the table names active at each call, so a rotation (or a rolled-back
// key) is picked up at the next signature. A kid is the RFC 7638 thumbprint of
// the public key, so one kid always means one key.
//
// Sealing (issue 13): the private key is stored only sealed under the root key
// (core/seal.hpp, purpose "auth_signing_key", the kid as the row id), so the
// table, a dump or a replica's files cannot sign. The PEM exists unsealed
// only in this backend's memory; a key is created only when the root key
// loads, and a sealed key that does not open (another root key, changed
// bytes, copied onto another kid) is an error, never a fallback.
#include "pg/auth_signing.hpp"

#include <openssl/crypto.h>

#include <new>
#include <optional>
#include <utility>

#include "core/errors.hpp"
#include "core/jwt.hpp"
#include "core/rsa_key.hpp"
#include "core/seal.hpp"
#include "pg/check.hpp"
#include "pg/root_key.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::auth_signing {

namespace {

// pg_advisory_xact_lock key for signing-key creation ("cbsigkey" in ASCII).
constexpr std::int64_t signing_key_lock_id = 0x63627369676b6579;

constexpr const char select_active_key_sql[] =
    "SELECT kid, created_at > now() - make_interval(days => $1) AS fresh "
    "FROM corebank.auth_signing_keys WHERE retired_at IS NULL";

constexpr const char lock_signing_keys_sql[] = "SELECT pg_advisory_xact_lock($1)";

constexpr const char retire_active_key_sql[] =
    "UPDATE corebank.auth_signing_keys SET retired_at = now() WHERE retired_at IS NULL";

constexpr const char insert_key_sql[] =
    "INSERT INTO corebank.auth_signing_keys (kid, algorithm, public_jwk, private_key_sealed, created_at) "
    "VALUES ($1, 'RS256', "
    "jsonb_build_object('kty', 'RSA', 'n', $2, 'e', $3, 'kid', $1, 'alg', 'RS256', 'use', 'sig'), "
    "$4, now())";

constexpr const char select_private_key_sql[] =
    "SELECT private_key_sealed FROM corebank.auth_signing_keys WHERE kid = $1";

// The sealing purpose of signing keys: names the HKDF key and goes into the
// associated data, so these bytes open as nothing else.
constexpr const char seal_purpose[] = "auth_signing_key";

struct ActiveKey {
    std::string kid;
    bool fresh;
};

// A key that never gets a destructor: the cache lives until the backend
// exits, and destroying an EVP_PKEY during exit() could run after OpenSSL's
// own atexit cleanup.
struct CachedKey {
    std::string kid;
    core::RsaPrivateKey key;
};

template <typename T>
class NoDestructor {
public:
    NoDestructor() { new (storage_) T(); }
    T& get() noexcept { return *std::launder(reinterpret_cast<T*>(storage_)); }

private:
    alignas(T) unsigned char storage_[sizeof(T)];
};

std::optional<CachedKey>& key_cache() {
    static NoDestructor<std::optional<CachedKey>> cache;
    return cache.get();
}

std::optional<ActiveKey> select_active_key(int rotation_days) {
    const std::uint64_t rows = spi::execute(select_active_key_sql, {spi::Arg::int4(rotation_days)});
    CB_CHECK(rows <= 1);  // the partial unique index allows one active key
    if (rows == 0) return std::nullopt;
    return ActiveKey{spi::get_text(0, 1).value(), spi::get_bool(0, 2).value_or(false)};
}

void lock_signing_keys() {
    spi::execute(lock_signing_keys_sql, {spi::Arg::int8(signing_key_lock_id)});
}

// Overwrites a string holding key material before it is freed.
struct Wiped {
    std::string bytes;
    ~Wiped() { OPENSSL_cleanse(bytes.data(), bytes.size()); }
};

// Generates a key pair (OpenSSL, pure C++) and stores it, sealed, as the
// active key; the caller holds the advisory lock and has retired the
// previous key. The root key is loaded first: without it no key is made.
std::string insert_new_key() {
    const Wiped root{root_key::load()};
    core::RsaKeyMaterial material = core::rsa_generate();
    const Wiped pem{std::move(material.private_key_pem)};  // the buffer moves: one copy, wiped
    CB_CHECK(!material.kid.empty());
    CB_CHECK(!pem.bytes.empty());
    const std::string sealed = core::seal::seal(root.bytes, seal_purpose, material.kid, pem.bytes);
    spi::execute(insert_key_sql, {spi::Arg::text(material.kid), spi::Arg::text(material.modulus_b64url),
                                  spi::Arg::text(material.exponent_b64url), spi::Arg::bytea(sealed)});
    return material.kid;
}

// The private key of `kid`, opened from its sealed bytes.
core::RsaPrivateKey open_private_key(const std::string& kid) {
    const std::uint64_t rows = spi::execute(select_private_key_sql, {spi::Arg::text(kid)});
    CB_CHECK(rows == 1);
    const std::optional<std::string> sealed = spi::get_bytea(0, 1);
    if (!sealed)
        throw core::CoreError("XX001", "the active signing key " + kid + " has no sealed private key",
                              "Rotate it: SELECT corebank.auth_rotate_signing_key();");
    const Wiped root{root_key::load()};
    std::optional<std::string> pem = core::seal::open(root.bytes, seal_purpose, kid, *sealed);
    if (!pem)
        throw core::CoreError("XX001", "the sealed private key of signing key " + kid + " does not open",
                              "It was sealed under another root key, or its bytes were changed or copied from "
                              "another key; check corebank.root_key_file, or rotate the key.");
    const Wiped opened{std::move(*pem)};
    return core::RsaPrivateKey::from_pem(opened.bytes);
}

// A rotation age no setting can produce, so an existing key always counts as
// fresh when signing finds one (signing never rotates; maintenance does).
constexpr int rotation_days_never = 1000000;

}  // namespace

std::string ensure_active_key(int rotation_days) {
    CB_CHECK(rotation_days > 0);
    // Fast path without the lock: nearly every call finds a fresh key.
    std::optional<ActiveKey> active = select_active_key(rotation_days);
    if (active && active->fresh) return active->kid;

    lock_signing_keys();
    active = select_active_key(rotation_days);
    if (active && active->fresh) return active->kid;  // another transaction made it

    if (active) spi::execute(retire_active_key_sql, {});
    const std::string kid = insert_new_key();
    CB_CHECK(select_active_key(rotation_days).value().kid == kid);
    return kid;
}

std::string rotate_key() {
    lock_signing_keys();
    spi::execute(retire_active_key_sql, {});
    const std::string kid = insert_new_key();
    CB_CHECK(select_active_key(rotation_days_never).value().kid == kid);
    return kid;
}

std::string sign_claims(const std::string& claims_json) {
    CB_CHECK(!claims_json.empty() && claims_json.front() == '{');
    const std::string kid = ensure_active_key(rotation_days_never);

    std::optional<CachedKey>& cache = key_cache();
    if (!cache || cache->kid != kid) {
        cache.reset();
        cache.emplace(CachedKey{kid, open_private_key(kid)});
    }
    return core::jwt_sign_rs256(cache->kid, claims_json, cache->key);
}

}  // namespace corebank::pg::auth_signing
