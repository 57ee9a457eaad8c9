// guard.cpp: the PG_TRY behind pg_guard(); see guard.hpp for the rules.
#include "pg/guard.hpp"

namespace corebank::pg {

const char* PgError::what() const noexcept {
    if (error_data_ != nullptr && error_data_->message != nullptr) return error_data_->message;
    return "PostgreSQL error";
}

namespace detail {

void guarded_invoke(void (*body)(void*), void* context) {
    // Read after a longjmp: set before PG_TRY and never modified inside it.
    MemoryContext const caller_context = CurrentMemoryContext;
    // Written in PG_CATCH, i.e. after the longjmp; volatile per the sigsetjmp
    // rules all the same (and GCC's -Wclobbered).
    ErrorData* volatile error_data = nullptr;

    PG_TRY();
    {
        body(context);
    }
    PG_CATCH();
    {
        // errfinish left us in ErrorContext; CopyErrorData must not allocate
        // there, because FlushErrorState resets it.
        MemoryContextSwitchTo(caller_context);
        error_data = CopyErrorData();
        FlushErrorState();
    }
    PG_END_TRY();

    // Thrown here, outside the PG_TRY block: PG_exception_stack is restored.
    if (error_data != nullptr) throw PgError(error_data);
}

}  // namespace detail

}  // namespace corebank::pg
