#include <sqlite3.h>
#include "GroveSQLiteConfig.h"

int grove_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

long long grove_sqlite_memory_used(void) {
    return (long long)sqlite3_memory_used();
}
