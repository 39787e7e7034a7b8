import GroveCore

/// This build: Grove's version and the commit it was built from (`BuildInfo`, written by the
/// `BuildInfoPlugin` before each build). A target of its own so that a new commit rebuilds only it
/// and the command line that prints it.
public enum Build {
    /// The commit (`BuildInfo.commit`).
    public static let commit = BuildInfo.commit
    /// `grove 0.9.0 (commit 1a2b3c4d5e6f)`: what `grove --version` prints.
    public static let versionLine = "grove \(GroveVersion.number) (commit \(commit))"
}
