// config.hpp: corebankd's configuration: corebank.conf with CORE_<KEY>
// environment overrides (and DATABASE_URL). Loaded once at start; read-only after.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace corebank::httpd {

struct Config {
    // network
    std::string listen = "127.0.0.1";
    int core_port = 8080;
    int identity_port = 8081;
    int verify_port = 8082;
    int events_port = 8083;
    int reactor_threads = 1;
    int db_pool_size = 8;
    std::size_t max_body_bytes = 1048576;
    // POST /v1/transfers/batch alone: up to 8,000 transfers (docs/design/batch-transfers.md).
    std::size_t batch_max_body_bytes = 4194304;
    std::vector<std::string> trusted_proxies;
    // database
    std::string database_url;
    // A streaming hot-standby replica for the core service's lag-tolerant reads
    // (transaction search and get, statements; docs/scale-out.md). Empty: reads
    // use database_url. Opened with default_transaction_read_only=on.
    std::string read_database_url;
    int statement_timeout_ms = 5000;
    // POST /v1/transfers/batch alone: its statement may wait for the account
    // locks of concurrent batches.
    int batch_statement_timeout_ms = 60000;
    // identity
    std::string issuer = "http://127.0.0.1:8081";
    std::string default_audience = "corebank";
    int access_token_ttl_s = 900;
    int refresh_token_ttl_s = 2592000;
    int reset_token_ttl_s = 1800;
    int login_rate_limit = 20;
    int login_rate_window_s = 60;
    int reset_rate_limit = 5;
    int reset_rate_window_s = 3600;
    int signing_key_rotation_days = 30;
    std::string reset_link_base = "http://127.0.0.1:8081/auth/password/reset-form";
    std::string app_name = "corebank";
    // mail
    std::string mail_transport = "file";
    std::string mail_dir = "var/mail";
    std::string smtp_url;
    std::string mail_from = "no-reply@corebank.local";
    std::string data_key_file = "var/secrets/data.key";
    // core banking
    std::string policy_file = "policies/core_operations.json";
    // External KYC checks' provider (01-core-banking.md): only the offline STUB exists.
    std::string external_kyc_provider_mode = "STUB";
    // verification (docs/verification.md)
    std::string verify_public_url;            // base of hostedUrl; empty: http://<listen>:<verify_port>
    int verify_session_lifetime_s = 3600;
    int verify_client_token_ttl_s = 900;
    int verify_image_bytes_max = 5242880;
    std::string verify_check_provider = "offline";
    int verify_webhook_timeout_ms = 10000;
    int verify_webhook_backoff_base_s = 10;
    int verify_webhook_backoff_max_s = 3600;
    int verify_webhook_attempts_max = 20;
    // events (docs/events.md): the platform registry of six names, those of
    // them that are inactive, and the home country of phone normalisation
    std::vector<std::string> event_platforms{"web", "android", "ios", "ussd", "whatsapp", "pos"};
    std::vector<std::string> event_platforms_inactive;
    std::string home_country_calling_code = "263";
    // logging
    bool log_requests = true;
};

// Limits on the configuration itself (a typo must not produce a 0-thread server).
inline constexpr int db_pool_size_max = 256;
inline constexpr int reactor_threads_max = 64;
inline constexpr std::size_t max_body_bytes_max = 64u * 1024u * 1024u;

// Reads the file (missing file: defaults), then the environment. Throws
// std::runtime_error naming the key on an unknown key or a bad value.
Config load_config(const std::string& path, const std::map<std::string, std::string>& environment);
std::map<std::string, std::string> current_environment();

}  // namespace corebank::httpd
