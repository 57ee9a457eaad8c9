// config_test.cpp: corebank.conf parsing with environment overrides
// (httpd/src/config.hpp).
//
// Goal: the built-in defaults match corebank.conf's documented values; the
// file is "key = value" with '#' comment lines; CORE_<KEY> and DATABASE_URL
// win over the file; a typo (unknown key, bad number, missing '=') stops the
// start instead of being ignored; relative paths are anchored at the config
// file's directory, not the working directory. Method: config files written
// into a fresh temporary directory; the environment is passed as a map, so
// the process environment is never touched.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>

#include "config.hpp"

namespace {

namespace fs = std::filesystem;
using corebank::httpd::Config;
using corebank::httpd::load_config;

class ConfigTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device random;
        directory = fs::temp_directory_path() / ("corebank-config-test-" + std::to_string(random()));
        fs::create_directories(directory);
    }
    void TearDown() override { fs::remove_all(directory); }

    std::string write(const std::string& text) {
        const fs::path path = directory / "corebank.conf";
        std::ofstream(path) << text;
        return path.string();
    }

    Config load(const std::string& text, const std::map<std::string, std::string>& environment = {}) {
        return load_config(write(text), environment);
    }

    fs::path directory;
};

// Goal: a missing file gives the documented defaults.
TEST_F(ConfigTest, DefaultsWhenFileIsMissing) {
    const Config c = load_config((directory / "absent.conf").string(), {});
    EXPECT_EQ(c.listen, "127.0.0.1");
    EXPECT_EQ(c.core_port, 8080);
    EXPECT_EQ(c.identity_port, 8081);
    EXPECT_EQ(c.verify_port, 8082);
    EXPECT_EQ(c.events_port, 8083);
    EXPECT_EQ(c.reactor_threads, 1);
    EXPECT_EQ(c.db_pool_size, 8);
    EXPECT_EQ(c.max_body_bytes, 1048576u);
    EXPECT_EQ(c.batch_max_body_bytes, 4194304u);
    EXPECT_TRUE(c.trusted_proxies.empty());
    EXPECT_EQ(c.statement_timeout_ms, 5000);
    EXPECT_EQ(c.batch_statement_timeout_ms, 60000);
    EXPECT_EQ(c.issuer, "http://127.0.0.1:8081");
    EXPECT_EQ(c.default_audience, "corebank");
    EXPECT_EQ(c.access_token_ttl_s, 900);
    EXPECT_EQ(c.refresh_token_ttl_s, 2592000);
    EXPECT_EQ(c.reset_token_ttl_s, 1800);
    EXPECT_EQ(c.login_rate_limit, 20);
    EXPECT_EQ(c.login_rate_window_s, 60);
    EXPECT_EQ(c.reset_rate_limit, 5);
    EXPECT_EQ(c.reset_rate_window_s, 3600);
    EXPECT_EQ(c.signing_key_rotation_days, 30);
    EXPECT_EQ(c.mail_transport, "file");
    EXPECT_TRUE(c.log_requests);
    // The embedded cluster, under the config file's directory.
    EXPECT_EQ(c.database_url,
              "host=" + (directory / "var/run").string() + " port=54329 dbname=corebank user=corebank_app");
}

// Goal: key = value lines are read with surrounding blanks trimmed; comment
// and blank lines are skipped; lists split on commas.
TEST_F(ConfigTest, ParsesFileWithComments) {
    const Config c = load(
        "# corebank.conf for a test\n"
        "\n"
        "   # an indented comment\n"
        "identity_port = 9081\n"
        "\tissuer=https://id.example.test  \n"
        "trusted_proxies = 10.0.0.1, 10.0.0.2 ,\n"
        "log_requests = off\n"
        "mail_transport = smtp\n"
        "smtp_url = smtp://mail.example.test:25\n"
        "database_url = host=db port=5432\n");
    EXPECT_EQ(c.identity_port, 9081);
    EXPECT_EQ(c.issuer, "https://id.example.test");
    EXPECT_EQ(c.trusted_proxies, (std::vector<std::string>{"10.0.0.1", "10.0.0.2"}));
    EXPECT_FALSE(c.log_requests);
    EXPECT_EQ(c.mail_transport, "smtp");
    EXPECT_EQ(c.smtp_url, "smtp://mail.example.test:25");
    EXPECT_EQ(c.database_url, "host=db port=5432");  // the value keeps its own '='
    EXPECT_EQ(c.core_port, 8080);                     // untouched keys keep defaults
}

// Goal: CORE_IDENTITY_PORT wins over the file; unrelated variables are ignored.
TEST_F(ConfigTest, EnvironmentOverridesFile) {
    const Config c = load("identity_port = 9081\ncore_port = 9080\n",
                          {{"CORE_IDENTITY_PORT", "7081"}, {"HOME", "/root"}, {"CORE_ISSUER", "https://env.test"}});
    EXPECT_EQ(c.identity_port, 7081);
    EXPECT_EQ(c.core_port, 9080);
    EXPECT_EQ(c.issuer, "https://env.test");
}

// Goal: DATABASE_URL overrides database_url from the file; an empty one does not.
TEST_F(ConfigTest, DatabaseUrlOverride) {
    EXPECT_EQ(load("database_url = host=file\n", {{"DATABASE_URL", "postgresql://app@db/corebank"}}).database_url,
              "postgresql://app@db/corebank");
    EXPECT_EQ(load("database_url = host=file\n", {{"DATABASE_URL", ""}}).database_url, "host=file");
}

// Goal: read_database_url (the read replica, docs/scale-out.md) is empty by
// default, so that reads use the primary; the file sets it,
// CORE_READ_DATABASE_URL overrides it (an empty one goes back to the
// primary), DATABASE_URL names the primary only, and a misspelling is an
// unknown key like any other.
TEST_F(ConfigTest, ReadDatabaseUrl) {
    EXPECT_EQ(load("").read_database_url, "");
    EXPECT_EQ(load("read_database_url = host=replica port=54330 dbname=corebank user=corebank_app\n").read_database_url,
              "host=replica port=54330 dbname=corebank user=corebank_app");
    const Config env = load("read_database_url = host=file\n",
                            {{"CORE_READ_DATABASE_URL", "host=env port=54330"}, {"DATABASE_URL", "host=primary"}});
    EXPECT_EQ(env.read_database_url, "host=env port=54330");
    EXPECT_EQ(env.database_url, "host=primary");
    EXPECT_EQ(load("read_database_url = host=file\n", {{"CORE_READ_DATABASE_URL", ""}}).read_database_url, "");
    EXPECT_EQ(load("", {{"DATABASE_URL", "host=primary"}}).read_database_url, "");
    EXPECT_THROW(load("read_database_uri = host=replica\n"), std::runtime_error);
}

// Goal: an unknown key, in the file or in the environment, throws and names it.
TEST_F(ConfigTest, UnknownKeyThrows) {
    try {
        load("identity_prot = 8081\n");
        FAIL() << "an unknown key was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("identity_prot"), std::string::npos) << e.what();
    }
}

// Goal: integers must be whole numbers within their range; booleans and
// the transport must be one of their words.
TEST_F(ConfigTest, BadValuesThrow) {
    EXPECT_THROW(load("identity_port = abc\n"), std::runtime_error);
    EXPECT_THROW(load("identity_port = 80x\n"), std::runtime_error);
    EXPECT_THROW(load("identity_port = 8.5\n"), std::runtime_error);
    EXPECT_THROW(load("identity_port = \n"), std::runtime_error);
    EXPECT_THROW(load("identity_port = 70000\n"), std::runtime_error);
    EXPECT_THROW(load("db_pool_size = 0\n"), std::runtime_error);
    EXPECT_THROW(load("log_requests = maybe\n"), std::runtime_error);
    EXPECT_THROW(load("mail_transport = pigeon\n"), std::runtime_error);
    EXPECT_THROW(load("", {{"CORE_IDENTITY_PORT", "-1"}}), std::runtime_error);
}

// Goal: a line without '=' is an error with the file position, not skipped.
TEST_F(ConfigTest, LineWithoutEqualsThrows) {
    try {
        load("listen = 127.0.0.1\nidentity_port 8081\n");
        FAIL() << "a line without '=' was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(":2:"), std::string::npos) << e.what();
    }
}

// Goal: relative mail_dir and data_key_file resolve against the config
// file's directory; absolute ones stay as they are.
TEST_F(ConfigTest, RelativePathsResolveAgainstConfigDirectory) {
    const Config relative = load("mail_dir = var/mail\ndata_key_file = secrets/data.key\n");
    EXPECT_EQ(relative.mail_dir, (directory / "var/mail").string());
    EXPECT_EQ(relative.data_key_file, (directory / "secrets/data.key").string());
    const Config absolute = load("mail_dir = /srv/mail\n");
    EXPECT_EQ(absolute.mail_dir, "/srv/mail");
    const Config defaults = load("");
    EXPECT_EQ(defaults.mail_dir, (directory / "var/mail").string());
    EXPECT_EQ(defaults.data_key_file, (directory / "var/secrets/data.key").string());
}

}  // namespace
