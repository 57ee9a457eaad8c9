// data_key_test.cpp: the data key file (httpd/src/data_key.cpp).
//
// Goal: the key that seals secrets at rest is read only from a file no one
// but its owner can read (issue 13): a key file readable by the group or by
// others refuses the start with a message that names the file and the fix;
// 0600 and 0400 are read; a key the tier creates itself is 0600.
// Method: temp files with each mode, read through load_or_create_data_key.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>

#include "core/base64url.hpp"
#include "core/crypto.hpp"
#include "data_key.hpp"

namespace {

namespace fs = std::filesystem;
using corebank::httpd::load_or_create_data_key;

class DataKeyFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device random;
        directory = fs::temp_directory_path() / ("corebank-data-key-test-" + std::to_string(random()));
        fs::create_directories(directory);
        path = (directory / "data.key").string();
    }
    void TearDown() override { fs::remove_all(directory); }

    void write_key(mode_t mode) {
        std::ofstream(path) << corebank::core::base64_encode(std::string(corebank::core::data_key_bytes, 'k')) << "\n";
        ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    }

    // The message of the refusal, or "" when the key was read.
    std::string refusal() {
        try {
            load_or_create_data_key(path);
            return "";
        } catch (const std::runtime_error& e) {
            return e.what();
        }
    }

    fs::path directory;
    std::string path;
};

// Goal: group- or world-readable (or writable) key files are refused, with
// the path, the mode and the command that fixes it in the message.
TEST_F(DataKeyFileTest, GroupOrWorldAccessIsRefused) {
    for (const mode_t mode : {0644, 0640, 0604, 0660, 0606, 0620, 0602, 0700 | 0044}) {
        write_key(static_cast<mode_t>(mode));
        const std::string message = refusal();
        EXPECT_NE(message.find(path), std::string::npos) << std::oct << mode << ": " << message;
        EXPECT_NE(message.find("chmod 600"), std::string::npos) << std::oct << mode << ": " << message;
    }
    write_key(0644);
    EXPECT_NE(refusal().find("0644"), std::string::npos) << refusal();
}

// Goal: an owner-only key file is read (0600 as ./corebank writes it, 0400 read-only).
TEST_F(DataKeyFileTest, OwnerOnlyKeyIsRead) {
    for (const mode_t mode : {0600, 0400}) {
        write_key(mode);
        EXPECT_EQ(refusal(), "") << std::oct << mode;
        EXPECT_EQ(load_or_create_data_key(path), std::string(corebank::core::data_key_bytes, 'k'));
    }
}

// Goal: a key the tier creates is 0600 and reads back the same.
TEST_F(DataKeyFileTest, CreatedKeyIsOwnerOnly) {
    const std::string created = load_or_create_data_key(path);
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
    EXPECT_EQ(load_or_create_data_key(path), created);
}

}  // namespace
