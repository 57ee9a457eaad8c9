// posting_group_test.cpp: group commit of single postings in the tier
// (httpd/src/banking/posting_group.hpp, docs/design/posting-group.md).
//
// Goal: no more groups are in flight than there are lanes; a request that
// finds a free lane leads at once, and a waiting one leads only when a lane is
// handed to it, oldest first; a group takes what is queued in arrival order,
// at most 256; a request alone is a group of one, through the group function
// like any other; each request answers from its own element; an
// ALONE element, and every member of a group call that failed with a DbError,
// posts alone on its own thread and connection; a DbUnavailable or an
// unreadable answer fails every member and posts nothing again; and under many
// threads every request is answered, exactly once, with no lost wake-up.
// Method: the engine with fake database calls that record what they were
// given, on which connection, and can hold every call at a gate; threads are
// started one at a time and the test waits until each is queued, so the order
// of arrival is known. Each thread has its own Db, never connected (a Db
// opens its connection lazily), so that a call's connection names its thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "banking/posting_group.hpp"
#include "config.hpp"
#include "db.hpp"

namespace {

namespace cb = corebank::httpd::core_banking;
using corebank::httpd::Db;
using corebank::httpd::DbError;
using corebank::httpd::DbUnavailable;

constexpr auto patience = std::chrono::seconds(30);

// Polls until `done` holds; false after `patience`.
bool eventually(const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

// Holds every database call until opened.
class Gate {
public:
    explicit Gate(bool open) : open_(open) {}
    void pass() {
        std::unique_lock<std::mutex> lock(mutex_);
        opened_.wait(lock, [this] { return open_; });
    }
    void open() {
        std::lock_guard<std::mutex> lock(mutex_);
        open_ = true;
        opened_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable opened_;
    bool open_;
};

// The database calls, faked: singles answer "single:<request>", a group
// answers each element as `decide` says (default POSTED "posted:<request>").
struct FakeDatabase {
    enum class Element { posted, alone };

    std::shared_ptr<Gate> gate = std::make_shared<Gate>(true);
    std::function<Element(std::size_t index, const std::string& request)> decide = [](std::size_t,
                                                                                      const std::string&) {
        return Element::posted;
    };
    // Replaces the group's answer (a failure, a short answer).
    std::function<std::vector<cb::GroupAnswer>(const std::vector<cb::PostingRequest>&)> group_override;
    // Makes a single call fail.
    std::function<void(const std::string& request)> single_check = [](const std::string&) {};

    std::mutex mutex;
    std::vector<std::vector<std::string>> groups;  // each group call's requests, in call order
    std::vector<const Db*> group_connections;
    std::vector<std::pair<std::string, const Db*>> singles;
    std::map<std::string, int> decided;  // request -> times it was posted (a POSTED element or a single call)
    int calls_in_flight = 0;
    int calls_in_flight_max = 0;
    std::vector<std::size_t> group_failures;  // members of each group that failed with a DbError

    void enter() {
        std::lock_guard<std::mutex> lock(mutex);
        calls_in_flight_max = std::max(calls_in_flight_max, ++calls_in_flight);
    }
    void leave() {
        std::lock_guard<std::mutex> lock(mutex);
        --calls_in_flight;
    }
    int in_flight() {
        std::lock_guard<std::mutex> lock(mutex);
        return calls_in_flight;
    }

    cb::PostingGroupCalls calls() {
        cb::PostingGroupCalls calls;
        calls.single = [this](Db& db, const cb::PostingRequest& request) -> std::optional<std::string> {
            enter();
            gate->pass();
            {
                std::lock_guard<std::mutex> lock(mutex);
                singles.emplace_back(request.request_json, &db);
            }
            leave();
            single_check(request.request_json);
            std::lock_guard<std::mutex> lock(mutex);
            ++decided[request.request_json];
            return "single:" + request.request_json;
        };
        calls.group = [this](Db& db, const std::vector<cb::PostingRequest>& requests) {
            enter();
            gate->pass();
            std::vector<cb::GroupAnswer> answers;
            {
                std::lock_guard<std::mutex> lock(mutex);
                std::vector<std::string> texts;
                for (const auto& request : requests) texts.push_back(request.request_json);
                groups.push_back(texts);
                group_connections.push_back(&db);
            }
            leave();
            if (group_override) return group_override(requests);
            std::lock_guard<std::mutex> lock(mutex);
            for (std::size_t index = 0; index < requests.size(); ++index) {
                cb::GroupAnswer answer;
                if (decide(index, requests[index].request_json) == Element::posted) {
                    answer.status = cb::GroupAnswer::Status::posted;
                    answer.response = "posted:" + requests[index].request_json;
                    ++decided[requests[index].request_json];
                } else {
                    answer.reason = "test";
                }
                answers.push_back(answer);
            }
            return answers;
        };
        calls.group_failed = [this](const DbError&, std::size_t members) {
            std::lock_guard<std::mutex> lock(mutex);
            group_failures.push_back(members);
        };
        return calls;
    }
};

// What one request got back.
struct Answer {
    std::optional<std::string> text;
    std::string thrown;  // "DbError <sqlstate>", "DbUnavailable", "runtime_error", or ""
    std::string message;
};

// One request on its own thread with its own connection.
class Client {
public:
    Client(cb::PostingGroup& group, std::string request) : request_(std::move(request)) {
        thread_ = std::thread([this, &group] {
            try {
                answer_.text = group.post(db_, cb::PostingRequest{request_, "actor"});
            } catch (const DbError& error) {
                answer_.thrown = "DbError " + error.sqlstate;
                answer_.message = error.what();
            } catch (const DbUnavailable& error) {
                answer_.thrown = "DbUnavailable";
                answer_.message = error.what();
            } catch (const std::runtime_error& error) {
                answer_.thrown = "runtime_error";
                answer_.message = error.what();
            }
            done_ = true;
        });
    }
    ~Client() {
        if (thread_.joinable()) thread_.join();
    }
    // The watchdog: a request never answered (a lost wake-up) would hang the
    // suite in join(), so it aborts the run instead, naming the request.
    const Answer& answer() {
        if (!eventually([this] { return done_.load(); })) {
            std::fprintf(stderr, "PostingGroup: %s was never answered; a wake-up was lost\n", request_.c_str());
            std::abort();
        }
        if (thread_.joinable()) thread_.join();
        return answer_;
    }
    const Db* connection() const { return &db_; }

private:
    std::string request_;
    Db db_{"", {}};
    Answer answer_;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

// Starts clients r<first>..r<last> one at a time, each queued before the next
// starts, so that they arrive in that order.
void queue_clients(cb::PostingGroup& group, std::vector<std::unique_ptr<Client>>& clients, int first, int last) {
    for (int n = first; n <= last; ++n) {
        const std::size_t before = group.waiting();
        clients.push_back(std::make_unique<Client>(group, "r" + std::to_string(n)));
        ASSERT_TRUE(eventually([&] { return group.waiting() == before + 1; })) << "r" << n << " never queued";
    }
}

std::vector<std::string> names(int first, int last) {
    std::vector<std::string> out;
    for (int n = first; n <= last; ++n) out.push_back("r" + std::to_string(n));
    return out;
}

// r0 takes the one lane and its call is held at the closed gate; r1..r<last>
// then queue behind it, in that order.
void r0_holds_the_lane_while_queued(cb::PostingGroup& group, FakeDatabase& fake,
                                    std::vector<std::unique_ptr<Client>>& clients, int last) {
    clients.push_back(std::make_unique<Client>(group, "r0"));
    ASSERT_TRUE(eventually([&] { return fake.in_flight() == 1; }));
    queue_clients(group, clients, 1, last);
}

// Whether one of the group calls took exactly `requests` (calls that ran at
// once record in an order the test does not fix).
bool called_with(FakeDatabase& fake, const std::vector<std::string>& requests) {
    std::lock_guard<std::mutex> lock(fake.mutex);
    return std::find(fake.groups.begin(), fake.groups.end(), requests) != fake.groups.end();
}

}  // namespace

TEST(PostingGroup, ARequestAloneIsAGroupOfOne) {
    FakeDatabase fake;
    cb::PostingGroup group(2, fake.calls());
    Client client(group, "r0");
    EXPECT_EQ(client.answer().text.value_or(""), "posted:r0");
    ASSERT_EQ(fake.groups.size(), 1u);
    EXPECT_EQ(fake.groups[0], names(0, 0));
    EXPECT_EQ(fake.group_connections[0], client.connection());
    EXPECT_TRUE(fake.singles.empty());
    EXPECT_EQ(group.in_flight(), 0);
    EXPECT_EQ(group.waiting(), 0u);
}

TEST(PostingGroup, LanesBoundTheCallsInFlight) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    cb::PostingGroup group(3, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    // Three requests find a free lane each and lead at once: three groups of one.
    for (int n = 0; n < 3; ++n) {
        clients.push_back(std::make_unique<Client>(group, "r" + std::to_string(n)));
        ASSERT_TRUE(eventually([&] { return fake.in_flight() == n + 1; }));
    }
    EXPECT_EQ(group.in_flight(), 3);
    // The next five wait: no fourth call starts.
    queue_clients(group, clients, 3, 7);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(fake.in_flight(), 3);
    EXPECT_EQ(group.waiting(), 5u);
    fake.gate->open();
    std::size_t grouped = 0;
    for (std::size_t n = 0; n < clients.size(); ++n) {
        const Answer& answer = clients[n]->answer();
        const std::string request = "r" + std::to_string(n);
        EXPECT_EQ(answer.thrown, "");
        EXPECT_TRUE(answer.text == "single:" + request || answer.text == "posted:" + request) << request;
        grouped += answer.text == "posted:" + request;
    }
    EXPECT_EQ(fake.calls_in_flight_max, 3);
    EXPECT_EQ(group.in_flight(), 0);
    std::size_t in_groups = 0;
    for (const auto& g : fake.groups) in_groups += g.size();
    EXPECT_EQ(in_groups, grouped);
    EXPECT_EQ(fake.singles.size() + in_groups, 8u);
}

// Under load (another lane busy) a new leader waits its gather window, and
// what arrives meanwhile joins its group; a request that finds no other lane
// busy leads at once. The window is long here (50 ms) so that the follower
// surely arrives inside it; the lone request must not be held by it.
TEST(PostingGroup, ALeaderGathersFollowersOnlyWhenAnotherLaneIsBusy) {
    using std::chrono::milliseconds;
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    cb::PostingGroup group(2, fake.calls(), cb::PostingGroup::gather_window_max);
    std::vector<std::unique_ptr<Client>> clients;
    const auto started = std::chrono::steady_clock::now();
    clients.push_back(std::make_unique<Client>(group, "r0"));
    ASSERT_TRUE(eventually([&] { return fake.in_flight() == 1; }));
    // r0 found nothing in flight: its call started well inside the window.
    EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(40));
    // r1 takes the second lane while r0's call is held, and gathers; r2 queues meanwhile.
    clients.push_back(std::make_unique<Client>(group, "r1"));
    ASSERT_TRUE(eventually([&] { return group.in_flight() == 2; }));
    clients.push_back(std::make_unique<Client>(group, "r2"));
    ASSERT_TRUE(eventually([&] { return group.waiting() == 1u; }));
    // The window ends and r1's group call (r1, r2) starts, while r0's is still
    // held (had r0 finished first, its lane would have gone to r2 alone).
    ASSERT_TRUE(eventually([&] { return fake.in_flight() == 2; }));
    fake.gate->open();
    EXPECT_EQ(clients[0]->answer().text.value_or(""), "posted:r0");
    EXPECT_EQ(clients[1]->answer().text.value_or(""), "posted:r1");
    EXPECT_EQ(clients[2]->answer().text.value_or(""), "posted:r2");
    EXPECT_EQ(fake.groups.size(), 2u);
    EXPECT_TRUE(called_with(fake, names(0, 0)));
    EXPECT_TRUE(called_with(fake, names(1, 2)));
}

// Right after a group of two or more was answered, a leader that finds no
// lane busy gathers too (its clients' next requests are on their way): here
// r5 joins r4's group. A client posting alone, one request after another,
// forms no group and is never held. load_memory is long here (10 s) so that
// the test does not race it.
TEST(PostingGroup, ALeaderGathersRightAfterAGroupButALoneClientIsNeverHeld) {
    using std::chrono::milliseconds;
    FakeDatabase fake;
    cb::PostingGroup group(1, fake.calls(), cb::PostingGroup::gather_window_max, std::chrono::seconds(10));
    Db db("", {});
    for (int n = 0; n < 2; ++n) {
        const auto started = std::chrono::steady_clock::now();
        EXPECT_EQ(group.post(db, cb::PostingRequest{"alone" + std::to_string(n), "actor"}),
                  "posted:alone" + std::to_string(n));
        EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(40)) << "a lone client was held";
    }
    // A group: x holds the lane at the gate, r2 and r3 queue and post together.
    fake.gate = std::make_shared<Gate>(false);
    std::vector<std::unique_ptr<Client>> clients;
    clients.push_back(std::make_unique<Client>(group, "x"));
    ASSERT_TRUE(eventually([&] { return fake.in_flight() == 1; }));
    queue_clients(group, clients, 2, 3);
    fake.gate->open();
    for (auto& client : clients) EXPECT_EQ(client->answer().thrown, "");
    // alone0, alone1, x (groups of one) and r2 with r3.
    ASSERT_EQ(fake.groups.size(), 4u);
    EXPECT_TRUE(called_with(fake, {"x"}));
    EXPECT_EQ(fake.groups[3], names(2, 3));
    // The lane is free and nothing is in flight, but a group was just
    // answered: r4 gathers, and r5 joins its group.
    clients.push_back(std::make_unique<Client>(group, "r4"));
    ASSERT_TRUE(eventually([&] { return group.in_flight() == 1; }));
    queue_clients(group, clients, 5, 5);
    EXPECT_EQ(clients[3]->answer().text.value_or(""), "posted:r4");
    EXPECT_EQ(clients[4]->answer().text.value_or(""), "posted:r5");
    ASSERT_EQ(fake.groups.size(), 5u);
    EXPECT_EQ(fake.groups[4], names(4, 5));
}

// The start of the two tests below: x holds a lane at the closed gate, r1
// takes another and gathers (another lane is busy), r2 arrives and queues.
static void hold_x_while_r1_gathers_and_r2_queues(cb::PostingGroup& group, FakeDatabase& fake,
                                                  std::vector<std::unique_ptr<Client>>& clients) {
    clients.push_back(std::make_unique<Client>(group, "x"));
    ASSERT_TRUE(eventually([&] { return fake.in_flight() == 1; }));
    clients.push_back(std::make_unique<Client>(group, "r1"));
    ASSERT_TRUE(eventually([&] { return group.in_flight() == 2; }));
    clients.push_back(std::make_unique<Client>(group, "r2"));
    ASSERT_TRUE(eventually([&] { return group.waiting() == 1u; })) << "r2 did not queue behind r1";
}

// ... and their end: x posted as a group of one, r1 and r2 as one group.
static void expect_x_alone_and_r1_r2_together(cb::PostingGroup& group, FakeDatabase& fake,
                                              std::vector<std::unique_ptr<Client>>& clients) {
    EXPECT_EQ(clients[0]->answer().text.value_or(""), "posted:x");
    EXPECT_EQ(clients[1]->answer().text.value_or(""), "posted:r1");
    EXPECT_EQ(clients[2]->answer().text.value_or(""), "posted:r2");
    EXPECT_EQ(fake.groups.size(), 2u);
    EXPECT_TRUE(called_with(fake, {"x"}));
    EXPECT_TRUE(called_with(fake, names(1, 2)));
    EXPECT_EQ(group.in_flight(), 0);
    EXPECT_EQ(group.waiting(), 0u);
}

// While a leader gathers, a new request joins its group even when a lane is
// free (taking that lane, it would post alone when its own window ended).
TEST(PostingGroup, ARequestJoinsAGatheringLeaderRatherThanTakingAFreeLane) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    cb::PostingGroup group(3, fake.calls(), cb::PostingGroup::gather_window_max);
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(hold_x_while_r1_gathers_and_r2_queues(group, fake, clients));
    EXPECT_EQ(group.in_flight(), 2) << "r2 took the free third lane";
    ASSERT_TRUE(eventually([&] { return fake.in_flight() == 2; }));  // r1's window ended: its group call
    fake.gate->open();
    expect_x_alone_and_r1_r2_together(group, fake, clients);
}

// A leader that finishes while another gathers frees its lane instead of
// handing it to the queue: what queued is the gathering leader's group.
TEST(PostingGroup, AFinishingLeaderLeavesTheQueueToAGatheringOne) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    cb::PostingGroup group(2, fake.calls(), cb::PostingGroup::gather_window_max);
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(hold_x_while_r1_gathers_and_r2_queues(group, fake, clients));
    fake.gate->open();  // x finishes inside r1's window
    expect_x_alone_and_r1_r2_together(group, fake, clients);
}

TEST(PostingGroup, TheOldestWaitingLeadsAndTakesTheQueueInOrder) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 5));
    fake.gate->open();
    for (std::size_t n = 0; n < clients.size(); ++n)
        EXPECT_EQ(clients[n]->answer().text.value_or(""), "posted:r" + std::to_string(n));
    // One lane: r0's group of one ended before r1's group began.
    ASSERT_EQ(fake.groups.size(), 2u);
    EXPECT_EQ(fake.groups[0], names(0, 0));
    EXPECT_EQ(fake.groups[1], names(1, 5));
    // r1 was the oldest waiting: the group ran on its thread's connection.
    EXPECT_EQ(fake.group_connections[1], clients[1]->connection());
    EXPECT_TRUE(fake.singles.empty());
}

TEST(PostingGroup, AGroupTakesAtMost256) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 300));
    ASSERT_EQ(group.waiting(), 300u);
    fake.gate->open();
    for (std::size_t n = 1; n < clients.size(); ++n)
        EXPECT_EQ(clients[n]->answer().text.value_or(""), "posted:r" + std::to_string(n));
    ASSERT_EQ(fake.groups.size(), 3u);
    EXPECT_EQ(fake.groups[0], names(0, 0));
    EXPECT_EQ(fake.groups[1], names(1, 256));
    EXPECT_EQ(fake.groups[2], names(257, 300));
    EXPECT_EQ(fake.group_connections[1], clients[1]->connection());
    EXPECT_EQ(fake.group_connections[2], clients[257]->connection());
    EXPECT_EQ(cb::PostingGroup::group_size_max, 256u);
}

TEST(PostingGroup, AnAloneElementPostsOnItsOwnThreadWithItsOwnAnswer) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    // Elements 0 and 2 of a group are not decided by it: r0 (its group of
    // one), then r1 and r3 of the group behind it; r3's single call refuses it.
    fake.decide = [](std::size_t index, const std::string&) {
        return index % 2 == 0 ? FakeDatabase::Element::alone : FakeDatabase::Element::posted;
    };
    fake.single_check = [](const std::string& request) {
        if (request == "r3") throw DbError("CB422", "insufficient funds in account 1", "");
    };
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 4));
    fake.gate->open();
    EXPECT_EQ(clients[0]->answer().text.value_or(""), "single:r0");
    EXPECT_EQ(clients[1]->answer().text.value_or(""), "single:r1");
    EXPECT_EQ(clients[2]->answer().text.value_or(""), "posted:r2");
    EXPECT_EQ(clients[3]->answer().thrown, "DbError CB422");
    EXPECT_EQ(clients[3]->answer().message, "insufficient funds in account 1");
    EXPECT_EQ(clients[4]->answer().text.value_or(""), "posted:r4");
    ASSERT_EQ(fake.groups.size(), 2u);
    EXPECT_EQ(fake.groups[1], names(1, 4));
    std::map<std::string, const Db*> single_connection(fake.singles.begin(), fake.singles.end());
    ASSERT_EQ(single_connection.size(), 3u);
    EXPECT_EQ(single_connection["r0"], clients[0]->connection());
    EXPECT_EQ(single_connection["r1"], clients[1]->connection());
    EXPECT_EQ(single_connection["r3"], clients[3]->connection());
    EXPECT_EQ(fake.decided["r2"], 1);
    EXPECT_EQ(fake.decided.count("r3"), 0u);
}

TEST(PostingGroup, AGroupCallThatFailsPostsEveryMemberAlone) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    fake.group_override = [](const std::vector<cb::PostingRequest>&) -> std::vector<cb::GroupAnswer> {
        throw DbError("40P01", "deadlock detected", "");
    };
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 4));
    fake.gate->open();
    for (std::size_t n = 0; n < clients.size(); ++n)
        EXPECT_EQ(clients[n]->answer().text.value_or(""), "single:r" + std::to_string(n));
    EXPECT_EQ(fake.groups.size(), 2u);
    EXPECT_EQ(fake.group_failures, (std::vector<std::size_t>{1, 4}));
    ASSERT_EQ(fake.singles.size(), 5u);
    for (const auto& [request, connection] : fake.singles)
        EXPECT_EQ(connection, clients[std::stoul(request.substr(1))]->connection()) << request;
}

// A group of one cancelled by its statement timeout (a lock held elsewhere)
// has waited what its single call would have: it answers that error at once
// and is not posted alone to wait again. The members of a larger group,
// which one member's lock may have held up, still post alone.
TEST(PostingGroup, AGroupOfOneOutOfTimeAnswersSoWithoutWaitingAgain) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    fake.group_override = [](const std::vector<cb::PostingRequest>&) -> std::vector<cb::GroupAnswer> {
        throw DbError("57014", "canceling statement due to statement timeout", "");
    };
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 2));
    fake.gate->open();
    EXPECT_EQ(clients[0]->answer().thrown, "DbError 57014");
    EXPECT_EQ(clients[0]->answer().message, "canceling statement due to statement timeout");
    EXPECT_EQ(clients[1]->answer().text.value_or(""), "single:r1");
    EXPECT_EQ(clients[2]->answer().text.value_or(""), "single:r2");
    ASSERT_EQ(fake.groups.size(), 2u);
    EXPECT_EQ(fake.group_failures, std::vector<std::size_t>{2});  // r0's is not a failure to retry
    ASSERT_EQ(fake.singles.size(), 2u);
    EXPECT_EQ(fake.decided.count("r0"), 0u);
    EXPECT_EQ(group.in_flight(), 0);
}

TEST(PostingGroup, AnUnavailableDatabaseFailsEveryMemberAndPostsNothingAgain) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    fake.group_override = [](const std::vector<cb::PostingRequest>&) -> std::vector<cb::GroupAnswer> {
        throw DbUnavailable("server closed the connection unexpectedly");
    };
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 4));
    fake.gate->open();
    for (std::size_t n = 0; n < clients.size(); ++n) {
        EXPECT_EQ(clients[n]->answer().thrown, "DbUnavailable");
        EXPECT_EQ(clients[n]->answer().message, "server closed the connection unexpectedly");
    }
    EXPECT_TRUE(fake.singles.empty());
    EXPECT_TRUE(fake.group_failures.empty());
    EXPECT_EQ(group.in_flight(), 0);
}

TEST(PostingGroup, AnAnswerOfTheWrongLengthFailsEveryMemberAndPostsNothingAgain) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    fake.group_override = [](const std::vector<cb::PostingRequest>& requests) {
        std::vector<cb::GroupAnswer> answers(requests.size() - 1);
        for (auto& answer : answers) answer.status = cb::GroupAnswer::Status::posted;
        return answers;
    };
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 3));
    fake.gate->open();
    EXPECT_EQ(clients[0]->answer().thrown, "runtime_error");
    EXPECT_NE(clients[0]->answer().message.find("0 answers for 1 requests"), std::string::npos);
    for (std::size_t n = 1; n < clients.size(); ++n) {
        EXPECT_EQ(clients[n]->answer().thrown, "runtime_error");
        EXPECT_NE(clients[n]->answer().message.find("2 answers for 3 requests"), std::string::npos);
    }
    EXPECT_TRUE(fake.singles.empty());
}

TEST(PostingGroup, ALeaderWhoseCallFailsStillHandsItsLaneOn) {
    FakeDatabase fake;
    fake.gate = std::make_shared<Gate>(false);
    fake.group_override = [](const std::vector<cb::PostingRequest>& requests) {
        if (requests.size() == 1 && requests[0].request_json == "r0") throw DbUnavailable("connection refused");
        std::vector<cb::GroupAnswer> answers(requests.size());
        for (std::size_t index = 0; index < requests.size(); ++index) {
            answers[index].status = cb::GroupAnswer::Status::posted;
            answers[index].response = "posted:" + requests[index].request_json;
        }
        return answers;
    };
    cb::PostingGroup group(1, fake.calls());
    std::vector<std::unique_ptr<Client>> clients;
    ASSERT_NO_FATAL_FAILURE(r0_holds_the_lane_while_queued(group, fake, clients, 2));
    fake.gate->open();
    EXPECT_EQ(clients[0]->answer().thrown, "DbUnavailable");
    EXPECT_EQ(clients[1]->answer().text.value_or(""), "posted:r1");
    EXPECT_EQ(clients[2]->answer().text.value_or(""), "posted:r2");
    EXPECT_EQ(group.in_flight(), 0);
    Client after(group, "r3");
    EXPECT_EQ(after.answer().text.value_or(""), "posted:r3");
}

// Many threads post at once, the group calls answer a random mix of POSTED and
// ALONE and sometimes fail, and each call takes a random few microseconds.
// Every request must be answered with its own answer and posted exactly once;
// a lost wake-up would leave a thread waiting and trip the watchdog.
TEST(PostingGroup, ManyThreadsEveryRequestAnsweredAndPostedOnce) {
    constexpr int threads = 64;
    constexpr int requests_per_thread = 150;
    FakeDatabase fake;
    std::mt19937 random(12345);
    std::mutex random_mutex;
    auto draw = [&](int below) {
        std::lock_guard<std::mutex> lock(random_mutex);
        return static_cast<int>(random() % static_cast<unsigned>(below));
    };
    fake.decide = [&](std::size_t, const std::string&) {
        return draw(4) == 0 ? FakeDatabase::Element::alone : FakeDatabase::Element::posted;
    };
    cb::PostingGroupCalls calls = fake.calls();
    auto group_call = calls.group;
    std::atomic<int> calls_now{0};
    std::atomic<int> calls_max{0};
    calls.group = [&](Db& db, const std::vector<cb::PostingRequest>& requests) {
        const int now = ++calls_now;
        int seen = calls_max.load();
        while (now > seen && !calls_max.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::sleep_for(std::chrono::microseconds(draw(300)));
        --calls_now;
        if (draw(10) == 0) throw DbError("40001", "could not serialize access", "");
        return group_call(db, requests);
    };
    cb::PostingGroup group(2, calls);

    std::atomic<int> finished{0};
    std::atomic<int> wrong{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            Db db("", {});
            for (int n = 0; n < requests_per_thread; ++n) {
                const std::string request = "t" + std::to_string(t) + "n" + std::to_string(n);
                const auto answer = group.post(db, cb::PostingRequest{request, "actor"});
                if (answer != "posted:" + request && answer != "single:" + request) ++wrong;
            }
            ++finished;
        });
    }
    // The watchdog: joining a thread that waits forever would hang the suite.
    if (!eventually([&] { return finished.load() == threads; })) {
        std::fprintf(stderr, "PostingGroup stress: %d of %d threads finished; a wake-up was lost\n",
                     finished.load(), threads);
        std::abort();
    }
    for (auto& worker : workers) worker.join();

    EXPECT_EQ(wrong.load(), 0);
    EXPECT_LE(calls_max.load(), 2);
    EXPECT_EQ(fake.decided.size(), static_cast<std::size_t>(threads * requests_per_thread));
    const auto twice = std::find_if(fake.decided.begin(), fake.decided.end(), [](const auto& d) { return d.second != 1; });
    EXPECT_TRUE(twice == fake.decided.end()) << twice->first << " posted " << twice->second << " times";
    std::size_t largest = 0;
    for (const auto& g : fake.groups) largest = std::max(largest, g.size());
    EXPECT_GT(largest, 2u) << "groups never formed under load";
    EXPECT_LE(largest, static_cast<std::size_t>(threads));
    EXPECT_FALSE(fake.group_failures.empty());
    EXPECT_EQ(group.in_flight(), 0);
    EXPECT_EQ(group.waiting(), 0u);
}

// ---------------------------------------------------------------- the group function's text

// The answer's rows as sql::money_postings returns them: status, response, reason.
corebank::httpd::QueryResult rows(std::vector<std::vector<std::optional<std::string>>> values) {
    corebank::httpd::QueryResult result;
    result.rows = std::move(values);
    return result;
}

TEST(PostingGroupAnswer, KeepsEachResponseAsTheDatabaseWroteIt) {
    const std::string first = R"({"id": "7f", "rate": 1.50, "note": "}], \"quoted\" {", "entries": [{"a": [1, 2]}]})";
    const auto answers = cb::group_answers_from_rows(
        rows({{"POSTED", first, std::nullopt}, {"ALONE", std::nullopt, "replay"}}), 2);
    ASSERT_EQ(answers.size(), 2u);
    EXPECT_EQ(answers[0].status, cb::GroupAnswer::Status::posted);
    EXPECT_EQ(answers[0].response, first);
    EXPECT_EQ(answers[1].status, cb::GroupAnswer::Status::alone);
    EXPECT_EQ(answers[1].reason, "replay");
}

TEST(PostingGroupAnswer, RefusesWhatIsNotTheContract) {
    using Row = std::vector<std::optional<std::string>>;
    const Row posted{"POSTED", R"({"id": 1})", std::nullopt};
    const std::vector<std::pair<std::vector<Row>, std::size_t>> cases = {
        {{posted}, 2},                                              // too few
        {{posted, posted}, 1},                                      // too many
        {{Row{"DONE", "{}", std::nullopt}}, 1},                     // unknown status
        {{Row{std::nullopt, "{}", std::nullopt}}, 1},               // no status
        {{Row{"POSTED", std::nullopt, std::nullopt}}, 1},           // no response
        {{Row{"POSTED", "\"text\"", std::nullopt}}, 1},             // not an object
        {{Row{"POSTED", "{}"}}, 1},                                 // a column missing
    };
    for (const auto& [values, count] : cases)
        EXPECT_THROW(cb::group_answers_from_rows(rows(values), count), std::runtime_error) << values.size();
}

TEST(PostingGroupRequests, WrapsEachRequestWithItsOperation) {
    const std::vector<cb::PostingRequest> requests = {{R"({"amountMinor":1})", "a"}, {R"({"amountMinor":2})", "b"}};
    const auto wrapped = nlohmann::json::parse(cb::group_requests_json(requests, "transfer"));
    EXPECT_EQ(wrapped, nlohmann::json::parse(R"([{"operation":"transfer","request":{"amountMinor":1}},
                                                  {"operation":"transfer","request":{"amountMinor":2}}])"));
}

TEST(PostingGroupSettings, LanesDefaultToFourAndZeroTurnsGroupingOff) {
    namespace httpd = corebank::httpd;
    EXPECT_EQ(httpd::load_config("/nonexistent/corebank.conf", {}).posting_group_lanes, 4);
    EXPECT_EQ(httpd::load_config("/nonexistent/corebank.conf", {{"CORE_POSTING_GROUP_LANES", "0"}}).posting_group_lanes,
              0);
    EXPECT_EQ(httpd::load_config("/nonexistent/corebank.conf", {{"CORE_POSTING_GROUP_LANES", "64"}}).posting_group_lanes,
              64);
    EXPECT_THROW(httpd::load_config("/nonexistent/corebank.conf", {{"CORE_POSTING_GROUP_LANES", "65"}}),
                 std::runtime_error);
    EXPECT_THROW(httpd::load_config("/nonexistent/corebank.conf", {{"CORE_POSTING_GROUP_LANES", "-1"}}),
                 std::runtime_error);
    EXPECT_EQ(cb::make_transfer_posting_group(0), nullptr);
    const auto group = cb::make_transfer_posting_group(3);
    ASSERT_NE(group, nullptr);
    EXPECT_EQ(group->lanes(), 3);
    EXPECT_EQ(cb::PostingGroup::lanes_max, corebank::core::settings_table::posting_group_lanes.maximum);
}
