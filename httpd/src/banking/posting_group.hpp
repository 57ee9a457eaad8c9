// posting_group.hpp: group commit of single postings in one corebankd process
// (docs/design/posting-group.md).
//
// Concurrent single posting requests are gathered and posted together in one
// database call (corebank.core_postings_rows), because the per-posting database
// work done set-based costs a fraction of N separate transactions. There is no
// extra thread: the worker thread of a request that finds a free lane becomes
// the group's leader and posts everything queued (itself first); requests that
// arrive while every lane is busy queue, and when a leader finishes, the
// oldest of them becomes the next leader.
//
// One short wait, and only under load: a request that finds a free lane while
// another lane is busy waits gather_window before it takes the queue. Without
// it a closed loop of clients split in two: the answers of a group of six
// reach their clients together, the first new request found the lane free and
// posted alone, the five behind it queued (measured: 26 % of the transfers
// posted as groups of one, the dearest kind, at 8 clients). It gathers too
// when a group of two or more was answered less than load_memory ago (its
// clients are about to send again). Only one leader gathers at a time: what
// arrives meanwhile joins its queue even if a lane is free. A request that
// finds no lane busy and no group just answered leads at once, so a request
// alone is never held. It is a group of one: the group function posts it
// (a cheaper database call than the single function's), and only what the
// group does not decide goes to the single function.
//
// Nothing is kept between groups: a group lives on the stacks of its members'
// threads, so any number of tier processes still serve one database, and a
// crash loses only requests that have not been answered.
//
// Locking: mutex_ guards queue_, in_flight_ and every Member's state. A
// Member lives on its own request's thread's stack. The leader of its group
// writes its outcome without the lock, then sets its state to decided and
// notifies it while holding mutex_; the member reads its outcome only after it
// saw decided, and cannot return (destroying the Member) before the leader
// has let go of it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db.hpp"

namespace corebank::httpd::core_banking {

// One posting request, authorized and parsed by its handler.
struct PostingRequest {
    std::string request_json;  // the JSON object the single function takes
    std::string actor_id;      // the acting staff member (uuid)
};

// What the group function answered for one request.
struct GroupAnswer {
    enum class Status { posted, alone };
    Status status = Status::alone;
    std::string response;  // posted: the single function's response (JSON text, as the database wrote it)
    std::string reason;    // alone: why the group did not decide it (for logs)
};

// The database calls a group makes, injected so that the engine is tested
// without a database.
struct PostingGroupCalls {
    // The single function: the request's answer, or the exception its
    // single call raises (DbError, DbUnavailable).
    std::function<std::optional<std::string>(Db&, const PostingRequest&)> single;
    // The group function on 1 to group_size_max requests: one answer per
    // request, in order. DbError: nothing was written. Any other exception:
    // the outcome is unknown.
    std::function<std::vector<GroupAnswer>(Db&, const std::vector<PostingRequest>&)> group;
    // Told once per group call that failed with a DbError (its members then
    // post alone); may be empty.
    std::function<void(const DbError&, std::size_t members)> group_failed;
};

class PostingGroup {
public:
    // The group function's contract takes 1 to 256 requests per call.
    static constexpr std::size_t group_size_max = 256;
    // The setting's range (posting_group_lanes); 0 is not built at all
    // (every request is then a single call, see make_transfer_posting_group).
    static constexpr int lanes_min = 1;
    static constexpr int lanes_max = 64;
    // Every queued request holds a worker thread, and a process has at most
    // db_pool_size (at most 256) of them; the bound is an assertion that the
    // queue never grows on its own.
    static constexpr std::size_t waiting_max = 1024;

    // How long a leader waits for followers while another lane is busy: about
    // what the tier takes to receive, parse and authorize the requests a
    // finished group's clients send next. Bounded: a request is never held
    // longer than this for a group to fill.
    // 500 us since a request alone became a group of one (300 before):
    // docs/performance.md, "Issue 12's goals on 2026-11-28, fifth session".
    static constexpr std::chrono::microseconds gather_window_default{500};
    static constexpr std::chrono::microseconds gather_window_max{50000};
    // A leader that finds no lane busy gathers too when a group of two or
    // more finished this recently: its members' clients are about to send
    // their next requests (under a closed loop of clients, the first of them
    // otherwise posted alone, the dearest kind, and the rest formed the next
    // group behind it). A client posting one request after another alone
    // never forms a group, so it is never held.
    static constexpr std::chrono::microseconds load_memory_default{1000};

    PostingGroup(int lanes, PostingGroupCalls calls,
                 std::chrono::microseconds gather_window = gather_window_default,
                 std::chrono::microseconds load_memory = load_memory_default);
    PostingGroup(const PostingGroup&) = delete;
    PostingGroup& operator=(const PostingGroup&) = delete;

    // Posts one request, alone or in a group, on the calling thread; `db` is
    // the calling worker's connection. Returns what the single function would
    // return, or throws what it would throw.
    std::optional<std::string> post(Db& db, PostingRequest request);

    int lanes() const { return lanes_; }
    // For tests: requests queued and not yet taken into a group, and group
    // calls in flight.
    std::size_t waiting() const;
    int in_flight() const;

private:
    struct Member;

    // gathered: the leader waited gather_window (it counted in gathering_).
    void lead(Db& db, Member& self, bool gathered);
    std::vector<Member*> take_group(Member& self, bool gathered);
    void run_group(Db& db, const std::vector<Member*>& members);
    // The oldest waiting request becomes a leader of a lane taken for it. Call with mutex_ held.
    void promote_oldest();
    void finish_group(const std::vector<Member*>& members);
    std::optional<std::string> answer(Db& db, Member& self);

    const int lanes_;
    const PostingGroupCalls calls_;
    const std::chrono::microseconds gather_window_;
    const std::chrono::microseconds load_memory_;

    mutable std::mutex mutex_;
    std::deque<Member*> queue_;  // oldest first
    int in_flight_ = 0;          // lanes taken: 0..lanes_
    int gathering_ = 0;          // leaders in their gather window: 0..lanes_
    // When the last group of two or more finished (steady clock).
    std::chrono::steady_clock::time_point last_group_finished_{};
};

// The group function's answer, one row per request (status, response text,
// reason; see sql::money_postings), as one GroupAnswer each; a response is the
// database's own text of it, byte for byte, as the single function's is.
// Throws std::runtime_error when the rows are not that: the outcome of the
// call is then unknown.
std::vector<GroupAnswer> group_answers_from_rows(const QueryResult& result, std::size_t count);

// The group function's first argument: [{"operation": "transfer", "request": <request_json>}, ...].
std::string group_requests_json(const std::vector<PostingRequest>& requests, std::string_view operation);

// POST /v1/transfers's group over corebank.core_transfer and
// corebank.core_postings_rows; null when lanes is 0 (grouping off).
std::shared_ptr<PostingGroup> make_transfer_posting_group(int lanes);

}  // namespace corebank::httpd::core_banking
