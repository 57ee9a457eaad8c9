// guard.hpp: calling PostgreSQL from C++ without letting a longjmp skip C++
// destructors.
//
// PostgreSQL reports errors with ereport(ERROR), which longjmps to the nearest
// PG_TRY. A longjmp that crosses a C++ frame holding an object with a
// destructor (std::string, std::vector, ...) skips that destructor: a leak at
// best, a corrupted invariant at worst. pg_guard() puts a PG_TRY directly
// around one PostgreSQL call (pg_duckdb's PostgresFunctionGuard): if the call
// fails, the error is copied out of the error stack, the stack is flushed, and
// a C++ PgError is thrown *after* PG_END_TRY, so ordinary C++ unwinding runs.
// The entry wrapper (entry/entry.hpp) re-raises the ErrorData unchanged with
// ReThrowError once every C++ frame is gone.
//
// Rules for the body passed to pg_guard:
//   - it is a noexcept lambda (checked at compile time): a C++ exception
//     leaving it would skip PG_END_TRY and leave PG_exception_stack pointing
//     at a dead frame;
//   - it declares only POD locals (pointers, Datums, ints): the longjmp skips
//     its frame;
//   - it calls PostgreSQL and nothing that allocates with new.
//
// A PgError must never be swallowed: PostgreSQL's state after an error
// (locks, buffer pins, SPI) is only made consistent again by aborting the
// (sub)transaction, so the error always propagates out of the SQL function.
#pragma once

#include <exception>
#include <type_traits>

#include "pg/postgres.hpp"

namespace corebank::pg {

// An error raised by PostgreSQL, carried through C++ frames. The ErrorData is
// palloc'd in the memory context that was current when pg_guard was entered;
// that context outlives the SQL function call, so the pointer stays valid
// until the entry wrapper rethrows it.
class PgError : public std::exception {
public:
    explicit PgError(ErrorData* error_data) noexcept : error_data_(error_data) {}
    ErrorData* error_data() const noexcept { return error_data_; }
    const char* what() const noexcept override;

private:
    ErrorData* error_data_;
};

namespace detail {

// Runs body(context) inside PG_TRY; throws PgError if PostgreSQL raised an
// error. The one place in the extension that calls sigsetjmp (via PG_TRY).
void guarded_invoke(void (*body)(void*), void* context);

}  // namespace detail

// Runs `function` (a noexcept lambda calling PostgreSQL) and returns its
// result; a PostgreSQL error becomes a thrown PgError.
template <typename Function>
auto pg_guard(Function&& function) -> std::invoke_result_t<Function&> {
    using Result = std::invoke_result_t<Function&>;
    static_assert(std::is_nothrow_invocable_v<Function&>,
                  "pg_guard bodies run inside PG_TRY and must be declared noexcept");

    if constexpr (std::is_void_v<Result>) {
        detail::guarded_invoke([](void* context) { (*static_cast<std::remove_reference_t<Function>*>(context))(); },
                               static_cast<void*>(&function));
    } else {
        static_assert(std::is_trivially_copyable_v<Result>,
                      "pg_guard results must be POD (a Datum, a pointer, a number)");
        struct Call {
            std::remove_reference_t<Function>* function;
            Result result;
        } call{&function, Result{}};
        detail::guarded_invoke([](void* context) {
            auto* pending = static_cast<Call*>(context);
            pending->result = (*pending->function)();
        }, static_cast<void*>(&call));
        return call.result;
    }
}

}  // namespace corebank::pg
