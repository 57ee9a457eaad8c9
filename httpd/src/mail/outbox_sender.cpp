#include "mail/outbox_sender.hpp"

#include <chrono>

#include "auth/statements.hpp"
#include "core/crypto.hpp"
#include "db.hpp"
#include "log.hpp"

namespace corebank::httpd {

namespace {

inline constexpr int claim_batch_max = 20;
inline constexpr auto idle_poll = std::chrono::seconds(2);

// "\x0a0b..." (bytea text output) -> raw bytes.
std::string bytea_from_text(const std::string& text) {
    if (text.size() < 2 || text[0] != '\\' || text[1] != 'x' || text.size() % 2 != 0) return {};
    std::string out;
    out.reserve((text.size() - 2) / 2);
    for (std::size_t i = 2; i + 1 < text.size(); i += 2) out.push_back(static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16)));
    return out;
}

}  // namespace

OutboxSender::OutboxSender(std::unique_ptr<Db> db, std::unique_ptr<MailTransport> transport, std::string data_key,
                           std::string from)
    : db_(std::move(db)), transport_(std::move(transport)), data_key_(std::move(data_key)), from_(std::move(from)) {}

OutboxSender::~OutboxSender() { stop(); }

void OutboxSender::start() { thread_ = std::thread([this] { loop(); }); }

void OutboxSender::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void OutboxSender::wake() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        woken_ = true;
    }
    wake_.notify_all();
}

int OutboxSender::run_once() {
    namespace sql = auth::sql;
    const auto claimed = db_->exec(sql::mail_claim, {std::to_string(claim_batch_max)});
    int handled = 0;
    for (const auto& row : claimed.rows) {
        const std::string id = row[0].value_or("");
        const std::string recipient = row[1].value_or("");
        try {
            const auto body = core::aead_open(data_key_, bytea_from_text(row[3].value_or("")), recipient);
            if (!body) throw std::runtime_error("sealed body does not open with this data key");
            transport_->deliver(MailMessage{id, from_, recipient, row[2].value_or(""), *body});
            db_->exec(sql::mail_done, {id, "true", Param()});
            log_info("mail delivered", {{"outbox_id", id}});
        } catch (const std::exception& e) {
            db_->exec(sql::mail_done, {id, "false", std::string(e.what()).substr(0, 500)});
            log_error("mail delivery failed", {{"outbox_id", id}, {"error", e.what()}});
        }
        ++handled;
    }
    return handled;
}

void OutboxSender::loop() {
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait_for(lock, idle_poll, [this] { return stopping_ || woken_; });
            if (stopping_) return;
            woken_ = false;
        }
        try {
            while (run_once() == claim_batch_max) {
            }
        } catch (const std::exception& e) {
            // The database may be away; the next pass retries.
            log_error("mail outbox pass failed", {{"error", e.what()}});
        }
    }
}

}  // namespace corebank::httpd
