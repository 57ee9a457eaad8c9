// entry.cpp: the C++ -> PostgreSQL error boundary behind COREBANK_FUNCTION.
//
// Two frames, on purpose:
//   capture_outcome() holds the try/catch. Whatever it catches it copies into a
//     caller-owned POD (PendingError) and returns; when it returns, every C++
//     object of the call (the exception included) has been destroyed.
//   run_guarded() holds only POD and is the only place that calls ereport /
//     ReThrowError, which longjmp out of the extension.
#include "entry/entry.hpp"

#include <cstddef>
#include <cstring>
#include <exception>
#include <new>
#include <type_traits>

#include "core/errors.hpp"
#include "pg/guard.hpp"

namespace corebank::entry {

namespace {

// Fixed sizes so the pending error is POD; longer texts are cut at a UTF-8
// character boundary (our messages are far shorter).
constexpr std::size_t message_bytes_max = 1024;
constexpr std::size_t detail_bytes_max = 2048;

enum class PendingKind { none, postgres, core, out_of_memory, internal };

struct PendingError {
    PendingKind kind;
    ErrorData* postgres_error;        // kind == postgres
    char sqlstate[6];                 // kind == core
    char message[message_bytes_max];  // core and internal
    char detail[detail_bytes_max];    // core (may be empty)
};
static_assert(std::is_trivially_copyable_v<PendingError>, "PendingError must be POD");

// Copies text into a fixed buffer, NUL-terminated, never splitting a UTF-8
// sequence.
void copy_text(char* target, std::size_t target_bytes, const char* source) noexcept {
    if (source == nullptr) source = "";
    std::size_t length = std::strlen(source);
    if (length >= target_bytes) {
        length = target_bytes - 1;
        while (length > 0 && (static_cast<unsigned char>(source[length]) & 0xC0) == 0x80) --length;
    }
    std::memcpy(target, source, length);
    target[length] = '\0';
}

// A SQLSTATE is exactly five characters from [0-9A-Z].
bool sqlstate_valid(const char* sqlstate) noexcept {
    for (int index = 0; index < 5; ++index) {
        const char c = sqlstate[index];
        if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) return false;
    }
    return sqlstate[5] == '\0';
}

// Runs impl; on an exception fills *pending and returns 0. noinline keeps the
// exception machinery out of run_guarded's frame.
__attribute__((noinline)) Datum capture_outcome(FunctionCallInfo fcinfo, ImplFunction impl,
                                                PendingError* pending) noexcept {
    try {
        return impl(fcinfo);
    } catch (const pg::PgError& error) {
        pending->kind = PendingKind::postgres;
        pending->postgres_error = error.error_data();
    } catch (const core::CoreError& error) {
        pending->kind = PendingKind::core;
        copy_text(pending->sqlstate, sizeof pending->sqlstate, error.sqlstate());
        if (!sqlstate_valid(pending->sqlstate)) {
            pending->kind = PendingKind::internal;
        }
        copy_text(pending->message, sizeof pending->message, error.what());
        copy_text(pending->detail, sizeof pending->detail, error.detail().c_str());
    } catch (const std::bad_alloc&) {
        pending->kind = PendingKind::out_of_memory;
    } catch (const std::exception& error) {
        pending->kind = PendingKind::internal;
        copy_text(pending->message, sizeof pending->message, error.what());
    } catch (...) {
        pending->kind = PendingKind::internal;
        copy_text(pending->message, sizeof pending->message, "unknown C++ exception");
    }
    return static_cast<Datum>(0);
}

}  // namespace

Datum run_guarded(FunctionCallInfo fcinfo, ImplFunction impl, const char* function_name) {
    PendingError pending;
    pending.kind = PendingKind::none;
    pending.postgres_error = nullptr;
    pending.sqlstate[0] = '\0';
    pending.message[0] = '\0';
    pending.detail[0] = '\0';

    const Datum result = capture_outcome(fcinfo, impl, &pending);

    // From here on this frame holds only POD: ereport may longjmp through it.
    switch (pending.kind) {
        case PendingKind::none:
            return result;
        case PendingKind::postgres:
            Assert(pending.postgres_error != nullptr);
            ReThrowError(pending.postgres_error);
            break;
        case PendingKind::core:
            ereport(ERROR,
                    (errcode(MAKE_SQLSTATE(pending.sqlstate[0], pending.sqlstate[1], pending.sqlstate[2],
                                           pending.sqlstate[3], pending.sqlstate[4])),
                     errmsg("%s", pending.message),
                     pending.detail[0] != '\0' ? errdetail("%s", pending.detail) : 0));
            break;
        case PendingKind::out_of_memory:
            ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory in %s", function_name)));
            break;
        case PendingKind::internal:
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("internal error in %s", function_name),
                            errdetail("%s", pending.message)));
            break;
    }
    pg_unreachable();
}

}  // namespace corebank::entry
