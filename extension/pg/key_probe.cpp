// key_probe.cpp: see key_probe.hpp.
#include "pg/key_probe.hpp"

#include "pg/check.hpp"
#include "pg/guard.hpp"

extern "C" {
#include "access/genam.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"
}

namespace corebank::pg::key_probe {

namespace {

const char* table_name(Table table) {
    switch (table) {
        case Table::branches:
            return "branches";
        case Table::parked_changes:
            return "parked_changes";
        case Table::transactions:
            return "transactions";
    }
    CB_CHECK(false && "a known table");
    return "";
}

// What the probe found; InvalidOid index: the table has no primary key.
struct Probe {
    Oid index = InvalidOid;
    bool found = false;
};

}  // namespace

bool exists(Table table, const pg_uuid_t& id) {
    const char* name = table_name(table);
    const Probe probe = pg_guard([&]() noexcept {
        Probe result;
        // Looked up by name each time (two syscache hits): an Oid kept across
        // calls would outlive a DROP and CREATE EXTENSION in this backend.
        const Oid relation_id = get_relname_relid(name, get_namespace_oid("corebank", false));
        if (relation_id == InvalidOid) return result;
        Relation relation = table_open(relation_id, AccessShareLock);
        result.index = RelationGetPrimaryKeyIndex(relation);
        if (result.index != InvalidOid) {
            ScanKeyData key;
            ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_UUID_EQ, UUIDPGetDatum(&id));
            SysScanDesc scan = systable_beginscan(relation, result.index, true, SnapshotSelf, 1, &key);
            result.found = HeapTupleIsValid(systable_getnext(scan));
            systable_endscan(scan);
        }
        table_close(relation, AccessShareLock);
        return result;
    });
    CB_CHECK(probe.index != InvalidOid);  // every probed table is installed with its primary key
    return probe.found;
}

}  // namespace corebank::pg::key_probe
