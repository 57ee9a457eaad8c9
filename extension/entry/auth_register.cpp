// auth_register.cpp: corebank.auth_register, creating an identity and its
// first session.
//
// Rules (docs/identity.md, Rules): the clientId is checked first, so a bad one
// writes nothing; an email or a phone is required; emails are stored trimmed
// and lower-cased; a phone is one number with or without its leading '+'
// (unique phone_key). Duplicates are detected race-safely: the INSERT uses
// ON CONFLICT DO NOTHING, which waits for a concurrent insert of the same
// email or phone to commit, and only then do we look at which one conflicted.
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/auth_access_tokens.hpp"
#include "pg/auth_audit.hpp"
#include "pg/auth_clients.hpp"
#include "pg/auth_sessions.hpp"
#include "pg/settings.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"

namespace {

using namespace corebank;
using corebank::pg::Uuid;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;

struct RegisterRequest {
    std::optional<std::string> email;  // normalised
    std::optional<std::string> phone;
    std::string password_hash;
    std::optional<std::string> first_name;
    std::optional<std::string> last_name;
    std::optional<std::string> client_id;
    std::optional<std::string> channel;
    std::optional<std::string> ip;
    std::optional<std::string> user_agent;
    std::string refresh_token_hash;
};

constexpr const char insert_user_sql[] =
    "INSERT INTO corebank.auth_users (email, phone, password_hash, first_name, last_name) "
    "VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT DO NOTHING "
    "RETURNING id";

constexpr const char email_taken_sql[] = "SELECT 1 FROM corebank.auth_users WHERE email = $1";
constexpr const char phone_taken_sql[] = "SELECT 1 FROM corebank.auth_users WHERE phone_key = $1";

// Reads the arguments (checked by check_request).
RegisterRequest read_request(FunctionCallInfo fcinfo) {
    RegisterRequest request;
    const std::optional<std::string> email = args::blank_to_null(args::text(fcinfo, 0));
    request.phone = args::blank_to_null(args::text(fcinfo, 1));
    request.password_hash = args::require(args::text(fcinfo, 2), "password_hash");
    request.first_name = args::text(fcinfo, 3);
    request.last_name = args::text(fcinfo, 4);
    request.client_id = args::text(fcinfo, 5);
    request.channel = args::text(fcinfo, 6);
    request.ip = args::text(fcinfo, 7);
    request.user_agent = args::text(fcinfo, 8);
    request.refresh_token_hash = args::require(args::bytea(fcinfo, 9), "refresh_token_hash");
    if (email) request.email = pg::normalize_email(*email);
    return request;
}

// Checks the arguments; writes nothing.
void check_request(const RegisterRequest& request) {
    if (!request.email && !request.phone) {
        throw core::CoreError(core::sqlstate_bad_request, "Either an email or a phone number is required");
    }
    args::check_length(request.email, "email", core::limits::auth::email_length_max);
    if (request.email && (request.email->size() < 3 || request.email->find('@') == std::string::npos)) {
        args::throw_validation("email: must be a well-formed email address");
    }
    if (request.phone && !pg::phone_valid(*request.phone)) {
        args::throw_validation("phone: must match ^\\+?[0-9]{10,15}$");
    }
    if (!pg::password_hash_valid(request.password_hash)) {
        args::throw_validation("password_hash: must be an argon2id encoded hash");
    }
    args::check_length(request.first_name, "firstName", core::limits::auth::name_length_max);
    args::check_length(request.last_name, "lastName", core::limits::auth::name_length_max);
    args::check_length(request.channel, "channel", core::limits::auth::channel_length_max);
    args::check_length(request.ip, "ip", core::limits::client_ip_length_max);
    args::check_sha256(request.refresh_token_hash, "refresh_token_hash");
}

// Inserts the user; on a unique conflict raises the CB409 naming the taken
// identifier (email first, as login resolves email first).
Uuid insert_user(const RegisterRequest& request) {
    const std::uint64_t rows = spi::execute(
        insert_user_sql, {spi::Arg::text(request.email), spi::Arg::text(request.phone),
                          spi::Arg::text(request.password_hash), spi::Arg::text(request.first_name),
                          spi::Arg::text(request.last_name)});
    if (rows == 1) return spi::get_uuid(0, 1).value();

    if (request.email && spi::execute(email_taken_sql, {spi::Arg::text(request.email)}) > 0) {
        throw core::CoreError(core::sqlstate_conflict,
                              "An account with this email already exists; log in with that email");
    }
    if (request.phone &&
        spi::execute(phone_taken_sql, {spi::Arg::text(pg::phone_key(*request.phone))}) > 0) {
        throw core::CoreError(core::sqlstate_conflict,
                              "An account with this phone number already exists; log in with that phone number");
    }
    // ON CONFLICT DO NOTHING skipped the row, so one of the two must exist.
    throw core::CoreError(core::sqlstate_internal, "corebank invariant violated: conflicting user row not found");
}

}  // namespace

/* SQL function: corebank.auth_register(email text, phone text, password_hash text, first_name text, last_name text, client_id text, channel text, ip text, user_agent text, refresh_token_hash bytea) returns jsonb */
COREBANK_FUNCTION(auth_register) {
    const RegisterRequest request = read_request(fcinfo);
    const settings::Auth settings = settings::current();

    spi::connect();
    // The clientId rule comes first (contract); nothing is written before
    // every check has passed.
    pg::auth_clients::require_active_or_absent(request.client_id);
    check_request(request);
    const Uuid user_id = insert_user(request);

    const std::string audience = request.client_id.value_or(settings.default_audience);
    const Uuid session_id = pg::auth_sessions::open(pg::auth_sessions::NewSession{
        user_id, request.client_id, audience, request.channel, request.ip, request.user_agent,
        request.refresh_token_hash, settings.refresh_token_ttl_s});
    const pg::auth_access_tokens::Issued issued =
        pg::auth_access_tokens::issue_for_user(user_id, session_id, audience, settings);
    pg::auth_audit::record("register", user_id, request.channel, request.ip);

    const Datum block =
        pg::auth_access_tokens::token_block_for_return(issued, user_id, session_id, pg::auth_access_tokens::BlockShape::bare);
    spi::finish();
    PG_RETURN_DATUM(block);
}
