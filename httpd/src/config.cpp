// config.cpp: parse "key = value" lines; environment wins over the file.
#include "config.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>

extern char** environ;

namespace corebank::httpd {

namespace {

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

int parse_int(const std::string& key, const std::string& value, int min, int max) {
    int out = 0;
    const auto* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, out);
    if (ec != std::errc() || ptr != end || out < min || out > max)
        throw std::runtime_error("config: " + key + " must be an integer in " + std::to_string(min) + ".." +
                                 std::to_string(max) + ", got '" + value + "'");
    return out;
}

bool parse_bool(const std::string& key, const std::string& value) {
    if (value == "true" || value == "1" || value == "yes" || value == "on") return true;
    if (value == "false" || value == "0" || value == "no" || value == "off") return false;
    throw std::runtime_error("config: " + key + " must be true or false, got '" + value + "'");
}

// Event platform names: distinct, 1 to 60 of a-z 0-9 _ . - (first a letter or digit).
constexpr std::size_t event_platform_count = 6;
std::vector<std::string> parse_event_platforms(const std::string& key, const std::string& value) {
    const std::vector<std::string> names = split_list(value);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& name = names[i];
        const bool valid = name.size() <= 60 && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.-") ==
                                                    std::string::npos &&
                           name[0] != '_' && name[0] != '.' && name[0] != '-';
        if (!valid) throw std::runtime_error("config: " + key + ": '" + name + "' is not a platform name (a-z 0-9 _ . -)");
        for (std::size_t j = 0; j < i; ++j)
            if (names[j] == name) throw std::runtime_error("config: " + key + " names '" + name + "' twice");
    }
    return names;
}

using Setter = std::function<void(Config&, const std::string& key, const std::string& value)>;
using Getter = std::function<std::string(const Config&)>;
using settings_table::Setting;

// One key of corebank.conf: its row of the settings table, how a value is
// read into the Config, and (for the rows the database reads) how it is
// written out again.
struct Entry {
    const Setting* row;
    Setter set;
    Getter get;
};

// An integer within its row's range.
Entry integer_entry(const Setting& row, int Config::*field) {
    return Entry{&row,
                 [&row, field](Config& c, const std::string& k, const std::string& v) {
                     c.*field = parse_int(k, v, row.minimum, row.maximum);
                 },
                 [field](const Config& c) { return std::to_string(c.*field); }};
}
Entry size_entry(const Setting& row, std::size_t Config::*field) {
    return Entry{&row,
                 [&row, field](Config& c, const std::string& k, const std::string& v) {
                     c.*field = static_cast<std::size_t>(parse_int(k, v, row.minimum, row.maximum));
                 },
                 [field](const Config& c) { return std::to_string(c.*field); }};
}
Entry string_entry(const Setting& row, std::string Config::*field) {
    return Entry{&row, [field](Config& c, const std::string&, const std::string& v) { c.*field = v; },
                 [field](const Config& c) { return c.*field; }};
}
Entry checked_entry(const Setting& row, Setter set) { return Entry{&row, std::move(set), nullptr}; }

// Every key, in the table's order (settings_table::all); the constructor
// below refuses a row without an entry, so adding a row means adding its
// entry here and its member to Config.
const std::vector<Entry>& entries() {
    namespace t = settings_table;
    static const std::vector<Entry> list = {
        string_entry(t::listen, &Config::listen),
        integer_entry(t::core_port, &Config::core_port),
        integer_entry(t::identity_port, &Config::identity_port),
        integer_entry(t::verify_port, &Config::verify_port),
        integer_entry(t::events_port, &Config::events_port),
        integer_entry(t::reactor_threads, &Config::reactor_threads),
        integer_entry(t::db_pool_size, &Config::db_pool_size),
        integer_entry(t::password_hash_threads, &Config::password_hash_threads),
        integer_entry(t::password_hash_queue_max, &Config::password_hash_queue_max),
        integer_entry(t::password_attempts_per_s, &Config::password_attempts_per_s),
        integer_entry(t::password_attempts_per_ip_per_s, &Config::password_attempts_per_ip_per_s),
        size_entry(t::max_body_bytes, &Config::max_body_bytes),
        size_entry(t::batch_max_body_bytes, &Config::batch_max_body_bytes),
        checked_entry(t::trusted_proxies,
                      [](Config& c, const std::string&, const std::string& v) { c.trusted_proxies = split_list(v); }),
        string_entry(t::database_url, &Config::database_url),
        string_entry(t::read_database_url, &Config::read_database_url),
        integer_entry(t::statement_timeout_ms, &Config::statement_timeout_ms),
        integer_entry(t::batch_statement_timeout_ms, &Config::batch_statement_timeout_ms),
        string_entry(t::issuer, &Config::issuer),
        string_entry(t::default_audience, &Config::default_audience),
        integer_entry(t::access_token_ttl_s, &Config::access_token_ttl_s),
        integer_entry(t::refresh_token_ttl_s, &Config::refresh_token_ttl_s),
        integer_entry(t::reset_token_ttl_s, &Config::reset_token_ttl_s),
        integer_entry(t::login_rate_limit, &Config::login_rate_limit),
        integer_entry(t::login_rate_window_s, &Config::login_rate_window_s),
        integer_entry(t::reset_rate_limit, &Config::reset_rate_limit),
        integer_entry(t::reset_rate_window_s, &Config::reset_rate_window_s),
        integer_entry(t::signing_key_rotation_days, &Config::signing_key_rotation_days),
        string_entry(t::reset_link_base, &Config::reset_link_base),
        string_entry(t::app_name, &Config::app_name),
        checked_entry(t::mail_transport,
                      [](Config& c, const std::string& k, const std::string& v) {
                          if (v != "file" && v != "smtp") throw std::runtime_error("config: " + k + " must be file or smtp");
                          c.mail_transport = v;
                      }),
        string_entry(t::mail_dir, &Config::mail_dir),
        string_entry(t::smtp_url, &Config::smtp_url),
        checked_entry(t::smtp_allow_plaintext,
                      [](Config& c, const std::string& k, const std::string& v) {
                          c.smtp_allow_plaintext = parse_bool(k, v);
                      }),
        string_entry(t::mail_from, &Config::mail_from),
        string_entry(t::data_key_file, &Config::data_key_file),
        string_entry(t::policy_file, &Config::policy_file),
        string_entry(t::console_key_file, &Config::console_key_file),
        checked_entry(t::external_kyc_provider_mode,
                      [](Config& c, const std::string& k, const std::string& v) {
                          std::string mode;
                          for (char ch : v) mode.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
                          if (mode.empty() || mode.size() > 32 ||
                              mode.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != std::string::npos)
                              throw std::runtime_error("config: " + k +
                                                       " must be 1 to 32 of A-Z and _ (STUB is the built-in provider)");
                          c.external_kyc_provider_mode = mode;
                      }),
        integer_entry(t::auth_cache_ttl_ms, &Config::auth_cache_ttl_ms),
        integer_entry(t::posting_group_lanes, &Config::posting_group_lanes),
        integer_entry(t::eod_runner_interval_s, &Config::eod_runner_interval_s),
        // Role names only: the database's GUC takes the list as it is written here.
        Entry{&t::staff_mfa_roles,
              [](Config& c, const std::string& k, const std::string& v) {
                  std::vector<std::string> roles = split_list(v);
                  for (const auto& role : roles)
                      if (role.empty() || role.size() > 40 || role.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
                          throw std::runtime_error("config: " + k + " must be role names (a-z 0-9 _), comma-separated");
                  if (roles.empty()) throw std::runtime_error("config: " + k + " must name at least one role");
                  c.staff_mfa_roles = std::move(roles);
              },
              [](const Config& c) {
                  std::string joined;
                  for (const auto& role : c.staff_mfa_roles) joined += (joined.empty() ? "" : ",") + role;
                  return joined;
              }},
        checked_entry(t::verify_public_url,
                      [](Config& c, const std::string& k, const std::string& v) {
                          if (!v.empty() && v.rfind("http://", 0) != 0 && v.rfind("https://", 0) != 0)
                              throw std::runtime_error("config: " + k + " must be an http(s) URL or empty");
                          c.verify_public_url = v;
                      }),
        integer_entry(t::verify_session_lifetime_s, &Config::verify_session_lifetime_s),
        integer_entry(t::verify_client_token_ttl_s, &Config::verify_client_token_ttl_s),
        integer_entry(t::verify_image_bytes_max, &Config::verify_image_bytes_max),
        checked_entry(t::verify_check_provider,
                      [](Config& c, const std::string& k, const std::string& v) {
                          if (v != "offline")
                              throw std::runtime_error("config: " + k + " must be offline (the built-in provider)");
                          c.verify_check_provider = v;
                      }),
        integer_entry(t::verify_webhook_timeout_ms, &Config::verify_webhook_timeout_ms),
        integer_entry(t::verify_webhook_backoff_base_s, &Config::verify_webhook_backoff_base_s),
        integer_entry(t::verify_webhook_backoff_max_s, &Config::verify_webhook_backoff_max_s),
        integer_entry(t::verify_webhook_attempts_max, &Config::verify_webhook_attempts_max),
        checked_entry(t::verify_webhook_allow_private,
                      [](Config& c, const std::string& k, const std::string& v) {
                          c.verify_webhook_allow_private = parse_bool(k, v);
                      }),
        checked_entry(t::event_platforms,
                      [](Config& c, const std::string& k, const std::string& v) {
                          c.event_platforms = parse_event_platforms(k, v);
                          if (c.event_platforms.size() != event_platform_count)
                              throw std::runtime_error("config: " + k + " must name exactly 6 platforms");
                      }),
        checked_entry(t::event_platforms_inactive,
                      [](Config& c, const std::string& k, const std::string& v) {
                          c.event_platforms_inactive = parse_event_platforms(k, v);
                      }),
        checked_entry(t::home_country_calling_code,
                      [](Config& c, const std::string& k, const std::string& v) {
                          const bool digits = !v.empty() && v.size() <= 3 && v[0] != '0' &&
                                              v.find_first_not_of("0123456789") == std::string::npos;
                          if (!digits) throw std::runtime_error("config: " + k + " must be 1 to 3 digits, not starting with 0");
                          c.home_country_calling_code = v;
                      }),
        checked_entry(t::log_requests,
                      [](Config& c, const std::string& k, const std::string& v) { c.log_requests = parse_bool(k, v); }),
    };
    return list;
}

// The entries by key; every row of the table has exactly one, in its order.
const std::map<std::string, const Entry*>& setters() {
    static const std::map<std::string, const Entry*> by_key = [] {
        const std::vector<Entry>& list = entries();
        if (list.size() != settings_table::count)
            throw std::logic_error("config: the entries do not cover settings_table::all");
        std::map<std::string, const Entry*> out;
        for (std::size_t index = 0; index < list.size(); ++index) {
            if (list[index].row != settings_table::all[index])
                throw std::logic_error("config: entry " + std::to_string(index) + " is not the table's row " +
                                       std::string(settings_table::all[index]->name));
            if (settings_table::read_by_database(list[index].row->side) && !list[index].get)
                throw std::logic_error("config: the database reads " + std::string(list[index].row->name) +
                                       ", whose entry cannot write it out");
            out.emplace(std::string(list[index].row->name), &list[index]);
        }
        return out;
    }();
    return by_key;
}

void apply(Config& config, const std::string& key, const std::string& value) {
    const auto it = setters().find(key);
    if (it == setters().end()) throw std::runtime_error("config: unknown key '" + key + "'");
    it->second->set(config, key, value);
}

std::string resolve_path(const std::string& base_dir, const std::string& path) {
    if (path.empty() || path.front() == '/' || base_dir.empty()) return path;
    return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

}  // namespace

std::vector<std::string> split_list(std::string_view value) {
    std::vector<std::string> out;
    std::string item;
    for (char c : std::string(value) + ",") {
        if (c == ',') {
            if (!trim(item).empty()) out.push_back(trim(item));
            item.clear();
        } else {
            item.push_back(c);
        }
    }
    return out;
}

std::vector<std::string> config_keys() {
    std::vector<std::string> keys;
    for (const Entry& entry : entries()) keys.emplace_back(entry.row->name);
    return keys;
}

std::optional<std::string> config_value(const Config& config, const std::string& key) {
    const auto it = setters().find(key);
    if (it == setters().end() || !it->second->get) return std::nullopt;
    return it->second->get(config);
}

namespace {

// The corebank.* GUCs of the rows of one side, as {"corebank.<name>", value}.
std::vector<std::pair<std::string, std::string>> gucs_of_side(const Config& config, settings_table::Side side) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Entry& entry : entries())
        if (entry.row->side == side) out.emplace_back("corebank." + std::string(entry.row->name), entry.get(config));
    return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> database_settings(const Config& config) {
    return gucs_of_side(config, settings_table::Side::both);
}

std::vector<std::pair<std::string, std::string>> superuser_database_settings(const Config& config) {
    return gucs_of_side(config, settings_table::Side::database);
}

std::map<std::string, std::string> current_environment() {
    std::map<std::string, std::string> out;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string entry(*e);
        const auto eq = entry.find('=');
        if (eq != std::string::npos) out.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    }
    return out;
}

Config load_config(const std::string& path, const std::map<std::string, std::string>& environment) {
    Config config;
    std::string base_dir;
    if (!path.empty()) {
        base_dir = std::filesystem::absolute(path).parent_path().string();
        std::ifstream in(path);
        if (!in && std::filesystem::exists(path)) throw std::runtime_error("config: cannot read " + path);
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            const std::string text = trim(line);
            if (text.empty() || text.front() == '#') continue;
            const auto eq = text.find('=');
            if (eq == std::string::npos)
                throw std::runtime_error("config: " + path + ":" + std::to_string(number) + ": expected key = value");
            apply(config, trim(text.substr(0, eq)), trim(text.substr(eq + 1)));
        }
    }
    for (const auto& [key, entry] : setters()) {
        (void)entry;
        std::string env_name = "CORE_";
        for (char c : key) env_name.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
        const auto it = environment.find(env_name);
        if (it != environment.end()) apply(config, key, it->second);
    }
    // The specification names this setting without the CORE_ prefix; CORE_ wins.
    if (const auto it = environment.find("EXTERNAL_KYC_PROVIDER_MODE");
        it != environment.end() && environment.count("CORE_EXTERNAL_KYC_PROVIDER_MODE") == 0)
        apply(config, "external_kyc_provider_mode", it->second);
    if (const auto it = environment.find("DATABASE_URL"); it != environment.end() && !it->second.empty())
        config.database_url = it->second;
    const std::string cwd = std::filesystem::current_path().string();
    const std::string& dir = base_dir.empty() ? cwd : base_dir;
    config.mail_dir = resolve_path(dir, config.mail_dir);
    config.data_key_file = resolve_path(dir, config.data_key_file);
    config.policy_file = resolve_path(dir, config.policy_file);
    config.console_key_file = resolve_path(dir, config.console_key_file);
    if (config.verify_webhook_backoff_max_s < config.verify_webhook_backoff_base_s)
        throw std::runtime_error("config: verify_webhook_backoff_max_s must be at least verify_webhook_backoff_base_s");
    for (const auto& name : config.event_platforms_inactive)
        if (std::find(config.event_platforms.begin(), config.event_platforms.end(), name) == config.event_platforms.end())
            throw std::runtime_error("config: event_platforms_inactive names '" + name + "', which is not in event_platforms");
    if (config.database_url.empty())
        config.database_url = "host=" + resolve_path(dir, "var/run") + " port=54329 dbname=corebank user=corebank_app";
    return config;
}

}  // namespace corebank::httpd
