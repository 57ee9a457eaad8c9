// db_listener.hpp: a thread that LISTENs on one channel over its own libpq
// connection and hands every notification to a callback (the hot path's
// cache evictions, docs/design/hot-path.md).
//
// on_up runs once the LISTEN is in place (after every (re)connect), on_down
// when the connection is lost or cannot be made: the owner must then assume
// it misses notifications. The connection is retried every retry_ms. All
// three callbacks run on the listener's thread and must not throw.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

typedef struct pg_conn PGconn;

namespace corebank::httpd {

struct ListenerCallbacks {
    std::function<void(const std::string& payload)> on_event;
    std::function<void()> on_up;
    std::function<void(const std::string& why)> on_down;
};

class DbListener {
public:
    static constexpr int poll_ms = 200;    // how soon stop() is noticed
    static constexpr int retry_ms = 500;   // between connection attempts

    DbListener(std::string url, std::string channel, ListenerCallbacks callbacks);
    ~DbListener();
    DbListener(const DbListener&) = delete;
    DbListener& operator=(const DbListener&) = delete;

    void start();
    void stop();

private:
    void loop();
    bool subscribe();             // connect and LISTEN; false (and on_down) on failure
    bool drain();                 // reads what arrived; false when the connection is lost
    void lost(const std::string& why);
    void sleep_ms(int ms);

    const std::string url_;
    const std::string channel_;
    const ListenerCallbacks callbacks_;
    PGconn* conn_ = nullptr;
    bool down_reported_ = false;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace corebank::httpd
