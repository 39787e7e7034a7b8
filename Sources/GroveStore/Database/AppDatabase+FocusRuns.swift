import GRDB

extension AppDatabase {
    /// "v30-focus-runs": what stats need from the whole history, kept as it changes so that reading it
    /// costs the same at 20,000 days as at 10 (`FocusRoom.stats`).
    ///
    /// - `focus_total`: one row, the sums of `focus_day` and how many of its days have trees.
    /// - `focus_run`: every run of consecutive days with trees, as day numbers (1970-01-01 is 0); the
    ///   longest is one index read, the current one the run holding today or yesterday.
    ///
    /// Triggers on `focus_day` keep both, whichever way it changes (a session, an import's rebuild,
    /// a pull, the `sqlite3` shell): a day that gains its first tree joins the runs either side of it,
    /// one that loses its last splits its run in two.
    static let v30FocusRuns = """
        CREATE TABLE focus_total (
            id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
            trees INTEGER NOT NULL CHECK (trees >= 0),
            abandoned INTEGER NOT NULL CHECK (abandoned >= 0),
            focus_ms INTEGER NOT NULL CHECK (focus_ms >= 0),
            tree_days INTEGER NOT NULL CHECK (tree_days >= 0)
        ) STRICT;
        INSERT INTO focus_total (id, trees, abandoned, focus_ms, tree_days)
        SELECT 1, coalesce(sum(trees), 0), coalesce(sum(abandoned), 0), coalesce(sum(focus_ms), 0), count(*) FILTER (WHERE trees > 0)
        FROM focus_day;

        CREATE TABLE focus_run (
            start_day INTEGER PRIMARY KEY NOT NULL,
            end_day INTEGER NOT NULL CHECK (end_day >= start_day)
        ) STRICT;
        CREATE INDEX focus_run_end ON focus_run (end_day);
        CREATE INDEX focus_run_length ON focus_run (end_day - start_day);
        INSERT INTO focus_run (start_day, end_day)
        SELECT min(n), max(n) FROM (
            SELECT n, n - row_number() OVER (ORDER BY n) AS island
            FROM (SELECT CAST(julianday(day) - 2440587.5 AS INTEGER) AS n FROM focus_day WHERE trees > 0)
        ) GROUP BY island;

        CREATE TRIGGER focus_total_insert AFTER INSERT ON focus_day BEGIN
            UPDATE focus_total SET trees = trees + NEW.trees, abandoned = abandoned + NEW.abandoned,
                focus_ms = focus_ms + NEW.focus_ms, tree_days = tree_days + (NEW.trees > 0);
        END;
        CREATE TRIGGER focus_total_update AFTER UPDATE ON focus_day BEGIN
            UPDATE focus_total SET trees = trees + NEW.trees - OLD.trees, abandoned = abandoned + NEW.abandoned - OLD.abandoned,
                focus_ms = focus_ms + NEW.focus_ms - OLD.focus_ms, tree_days = tree_days + (NEW.trees > 0) - (OLD.trees > 0);
        END;
        CREATE TRIGGER focus_total_delete AFTER DELETE ON focus_day BEGIN
            UPDATE focus_total SET trees = trees - OLD.trees, abandoned = abandoned - OLD.abandoned,
                focus_ms = focus_ms - OLD.focus_ms, tree_days = tree_days - (OLD.trees > 0);
        END;

        CREATE TRIGGER focus_run_insert AFTER INSERT ON focus_day WHEN NEW.trees > 0 BEGIN
            \(join("NEW"))
        END;
        CREATE TRIGGER focus_run_gained AFTER UPDATE ON focus_day WHEN NEW.trees > 0 AND (OLD.trees = 0 OR NEW.day <> OLD.day) BEGIN
            \(join("NEW"))
        END;
        CREATE TRIGGER focus_run_lost AFTER UPDATE ON focus_day WHEN OLD.trees > 0 AND (NEW.trees = 0 OR NEW.day <> OLD.day) BEGIN
            \(split("OLD"))
        END;
        CREATE TRIGGER focus_run_delete AFTER DELETE ON focus_day WHEN OLD.trees > 0 BEGIN
            \(split("OLD"))
        END;
        """

    /// The day number of `row`'s day.
    private static func number(_ row: String) -> String { "CAST(julianday(\(row).day) - 2440587.5 AS INTEGER)" }

    /// The day of `row` gained its first tree: the run ending the day before reaches to the end of the
    /// run starting the day after (or to the day), else the day starts a run that does; the run that
    /// started the day after is then part of it.
    private static func join(_ row: String) -> String {
        let n = number(row)
        let right = "coalesce((SELECT end_day FROM focus_run WHERE start_day = \(n) + 1), \(n))"
        return """
            UPDATE focus_run SET end_day = \(right) WHERE end_day = \(n) - 1;
            INSERT INTO focus_run (start_day, end_day) SELECT \(n), \(right)
                WHERE NOT EXISTS (SELECT 1 FROM focus_run WHERE end_day >= \(n)
                    AND start_day = (SELECT max(start_day) FROM focus_run WHERE start_day <= \(n)));
            DELETE FROM focus_run WHERE start_day = \(n) + 1;
            """
    }

    /// The day of `row` lost its last tree: its run keeps the days before it, and the days after it
    /// become a run of their own.
    private static func split(_ row: String) -> String {
        let n = number(row)
        return """
            INSERT INTO focus_run (start_day, end_day)
                SELECT \(n) + 1, end_day FROM focus_run
                WHERE start_day = (SELECT max(start_day) FROM focus_run WHERE start_day <= \(n)) AND end_day > \(n);
            DELETE FROM focus_run WHERE start_day = \(n);
            UPDATE focus_run SET end_day = \(n) - 1
                WHERE start_day = (SELECT max(start_day) FROM focus_run WHERE start_day < \(n)) AND end_day >= \(n);
            """
    }
}
