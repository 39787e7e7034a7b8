#if Postgres
    import GroveStore
    import PostgresNIO

    /// A PostgreSQL failure said as the faces say a store's: a full disk is a 507 with its reason, not a
    /// bare 500 (`DatabaseFailure` holds the table).
    extension PSQLError: StoreFailure {
        public var summary: String { DatabaseFailure.summary(sqlState: serverInfo?[.sqlState]) }
        public var serverStatus: Int { DatabaseFailure.status(sqlState: serverInfo?[.sqlState]) }
    }
#endif
