// posting_group.cpp: the leader/follower group commit of single postings
// (posting_group.hpp, docs/design/posting-group.md).
#include "banking/posting_group.hpp"

#include <cassert>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include "banking/deposits/statements.hpp"
#include "core/settings_table.hpp"
#include "log.hpp"

namespace corebank::httpd::core_banking {

static_assert(PostingGroup::group_size_max >= 2, "a group gathers two or more");
static_assert(PostingGroup::lanes_min >= 1 && PostingGroup::lanes_min <= PostingGroup::lanes_max);
static_assert(PostingGroup::lanes_max == core::settings_table::posting_group_lanes.maximum);
static_assert(core::settings_table::posting_group_lanes.minimum == 0, "0 turns grouping off");
static_assert(PostingGroup::waiting_max >= PostingGroup::group_size_max, "a full group must be able to queue");

// PostgreSQL's query_canceled: the statement timeout (or a cancel request) ended the call.
constexpr const char sqlstate_query_canceled[] = "57014";

// One request's place in the engine, on its own thread's stack.
struct PostingGroup::Member {
    // queued: in queue_. leader: owns a lane (and is in no queue). taken: in
    // a group in flight. decided: its outcome is set.
    enum class State { queued, leader, taken, decided };
    // answered: `response` is its answer. alone: post it with the single
    // function. cancelled: `error` is its group of one's statement timeout,
    // which its single call would have answered too. unavailable, failed:
    // the group call's outcome is unknown; `message` is the exception's.
    enum class Outcome { none, answered, alone, cancelled, unavailable, failed };

    explicit Member(PostingRequest request_) : request(std::move(request_)) {}

    PostingRequest request;
    State state = State::queued;  // guarded by mutex_
    // Written by the leader of its group before the leader sets `state` to
    // decided under mutex_; read by the member only after it saw decided.
    Outcome outcome = Outcome::none;
    std::optional<std::string> response;
    std::string message;
    std::optional<DbError> error;  // cancelled: the group call's
    std::condition_variable wake;
};

PostingGroup::PostingGroup(int lanes, PostingGroupCalls calls, std::chrono::microseconds gather_window,
                           std::chrono::microseconds load_memory)
    : lanes_(lanes), calls_(std::move(calls)), gather_window_(gather_window), load_memory_(load_memory) {
    assert(gather_window_.count() >= 0 && gather_window_ <= gather_window_max);
    assert(load_memory_.count() >= 0);
    assert(lanes_ >= lanes_min);
    assert(lanes_ <= lanes_max);
    assert(calls_.single && calls_.group);
}

std::size_t PostingGroup::waiting() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size();
}

int PostingGroup::in_flight() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return in_flight_;
}

std::optional<std::string> PostingGroup::post(Db& db, PostingRequest request) {
    Member self(std::move(request));
    bool gather = false;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        // While a leader gathers, what arrives joins its group rather than
        // taking another lane (it would post alone when its own window ends).
        if (in_flight_ < lanes_ && gathering_ == 0) {
            // A lane is free only when nobody waits: a finishing leader hands
            // its lane to the oldest waiting request instead of freeing it.
            assert(queue_.empty());
            // Under load (another lane busy, or a group just answered), the
            // requests behind this one are on their way: wait for them (see
            // gather_window_default and load_memory_default).
            const bool under_load =
                in_flight_ > 0 || std::chrono::steady_clock::now() - last_group_finished_ < load_memory_;
            gather = under_load && gather_window_.count() > 0;
            if (gather) ++gathering_;
            ++in_flight_;
            self.state = Member::State::leader;
        } else {
            assert(queue_.size() < waiting_max);
            queue_.push_back(&self);
            self.wake.wait(lock, [&self] {
                return self.state == Member::State::leader || self.state == Member::State::decided;
            });
        }
    }
    // Only this thread changes the state of a leader or a decided member.
    if (self.state == Member::State::leader) {
        // The lane is taken, so what arrives meanwhile queues for this group.
        if (gather) std::this_thread::sleep_for(gather_window_);
        lead(db, self, gather);
    }
    assert(self.state == Member::State::decided);
    return answer(db, self);
}

void PostingGroup::lead(Db& db, Member& self, bool gathered) {
    const std::vector<Member*> members = take_group(self, gathered);
    run_group(db, members);
    finish_group(members);
}

std::vector<PostingGroup::Member*> PostingGroup::take_group(Member& self, bool gathered) {
    std::vector<Member*> members;
    members.reserve(group_size_max);
    members.push_back(&self);
    std::lock_guard<std::mutex> lock(mutex_);
    assert(self.state == Member::State::leader);
    if (gathered) {
        assert(gathering_ >= 1);
        --gathering_;
    }
    while (!queue_.empty() && members.size() < group_size_max) {
        Member* member = queue_.front();
        queue_.pop_front();
        assert(member->state == Member::State::queued);
        member->state = Member::State::taken;
        members.push_back(member);
    }
    assert(members.size() <= group_size_max);
    // What queued behind this gathering leader beyond a full group leads a
    // free lane now: a lane is never free while requests wait.
    if (!queue_.empty() && in_flight_ < lanes_ && gathering_ == 0) {
        ++in_flight_;
        promote_oldest();
    }
    return members;
}

// Sets every member's outcome; never throws, since members waiting for an
// outcome would otherwise wait forever.
void PostingGroup::run_group(Db& db, const std::vector<Member*>& members) {
    assert(!members.empty());
    auto set_all = [&members](Member::Outcome outcome, const std::string& message) {
        for (Member* member : members) {
            member->outcome = outcome;
            member->message = message;
        }
    };
    try {
        // A group of one goes through the group function too: its database
        // call costs less than the single function's (docs/performance.md,
        // "Issue 12's goals on 2026-11-28, fifth session"), and what the group does
        // not decide (ALONE, a DbError) still posts with the single function.
        std::vector<PostingRequest> requests;
        requests.reserve(members.size());
        for (const Member* member : members) requests.push_back(member->request);
        std::vector<GroupAnswer> answers;
        try {
            answers = calls_.group(db, requests);
        } catch (const DbError& error) {
            // A group of one that ran out of its statement timeout (waiting
            // for a lock held elsewhere) has waited all its single call would
            // have: it answers so (503), rather than wait a second time alone.
            if (members.size() == 1 && error.sqlstate == sqlstate_query_canceled) {
                members.front()->error = error;
                members.front()->outcome = Member::Outcome::cancelled;
                return;
            }
            // The call was one transaction and it rolled back: nothing of it
            // was written, so every member posts alone and gets its own answer.
            if (calls_.group_failed) calls_.group_failed(error, members.size());
            set_all(Member::Outcome::alone, "");
            return;
        } catch (const DbUnavailable& error) {
            // The outcome is unknown (the commit may have happened): answer as
            // a single call would, never post again.
            set_all(Member::Outcome::unavailable, error.what());
            return;
        }
        if (answers.size() != members.size())
            throw std::runtime_error("posting group: " + std::to_string(answers.size()) + " answers for " +
                                     std::to_string(members.size()) + " requests");
        for (std::size_t index = 0; index < members.size(); ++index) {
            Member& member = *members[index];
            if (answers[index].status == GroupAnswer::Status::posted) {
                member.response = std::move(answers[index].response);
                member.outcome = Member::Outcome::answered;
            } else {
                member.outcome = Member::Outcome::alone;
            }
        }
    } catch (const std::exception& error) {
        set_all(Member::Outcome::failed, error.what());
    } catch (...) {
        set_all(Member::Outcome::failed, "posting group failed");
    }
}

void PostingGroup::promote_oldest() {
    assert(!queue_.empty());
    // It leaves the queue now, so that no other finishing leader promotes it too.
    Member* next = queue_.front();
    queue_.pop_front();
    assert(next->state == Member::State::queued);
    next->state = Member::State::leader;
    next->wake.notify_one();
}

void PostingGroup::finish_group(const std::vector<Member*>& members) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (members.size() >= 2) last_group_finished_ = now;
    assert(in_flight_ >= 1 && in_flight_ <= lanes_);
    // While a leader gathers, the queue is its group: the lane is freed, and
    // what the gathering leader leaves behind leads it (take_group).
    if (queue_.empty() || gathering_ > 0) {
        --in_flight_;
    } else {
        promote_oldest();  // the lane passes to it
    }
    for (Member* member : members) {
        assert(member->outcome != Member::Outcome::none);
        member->state = Member::State::decided;
        // Notified under mutex_: the member cannot return and destroy its
        // condition variable before this call is done with it.
        member->wake.notify_one();
    }
}

std::optional<std::string> PostingGroup::answer(Db& db, Member& self) {
    switch (self.outcome) {
        case Member::Outcome::answered:
            return std::move(self.response);
        case Member::Outcome::alone:
            // On this request's own thread and connection, outside any lane:
            // its answer (response or error) is the single call's.
            return calls_.single(db, self.request);
        case Member::Outcome::cancelled:
            assert(self.error.has_value());
            throw *self.error;
        case Member::Outcome::unavailable:
            throw DbUnavailable(self.message);
        case Member::Outcome::failed:
            throw std::runtime_error(self.message);
        case Member::Outcome::none:
            break;
    }
    assert(false && "a decided member has an outcome");
    throw std::logic_error("posting group: member without an outcome");
}

// ---------------------------------------------------------------- the group function's answer

std::vector<GroupAnswer> group_answers_from_rows(const QueryResult& result, std::size_t count) {
    assert(count >= 1 && count <= PostingGroup::group_size_max);
    auto refuse = [](const std::string& why) -> void {
        throw std::runtime_error("posting group: the group function's answer " + why);
    };
    if (result.rows.size() != count) {
        refuse("has " + std::to_string(result.rows.size()) + " elements for " + std::to_string(count) + " requests");
    }
    std::vector<GroupAnswer> answers;
    answers.reserve(count);
    for (const auto& row : result.rows) {
        if (row.size() != 3) refuse("has a row of " + std::to_string(row.size()) + " columns");
        const std::optional<std::string>& status = row[0];
        GroupAnswer answer;
        if (status == "POSTED") {
            // jsonb's text of an object: the single function's answer, byte for byte.
            if (!row[1] || row[1]->empty() || row[1]->front() != '{') refuse("has a POSTED element without a response");
            answer.status = GroupAnswer::Status::posted;
            answer.response = *row[1];
        } else if (status == "ALONE") {
            answer.status = GroupAnswer::Status::alone;
            answer.reason = row[2].value_or("");
        } else {
            refuse("has an element whose status is neither POSTED nor ALONE");
        }
        answers.push_back(std::move(answer));
    }
    return answers;
}

std::string group_requests_json(const std::vector<PostingRequest>& requests, std::string_view operation) {
    assert(!requests.empty() && requests.size() <= PostingGroup::group_size_max);
    assert(operation.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string_view::npos);
    std::string out = "[";
    for (std::size_t index = 0; index < requests.size(); ++index) {
        if (index > 0) out += ',';
        out += "{\"operation\":\"";
        out += operation;
        out += "\",\"request\":";
        out += requests[index].request_json;
        out += '}';
    }
    out += ']';
    return out;
}

std::shared_ptr<PostingGroup> make_transfer_posting_group(int lanes) {
    assert(lanes >= 0 && lanes <= PostingGroup::lanes_max);
    if (lanes == 0) return nullptr;
    PostingGroupCalls calls;
    calls.single = [](Db& db, const PostingRequest& request) {
        return db.exec(sql::money_transfer, {request.request_json, request.actor_id}).scalar();
    };
    calls.group = [](Db& db, const std::vector<PostingRequest>& requests) {
        std::vector<std::string> actors;
        actors.reserve(requests.size());
        for (const auto& request : requests) actors.push_back(request.actor_id);
        const QueryResult result =
            db.exec(sql::money_postings, {group_requests_json(requests, "transfer"), text_array_param(actors)});
        try {
            return group_answers_from_rows(result, requests.size());
        } catch (const std::runtime_error& error) {
            // The call committed or not, nobody can tell from this answer: its
            // members get 500, never a second posting.
            log_error("posting group answer unreadable", {{"error", error.what()}, {"members", requests.size()}});
            throw;
        }
    };
    calls.group_failed = [](const DbError& error, std::size_t members) {
        log_error("posting group failed; its requests post alone",
                  {{"sqlstate", error.sqlstate}, {"error", error.what()}, {"members", members}});
    };
    return std::make_shared<PostingGroup>(lanes, std::move(calls));
}

}  // namespace corebank::httpd::core_banking
