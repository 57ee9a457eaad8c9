// contact_transport.hpp: the outbox's transport for both kinds of contact.
// A message to a phone number (a contact-claim code, issue 14 part 1) goes
// to the SMS transport, any other to the mail transport. No SMS provider is
// connected, so corebankd's SMS transport is a file transport writing into
// <mail_dir>/sms (docs/identity.md, "The current user and contact claims"),
// whichever mail transport is configured.
#pragma once

#include <memory>
#include <string>

#include "mail/transport.hpp"

namespace corebank::httpd {

// True for a recipient that is a phone number (^\+?[0-9]{10,15}$): an email
// always holds an '@', a phone never does.
bool is_phone_recipient(const std::string& recipient);

std::unique_ptr<MailTransport> make_contact_transport(std::unique_ptr<MailTransport> mail,
                                                      std::unique_ptr<MailTransport> sms);

// The folder of SMS files for a mail folder.
std::string sms_directory_of(const std::string& mail_dir);

}  // namespace corebank::httpd
