// webhook_sender.hpp: delivers the verification webhooks from the outbox
// (corebank.verify_webhook_deliveries) and runs the service's maintenance
// pass (expiry, stuck submissions, old idempotency keys).
//
// One thread per corebankd with its own connection. Deliveries are claimed
// with FOR UPDATE SKIP LOCKED inside the extension, so several tier
// processes share the outbox; a claim leases the row for the HTTP timeout
// plus a margin, so a row whose process died mid-delivery is claimed again
// after the lease: at-least-once, never lost across restarts. Each attempt
// POSTs the stored body with a fresh "Verify-Signature: t=..,v1=.." header;
// a 2xx is a delivery, anything else (or a timeout, a refused connection, a
// redirect) is retried after base * 2^(n-1) seconds, at most max, until the
// attempts are spent.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace corebank::httpd {
class Db;
}

namespace corebank::httpd::verify {

struct WebhookSettings {
    int timeout_ms = 10000;
    int backoff_base_s = 10;
    int backoff_max_s = 3600;
    int attempts_max = 20;
    int stale_processing_s = 120;
    std::chrono::seconds maintenance_interval{10};
    // verify_webhook_allow_private: false refuses, at every attempt, to
    // connect to an address that is not public (webhook_address.hpp).
    bool allow_private = false;
};

// The outcome of one HTTP attempt.
struct DeliveryResult {
    bool ok = false;
    int http_status = 0;  // 0: no response at all
    std::string error;    // empty when ok
};

// POSTs body to url with the signature header; never throws. When `cancel`
// turns true the transfer is abandoned (shut-down), counting as a failure.
// Unless `allow_private`, the address libcurl is about to connect to is
// checked at that moment (not only when the URL was registered): a host
// whose name now resolves to a loopback, link-local or private address (DNS
// rebinding) is a failed attempt that names the address, and no connection
// is opened. Proxies from the environment are not used, so the address
// checked is the receiver's.
DeliveryResult post_webhook(const std::string& url, const std::string& body, const std::string& signature_header,
                            const std::string& event_id, int timeout_ms, bool allow_private,
                            const std::atomic<bool>* cancel = nullptr);

class WebhookSender {
public:
    WebhookSender(std::unique_ptr<Db> db, std::string data_key, WebhookSettings settings);
    ~WebhookSender();
    WebhookSender(const WebhookSender&) = delete;
    WebhookSender& operator=(const WebhookSender&) = delete;

    void start();
    void stop();
    void wake();  // an event was just queued

    // One delivery pass: claims due rows, posts, records. Returns how many.
    int deliver_once();
    // One maintenance pass; returns how many sessions expired.
    int maintain_once();

private:
    void loop();

    std::unique_ptr<Db> db_;
    std::string data_key_;
    WebhookSettings settings_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool woken_ = false;
    bool stopping_ = false;
    std::atomic<bool> cancel_{false};  // stops a transfer in flight at shut-down
    std::thread thread_;
};

}  // namespace corebank::httpd::verify
