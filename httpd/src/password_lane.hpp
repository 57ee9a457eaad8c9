// password_lane.hpp: where the routes that run argon2id run (issue 13,
// "Starvation"). argon2id costs about 20 ms of CPU per call, and the login,
// register, reset, password change, deactivate, /oauth/token and
// /oauth/introspect routes run it before they know whether the caller is
// anyone. On the shared worker pool a flood of them held every worker and
// the other three services queued behind it. So those routes get a lane of
// their own: a small WorkerPool (its own threads, each with its own database
// connection, and a short bounded queue) behind a PasswordThrottle checked on
// the reactor before anything is queued. Whatever floods the lane, the
// shared pool's workers never run argon2id for a request (docs/security.md).
#pragma once

#include <functional>
#include <string>

#include "api_error.hpp"
#include "password_throttle.hpp"
#include "router.hpp"
#include "worker_pool.hpp"

namespace corebank::httpd {

struct PasswordLane {
    WorkerPool* pool = nullptr;
    PasswordThrottle* throttle = nullptr;
    // Whether a route of the service runs on this lane.
    std::function<bool(const Route&)> serves;
};

// 429 RATE_LIMIT_EXCEEDED (02-identity.md) when the throttle refuses.
inline ApiError password_attempts_throttled(int retry_after_s) {
    return rate_limited("Too many password attempts from this address or in all; retry after " +
                            std::to_string(retry_after_s) + " s",
                        retry_after_s);
}

// 429 when the lane's queue is full: the attempts already waiting will take
// about a second, so that is when to come back.
inline ApiError password_lane_full() {
    return rate_limited("Too many password attempts are waiting; retry after 1 s", 1);
}

}  // namespace corebank::httpd
