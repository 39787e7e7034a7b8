#include <sqlite3.h>
#include "GroveSQLiteConfig.h"

int grove_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int grove_sqlite_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

long long grove_sqlite_memory_used(void) {
    return (long long)sqlite3_memory_used();
}
