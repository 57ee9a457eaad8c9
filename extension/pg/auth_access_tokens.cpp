// auth_access_tokens.cpp: see auth_access_tokens.hpp.
#include "pg/auth_access_tokens.hpp"

#include "pg/auth_signing.hpp"
#include "pg/check.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::auth_access_tokens {

namespace {

// One statement records the token and returns its claims as JSON text, so
// the jti, iat and exp in the row and in the token cannot differ. iat is
// whole seconds; exp = iat + ttl. amr (RFC 8176) is the session's: how the
// user signed in when it was opened, so a refresh carries it over.
constexpr const char insert_user_token_sql[] =
    "WITH issued AS ("
    "  INSERT INTO corebank.auth_access_tokens (jti, session_id, user_id, client_id, issued_at, expires_at) "
    "  SELECT gen_random_uuid(), $2, $1, NULL, to_timestamp(clock.iat), to_timestamp(clock.iat + $5) "
    "  FROM (SELECT floor(extract(epoch FROM now()))::bigint AS iat) AS clock "
    "  RETURNING jti, issued_at, expires_at"
    ") "
    "SELECT (jsonb_build_object("
    "          'sub', u.id::text, 'iss', $4::text, 'aud', $3::text, "
    "          'iat', extract(epoch FROM i.issued_at)::bigint, "
    "          'exp', extract(epoch FROM i.expires_at)::bigint, "
    "          'jti', i.jti::text, "
    "          'roles', to_jsonb(u.roles), "
    "          'scopes', to_jsonb(corebank_internal.role_scopes(u.roles)), "
    "          'kyc_tier', u.kyc_tier, "
    "          'amr', to_jsonb(s.amr)) "
    "        || CASE WHEN u.phone IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('phone', u.phone) END "
    "        || CASE WHEN u.email IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('email', u.email) END"
    "       )::text "
    "FROM issued i CROSS JOIN corebank.auth_users u JOIN corebank.auth_sessions s ON s.id = $2 "
    "WHERE u.id = $1";

constexpr const char token_block_sql[] =
    "SELECT jsonb_build_object('accessToken', $1::text, 'tokenType', 'Bearer', 'expiresIn', $2::int, "
    "                          'user', corebank_internal.user_object($3), 'sessionId', $4::uuid)";

constexpr const char token_block_outcome_sql[] =
    "SELECT jsonb_build_object('outcome', 'ok', 'tokens', "
    "         jsonb_build_object('accessToken', $1::text, 'tokenType', 'Bearer', 'expiresIn', $2::int, "
    "                            'user', corebank_internal.user_object($3), 'sessionId', $4::uuid))";

}  // namespace

Issued issue_for_user(const Uuid& user_id, const Uuid& session_id, const std::string& audience,
                      const settings::Auth& settings) {
    CB_CHECK(!audience.empty());
    CB_CHECK(settings.access_token_ttl_s > 0);
    const std::uint64_t rows = spi::execute(
        insert_user_token_sql, {spi::Arg::uuid(user_id), spi::Arg::uuid(session_id), spi::Arg::text(audience),
                                spi::Arg::text(settings.issuer), spi::Arg::int4(settings.access_token_ttl_s)});
    CB_CHECK(rows == 1);  // the user row exists: the caller holds its lock
    const std::string claims = spi::get_text(0, 1).value();
    return Issued{auth_signing::sign_claims(claims), settings.access_token_ttl_s};
}

Datum token_block_for_return(const Issued& issued, const Uuid& user_id, const Uuid& session_id, BlockShape shape) {
    const char* sql = shape == BlockShape::bare ? token_block_sql : token_block_outcome_sql;
    const std::uint64_t rows = spi::execute(sql, {spi::Arg::text(issued.token), spi::Arg::int4(issued.expires_in),
                                                  spi::Arg::uuid(user_id), spi::Arg::uuid(session_id)});
    CB_CHECK(rows == 1);
    const Datum block = spi::get_required_jsonb_for_return(0, 1);
    return block;
}

}  // namespace corebank::pg::auth_access_tokens
