// outbox_sender.hpp: delivers the mail outbox (corebank.auth_mail_outbox).
//
// One thread per corebankd with its own connection. Rows are claimed with
// FOR UPDATE SKIP LOCKED inside the extension, so several tier processes
// share the outbox without sending a message twice, and a row claimed by a
// process that died comes back after its backoff. A failed delivery is
// retried with backoff by the database (8 attempts).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "mail/transport.hpp"

namespace corebank::httpd {

class Db;

class OutboxSender {
public:
    OutboxSender(std::unique_ptr<Db> db, std::unique_ptr<MailTransport> transport, std::string data_key,
                 std::string from);
    ~OutboxSender();
    void start();
    void stop();
    void wake();  // a message was just enqueued

    // One pass: claim due rows, deliver, record. Returns how many were handled.
    int run_once();

private:
    void loop();

    std::unique_ptr<Db> db_;
    std::unique_ptr<MailTransport> transport_;
    std::string data_key_;
    std::string from_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool woken_ = false;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace corebank::httpd
