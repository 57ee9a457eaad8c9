// db_listener.cpp: LISTEN on a libpq connection of its own; see db_listener.hpp.
#include "db_listener.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <cassert>
#include <cerrno>
#include <chrono>
#include <regex>
#include <string>

namespace corebank::httpd {

DbListener::DbListener(std::string url, std::string channel, ListenerCallbacks callbacks)
    : url_(std::move(url)), channel_(std::move(channel)), callbacks_(std::move(callbacks)) {
    // The channel is written into the LISTEN statement: an identifier only.
    assert(std::regex_match(channel_, std::regex("^[a-z_][a-z0-9_]{0,62}$")));
    assert(callbacks_.on_event && callbacks_.on_up && callbacks_.on_down);
}

DbListener::~DbListener() { stop(); }

void DbListener::start() {
    assert(!thread_.joinable());
    thread_ = std::thread([this] { loop(); });
}

void DbListener::stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = nullptr;
}

void DbListener::loop() {
    while (!stopping_) {
        if (conn_ == nullptr && !subscribe()) {
            sleep_ms(retry_ms);
            continue;
        }
        pollfd fd{PQsocket(conn_), POLLIN, 0};
        const int ready = poll(&fd, 1, poll_ms);
        if (ready < 0 && errno != EINTR) {
            lost("poll failed");
            continue;
        }
        if (!drain()) lost(std::string("connection lost: ") + PQerrorMessage(conn_));
    }
}

bool DbListener::subscribe() {
    const char* keys[] = {"dbname", "application_name", "connect_timeout", nullptr};
    const char* values[] = {url_.c_str(), "corebankd-listener", "3", nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
        lost(std::string("cannot connect: ") + (conn_ != nullptr ? PQerrorMessage(conn_) : "out of memory"));
        return false;
    }
    PGresult* result = PQexec(conn_, ("LISTEN " + channel_).c_str());
    const bool listening = result != nullptr && PQresultStatus(result) == PGRES_COMMAND_OK;
    PQclear(result);
    if (!listening) {
        lost(std::string("LISTEN failed: ") + PQerrorMessage(conn_));
        return false;
    }
    down_reported_ = false;
    callbacks_.on_up();
    return true;
}

bool DbListener::drain() {
    if (PQconsumeInput(conn_) == 0 || PQstatus(conn_) != CONNECTION_OK) return false;
    // Bounded per pass so that stop() is noticed under a flood of notifications.
    for (int handled = 0; handled < 10'000; ++handled) {
        PGnotify* notify = PQnotifies(conn_);
        if (notify == nullptr) break;
        const std::string payload = notify->extra != nullptr ? notify->extra : "";
        PQfreemem(notify);
        callbacks_.on_event(payload);
    }
    return true;
}

void DbListener::lost(const std::string& why) {
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = nullptr;
    // on_down every time (the owner must stop trusting what it holds), but
    // the owner logs once per outage: down_reported_ says which call is first.
    callbacks_.on_down(down_reported_ ? std::string() : why);
    down_reported_ = true;
}

void DbListener::sleep_ms(int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!stopping_ && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

}  // namespace corebank::httpd
