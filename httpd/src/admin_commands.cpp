#include "admin_commands.hpp"

#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "auth/client_admin_secret.hpp"
#include "auth/password_quality.hpp"
#include "auth/requests.hpp"
#include "banking/handlers.hpp"
#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "core/limits.hpp"
#include "db.hpp"
#include "db_errors.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "password_hash.hpp"
#include "secret_option.hpp"

namespace corebank::httpd {

namespace {

// One statement, so one transaction: a user whose roles meet staff_mfa_roles
// is created with its TOTP secret enabled, or not at all.
const Statement staff_create{"auth_staff_create",
                             "SELECT id, corebank.auth_mfa_staff_enrol(id, $8)::text "
                             "FROM corebank.auth_staff_create($1, $2, $3, $4, $5, $6::text[], $7) AS id",
                             8};
const Statement key_create{
    "core_api_key_create",
    "SELECT corebank.core_api_key_create($1, $2, $3::text[], $4, $5::int, $6::bytea, $7, NULL::uuid)::text", 7};
const Statement client_create{"auth_client_create",
                              "SELECT corebank.auth_client_create($1, $2, $3::text[], $4, $5, $6)::text", 6};

// --name value pairs; every flag takes one value.
std::map<std::string, std::string> parse_flags(const std::vector<std::string>& args,
                                               const std::vector<std::string>& allowed) {
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < args.size(); i += 2) {
        const std::string& flag = args[i];
        bool known = false;
        for (const auto& a : allowed) known = known || flag == "--" + a;
        if (!known) throw std::runtime_error("unknown option " + flag);
        if (i + 1 >= args.size()) throw std::runtime_error(flag + " needs a value");
        out[flag.substr(2)] = args[i + 1];
    }
    return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, separator))
        if (!trim_ascii(item).empty()) out.push_back(trim_ascii(item));
    return out;
}

Param optional(const std::map<std::string, std::string>& flags, const char* name) {
    const auto it = flags.find(name);
    return it == flags.end() ? Param() : Param(it->second);
}

int fail(const std::string& message) {
    std::cerr << "corebankd: " << message << "\n";
    return 2;
}

// A password or secret from --NAME VALUE, --NAME - (standard input) or
// --NAME-env VAR (secret_option.hpp); nullopt when none was given.
std::optional<std::string> secret_from(const std::map<std::string, std::string>& flags, const std::string& name) {
    return read_secret_option(flags, name, std::cin, [](const char* variable) { return std::getenv(variable); });
}

int run_guarded(const std::function<int()>& body) {
    try {
        return body();
    } catch (const DbError& e) {
        return fail(api_error_from_db(e).what());
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}

}  // namespace

int run_staff_create(const Config& config, const std::vector<std::string>& args) {
    return run_guarded([&] {
        const auto flags = parse_flags(
            args, {"email", "password", "password-env", "roles", "branch", "phone", "first-name", "last-name"});
        const std::optional<std::string> given_password = secret_from(flags, "password");
        if (!flags.count("email") || !given_password || !flags.count("roles"))
            return fail("usage: staff-create --email E (--password P | --password - | --password-env VAR) "
                        "--roles r1,r2 [--branch CODE]");
        const std::string email = auth::normalise_email(flags.at("email"));
        if (!auth::is_valid_email(email)) return fail("--email is not a valid email address");
        const std::string& password = *given_password;
        const std::size_t length = utf8_length(password);
        if (length < core::limits::auth::password_length_min || length > core::limits::auth::password_length_max)
            return fail("--password must be 8 to 128 characters");
        // The same refusal as register, change and reset: staff passwords
        // guard maker and checker rights (docs/identity.md, Field limits).
        if (const auto weakness = auth::password_quality().weakness(password)) return fail("--password " + *weakness);
        const auto roles = split(flags.at("roles"), ',');
        if (roles.empty()) return fail("--roles needs at least one role");
        Db db(config.database_url, {});
        const auto created = db.exec(staff_create, {email, optional(flags, "phone"), password_hash(password),
                                                    optional(flags, "first-name"), optional(flags, "last-name"),
                                                    text_array_param(roles), optional(flags, "branch"), config.app_name});
        if (created.rows.size() != 1 || created.rows[0].size() != 2) return fail("staff-create: unexpected answer");
        std::cout << created.rows[0][0].value_or("") << "\n";
        // Roles of staff_mfa_roles need a second factor from the first login
        // (docs/identity.md, "Staff second factor"): the secret is shown once,
        // here, for the user's authenticator app; only its sealed form is stored.
        if (const auto& enrolment = created.rows[0][1]) {
            const auto totp = parse_db_json(enrolment);
            std::cout << json_string(totp, "secret") << "\n" << json_string(totp, "otpauthUri") << "\n";
            std::cerr << "corebankd: the roles need a second factor: line 2 is the TOTP secret and line 3 its "
                         "otpauth:// URI, shown once; every login needs a code from it\n";
        }
        return 0;
    });
}

int run_client_create(const Config& config, const std::vector<std::string>& args) {
    return run_guarded([&] {
        const auto flags =
            parse_flags(args, {"id", "secret", "secret-env", "scopes", "name", "reset-link-base", "app-name"});
        const std::optional<std::string> given_secret = secret_from(flags, "secret");
        if (!flags.count("id"))
            return fail("usage: client-create --id ID [--secret SECRET | --secret - | --secret-env VAR] "
                        "--scopes \"a b\" (without a secret one is generated and printed)");
        // A secret is guessed online one try at a time (each counted, issue
        // 13), so its length is what keeps it unguessable: a supplied one has
        // at least 32 characters, a generated one 32 random bytes.
        const std::string secret =
            given_secret ? *given_secret : auth::new_client_secret();  // POST /admin/clients makes them too
        if (utf8_length(secret) < auth::client_secret_length_min || secret.size() > auth::client_secret_length_max)
            return fail("--secret must be at least 32 characters and at most 256 bytes; "
                        "leave it out to have a random one generated");
        const auto scopes = split(flags.count("scopes") ? flags.at("scopes") : "", ' ');
        Db db(config.database_url, {});
        const auto result = parse_db_json(
            db.exec(client_create, {flags.at("id"), password_hash(secret), text_array_param(scopes),
                                    optional(flags, "name"), optional(flags, "reset-link-base"),
                                    optional(flags, "app-name")})
                .scalar());
        std::cout << json_string(result, "clientId", flags.at("id")) << "\n";
        // Shown once: only its argon2id hash is stored.
        if (!given_secret) std::cout << secret << "\n";
        return 0;
    });
}

}  // namespace corebank::httpd

namespace corebank::httpd {

namespace {

// The scopes each service's keys may carry (00-decisions.md, 03-verification-and-events.md).
std::vector<std::string> allowed_scopes(const std::string& service) {
    if (service == "core") return {"read", "write", "admin"};
    if (service == "events") return {"ingest", "events:read"};
    if (service == "verify") return {"sessions:read", "sessions:write", "webhooks:manage"};
    return {};
}

}  // namespace

int run_key_create(const Config& config, const std::vector<std::string>& args) {
    return run_guarded([&] {
        const auto flags = parse_flags(args, {"service", "scopes", "name", "caller", "rate-limit"});
        if (!flags.count("service") || !flags.count("scopes"))
            return fail("usage: key-create --service core|events|verify --scopes a,b [--name N] [--caller ID] "
                        "[--rate-limit PER_MINUTE]");
        const std::string& service = flags.at("service");
        const auto allowed = allowed_scopes(service);
        if (allowed.empty()) return fail("--service must be core, events or verify");
        const auto scopes = split(flags.at("scopes"), ',');
        if (scopes.empty()) return fail("--scopes needs at least one scope");
        for (const auto& scope : scopes) {
            bool ok = false;
            for (const auto& a : allowed) ok = ok || scope == a;
            if (!ok) return fail("scope '" + scope + "' is not a scope of the " + service + " service");
        }
        if (service == "events" && !flags.count("caller")) return fail("--caller is required for events keys");
        const std::string name = flags.count("name") ? flags.at("name")
                                                     : (flags.count("caller") ? flags.at("caller") : service + "-key");
        int rate = core::limits::api_key_requests_per_minute_default;
        if (flags.count("rate-limit")) {
            rate = std::atoi(flags.at("rate-limit").c_str());
            if (rate < core::limits::api_key_requests_per_minute_min || rate > core::limits::api_key_requests_per_minute_max)
                return fail("--rate-limit must be " + std::to_string(core::limits::api_key_requests_per_minute_min) + ".." +
                            std::to_string(core::limits::api_key_requests_per_minute_max) + " requests per minute");
        }
        const core_banking::NewApiKey key = core_banking::generate_api_key(service);
        Db db(config.database_url, {});
        db.exec(key_create, {service, name, text_array_param(scopes), optional(flags, "caller"), std::to_string(rate),
                             bytea_param(core::sha256(key.key)), key.prefix});
        std::cout << key.key << "\n";
        return 0;
    });
}

}  // namespace corebank::httpd
