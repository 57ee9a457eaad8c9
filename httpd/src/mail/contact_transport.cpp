// contact_transport.cpp: see contact_transport.hpp.
#include "mail/contact_transport.hpp"

#include <filesystem>

namespace corebank::httpd {

namespace {

class ContactTransport : public MailTransport {
public:
    ContactTransport(std::unique_ptr<MailTransport> mail, std::unique_ptr<MailTransport> sms)
        : mail_(std::move(mail)), sms_(std::move(sms)) {}

    void deliver(const MailMessage& message) override {
        (is_phone_recipient(message.to) ? sms_ : mail_)->deliver(message);
    }

private:
    std::unique_ptr<MailTransport> mail_;
    std::unique_ptr<MailTransport> sms_;
};

}  // namespace

bool is_phone_recipient(const std::string& recipient) {
    const std::size_t digits_from = !recipient.empty() && recipient[0] == '+' ? 1 : 0;
    const std::size_t digits = recipient.size() - digits_from;
    if (digits < 10 || digits > 15) return false;
    for (std::size_t i = digits_from; i < recipient.size(); ++i)
        if (recipient[i] < '0' || recipient[i] > '9') return false;
    return true;
}

std::unique_ptr<MailTransport> make_contact_transport(std::unique_ptr<MailTransport> mail,
                                                      std::unique_ptr<MailTransport> sms) {
    return std::make_unique<ContactTransport>(std::move(mail), std::move(sms));
}

std::string sms_directory_of(const std::string& mail_dir) {
    return (std::filesystem::path(mail_dir) / "sms").string();
}

}  // namespace corebank::httpd
