// check.hpp: CB_CHECK, an always-on assertion for programmer errors.
//
// PostgreSQL's Assert() compiles away in production builds; an identity store
// should not carry on after one of its own invariants broke (a session count
// over the cap, a plan cached with other argument types). CB_CHECK throws a
// CoreError with SQLSTATE XX000 instead, which the entry wrapper turns into an
// internal error and the transaction rolls back. Operating errors (bad input,
// unknown user) are handled explicitly, never with CB_CHECK.
#pragma once

#include "core/errors.hpp"

#define CB_CHECK(condition)                                                                      \
    do {                                                                                         \
        if (!(condition))                                                                        \
            throw ::corebank::core::CoreError(::corebank::core::sqlstate_internal,               \
                                              "corebank invariant violated: " #condition,        \
                                              __FILE__ ":" CB_CHECK_STRINGIFY(__LINE__));        \
    } while (0)

#define CB_CHECK_STRINGIFY_INNER(x) #x
#define CB_CHECK_STRINGIFY(x) CB_CHECK_STRINGIFY_INNER(x)
