import GRDB

extension AppDatabase {
    /// Calls `handler` after every transaction this store commits, whichever operation made it.
    ///
    /// The live layer learns of writes by construction, not by a call each write site must remember:
    /// a write that forgot to say so would be a silent staleness bug. (Commits by other processes are
    /// seen through `DataVersionWatcher`.) The handler runs on the writing thread; keep it short.
    public func onCommit(_ handler: @escaping @Sendable () -> Void) {
        writer.add(transactionObserver: CommitObserver(handler), extent: .databaseLifetime)
    }
}

/// A transaction observer interested in no change in particular, only in commits that changed
/// something: a read transaction on the writer's connection commits too, and must not look like a
/// change (every kept answer and every open page would refresh for nothing).
private final class CommitObserver: TransactionObserver, @unchecked Sendable {
    private let handler: @Sendable () -> Void
    /// The connection's running count of changed rows at the last commit (only touched on the
    /// writer's own queue, which serializes every call).
    private var changes: Int?

    init(_ handler: @escaping @Sendable () -> Void) { self.handler = handler }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {
        let now = db.totalChangesCount
        defer { changes = now }
        // The first commit seen, and any after rows changed (schema changes count too: DDL is rare).
        if changes.map({ $0 != now }) ?? true { handler() }
    }
    func databaseDidRollback(_ db: Database) {}
}
