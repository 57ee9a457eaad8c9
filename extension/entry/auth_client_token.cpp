// auth_client_token.cpp: corebank.auth_client_token, the OAuth2 client
// credentials grant (RFC 6749 section 4.4) after the tier has verified the
// client secret.
//
// Rules: the client must be ACTIVE (else CB401 "Invalid client credentials");
// the requested scopes must be a subset of the client's granted scopes (else
// CB400 "invalid_scope: <the ones not granted>"); no or an empty request means
// every granted scope. The token's claims are exactly sub, iss, iat, exp, jti,
// token_type ("client"), client_id, scopes (sorted, distinct), and its jti is
// recorded in auth_access_tokens with the client (no session, no user).
#include <algorithm>
#include <iterator>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_audit.hpp"
#include "pg/auth_signing.hpp"
#include "pg/check.hpp"
#include "pg/settings.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;

constexpr std::size_t requested_scopes_max = 100;
constexpr std::size_t scope_length_max = 100;

constexpr const char select_client_sql[] =
    "SELECT status = 'ACTIVE', scopes FROM corebank.auth_oauth_clients WHERE client_id = $1";

constexpr const char insert_client_token_sql[] =
    "WITH issued AS ("
    "  INSERT INTO corebank.auth_access_tokens (jti, session_id, user_id, client_id, issued_at, expires_at) "
    "  SELECT gen_random_uuid(), NULL, NULL, $1, to_timestamp(clock.iat), to_timestamp(clock.iat + $3) "
    "  FROM (SELECT floor(extract(epoch FROM now()))::bigint AS iat) AS clock "
    "  RETURNING jti, issued_at, expires_at"
    ") "
    "SELECT jsonb_build_object("
    "         'sub', $1::text, 'iss', $2::text, "
    "         'iat', extract(epoch FROM i.issued_at)::bigint, "
    "         'exp', extract(epoch FROM i.expires_at)::bigint, "
    "         'jti', i.jti::text, 'token_type', 'client', 'client_id', $1::text, "
    "         'scopes', to_jsonb($4::text[]))::text "
    "FROM issued i";

constexpr const char response_sql[] =
    "SELECT jsonb_build_object('accessToken', $1::text, 'tokenType', 'Bearer', 'expiresIn', $2::int, "
    "                          'scope', $3::text)";

[[noreturn]] void throw_invalid_client() {
    throw core::CoreError(core::sqlstate_invalid_credentials, "Invalid client credentials");
}

std::vector<std::string> sorted_distinct(std::vector<std::string> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

std::string join(const std::vector<std::string>& values) {
    std::string joined;
    for (const std::string& value : values) {
        if (!joined.empty()) joined.push_back(' ');
        joined += value;
    }
    return joined;
}

// The scopes the token will carry: the request when it is a subset of the
// grant, every granted scope when nothing is requested.
std::vector<std::string> decide_scopes(const std::vector<std::string>& granted,
                                       const std::optional<std::vector<std::string>>& requested) {
    if (!requested || requested->empty()) return granted;
    const std::vector<std::string> wanted = sorted_distinct(*requested);
    std::vector<std::string> not_granted;
    std::set_difference(wanted.begin(), wanted.end(), granted.begin(), granted.end(), std::back_inserter(not_granted));
    if (!not_granted.empty()) {
        throw core::CoreError(core::sqlstate_bad_request, "invalid_scope: " + join(not_granted));
    }
    return wanted;
}

}  // namespace

/* SQL function: corebank.auth_client_token(client_id text, requested_scopes text[]) returns jsonb */
COREBANK_FUNCTION(auth_client_token) {
    const std::string client_id = args::require(args::text(fcinfo, 0), "client_id");
    const std::optional<std::vector<std::string>> requested =
        args::text_array(fcinfo, 1, "requested_scopes", requested_scopes_max);
    if (requested) {
        for (const std::string& scope : *requested) {
            if (scope.empty() || pg::utf8_length(scope) > scope_length_max) {
                args::throw_validation("requested_scopes: each scope must be 1 to 100 characters");
            }
        }
    }
    // An id longer than any client's cannot authenticate.
    if (client_id.empty() || pg::utf8_length(client_id) > core::limits::auth::client_id_length_max) throw_invalid_client();
    const settings::Auth settings = settings::current();

    spi::connect();
    if (spi::execute(select_client_sql, {spi::Arg::text(client_id)}) == 0) throw_invalid_client();
    if (!spi::get_bool(0, 1).value()) throw_invalid_client();
    const std::vector<std::string> granted = sorted_distinct(spi::get_text_array(0, 2).value());
    const std::vector<std::string> scopes = decide_scopes(granted, requested);
    CB_CHECK(std::includes(granted.begin(), granted.end(), scopes.begin(), scopes.end()));

    const std::uint64_t rows = spi::execute(
        insert_client_token_sql, {spi::Arg::text(client_id), spi::Arg::text(settings.issuer),
                                  spi::Arg::int4(settings.access_token_ttl_s), spi::Arg::text_array(scopes)});
    CB_CHECK(rows == 1);
    const std::string token = pg::auth_signing::sign_claims(spi::get_text(0, 1).value());
    pg::auth_audit::record_for_client("client_token", client_id);

    const std::uint64_t response_rows =
        spi::execute(response_sql, {spi::Arg::text(token), spi::Arg::int4(settings.access_token_ttl_s),
                                    spi::Arg::text(join(scopes))});
    CB_CHECK(response_rows == 1);
    const Datum response = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    PG_RETURN_DATUM(response);
}
