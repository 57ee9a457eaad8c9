// transport.hpp: the pluggable mail transport behind the outbox. "file"
// writes one RFC 5322 message per file (the default: a person can follow the
// link); "smtp" sends through an SMTP server with libcurl.
#pragma once

#include <memory>
#include <string>

namespace corebank::httpd {

struct MailMessage {
    std::string id;  // outbox row id: stable across retries
    std::string from, to, subject, body;
};

class MailTransport {
public:
    virtual ~MailTransport() = default;
    // Throws std::runtime_error with a reason on failure.
    virtual void deliver(const MailMessage& message) = 0;
};

std::unique_ptr<MailTransport> make_file_transport(std::string directory);
// allow_plaintext false (smtp_allow_plaintext, the default): an smtp:// URL
// must upgrade with STARTTLS or the delivery fails; smtps:// is TLS anyway.
// The certificate is always verified when TLS is used.
std::unique_ptr<MailTransport> make_smtp_transport(std::string url, bool allow_plaintext);
// The RFC 5322 text of a message (headers, blank line, body).
std::string render_rfc5322(const MailMessage& message);

}  // namespace corebank::httpd
