import Foundation

/// The notice of a completed focus session, in seed 002's words, and where clicking it leads (the
/// forest, where the new tree stands). Every face that announces a tree uses these; `focus.js` (the web app) repeats
/// them and `CompletionNoticeTests` holds it to them.
public enum CompletionNotice {
    public static let title = "Tree planted!"
    public static let body = "Great focus session!"
    /// The web page a click on the notice opens.
    public static let link = "/forest"

    /// What every face says of an open-ended session stopped before a tree's cost (`FocusSession.stop`):
    /// "Stopped after 00:12: a tree costs a minute of focus, so none was planted" (each face ends it).
    public static func stoppedShort(after focus: TimeInterval) -> String {
        "Stopped after \(ClockText.format(focus)): a tree costs a minute of focus, so none was planted"
    }
}

/// The notice at the end of the break after a tree, in every face (`focus.js` repeats it).
public enum BreakNotice {
    public static let title = "Break over"
    public static let body = "Ready for the next tree?"
    /// The web page a click on the notice opens.
    public static let link = "/focus"
}
