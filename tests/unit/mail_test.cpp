// mail_test.cpp: RFC 5322 rendering and the file mail transport
// (httpd/src/mail/transport.hpp).
//
// Goal: no CR or LF from a header value reaches the rendered headers (a
// recipient is user input: "\r\nBcc: ..." must not add a header), the body
// arrives intact after the blank line, and the file transport leaves exactly
// one finished .eml per message in its directory. Method: render messages
// with injection attempts and inspect the lines; deliver into a fresh
// temporary directory and list it.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mail/transport.hpp"

namespace {

namespace fs = std::filesystem;
using corebank::httpd::MailMessage;

MailMessage reset_message() {
    MailMessage m;
    m.id = "0b6f2c1e-5a4d-4e3f-8c2b-1a0f9e8d7c6b";
    m.from = "no-reply@corebank.local";
    m.to = "alice@example.com";
    m.subject = "Reset your corebank password";
    m.body = "Open https://app.example.test/reset?token=abc to choose a new password.\r\n";
    return m;
}

// The header lines of a rendered message (up to the first empty line).
std::vector<std::string> header_lines(const std::string& text) {
    const std::string head = text.substr(0, text.find("\r\n\r\n"));
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= head.size()) {
        const std::size_t end = head.find("\r\n", start);
        lines.push_back(head.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 2;
    }
    return lines;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Goal: a plain message renders From, To, Subject, Date, Message-ID and the
// MIME headers, a blank line, then the body verbatim.
TEST(RenderRfc5322, HeadersBlankLineAndBody) {
    const MailMessage m = reset_message();
    const std::string text = corebank::httpd::render_rfc5322(m);
    const auto lines = header_lines(text);
    EXPECT_EQ(lines.at(0), "From: no-reply@corebank.local");
    EXPECT_EQ(lines.at(1), "To: alice@example.com");
    EXPECT_EQ(lines.at(2), "Subject: Reset your corebank password");
    EXPECT_EQ(lines.at(3).rfind("Date: ", 0), 0u);
    EXPECT_EQ(lines.at(4), "Message-ID: <0b6f2c1e-5a4d-4e3f-8c2b-1a0f9e8d7c6b@corebank>");
    const auto blank = text.find("\r\n\r\n");
    ASSERT_NE(blank, std::string::npos);
    EXPECT_EQ(text.substr(blank + 4), m.body);
}

// Goal: CR and LF inside header values are stripped, so an injected
// "Bcc:" or an early blank line cannot create headers or move the body.
TEST(RenderRfc5322, StripsCrLfFromHeaderValues) {
    MailMessage m = reset_message();
    m.to = "alice@example.com\r\nBcc: mallory@evil.example";
    m.subject = "Hello\nX-Injected: 1\r\n\r\nfake body";
    m.from = "no-reply@corebank.local\rReply-To: mallory@evil.example";
    m.id = "id\r\nX-Id: 2";
    const std::string text = corebank::httpd::render_rfc5322(m);
    const auto lines = header_lines(text);
    for (const auto& line : lines) {
        EXPECT_NE(line.rfind("Bcc:", 0), 0u) << line;
        EXPECT_NE(line.rfind("X-Injected:", 0), 0u) << line;
        EXPECT_NE(line.rfind("Reply-To:", 0), 0u) << line;
        EXPECT_NE(line.rfind("X-Id:", 0), 0u) << line;
        EXPECT_EQ(line.find_first_of("\r\n"), std::string::npos) << line;
    }
    EXPECT_EQ(lines.at(1), "To: alice@example.comBcc: mallory@evil.example");
    EXPECT_EQ(lines.at(2), "Subject: HelloX-Injected: 1fake body");
    EXPECT_EQ(text.substr(text.find("\r\n\r\n") + 4), m.body);
}

class FileTransportTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device random;
        directory = fs::temp_directory_path() / ("corebank-mail-test-" + std::to_string(random()));
    }
    void TearDown() override { fs::remove_all(directory); }

    std::vector<fs::path> files() const {
        std::vector<fs::path> out;
        for (const auto& entry : fs::directory_iterator(directory)) out.push_back(entry.path());
        return out;
    }

    fs::path directory;
};

// Goal: delivering one message creates the directory and leaves exactly one
// file, named *.eml after the message id (no leftover .tmp), holding the
// rendered message with the body.
TEST_F(FileTransportTest, WritesExactlyOneEml) {
    const MailMessage m = reset_message();
    corebank::httpd::make_file_transport(directory.string())->deliver(m);
    const auto written = files();
    ASSERT_EQ(written.size(), 1u);
    EXPECT_EQ(written[0].extension(), ".eml");
    EXPECT_NE(written[0].filename().string().find(m.id), std::string::npos);
    const std::string text = read_file(written[0]);
    EXPECT_NE(text.find("To: alice@example.com\r\n"), std::string::npos);
    EXPECT_EQ(text.substr(text.find("\r\n\r\n") + 4), m.body);
}

unsigned mode_of(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return 07777;
    return static_cast<unsigned>(info.st_mode) & 07777u;
}

// Goal: a mail file (a reset link: a credential) is 0600 in a 0700 folder
// (issue 13), whatever the process umask; a folder that already exists with
// wider access is narrowed to 0700 before anything is written into it.
TEST_F(FileTransportTest, FilesAreOwnerOnlyInAnOwnerOnlyFolder) {
    const mode_t saved_umask = ::umask(0);  // the widest a process could run with
    corebank::httpd::make_file_transport(directory.string())->deliver(reset_message());
    ::umask(saved_umask);
    EXPECT_EQ(mode_of(directory), 0700u) << std::oct << mode_of(directory);
    const auto written = files();
    ASSERT_EQ(written.size(), 1u);
    EXPECT_EQ(mode_of(written[0]), 0600u) << std::oct << mode_of(written[0]);
}

TEST_F(FileTransportTest, ExistingWideFolderIsNarrowed) {
    fs::create_directories(directory);
    ASSERT_EQ(::chmod(directory.c_str(), 0755), 0);
    corebank::httpd::make_file_transport(directory.string())->deliver(reset_message());
    EXPECT_EQ(mode_of(directory), 0700u) << std::oct << mode_of(directory);
    for (const auto& file : files()) EXPECT_EQ(mode_of(file), 0600u) << file;
}

// Goal: two messages give two files, one per message.
TEST_F(FileTransportTest, OneFilePerMessage) {
    auto transport = corebank::httpd::make_file_transport(directory.string());
    MailMessage first = reset_message();
    MailMessage second = reset_message();
    second.id = "1c7a3d2f-6b5e-4f40-9d3c-2b1a0f9e8d7c";
    transport->deliver(first);
    transport->deliver(second);
    EXPECT_EQ(files().size(), 2u);
}

}  // namespace
