// contact_claim_test.cpp: the codes of email and phone claims and the routing
// of phone messages to the SMS transport (docs/identity.md, "The current user
// and contact claims").
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "auth/contact_claim_code.hpp"
#include "mail/contact_transport.hpp"

using namespace corebank::httpd;
using namespace corebank::httpd::auth;

TEST(ContactClaimCode, IsSixDigitsAndVaries) {
    std::set<std::string> seen;
    std::set<char> first_digits;
    for (int i = 0; i < 2000; ++i) {
        const std::string code = new_contact_claim_code();
        ASSERT_TRUE(is_contact_claim_code(code)) << code;
        seen.insert(code);
        first_digits.insert(code[0]);
    }
    // 2000 draws from 10^6: a repeat or two is possible, a stuck generator is not.
    EXPECT_GT(seen.size(), 1990u);
    // Leading zeros are kept (000123 is a code), so every first digit occurs.
    EXPECT_EQ(first_digits.size(), 10u);
}

TEST(ContactClaimCode, FormatIsExactlySixAsciiDigits) {
    EXPECT_TRUE(is_contact_claim_code("000000"));
    EXPECT_TRUE(is_contact_claim_code("123456"));
    for (const std::string bad : {"", "12345", "1234567", "12345a", " 12345", "１２３４５６", "12 456"})
        EXPECT_FALSE(is_contact_claim_code(bad)) << bad;
}

TEST(ContactClaimCode, HashIsKeyedAndBoundToUserAndKind) {
    const std::string key(32, 'k');
    const std::string user = "3f1c2a9e-7b4d-4c1e-9a52-0d6f1b2c3e4f";
    const std::string hash = contact_claim_code_hash(key, user, "email", "123456");
    EXPECT_EQ(hash.size(), 32u);
    EXPECT_EQ(hash, contact_claim_code_hash(key, user, "email", "123456"));
    EXPECT_NE(hash, contact_claim_code_hash(key, user, "email", "123457"));
    EXPECT_NE(hash, contact_claim_code_hash(key, user, "phone", "123456"));
    EXPECT_NE(hash, contact_claim_code_hash(key, "4f1c2a9e-7b4d-4c1e-9a52-0d6f1b2c3e4f", "email", "123456"));
    // Without the data key the stored value cannot be recomputed.
    EXPECT_NE(hash, contact_claim_code_hash(std::string(32, 'x'), user, "email", "123456"));
}

namespace {

class Recorder : public MailTransport {
public:
    explicit Recorder(std::vector<std::string>& sink) : sink_(sink) {}
    void deliver(const MailMessage& message) override { sink_.push_back(message.to); }

private:
    std::vector<std::string>& sink_;
};

}  // namespace

TEST(ContactTransport, PhonesGoToTheSmsTransportEverythingElseToMail) {
    std::vector<std::string> mails, sms;
    auto transport = make_contact_transport(std::make_unique<Recorder>(mails), std::make_unique<Recorder>(sms));
    for (const std::string to : {"ada@example.com", "+263771234567", "263771234567", "123456789", "+1234567890123456"})
        transport->deliver(MailMessage{"id", "from@example.com", to, "subject", "body"});
    EXPECT_EQ(sms, (std::vector<std::string>{"+263771234567", "263771234567"}));
    EXPECT_EQ(mails, (std::vector<std::string>{"ada@example.com", "123456789", "+1234567890123456"}));
}

TEST(ContactTransport, SmsFolderIsInsideTheMailFolder) {
    EXPECT_EQ(sms_directory_of("var/mail"), "var/mail/sms");
}
