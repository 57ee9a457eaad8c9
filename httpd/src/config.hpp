// config.hpp: corebankd's configuration: corebank.conf with CORE_<KEY>
// environment overrides (and DATABASE_URL). Loaded once at start; read-only after.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/settings_table.hpp"

namespace corebank::httpd {

namespace settings_table = core::settings_table;

// "a,b,c" -> {"a", "b", "c"}: blanks around items trimmed, empty items dropped.
std::vector<std::string> split_list(std::string_view value);

// Every member's default is its row's default (core/settings_table.hpp), and
// load_config() checks each integer against its row's range.
struct Config {
    // network
    std::string listen{settings_table::listen.default_text};
    int core_port = settings_table::core_port.default_integer;
    int identity_port = settings_table::identity_port.default_integer;
    int verify_port = settings_table::verify_port.default_integer;
    int events_port = settings_table::events_port.default_integer;
    int reactor_threads = settings_table::reactor_threads.default_integer;
    int db_pool_size = settings_table::db_pool_size.default_integer;
    // The password lane (httpd/src/password_lane.hpp, issue 13).
    int password_hash_threads = settings_table::password_hash_threads.default_integer;
    int password_hash_queue_max = settings_table::password_hash_queue_max.default_integer;
    int password_attempts_per_s = settings_table::password_attempts_per_s.default_integer;
    int password_attempts_per_ip_per_s = settings_table::password_attempts_per_ip_per_s.default_integer;
    std::size_t max_body_bytes = static_cast<std::size_t>(settings_table::max_body_bytes.default_integer);
    // POST /v1/transfers/batch alone: up to 8,000 transfers (docs/design/batch-transfers.md).
    std::size_t batch_max_body_bytes = static_cast<std::size_t>(settings_table::batch_max_body_bytes.default_integer);
    std::vector<std::string> trusted_proxies = split_list(settings_table::trusted_proxies.default_text);
    // database
    std::string database_url{settings_table::database_url.default_text};
    // A streaming hot-standby replica for the core service's lag-tolerant reads
    // (transaction search and get, statements; docs/scale-out.md). Empty: reads
    // use database_url. Opened with default_transaction_read_only=on.
    std::string read_database_url{settings_table::read_database_url.default_text};
    int statement_timeout_ms = settings_table::statement_timeout_ms.default_integer;
    // POST /v1/transfers/batch alone: its statement may wait for the account
    // locks of concurrent batches.
    int batch_statement_timeout_ms = settings_table::batch_statement_timeout_ms.default_integer;
    // identity: the tier passes these to every connection (database_settings())
    std::string issuer{settings_table::issuer.default_text};
    std::string default_audience{settings_table::default_audience.default_text};
    int access_token_ttl_s = settings_table::access_token_ttl_s.default_integer;
    int refresh_token_ttl_s = settings_table::refresh_token_ttl_s.default_integer;
    int reset_token_ttl_s = settings_table::reset_token_ttl_s.default_integer;
    int login_rate_limit = settings_table::login_rate_limit.default_integer;
    int login_rate_window_s = settings_table::login_rate_window_s.default_integer;
    int reset_rate_limit = settings_table::reset_rate_limit.default_integer;
    int reset_rate_window_s = settings_table::reset_rate_window_s.default_integer;
    int signing_key_rotation_days = settings_table::signing_key_rotation_days.default_integer;
    std::string reset_link_base{settings_table::reset_link_base.default_text};
    std::string app_name{settings_table::app_name.default_text};
    // mail
    std::string mail_transport{settings_table::mail_transport.default_text};
    std::string mail_dir{settings_table::mail_dir.default_text};
    std::string smtp_url{settings_table::smtp_url.default_text};
    bool smtp_allow_plaintext = settings_table::smtp_allow_plaintext.default_text == "true";
    std::string mail_from{settings_table::mail_from.default_text};
    std::string data_key_file{settings_table::data_key_file.default_text};
    // core banking
    std::string policy_file{settings_table::policy_file.default_text};
    std::string console_key_file{settings_table::console_key_file.default_text};
    // External KYC checks' provider (01-core-banking.md): only the offline STUB exists.
    std::string external_kyc_provider_mode{settings_table::external_kyc_provider_mode.default_text};
    int auth_cache_ttl_ms = settings_table::auth_cache_ttl_ms.default_integer;
    // Group commit of POST /v1/transfers (docs/design/posting-group.md); 0: off.
    int posting_group_lanes = settings_table::posting_group_lanes.default_integer;
    int eod_runner_interval_s = settings_table::eod_runner_interval_s.default_integer;
    // staff roles whose tokens need a second factor (docs/identity.md, "Staff second factor")
    std::vector<std::string> staff_mfa_roles = split_list(settings_table::staff_mfa_roles.default_text);
    // verification (docs/verification.md)
    std::string verify_public_url{settings_table::verify_public_url.default_text};  // base of hostedUrl; empty: http://<listen>:<verify_port>
    int verify_session_lifetime_s = settings_table::verify_session_lifetime_s.default_integer;
    int verify_client_token_ttl_s = settings_table::verify_client_token_ttl_s.default_integer;
    int verify_image_bytes_max = settings_table::verify_image_bytes_max.default_integer;
    std::string verify_check_provider{settings_table::verify_check_provider.default_text};
    int verify_webhook_timeout_ms = settings_table::verify_webhook_timeout_ms.default_integer;
    int verify_webhook_backoff_base_s = settings_table::verify_webhook_backoff_base_s.default_integer;
    int verify_webhook_backoff_max_s = settings_table::verify_webhook_backoff_max_s.default_integer;
    int verify_webhook_attempts_max = settings_table::verify_webhook_attempts_max.default_integer;
    bool verify_webhook_allow_private = settings_table::verify_webhook_allow_private.default_text == "true";
    // events (docs/events.md): the platform registry of six names, those of
    // them that are inactive, and the home country of phone normalisation
    std::vector<std::string> event_platforms = split_list(settings_table::event_platforms.default_text);
    std::vector<std::string> event_platforms_inactive = split_list(settings_table::event_platforms_inactive.default_text);
    std::string home_country_calling_code{settings_table::home_country_calling_code.default_text};
    // logging
    bool log_requests = settings_table::log_requests.default_text == "true";
};

// Reads the file (missing file: defaults), then the environment. Throws
// std::runtime_error naming the key on an unknown key or a bad value.
Config load_config(const std::string& path, const std::map<std::string, std::string>& environment);
std::map<std::string, std::string> current_environment();

// The keys load_config() accepts, in the table's order: one per row.
std::vector<std::string> config_keys();

// The value of a key as corebank.conf would spell it; nullopt for the keys
// whose value is a list, a word checked on its own, or a boolean.
std::optional<std::string> config_value(const Config& config, const std::string& key);

// The corebank.* GUCs every tier connection carries (the rows of
// Side::both), as {"corebank.<name>", value}: the extension reads them.
std::vector<std::pair<std::string, std::string>> database_settings(const Config& config);

// The corebank.* GUCs only a superuser sets (the rows of Side::database), as
// {"corebank.<name>", value}: `corebankd settings apply` stores them with
// ALTER DATABASE; no tier connection can carry them.
std::vector<std::pair<std::string, std::string>> superuser_database_settings(const Config& config);

}  // namespace corebank::httpd
