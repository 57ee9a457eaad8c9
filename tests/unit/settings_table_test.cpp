// settings_table_test.cpp: every setting's default and range are the same
// in the settings table (extension/core/settings_table.hpp), the tier's
// parser of corebank.conf (httpd/src/config.cpp) and the committed files
// generated from the table: corebank.conf, the key table of
// docs/configuration.md and pgtap/settings_ranges.sql (which checks the
// extension's GUCs in pg_settings against the same rows).
//
// Goal: a setting cannot drift between the places that use it; the two
// mismatches issue 11 found (signing_key_rotation_days, reset_rate_window_s)
// cannot come back. Method: for each integer row, load_config() with the
// value in CORE_<KEY> at each bound (accepted, read back) and one past it
// (refused, naming the key); the committed files compared byte for byte with
// the renderers' output (`corebankd settings conf|markdown|pgtap` prints it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.hpp"
#include "core/settings_render.hpp"
#include "core/settings_table.hpp"

namespace {

namespace table = corebank::core::settings_table;
namespace render = corebank::core::settings_render;
using corebank::httpd::Config;
using corebank::httpd::config_keys;
using corebank::httpd::config_value;
using corebank::httpd::database_settings;
using corebank::httpd::load_config;

std::string read_source_file(const std::string& relative) {
    std::ifstream in(std::string(COREBANK_SOURCE_DIR) + "/" + relative, std::ios::binary);
    EXPECT_TRUE(in.good()) << relative;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string environment_name(std::string_view key) {
    std::string name = "CORE_";
    for (const char c : key) name.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    return name;
}

// The environment that sets `key` to `value`, with what a cross-key rule
// needs: the webhook backoff's maximum must stay at least its base.
std::map<std::string, std::string> setting(std::string_view key, int value) {
    std::map<std::string, std::string> environment{{environment_name(key), std::to_string(value)}};
    if (key == table::verify_webhook_backoff_base_s.name)
        environment[environment_name(table::verify_webhook_backoff_max_s.name)] =
            std::to_string(table::verify_webhook_backoff_max_s.maximum);
    if (key == table::verify_webhook_backoff_max_s.name)
        environment[environment_name(table::verify_webhook_backoff_base_s.name)] =
            std::to_string(table::verify_webhook_backoff_base_s.minimum);
    return environment;
}

Config load(const std::map<std::string, std::string>& environment) { return load_config("", environment); }

// Goal: the parser knows exactly the table's keys, in its order.
TEST(SettingsTable, ParserKeysAreTheTableRows) {
    std::vector<std::string> rows;
    for (const table::Setting* row : table::all) rows.emplace_back(row->name);
    EXPECT_EQ(config_keys(), rows);
}

// Goal: each key's built-in default is its row's default.
TEST(SettingsTable, IntegerDefaultsAreTheRowsDefaults) {
    const Config defaults = load({});
    for (const table::Setting* row : table::all) {
        if (row->kind != table::Kind::integer) continue;
        EXPECT_EQ(config_value(defaults, std::string(row->name)), std::to_string(row->default_integer)) << row->name;
    }
    for (const table::Setting* row : table::all) {
        if (row->kind != table::Kind::text) continue;
        const auto value = config_value(defaults, std::string(row->name));
        // Paths are resolved at load, and an empty database_url is the embedded cluster.
        const bool resolved = row->name == table::database_url.name || row->name == table::mail_dir.name ||
                              row->name == table::data_key_file.name || row->name == table::policy_file.name;
        if (value && !resolved) {
            EXPECT_EQ(*value, row->default_text) << row->name;
        }
    }
}

// Goal: each bound of each integer row is accepted and read back as given;
// one past either bound is refused with a message naming the key.
TEST(SettingsTable, ParserRangesAreTheRowsRanges) {
    for (const table::Setting* row : table::all) {
        if (row->kind != table::Kind::integer) continue;
        const std::string key(row->name);
        for (const int bound : {row->minimum, row->maximum}) {
            try {
                EXPECT_EQ(config_value(load(setting(key, bound)), key), std::to_string(bound)) << key;
            } catch (const std::exception& e) {
                ADD_FAILURE() << key << " = " << bound << " was refused: " << e.what();
            }
        }
        for (const int outside : {row->minimum - 1, row->maximum + 1}) {
            try {
                load(setting(key, outside));
                ADD_FAILURE() << key << " = " << outside << " was accepted";
            } catch (const std::runtime_error& e) {
                EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
            }
        }
    }
}

// Goal: the two ranges that disagreed before issue 11 are the GUC's and the
// tier's alike: a year of signing-key age, a day of reset window.
TEST(SettingsTable, FormerMismatchesAreSettled) {
    EXPECT_EQ(table::signing_key_rotation_days.maximum, 365);
    EXPECT_THROW(load(setting("signing_key_rotation_days", 366)), std::runtime_error);
    EXPECT_EQ(table::reset_rate_window_s.maximum, 86'400);
    EXPECT_THROW(load(setting("reset_rate_window_s", 86'401)), std::runtime_error);
}

// Goal: every tier connection carries one corebank.* GUC per Side::both row,
// with the configured value, and none of the superuser-only rows
// (Side::database), which `settings apply` carries instead.
TEST(SettingsTable, DatabaseSettingsAreTheBothRows) {
    std::vector<std::pair<std::string, std::string>> expected;
    for (const table::Setting* row : table::all) {
        if (row->side != table::Side::both) continue;
        const std::string value = row->kind == table::Kind::integer ? std::to_string(row->default_integer)
                                                                     : std::string(row->default_text);
        expected.emplace_back("corebank." + std::string(row->name), value);
    }
    EXPECT_EQ(database_settings(load({})), expected);
    const auto changed = database_settings(load({{"CORE_ISSUER", "https://id.example.com"}}));
    EXPECT_NE(std::find(changed.begin(), changed.end(),
                        std::make_pair(std::string("corebank.issuer"), std::string("https://id.example.com"))),
              changed.end());
}

// Goal: the settings that decide security inside the database (lifetimes,
// rate limits, signing-key age) are superuser-only rows: the tier's
// connections never carry them, `settings apply` carries exactly them.
TEST(SettingsTable, SecuritySettingsAreSuperuserOnly) {
    for (const char* name : {"access_token_ttl_s", "refresh_token_ttl_s", "reset_token_ttl_s", "login_rate_limit",
                             "login_rate_window_s", "reset_rate_limit", "reset_rate_window_s",
                             "signing_key_rotation_days"}) {
        bool found = false;
        for (const table::Setting* row : table::all)
            if (row->name == name) {
                found = true;
                EXPECT_EQ(row->side, table::Side::database) << name;
            }
        EXPECT_TRUE(found) << name;
    }
    const Config config = load({{"CORE_RESET_RATE_WINDOW_S", "7200"}});
    for (const auto& [name, value] : database_settings(config))
        EXPECT_NE(name, "corebank.reset_rate_window_s") << "a tier connection would try to SET a superuser-only GUC";
    const auto applied = superuser_database_settings(config);
    EXPECT_NE(std::find(applied.begin(), applied.end(),
                        std::make_pair(std::string("corebank.reset_rate_window_s"), std::string("7200"))),
              applied.end());
    std::size_t database_rows = 0;
    for (const table::Setting* row : table::all) database_rows += row->side == table::Side::database ? 1 : 0;
    EXPECT_EQ(applied.size(), database_rows);
}

// Goal: the committed corebank.conf is the generated one, and it loads to
// the built-in defaults.
TEST(SettingsTable, CommittedConfIsGenerated) {
    EXPECT_EQ(read_source_file("corebank.conf"), render::conf())
        << "regenerate: corebankd settings conf > corebank.conf";
    const Config from_file = load_config(std::string(COREBANK_SOURCE_DIR) + "/corebank.conf", {});
    // Defaults with relative paths resolved against the same directory.
    const Config defaults = load_config(std::string(COREBANK_SOURCE_DIR) + "/no-such-file.conf", {});
    for (const std::string& key : config_keys()) EXPECT_EQ(config_value(from_file, key), config_value(defaults, key)) << key;
}

// Goal: docs/configuration.md holds the generated key table, markers included.
TEST(SettingsTable, CommittedDocsTableIsGenerated) {
    const std::string docs = read_source_file("docs/configuration.md");
    const std::size_t begin = docs.find(render::markdown_begin);
    const std::size_t end = docs.find(render::markdown_end);
    ASSERT_NE(begin, std::string::npos) << "docs/configuration.md lacks the generated table's first marker";
    ASSERT_NE(end, std::string::npos) << "docs/configuration.md lacks the generated table's last marker";
    EXPECT_EQ(docs.substr(begin, end + render::markdown_end.size() + 1 - begin), render::markdown())
        << "regenerate the table with: corebankd settings markdown";
}

// Goal: the pgTAP file that checks pg_settings is the generated one.
TEST(SettingsTable, CommittedPgtapIsGenerated) {
    EXPECT_EQ(read_source_file("pgtap/settings_ranges.sql"), render::pgtap())
        << "regenerate: corebankd settings pgtap > pgtap/settings_ranges.sql";
}

}  // namespace
