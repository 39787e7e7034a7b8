import Foundation
import GroveCore
import GroveRemote
import GroveStore
import GroveSystem

/// What `grove serve` says when something falls due — a timer done, a tree planted, a break over, an
/// intention reminder — and where: the live stream open pages hear, this machine's desktop
/// (`notify-send`), and every browser subscribed to Web Push (a phone with its page closed).
///
/// A tree and a break are each announced once by whoever claims them first (`TimerAlarmService`);
/// the server claims them only when it can ring (`rings`), else an open page does.
struct ServerNotices: Sendable {
    let monitor: ChangeMonitor
    let notifier: DesktopNotifier
    let push: WebPushService
    /// Gives the desktop's notifications back before the tree's notice (the session is over).
    let hold: NotificationHold?
    let onReminder: (@Sendable (ReminderKind) -> Void)?

    /// Whether the server rings for a tree or a break itself: a desktop to notify, or a browser subscribed.
    func rings(_ database: AppDatabase) throws -> Bool {
        try notifier.isAvailable || database.hasPushSubscriptions()
    }

    func timerDone(_ run: TimerRunStatus) {
        monitor.broadcast(.timerDone(timerId: run.timerId, name: run.name))
        let body = "Your timer reached \(ClockText.format(run.duration, padHours: false))."
        notifier.send(title: "\(run.name) is done", body: body)
        push.send(PushNotice(title: "\(run.name) is done", body: body, link: "/timers", tag: "timer-\(run.timerId.uuidString)"))
    }

    func treePlanted(_ session: FocusSession) {
        push.send(
            PushNotice(
                title: CompletionNotice.title, body: CompletionNotice.body, link: CompletionNotice.link,
                tag: "focus-\(session.id.uuidString)"))
        guard notifier.isAvailable else { return }
        // The desktop's notifications come back first, so that this one is not silenced (the CLI's
        // waiter orders it so too); the maintenance loop holds again if another session is running.
        // The daemons' commands block: on a thread of their own, never the concurrency pool's.
        let (hold, notifier) = (hold, notifier)
        DispatchQueue.global().async {
            hold?.release()
            notifier.send(title: CompletionNotice.title, body: CompletionNotice.body)
        }
    }

    func breakOver(_ pause: FocusBreak) {
        push.send(PushNotice(title: BreakNotice.title, body: BreakNotice.body, link: BreakNotice.link, tag: "break"))
        notifier.send(title: BreakNotice.title, body: BreakNotice.body)
    }

    func reminder(_ kind: ReminderKind) {
        monitor.broadcast(.reminder(kind: kind, prompt: kind.prompt))
        notifier.send(title: "Grove", body: kind.prompt)
        // The weekly reminder is also the moment to look back: it opens last week's review.
        let link = kind == .weekly ? "/review?week=last" : "/intentions"
        let body = kind == .weekly ? "\(kind.prompt) Your week in review is ready." : kind.prompt
        push.send(PushNotice(title: "Grove", body: body, link: link, tag: "reminder-\(kind.rawValue)"))
        onReminder?(kind)
    }
}
