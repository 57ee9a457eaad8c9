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

std::vector<std::string> split_list(const std::string& value) {
    std::vector<std::string> out;
    std::string item;
    for (char c : value + ",") {
        if (c == ',') {
            if (!trim(item).empty()) out.push_back(trim(item));
            item.clear();
        } else {
            item.push_back(c);
        }
    }
    return out;
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

Setter int_setter(int Config::*field, int min, int max) {
    return [=](Config& c, const std::string& k, const std::string& v) { c.*field = parse_int(k, v, min, max); };
}
Setter string_setter(std::string Config::*field) {
    return [=](Config& c, const std::string&, const std::string& v) { c.*field = v; };
}

const std::map<std::string, Setter>& setters() {
    static const std::map<std::string, Setter> table = {
        {"listen", string_setter(&Config::listen)},
        {"core_port", int_setter(&Config::core_port, 1, 65535)},
        {"identity_port", int_setter(&Config::identity_port, 1, 65535)},
        {"verify_port", int_setter(&Config::verify_port, 1, 65535)},
        {"events_port", int_setter(&Config::events_port, 1, 65535)},
        {"reactor_threads", int_setter(&Config::reactor_threads, 1, reactor_threads_max)},
        {"db_pool_size", int_setter(&Config::db_pool_size, 1, db_pool_size_max)},
        {"max_body_bytes",
         [](Config& c, const std::string& k, const std::string& v) {
             c.max_body_bytes = static_cast<std::size_t>(parse_int(k, v, 1024, static_cast<int>(max_body_bytes_max)));
         }},
        {"batch_max_body_bytes",
         [](Config& c, const std::string& k, const std::string& v) {
             c.batch_max_body_bytes =
                 static_cast<std::size_t>(parse_int(k, v, 1024, static_cast<int>(max_body_bytes_max)));
         }},
        {"trusted_proxies", [](Config& c, const std::string&, const std::string& v) { c.trusted_proxies = split_list(v); }},
        {"database_url", string_setter(&Config::database_url)},
        {"read_database_url", string_setter(&Config::read_database_url)},
        {"statement_timeout_ms", int_setter(&Config::statement_timeout_ms, 100, 600000)},
        {"batch_statement_timeout_ms", int_setter(&Config::batch_statement_timeout_ms, 100, 600000)},
        {"issuer", string_setter(&Config::issuer)},
        {"default_audience", string_setter(&Config::default_audience)},
        {"access_token_ttl_s", int_setter(&Config::access_token_ttl_s, 60, 86400)},
        {"refresh_token_ttl_s", int_setter(&Config::refresh_token_ttl_s, 300, 31536000)},
        {"reset_token_ttl_s", int_setter(&Config::reset_token_ttl_s, 60, 86400)},
        {"login_rate_limit", int_setter(&Config::login_rate_limit, 1, 100000)},  // the GUC's bound
        {"login_rate_window_s", int_setter(&Config::login_rate_window_s, 1, 86400)},
        {"reset_rate_limit", int_setter(&Config::reset_rate_limit, 1, 100000)},  // the GUC's bound
        {"reset_rate_window_s", int_setter(&Config::reset_rate_window_s, 1, 86400)},
        {"signing_key_rotation_days", int_setter(&Config::signing_key_rotation_days, 1, 3650)},
        {"reset_link_base", string_setter(&Config::reset_link_base)},
        {"app_name", string_setter(&Config::app_name)},
        {"mail_transport",
         [](Config& c, const std::string& k, const std::string& v) {
             if (v != "file" && v != "smtp") throw std::runtime_error("config: " + k + " must be file or smtp");
             c.mail_transport = v;
         }},
        {"mail_dir", string_setter(&Config::mail_dir)},
        {"smtp_url", string_setter(&Config::smtp_url)},
        {"mail_from", string_setter(&Config::mail_from)},
        {"data_key_file", string_setter(&Config::data_key_file)},
        {"policy_file", string_setter(&Config::policy_file)},
        {"external_kyc_provider_mode",
         [](Config& c, const std::string& k, const std::string& v) {
             std::string mode;
             for (char ch : v) mode.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
             if (mode.empty() || mode.size() > 32 || mode.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != std::string::npos)
                 throw std::runtime_error("config: " + k + " must be 1 to 32 of A-Z and _ (STUB is the built-in provider)");
             c.external_kyc_provider_mode = mode;
         }},
        {"verify_public_url",
         [](Config& c, const std::string& k, const std::string& v) {
             if (!v.empty() && v.rfind("http://", 0) != 0 && v.rfind("https://", 0) != 0)
                 throw std::runtime_error("config: " + k + " must be an http(s) URL or empty");
             c.verify_public_url = v;
         }},
        {"verify_session_lifetime_s", int_setter(&Config::verify_session_lifetime_s, 300, 604800)},
        {"verify_client_token_ttl_s", int_setter(&Config::verify_client_token_ttl_s, 60, 86400)},
        {"verify_image_bytes_max", int_setter(&Config::verify_image_bytes_max, 65536, 16777216)},
        {"verify_check_provider",
         [](Config& c, const std::string& k, const std::string& v) {
             if (v != "offline") throw std::runtime_error("config: " + k + " must be offline (the built-in provider)");
             c.verify_check_provider = v;
         }},
        {"verify_webhook_timeout_ms", int_setter(&Config::verify_webhook_timeout_ms, 500, 60000)},
        {"verify_webhook_backoff_base_s", int_setter(&Config::verify_webhook_backoff_base_s, 1, 86400)},
        {"verify_webhook_backoff_max_s", int_setter(&Config::verify_webhook_backoff_max_s, 1, 604800)},
        {"verify_webhook_attempts_max", int_setter(&Config::verify_webhook_attempts_max, 1, 100)},
        {"event_platforms",
         [](Config& c, const std::string& k, const std::string& v) {
             c.event_platforms = parse_event_platforms(k, v);
             if (c.event_platforms.size() != event_platform_count)
                 throw std::runtime_error("config: " + k + " must name exactly 6 platforms");
         }},
        {"event_platforms_inactive",
         [](Config& c, const std::string& k, const std::string& v) { c.event_platforms_inactive = parse_event_platforms(k, v); }},
        {"home_country_calling_code",
         [](Config& c, const std::string& k, const std::string& v) {
             const bool digits = !v.empty() && v.size() <= 3 && v[0] != '0' &&
                                 v.find_first_not_of("0123456789") == std::string::npos;
             if (!digits) throw std::runtime_error("config: " + k + " must be 1 to 3 digits, not starting with 0");
             c.home_country_calling_code = v;
         }},
        {"log_requests", [](Config& c, const std::string& k, const std::string& v) { c.log_requests = parse_bool(k, v); }},
    };
    return table;
}

void apply(Config& config, const std::string& key, const std::string& value) {
    const auto it = setters().find(key);
    if (it == setters().end()) throw std::runtime_error("config: unknown key '" + key + "'");
    it->second(config, key, value);
}

std::string resolve_path(const std::string& base_dir, const std::string& path) {
    if (path.empty() || path.front() == '/' || base_dir.empty()) return path;
    return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

}  // namespace

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
    for (const auto& [key, setter] : setters()) {
        (void)setter;
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
