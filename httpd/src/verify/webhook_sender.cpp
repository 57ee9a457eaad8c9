// webhook_sender.cpp: see webhook_sender.hpp.
#include "verify/webhook_sender.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "clock.hpp"
#include "db.hpp"
#include "json_util.hpp"
#include "log.hpp"
#include "verify/keys.hpp"
#include "verify/statements.hpp"
#include "verify/webhook_address.hpp"
#include "verify/webhook_signature.hpp"

namespace corebank::httpd::verify {

namespace {

constexpr int claim_batch_max = 20;
constexpr int lease_margin_s = 30;
constexpr auto idle_poll = std::chrono::seconds(1);
constexpr std::size_t response_bytes_max = 64 * 1024;  // read and dropped; bounded
constexpr long connect_timeout_ms_max = 5000;

// libcurl write callback: counts and discards the receiver's answer.
extern "C" std::size_t discard_body(char*, std::size_t size, std::size_t count, void* user) {
    auto* received = static_cast<std::size_t*>(user);
    const std::size_t bytes = size * count;
    *received += bytes;
    return *received > response_bytes_max ? 0 : bytes;  // 0 aborts an endless answer
}

// libcurl progress callback: non-zero aborts the transfer.
extern "C" int abort_when_cancelled(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    const auto* cancel = static_cast<const std::atomic<bool>*>(user);
    return cancel != nullptr && cancel->load() ? 1 : 0;
}

// What the socket callback saw: the first non-public address refused.
struct AddressCheck {
    std::string refused;
};

// The textual address of a socket address libcurl is about to connect to.
std::string address_text(const curl_sockaddr* address) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address->family == AF_INET) {
        const auto* in = reinterpret_cast<const sockaddr_in*>(&address->addr);
        inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    } else if (address->family == AF_INET6) {
        const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&address->addr);
        inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    }
    return text;
}

// libcurl open-socket callback: opens the socket only for a public address
// (checked when connecting, so a name that resolved publicly at
// registration and privately now is refused). A non-IP family is refused.
extern "C" curl_socket_t open_public_socket(void* user, curlsocktype, curl_sockaddr* address) {
    auto* check = static_cast<AddressCheck*>(user);
    const std::string text = address_text(address);
    if (text.empty() || is_non_public_address(text)) {
        if (check->refused.empty()) check->refused = text.empty() ? "an address that is not IPv4 or IPv6" : text;
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

struct CurlDeleter {
    void operator()(CURL* handle) const noexcept { curl_easy_cleanup(handle); }
};
struct SlistDeleter {
    void operator()(curl_slist* list) const noexcept { curl_slist_free_all(list); }
};

}  // namespace

DeliveryResult post_webhook(const std::string& url, const std::string& body, const std::string& signature_header,
                            const std::string& event_id, int timeout_ms, bool allow_private,
                            const std::atomic<bool>* cancel) {
    DeliveryResult result;
    AddressCheck check;
    std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl) {
        result.error = "curl_easy_init failed";
        return result;
    }
    curl_slist* raw = nullptr;
    for (const std::string& header :
         {std::string("Content-Type: application/json"), "Verify-Signature: " + signature_header,
          "Verify-Event-Id: " + event_id, std::string("User-Agent: corebank-webhooks/1.0"), std::string("Expect:")}) {
        raw = curl_slist_append(raw, header.c_str());
    }
    std::unique_ptr<curl_slist, SlistDeleter> headers(raw);
    std::size_t received = 0;
    CURL* handle = curl.get();
    curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);  // a redirect is not a delivery
    curl_easy_setopt(handle, CURLOPT_POST, 1L);
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(timeout_ms) < connect_timeout_ms_max ? static_cast<long>(timeout_ms)
                                                                             : connect_timeout_ms_max);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard_body);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &received);
    curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, abort_when_cancelled);
    curl_easy_setopt(handle, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(cancel));
    if (!allow_private) {
        curl_easy_setopt(handle, CURLOPT_PROXY, "");
        curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_public_socket);
        curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, &check);
    }
    const CURLcode code = curl_easy_perform(handle);
    if (!check.refused.empty()) {
        result.error = "refused: the webhook host resolves to " + check.refused +
                       ", which is not a public address (verify_webhook_allow_private is false)";
        return result;
    }
    long status = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    result.http_status = static_cast<int>(status);
    if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && status >= 100)) {
        result.error = curl_easy_strerror(code);
        return result;
    }
    result.ok = status >= 200 && status <= 299;
    if (!result.ok) result.error = "HTTP " + std::to_string(status);
    return result;
}

WebhookSender::WebhookSender(std::unique_ptr<Db> db, std::string data_key, WebhookSettings settings)
    : db_(std::move(db)), data_key_(std::move(data_key)), settings_(settings) {}

WebhookSender::~WebhookSender() { stop(); }

void WebhookSender::start() { thread_ = std::thread([this] { loop(); }); }

void WebhookSender::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    cancel_ = true;
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void WebhookSender::wake() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        woken_ = true;
    }
    wake_.notify_all();
}

int WebhookSender::maintain_once() {
    const auto result =
        parse_db_json(db_->exec(sql::maintenance, {std::to_string(settings_.stale_processing_s)}).scalar());
    const int expired = result.value("expired", 0);
    if (expired > 0 || result.value("reverted", 0) > 0) {
        log_info("verification maintenance", {{"expired", expired},
                                              {"reverted", result.value("reverted", 0)},
                                              {"idempotency_keys_forgotten", result.value("idempotencyKeysForgotten", 0)}});
    }
    return expired;
}

int WebhookSender::deliver_once() {
    const int lease_s = settings_.timeout_ms / 1000 + 1 + lease_margin_s;
    const auto claimed = db_->exec(sql::webhook_claim, {std::to_string(claim_batch_max), std::to_string(lease_s)});
    int handled = 0;
    for (const auto& row : claimed.rows) {
        // Rows claimed but not tried come back after their lease.
        if (cancel_) break;
        const std::string delivery_id = row.at(0).value_or("");
        const std::string event_id = row.at(1).value_or("");
        const std::string url = row.at(3).value_or("");
        const std::string body = row.at(5).value_or("");
        DeliveryResult result;
        const auto sealed = bytes_from_hex(row.at(4).value_or(""));
        const auto secret = sealed ? open_webhook_secret(data_key_, url, *sealed) : std::nullopt;
        // The secret a rotation replaced, while its overlap lasts.
        const auto previous_sealed = row.at(7) ? bytes_from_hex(*row.at(7)) : std::nullopt;
        const auto previous = previous_sealed ? open_webhook_secret(data_key_, url, *previous_sealed) : std::nullopt;
        if (!secret || (row.at(7) && !previous)) {
            result.error = "the endpoint's signing secret does not open with this data key";
        } else {
            // A fresh timestamp per attempt: a receiver's 300 s tolerance
            // must hold for retries hours later too.
            const std::int64_t now = unix_now();
            const std::string header = previous ? webhook_signature_header(*secret, *previous, now, body)
                                                : webhook_signature_header(*secret, now, body);
            result = post_webhook(url, body, header, event_id, settings_.timeout_ms, settings_.allow_private, &cancel_);
        }
        const auto status = db_->exec(
            sql::webhook_done,
            {delivery_id, result.ok ? "true" : "false",
             result.http_status >= 100 && result.http_status <= 599 ? Param(std::to_string(result.http_status)) : Param(),
             result.ok ? Param() : Param(result.error.substr(0, 500)), std::to_string(settings_.backoff_base_s),
             std::to_string(settings_.backoff_max_s), std::to_string(settings_.attempts_max)});
        const std::string new_status = status.scalar().value_or("");
        if (result.ok) {
            log_info("webhook delivered", {{"event_id", event_id}, {"delivery_id", delivery_id},
                                           {"http_status", result.http_status}});
        } else {
            log_error("webhook delivery failed", {{"event_id", event_id}, {"delivery_id", delivery_id},
                                                  {"error", result.error}, {"status", new_status}});
        }
        ++handled;
    }
    return handled;
}

void WebhookSender::loop() {
    auto next_maintenance = std::chrono::steady_clock::now();
    for (;;) {
        try {
            if (std::chrono::steady_clock::now() >= next_maintenance) {
                next_maintenance = std::chrono::steady_clock::now() + settings_.maintenance_interval;
                maintain_once();
            }
            while (deliver_once() == claim_batch_max) {
                std::lock_guard<std::mutex> lock(mutex_);
                if (stopping_) return;
            }
        } catch (const std::exception& e) {
            // The database may be away; the next pass retries.
            log_error("verification webhook pass failed", {{"error", e.what()}});
        }
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait_for(lock, idle_poll, [this] { return stopping_ || woken_; });
        if (stopping_) return;
        woken_ = false;
    }
}

}  // namespace corebank::httpd::verify
