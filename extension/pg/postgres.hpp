// postgres.hpp: the one place the extension includes PostgreSQL headers.
//
// PostgreSQL's headers have no C++ guards, so they are wrapped in extern "C"
// here and every other file includes this one instead of naming them. The list
// is the union of what pg/ and entry/ need; keeping it in one place keeps the
// include order (postgres.h first) right everywhere.
#pragma once

extern "C" {
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "jit/jit.h"
#include "optimizer/cost.h"
#include "utils/plancache.h"
#include "utils/resowner.h"
#include "utils/tuplestore.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/uuid.h"
}
