// server.cpp: start-up and shut-down of corebankd.
//
// Order matters: signals are blocked before any thread starts (so only the
// sigwait below receives them), the services start even while the database
// is away (they answer 503 and reconnect by themselves), and shut-down stops
// accepting before it stops the workers.
#include "server.hpp"

#include <csignal>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "auth/context.hpp"
#include "auth/statements.hpp"
#include "banking/context.hpp"
#include "banking/deposits/statement_cursor.hpp"
#include "banking/operations/eod_timer.hpp"
#include "banking/rate_flusher.hpp"
#include "db_listener.hpp"
#include "data_key.hpp"
#include "events/context.hpp"
#include "events/responses.hpp"
#include "log.hpp"
#include "mail/contact_transport.hpp"
#include "mail/outbox_sender.hpp"
#include "openapi_documents.hpp"
#include "password_lane.hpp"
#include "service.hpp"
#include "verify/context.hpp"
#include "verify/webhook_sender.hpp"
#include "worker_pool.hpp"

namespace corebank::httpd {

namespace {

// Settings every tier connection carries: the statement timeout, and the
// corebank.* GUCs the extension reads (identity-db-api.md), one per row of
// the settings table that the database reads.
std::vector<std::pair<std::string, std::string>> connection_settings(const Config& c) {
    std::vector<std::pair<std::string, std::string>> settings{{"statement_timeout", std::to_string(c.statement_timeout_ms)}};
    for (auto& setting : database_settings(c)) settings.push_back(std::move(setting));
    return settings;
}

// The statement timeout of the end-of-day runner's own connection.
constexpr int eod_step_timeout_ms = 600'000;

// Lapses overdue parked changes and prunes API-key rate counters.
const Statement core_maintenance{"core_maintenance", "SELECT corebank.core_maintenance()::text", 0};

// Every minute: prune expired rows, rotate the signing key when due, reload
// the public keys. The first pass retries every 2 s until the database answers.
class Maintenance {
public:
    Maintenance(std::unique_ptr<Db> db, std::shared_ptr<TokenVerifier> verifier)
        : db_(std::move(db)), verifier_(std::move(verifier)) {}
    ~Maintenance() { stop(); }
    void start() { thread_ = std::thread([this] { loop(); }); }
    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

private:
    void loop() {
        bool ready = false;
        for (;;) {
            try {
                if (!ready) {
                    db_->exec(auth::sql::ensure_signing_key, {});
                } else {
                    db_->exec(auth::sql::maintenance, {});
                    db_->exec(core_maintenance, {});
                }
                verifier_->refresh(*db_);
                if (!ready) log_info("signing keys loaded", {{"keys", verifier_->key_count()}});
                ready = true;
            } catch (const std::exception& e) {
                log_error("maintenance pass failed", {{"error", e.what()}});
            }
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait_for(lock, ready ? std::chrono::seconds(60) : std::chrono::seconds(2), [this] { return stopping_; });
            if (stopping_) return;
        }
    }

    std::unique_ptr<Db> db_;
    std::shared_ptr<TokenVerifier> verifier_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

ServiceOptions service_options(const Config& c, const std::string& name, int port) {
    ServiceOptions o;
    o.name = name;
    o.listen = c.listen;
    o.port = port;
    o.reactor_threads = c.reactor_threads;
    o.max_body_bytes = c.max_body_bytes;
    o.log_requests = c.log_requests;
    o.trusted_proxies = c.trusted_proxies;
    o.render_error = render_standard_error;
    return o;
}

}  // namespace

int run_server(const Config& config) {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    try {
        const auto settings = connection_settings(config);
        auto make_db = [&config, settings] { return std::make_unique<Db>(config.database_url, settings); };

        auto context = std::make_shared<auth::Context>();
        context->config = config;
        context->verifier = std::make_shared<TokenVerifier>(config.issuer);
        context->data_key = load_or_create_data_key(config.data_key_file);
        context->openapi_document = openapi_identity_document();

        // Phone codes go to SMS files whatever the mail transport: no SMS provider is connected.
        std::unique_ptr<MailTransport> transport = make_contact_transport(
            config.mail_transport == "smtp" ? make_smtp_transport(config.smtp_url, config.smtp_allow_plaintext)
                                            : make_file_transport(config.mail_dir),
            make_file_transport(sms_directory_of(config.mail_dir)));
        OutboxSender mail(make_db(), std::move(transport), context->data_key, config.mail_from);
        context->wake_mail_sender = [&mail] { mail.wake(); };
        // Before the pool: handlers on its workers wake the sender until pool.stop().
        verify::WebhookSettings webhook_settings;
        webhook_settings.timeout_ms = config.verify_webhook_timeout_ms;
        webhook_settings.backoff_base_s = config.verify_webhook_backoff_base_s;
        webhook_settings.backoff_max_s = config.verify_webhook_backoff_max_s;
        webhook_settings.attempts_max = config.verify_webhook_attempts_max;
        webhook_settings.stale_processing_s = verify::stale_processing_s;
        webhook_settings.allow_private = config.verify_webhook_allow_private;
        verify::WebhookSender webhooks(make_db(), context->data_key, webhook_settings);

        // With read_database_url, each worker's connection gets a second one to
        // the read replica, read-only, for the reads the handlers send there
        // (Db::exec_read); the health record is shared by the whole pool.
        auto make_worker_db = [&config, make_db, settings, health = std::make_shared<ReplicaHealth>()] {
            std::unique_ptr<Db> db = make_db();
            if (!config.read_database_url.empty()) {
                auto read_settings = settings;
                read_settings.emplace_back("default_transaction_read_only", "on");
                db->attach_replica(std::make_unique<Db>(config.read_database_url, std::move(read_settings)), health);
            }
            return db;
        };
        if (!config.read_database_url.empty()) log_info("reads of statements and transactions go to read_database_url");
        WorkerPool pool(config.db_pool_size, make_worker_db);
        // The password lane: argon2id routes on their own threads and
        // connections, behind a per-process throttle (password_lane.hpp).
        WorkerPool password_pool(config.password_hash_threads, make_db,
                                 static_cast<std::size_t>(config.password_hash_queue_max));
        PasswordThrottle password_throttle(
            PasswordThrottleLimits{config.password_attempts_per_s, config.password_attempts_per_ip_per_s},
            [] {
                return std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                    .count();
            });
        auto password_lane =
            std::make_shared<PasswordLane>(PasswordLane{&password_pool, &password_throttle, auth::runs_argon2});
        Maintenance maintenance(make_db(), context->verifier);
        // The end-of-day runner's connection: one step may accrue a whole
        // bank's interest, so its statements may run up to ten minutes.
        auto eod_settings = settings;
        for (auto& setting : eod_settings)
            if (setting.first == "statement_timeout") setting.second = std::to_string(eod_step_timeout_ms);
        core_banking::EodTimer eod_timer(std::make_unique<Db>(config.database_url, eod_settings),
                                         std::chrono::seconds(config.eod_runner_interval_s));

        auto identity_options = service_options(config, "identity", config.identity_port);
        identity_options.password_lane = password_lane;
        Service identity_service(identity_options, auth::make_router(context), &pool);
        auto banking = std::make_shared<core_banking::Context>();
        banking->config = config;
        banking->policy = core_banking::OperationPolicy::from_file(config.policy_file);
        banking->verifier = context->verifier;
        banking->openapi_document = openapi_core_document();
        banking->statement_cursor_key = core_banking::statement_cursor_key(context->data_key);
        banking->data_key = context->data_key;
        banking->wake_mail_sender = context->wake_mail_sender;
        banking->transfer_group = core_banking::make_transfer_posting_group(config.posting_group_lanes);
        // The hot path (docs/design/hot-path.md): caches evicted by the
        // database's notifications, bypassed until the listener is subscribed.
        std::unique_ptr<DbListener> listener;
        std::unique_ptr<core_banking::RateFlusher> flusher;
        if (config.auth_cache_ttl_ms > 0) {
            auto hot_path = std::make_shared<core_banking::HotPath>(config.auth_cache_ttl_ms, [] {
                return std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                    .count();
            });
            banking->hot_path = hot_path;
            context->hot_path_event = [hot_path](const std::string& event) { hot_path->apply_event(event); };
            ListenerCallbacks callbacks;
            callbacks.on_event = [hot_path](const std::string& payload) { hot_path->apply_event(payload); };
            callbacks.on_up = [hot_path] {
                hot_path->listening();
                log_info("hot path listener subscribed; authentication caches in use");
            };
            callbacks.on_down = [hot_path](const std::string& why) {
                hot_path->deaf();
                if (!why.empty())
                    log_error("hot path listener down; every request checks its key and token in the database",
                              {{"error", why}});
            };
            listener = std::make_unique<DbListener>(config.database_url, core_banking::hot_path_channel, callbacks);
            flusher = std::make_unique<core_banking::RateFlusher>(make_db(), hot_path);
        }
        auto core_options = service_options(config, "core", config.core_port);
        auto verify_options = service_options(config, "verify", config.verify_port);
        // Image uploads are raw bytes up to verify_image_bytes_max (the handler
        // answers a little more with its own 413); the JSON endpoints bound
        // their own bodies (64 KiB).
        verify_options.max_body_bytes =
            std::max(config.max_body_bytes, static_cast<std::size_t>(config.verify_image_bytes_max) + 65536);
        // Every error body of the verification service carries its timestamp.
        verify_options.render_error = [](const ApiError& error) {
            ApiError stamped = error;
            stamped.with_timestamp = true;
            return render_standard_error(stamped);
        };
        auto verification = std::make_shared<verify::Context>();
        verification->config = config;
        verification->keys = verify::derive_keys(context->data_key);
        verification->public_url = verify::public_url_of(config);
        verification->provider = verify::make_check_provider(config.verify_check_provider);
        verification->openapi_document = openapi_verify_document();
        verification->wake_webhooks = [&webhooks] { webhooks.wake(); };
        auto events_options = service_options(config, "events", config.events_port);
        events_options.render_error = events::render_api_error;
        auto event_service = std::make_shared<events::Context>();
        event_service->config = config;
        event_service->openapi_document = openapi_events_document();
        Service core_service(core_options, core_banking::make_router(banking), &pool);
        Service verify_service(verify_options, verify::make_router(verification), &pool);
        Service events_service(events_options, events::make_router(event_service), &pool);

        maintenance.start();
        eod_timer.start();
        if (listener) listener->start();
        if (flusher) flusher->start();
        mail.start();
        webhooks.start();
        identity_service.start();
        core_service.start();
        verify_service.start();
        events_service.start();
        log_info("corebankd started");

        int received = 0;
        sigwait(&signals, &received);
        log_info("corebankd stopping", {{"signal", received}});
        identity_service.shutdown();
        core_service.shutdown();
        verify_service.shutdown();
        events_service.shutdown();
        pool.stop();
        password_pool.stop();
        mail.stop();
        webhooks.stop();
        maintenance.stop();
        eod_timer.stop();
        if (listener) listener->stop();
        if (flusher) flusher->stop();
        log_info("corebankd stopped");
        return 0;
    } catch (const std::exception& e) {
        log_error("corebankd failed to start", {{"error", e.what()}});
        return 1;
    }
}

}  // namespace corebank::httpd
