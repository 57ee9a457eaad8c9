// auth_keys.cpp: the RS256 signing keys: creation, rotation and the JWKS.
//
//   corebank_internal.generate_rsa_key()  a fresh RSA-2048 key pair (OpenSSL,
//                                          in core/), not stored
//   corebank.auth_ensure_signing_key()     the active kid; creates a key when
//                                          none exists or it is too old
//   corebank.auth_rotate_signing_key()     a new active key now
//   corebank.auth_jwks()                   the published public keys
//
// Storage and locking are in pg/auth_signing.cpp: one active key (partial unique
// index), creation serialised by an advisory lock. A retired key stays in the
// JWKS while tokens it signed may still be live (retired_at + access ttl).
#include <string_view>

#include "core/rsa_key.hpp"
#include "entry/entry.hpp"
#include "pg/auth_signing.hpp"
#include "pg/check.hpp"
#include "pg/datums.hpp"
#include "pg/guard.hpp"
#include "pg/settings.hpp"
#include "pg/spi.hpp"

namespace {

using namespace corebank;
namespace spi = corebank::pg::spi;

constexpr const char jwks_sql[] =
    "SELECT jsonb_build_object('keys', coalesce(jsonb_agg(public_jwk "
    "         ORDER BY retired_at DESC NULLS FIRST, created_at DESC), '[]'::jsonb)) "
    "FROM corebank.auth_signing_keys "
    "WHERE retired_at IS NULL OR retired_at + make_interval(secs => $1) > now()";

bool base64url_text(std::string_view text) {
    for (const char c : text) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_';
        if (!ok) return false;
    }
    return !text.empty();
}

}  // namespace

/* SQL function: corebank_internal.generate_rsa_key(OUT kid text, OUT public_jwk jsonb, OUT private_key_pem text) returns record */
COREBANK_FUNCTION(generate_rsa_key) {
    const core::RsaKeyMaterial material = core::rsa_generate();
    // The JWK is assembled as text only because every member is base64url
    // (checked), which needs no JSON escaping.
    CB_CHECK(base64url_text(material.kid));
    CB_CHECK(base64url_text(material.modulus_b64url));
    CB_CHECK(base64url_text(material.exponent_b64url));
    const std::string jwk = R"({"kty":"RSA","n":")" + material.modulus_b64url + R"(","e":")" +
                            material.exponent_b64url + R"(","kid":")" + material.kid +
                            R"(","alg":"RS256","use":"sig"})";

    const Datum kid = pg::text_datum(material.kid);
    const Datum public_jwk = pg::jsonb_from_literal(jwk.c_str());
    const Datum private_key_pem = pg::text_datum(material.private_key_pem);
    return pg::pg_guard([&]() noexcept {
        TupleDesc descriptor = nullptr;
        if (get_call_result_type(fcinfo, nullptr, &descriptor) != TYPEFUNC_COMPOSITE) {
            ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                            errmsg("generate_rsa_key must be called in a context that accepts a record")));
        }
        descriptor = BlessTupleDesc(descriptor);
        Datum values[3] = {kid, public_jwk, private_key_pem};
        bool nulls[3] = {false, false, false};
        return HeapTupleGetDatum(heap_form_tuple(descriptor, values, nulls));
    });
}

/* SQL function: corebank.auth_ensure_signing_key() returns text */
COREBANK_FUNCTION(auth_ensure_signing_key) {
    const settings::Auth settings = settings::current();
    spi::connect();
    const std::string kid = pg::auth_signing::ensure_active_key(settings.signing_key_rotation_days);
    spi::finish();
    PG_RETURN_DATUM(pg::text_datum(kid));
}

/* SQL function: corebank.auth_rotate_signing_key() returns text */
COREBANK_FUNCTION(auth_rotate_signing_key) {
    spi::connect();
    const std::string kid = pg::auth_signing::rotate_key();
    spi::finish();
    PG_RETURN_DATUM(pg::text_datum(kid));
}

/* SQL function: corebank.auth_jwks() returns jsonb */
COREBANK_FUNCTION(auth_jwks) {
    const settings::Auth settings = settings::current();
    spi::connect();
    const std::uint64_t rows = spi::execute(jwks_sql, {spi::Arg::int4(settings.access_token_ttl_s)});
    CB_CHECK(rows == 1);  // an aggregate always answers one row
    const Datum jwks = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    PG_RETURN_DATUM(jwks);
}
