#ifndef GROVE_SQLITE_CONFIG_H
#define GROVE_SQLITE_CONFIG_H

/// Turns off SQLite's memory statistics (SQLITE_CONFIG_MEMSTATUS). With them on (the default of the
/// system library), every allocation SQLite makes takes one process-wide mutex, so connections used
/// from several threads at once queue behind each other. Must run before SQLite is initialized (the
/// first connection opens); returns SQLITE_OK, or SQLITE_MISUSE when it is too late.
/// `sqlite3_config` is variadic, which Swift cannot call: hence this C function.
int grove_sqlite_disable_memory_statistics(void);

/// Keeps a statement journal in memory until it holds `bytes` (SQLITE_CONFIG_STMTJRNL_SPILL; SQLite's
/// default is 64 KiB). Every statement that may fail part-way inside a transaction (a multi-row
/// insert, an upsert, a statement with triggers) first journals each stored page it changes; past
/// the threshold that journal is a temporary file, written page by page. Before SQLite initializes;
/// returns SQLITE_OK, or SQLITE_MISUSE when it is too late.
int grove_sqlite_statement_journal_spill(int bytes);

/// Bytes SQLite has allocated and not freed, as its statistics count them (0 while they are off).
long long grove_sqlite_memory_used(void);

#endif
