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

/// A transaction observer interested in no change in particular, only in commits.
private final class CommitObserver: TransactionObserver, Sendable {
    private let handler: @Sendable () -> Void

    init(_ handler: @escaping @Sendable () -> Void) { self.handler = handler }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { handler() }
    func databaseDidRollback(_ db: Database) {}
}
