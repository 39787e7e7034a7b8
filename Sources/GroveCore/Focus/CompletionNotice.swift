import Foundation

/// The notice of a completed focus session, in seed 002's words, and where clicking it leads (the
/// forest, where the new tree stands). Every face that announces a tree uses these; `focus.js` (the web app) repeats
/// them and `CompletionNoticeTests` holds it to them.
public enum CompletionNotice {
    public static let title = "Tree planted!"
    public static let body = "Great focus session!"
    /// The web page a click on the notice opens.
    public static let link = "/forest"
}

/// The notice at the end of the break after a tree, in every face (`focus.js` repeats it).
public enum BreakNotice {
    public static let title = "Break over"
    public static let body = "Ready for the next tree?"
    /// The web page a click on the notice opens.
    public static let link = "/focus"
}
